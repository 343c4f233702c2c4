/* The routes of games between people (people_api.h). */
#include "server/people/people_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/json_out.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/people.h"
#include "server/games/people_json.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/server_state.h"

#define CHALLENGE_TTL_MS (7 * PEOPLE_DAY_MS) /* an invite link stays open a week */
#define SEEK_TTL_MS (15 * 60 * 1000LL)       /* a seek in the lobby a quarter of an hour */

static int64_t ttl(int64_t configured, int64_t fallback)
{
    return configured > 0 ? configured : fallback;
}

/* ---- tokens and names ---- */

static void count_one(void *ctx, const struct store_game *row)
{
    (void)row;
    (*(int *)ctx)++;
}

/* The visitor's token: the one they sent when the server knows it (a name or games
 * under it), else a new one.  0, or 500 with r set. */
int people_visitor_token(struct server *srv, const struct api_request *req, char *token, char *hash,
                         char *known_name, size_t name_size, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    const char *old = api_bearer(req);
    known_name[0] = 0;
    token[0] = 0;
    if (old && token_well_formed(old)) {
        token_hash(old, hash);
        int count = 0;
        int rc = store_get_player(srv->store, hash, known_name, name_size, err, sizeof err);
        bool known = rc == 0;
        if (rc == 1) { /* no name: a visitor who played a game is known too */
            rc = store_list_games(srv->store, hash, 1, count_one, &count, err, sizeof err);
            known = rc == 0 && count > 0;
        }
        if (rc < 0) { /* not a new visitor: whether the token is known is not known */
            api_store_error(r, rc, "%s", err);
            return rc == STORE_BUSY ? 503 : 500;
        }
        if (known)
            snprintf(token, TOKEN_HEX_LEN + 1, "%s", old);
    }
    if (!token[0]) {
        if (token_random_hex(token, TOKEN_HEX_LEN / 2) != 0) {
            api_set_error(r, 500, "no randomness from the kernel");
            return 500;
        }
        known_name[0] = 0;
    }
    token_hash(token, hash);
    return 0;
}

/* A display name from the body's "name": 1 to 40 bytes, no control characters, spaces
 * trimmed.  0 (out filled, or left as it was when absent and `optional`), or 400. */
int people_body_name(json_t *body, char *out, size_t size, bool optional, struct api_response *r)
{
    json_t *jn = json_object_get(body, "name");
    if (!jn && optional && out[0])
        return 0;
    const char *n = json_is_string(jn) ? json_string_value(jn) : NULL;
    size_t len = n ? json_string_length(jn) : 0;
    while (n && len && *n == ' ')
        n++, len--;
    while (n && len && n[len - 1] == ' ')
        len--;
    bool bad = !n || !len || len >= size || strlen(n) < len;
    /* Control characters: C0, DEL and C1 (U+0080..U+009F, UTF-8 C2 80..C2 9F). */
    for (size_t i = 0; !bad && i < len; i++) {
        unsigned char ch = (unsigned char)n[i], next = i + 1 < len ? (unsigned char)n[i + 1] : 0;
        if (ch < 0x20 || ch == 0x7f || (ch == 0xc2 && next >= 0x80 && next <= 0x9f))
            bad = true;
    }
    if (bad) {
        api_set_error(r, 400, "bad \"name\": expected a display name of 1 to %zu bytes", size - 1);
        return 400;
    }
    memcpy(out, n, len);
    out[len] = 0;
    return 0;
}

/* ---- club membership ---- */

struct find_member {
    const char *hash;
    struct store_member *out;
    bool found;
};

static void find_one(void *ctx, const struct store_member *m)
{
    struct find_member *f = ctx;
    if (!f->found && token_equal(m->token_hash, f->hash)) {
        f->found = true;
        if (f->out)
            *f->out = *m;
    }
}

int people_club_member(struct server *srv, const char *club_id, const char *token_hash,
                       struct store_member *out)
{
    char err[ERROR_TEXT_MAX];
    struct find_member f = {token_hash, out, false};
    int rc = store_list_members(srv->store, club_id, find_one, &f, err, sizeof err);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    return f.found ? 0 : 1;
}

/* ---- challenges and seeks ---- */

static const char *challenge_class(const struct store_challenge *c)
{
    return people_clock_class(c->clock_initial_ms, c->clock_increment_ms, c->days);
}

static bool well_formed_id(const char *id)
{
    return strlen(id) == STORE_ID_LEN && strspn(id, "0123456789abcdef") == STORE_ID_LEN;
}

/* The challenge's fields from a body (API.md "People"); 0, or 400 with r set. */
static int challenge_fields(json_t *body, struct store_challenge *c, struct api_response *r)
{
    json_t *jg = json_object_get(body, "game"), *jc = json_object_get(body, "clock");
    json_t *jd = json_object_get(body, "days"), *js = json_object_get(body, "side");
    json_t *jr = json_object_get(body, "rated");
    const struct game *g = json_is_string(jg) ? game_find(json_string_value(jg)) : NULL;
    if (!g) {
        api_set_error(r, 400, "%s \"game\": expected a game of GET /api/catalog",
                      jg ? "unknown" : "missing");
        return 400;
    }
    snprintf(c->game, sizeof c->game, "%s", g->name);
    if (jc && !json_is_null(jc)) {
        json_t *ji = json_object_get(jc, "initial"), *jn = json_object_get(jc, "increment");
        long long ini = json_is_integer(ji) ? json_integer_value(ji) : -1;
        long long inc = jn ? (json_is_integer(jn) ? json_integer_value(jn) : -1) : 0;
        if (!json_is_object(jc) || ini < 0 || ini > 10800 || inc < 0 || inc > 180 ||
            ini + inc == 0) {
            api_set_error(r, 400,
                          "bad \"clock\": expected {\"initial\": 0..10800, \"increment\": "
                          "0..180} seconds, not both 0, or null");
            return 400;
        }
        c->clock_initial_ms = ini * 1000;
        c->clock_increment_ms = inc * 1000;
    }
    if (jd && !json_is_null(jd)) {
        long long d = json_is_integer(jd) ? json_integer_value(jd) : -1;
        if ((d != 1 && d != 3 && d != 7) || c->clock_initial_ms || c->clock_increment_ms) {
            api_set_error(r, 400,
                          "bad \"days\": expected 1, 3 or 7 days a move, or null (and then "
                          "no \"clock\")");
            return 400;
        }
        c->days = (int)d;
    }
    const char *side = js ? (json_is_string(js) ? json_string_value(js) : "") : "random";
    c->side = !strcmp(side, "white")    ? SIDE_WHITE
              : !strcmp(side, "black")  ? SIDE_BLACK
              : !strcmp(side, "random") ? 2
                                        : -1;
    if (c->side < 0) {
        api_set_error(r, 400, "bad \"side\": expected \"white\", \"black\" or \"random\"");
        return 400;
    }
    if (jr && !json_is_boolean(jr)) {
        api_set_error(r, 400, "bad \"rated\": expected true or false");
        return 400;
    }
    c->rated = json_is_true(jr);
    if (c->rated && !people_clock_class(c->clock_initial_ms, c->clock_increment_ms, c->days)) {
        api_set_error(r, 400, "a rated game needs a \"clock\" or \"days\"");
        return 400;
    }
    return 0;
}

void people_create_challenge(struct server *srv, const struct api_request *req, bool lobby,
                             const char *club_id, struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    struct store_challenge c;
    memset(&c, 0, sizeof c);
    char token[TOKEN_HEX_LEN + 1], err[ERROR_TEXT_MAX];
    int bad = challenge_fields(body, &c, r);
    if (!bad && people_visitor_token(srv, req, token, c.creator_hash, c.creator_name,
                                     sizeof c.creator_name, r) != 0)
        bad = 1;
    if (!bad)
        bad = people_body_name(body, c.creator_name, sizeof c.creator_name, true, r);
    json_decref(body);
    if (bad)
        return;
    int64_t now = server_now_ms();
    if (token_random_hex(c.id, STORE_ID_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    c.lobby = lobby;
    c.status = CHALLENGE_OPEN;
    snprintf(c.club_id, sizeof c.club_id, "%s", club_id ? club_id : "");
    if (c.rated)
        c.creator_rating = people_rating_of(srv, c.creator_hash, c.game, challenge_class(&c));
    c.created_ms = now;
    c.expires_ms = now + (lobby ? ttl(srv->cfg.seek_ms, SEEK_TTL_MS)
                                : ttl(srv->cfg.challenge_ms, CHALLENGE_TTL_MS));
    int rc = store_put_player(srv->store, c.creator_hash, c.creator_name, now, err, sizeof err);
    if (rc == 0)
        rc = store_put_challenge(srv->store, &c, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    struct jout j;
    jout_init(&j, 512);
    jout_open(&j, '{');
    jout_kstr(&j, "id", c.id);
    char url[80];
    snprintf(url, sizeof url, "/#/challenge/%s", c.id);
    jout_kstr(&j, "url", url);
    jout_kstr(&j, "token", token);
    jout_kstr(&j, "status", "open");
    jout_kint(&j, "expires", c.expires_ms);
    jout_close(&j, '}');
    api_set_text(r, 201, jout_finish(&j));
}

static int load_challenge(struct server *srv, const char *id, struct store_challenge *c,
                          struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int rc = well_formed_id(id) ? store_get_challenge(srv->store, id, c, err, sizeof err) : 1;
    if (rc == 1)
        api_set_error(r, 404, "no challenge '%.40s'", id);
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    return rc;
}

static void handle_get_challenge(struct server *srv, const char *id, struct api_response *r)
{
    struct store_challenge c;
    if (load_challenge(srv, id, &c, r) != 0)
        return;
    struct jout j;
    jout_init(&j, 512);
    challenge_out(&j, &c, server_now_ms());
    api_set_text(r, 200, jout_finish(&j));
}

/* The challenge changed in the store (accepted, withdrawn): its event streams are told
 * through the stream hub, as a game's news is (session.c), and read the store again. */
static void challenge_news(struct server *srv, const char *id)
{
    char key[sizeof((struct hub_watch *)0)->id];
    stream_hub_challenge_key(id, key, sizeof key);
    stream_hub_news(srv->hub, key);
}

/* GET /api/challenges/{id}/events: 404 for an unknown challenge, else its stream
 * (http_challenge_streams.c), which reads the challenge from the store itself. */
static void handle_challenge_events(struct server *srv, const char *id, struct api_response *r)
{
    struct store_challenge c;
    if (load_challenge(srv, id, &c, r) != 0)
        return;
    r->kind = API_CHALLENGE_STREAM;
    r->status = 200;
    snprintf(r->challenge, sizeof r->challenge, "%s", c.id);
}

/* Why a challenge cannot be taken (409), from its row as it is now. */
static void refuse_accept(const struct store_challenge *c, const char *hash, int64_t now,
                          struct api_response *r)
{
    if (token_equal(hash, c->creator_hash))
        api_set_error(r, 409, "this is your own challenge: send its link to someone else");
    else if (c->status == CHALLENGE_ACCEPTED)
        api_set_error(r, 409, "the challenge was accepted already");
    else if (c->status == CHALLENGE_CANCELLED)
        api_set_error(r, 409, "the challenge was withdrawn");
    else if (c->expires_ms <= now)
        api_set_error(r, 409, "the challenge has expired");
    else
        api_set_error(r, 409, "the challenge was taken by someone else");
}

/* The game a challenge starts, for its creator and the acceptor. */
int people_game_row(struct server *srv, const struct store_challenge *c, const char *acceptor_hash,
                    const char *acceptor_name, int64_t now, struct store_game *g)
{
    memset(g, 0, sizeof *g);
    uint64_t bits;
    if (token_random_hex(g->id, STORE_ID_LEN / 2) != 0 || token_random_u64(&bits) != 0)
        return -1;
    int creator = c->side == 2 ? (int)(bits & 1) : c->side;
    snprintf(g->game, sizeof g->game, "%s", c->game);
    g->human_side = creator;
    snprintf(g->token_hash, sizeof g->token_hash, "%s", c->creator_hash);
    snprintf(creator == SIDE_WHITE ? g->white_hash : g->black_hash, sizeof g->white_hash, "%s",
             c->creator_hash);
    snprintf(creator == SIDE_WHITE ? g->black_hash : g->white_hash, sizeof g->white_hash, "%s",
             acceptor_hash);
    snprintf(creator == SIDE_WHITE ? g->white_name : g->black_name, sizeof g->white_name, "%s",
             c->creator_name);
    snprintf(creator == SIDE_WHITE ? g->black_name : g->white_name, sizeof g->white_name, "%s",
             acceptor_name);
    g->people = 1;
    g->clock_initial_ms = c->clock_initial_ms;
    g->clock_increment_ms = c->clock_increment_ms;
    g->days = c->days;
    g->rated = c->rated;
    g->created_ms = g->updated_ms = now;
    snprintf(g->club_id, sizeof g->club_id, "%s", c->club_id);
    if (g->rated) {
        const char *klass = challenge_class(c);
        g->white_rating = people_rating_of(srv, g->white_hash, g->game, klass);
        g->black_rating = people_rating_of(srv, g->black_hash, g->game, klass);
    }
    return 0;
}

/* Answer with the new game's state as `hash`'s side sees it, with `token`. */
static void reply_new_game(struct server *srv, const char *game_id, const char *hash,
                           const char *token, int status, struct api_response *r)
{
    struct session *s;
    char err[ERROR_TEXT_MAX];
    int code = cache_get(srv, game_id, &s, err, sizeof err);
    if (code) {
        api_set_error(r, code, "%s", err);
        return;
    }
    pthread_mutex_lock(&s->mu);
    api_set_text(r, status, state_text_as(s, people_side(s, hash), token, NULL));
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
}

static void handle_accept(struct server *srv, const struct api_request *req, const char *id,
                          struct api_response *r)
{
    struct store_challenge c;
    if (load_challenge(srv, id, &c, r) != 0)
        return;
    json_t *body = api_body_object(req, true, r);
    if (!body)
        return;
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX];
    int bad = people_visitor_token(srv, req, token, hash, name, sizeof name, r);
    if (!bad)
        bad = people_body_name(body, name, sizeof name, true, r);
    json_decref(body);
    if (bad)
        return;
    int64_t now = server_now_ms();
    int member = c.club_id[0] ? people_club_member(srv, c.club_id, hash, NULL) : 0;
    if (member < 0) {
        api_store_error(r, member, "the club's members could not be read");
        return;
    }
    if (member > 0) {
        api_set_error(r, 403, "this challenge is for the club's members: join the club first");
        return;
    }
    if (c.status != CHALLENGE_OPEN || c.expires_ms <= now || token_equal(hash, c.creator_hash)) {
        refuse_accept(&c, hash, now, r);
        return;
    }
    struct store_game g;
    if (people_game_row(srv, &c, hash, name, now, &g) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    int rc = store_put_player(srv->store, hash, name, now, err, sizeof err);
    if (rc == 0)
        rc = store_accept_challenge(srv->store, c.id, hash, &g, now, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) { /* another accept came first: say why from the row as it is now */
        if (load_challenge(srv, id, &c, r) == 0)
            refuse_accept(&c, hash, now, r);
        return;
    }
    challenge_news(srv, c.id);
    reply_new_game(srv, g.id, hash, token, 200, r);
}

static void handle_cancel(struct server *srv, const struct api_request *req, const char *id,
                          struct api_response *r)
{
    struct store_challenge c;
    if (load_challenge(srv, id, &c, r) != 0)
        return;
    const char *tok = api_bearer(req);
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (!tok || !token_well_formed(tok) ||
        (token_hash(tok, hash), !token_equal(hash, c.creator_hash))) {
        api_set_error(r, 403, "only the challenge's creator may withdraw it");
        return;
    }
    int rc = store_cancel_challenge(srv->store, id, hash, server_now_ms(), err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error(r, 409, "the challenge is not open");
        return;
    }
    challenge_news(srv, id);
    handle_get_challenge(srv, id, r);
}

static void seek_one(void *ctx, const struct store_challenge *c)
{
    challenge_out(ctx, c, server_now_ms());
}

static void handle_list_seeks(struct server *srv, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "seeks");
    jout_open(&j, '[');
    int rc = store_list_seeks(srv->store, server_now_ms(), 200, seek_one, &j, err, sizeof err);
    if (rc != 0) {
        free(jout_finish(&j));
        api_store_error(r, rc, "%s", err);
        return;
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

static void handle_me(struct server *srv, const struct api_request *req, struct api_response *r)
{
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX];
    if (!strcmp(req->method, "GET") || !strcmp(req->method, "HEAD")) {
        const char *tok = api_bearer(req);
        if (!tok || !token_well_formed(tok)) {
            api_set_error(r, 403, "missing or malformed token");
            return;
        }
        token_hash(tok, hash);
        int rc = store_get_player(srv->store, hash, name, sizeof name, err, sizeof err);
        if (rc > 0) {
            api_set_error(r, 404, "no name chosen yet");
            return;
        }
        if (rc != 0) {
            api_store_error(r, rc, "%s", err);
            return;
        }
    } else if (!strcmp(req->method, "POST")) {
        json_t *body = api_body_object(req, false, r);
        if (!body)
            return;
        int bad = people_visitor_token(srv, req, token, hash, name, sizeof name, r);
        if (!bad)
            bad = people_body_name(body, name, sizeof name, false, r);
        json_decref(body);
        if (bad)
            return;
        int rc = store_put_player(srv->store, hash, name, server_now_ms(), err, sizeof err);
        if (rc != 0) {
            api_store_error(r, rc, "%s", err);
            return;
        }
    } else {
        api_set_error(r, 405, "use GET or POST here");
        return;
    }
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "name", name);
    if (!strcmp(req->method, "POST"))
        jout_kstr(&j, "token", token);
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

bool people_route(struct server *srv, const struct api_request *req, const char *path,
                  struct api_response *r)
{
    bool seeks = !strncmp(path, "/api/seeks", 10) && (path[10] == 0 || path[10] == '/');
    bool chal = !strncmp(path, "/api/challenges", 15) && (path[15] == 0 || path[15] == '/');
    bool post = !strcmp(req->method, "POST");
    bool get = !strcmp(req->method, "GET") || !strcmp(req->method, "HEAD");
    if (!strcmp(path, "/api/me")) {
        handle_me(srv, req, r);
        return true;
    }
    if (!seeks && !chal)
        return false;
    const char *rest = path + (seeks ? 10 : 15);
    if (!*rest) {
        if (post)
            people_create_challenge(srv, req, seeks, NULL, r);
        else if (seeks && get)
            handle_list_seeks(srv, r);
        else
            api_set_error(r, 405, seeks ? "use GET or POST here" : "use POST here");
        return true;
    }
    char id[64];
    const char *slash = strchr(rest + 1, '/');
    size_t n = slash ? (size_t)(slash - rest - 1) : strlen(rest + 1);
    if (n >= sizeof id) {
        api_set_error(r, 404, "no challenge");
        return true;
    }
    memcpy(id, rest + 1, n);
    id[n] = 0;
    const char *op = slash ? slash + 1 : "";
    if (!*op || !strcmp(op, "events")) {
        if (!get)
            api_set_error(r, 405, "use GET here");
        else if (*op)
            handle_challenge_events(srv, id, r);
        else
            handle_get_challenge(srv, id, r);
    } else if (!strcmp(op, "accept") || !strcmp(op, "cancel")) {
        if (!post)
            api_set_error(r, 405, "use POST here");
        else if (op[0] == 'a')
            handle_accept(srv, req, id, r);
        else
            handle_cancel(srv, req, id, r);
    } else {
        api_set_error(r, 404, "no such operation '%.40s' (accept, cancel, events)", op);
    }
    return true;
}
