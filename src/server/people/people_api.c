/* The routes of games between people (people_api.h). */
#include "server/people/people_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/news.h"
#include "server/common/notify.h"
#include "server/common/ratelimit.h"
#include "server/common/seek_caps.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/outbox.h"
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

/* The visitor's token: the one they sent when the server knows it (store_token_known:
 * one player for everything), else a new one.  0, or 500 with r set. */
int people_visitor_token(struct server *srv, const struct api_request *req, char *token, char *hash,
                         char *known_name, size_t name_size, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    const char *old = api_bearer(req);
    known_name[0] = 0;
    token[0] = 0;
    if (old && token_well_formed(old)) {
        api_bearer_hash(srv, req, hash); /* a device's token: its player's hash */
        int known = 0;
        int rc = store_get_player(srv->store, hash, known_name, name_size, err, sizeof err);
        if (rc == 1) /* no name: a player known otherwise (games, puzzles, progress...) */
            rc = store_token_known(srv->store, hash, &known, err, sizeof err);
        else if (rc == 0)
            known = 1;
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
        token_hash(token, hash);
    }
    return 0;
}

/* A display name from the body's "name": 1 to 40 characters of UTF-8, no control
 * characters, spaces trimmed.  0 (out filled, or left as it was when absent and
 * `optional`), or 400. */
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
    bool bad = !n || !len || len >= size || strlen(n) < len || !utf8_valid(n, len) ||
               utf8_chars(n, len) > STORE_PLAYER_NAME_CHARS;
    /* Control characters: C0, DEL and C1 (U+0080..U+009F, UTF-8 C2 80..C2 9F). */
    for (size_t i = 0; !bad && i < len; i++) {
        unsigned char ch = (unsigned char)n[i], next = i + 1 < len ? (unsigned char)n[i + 1] : 0;
        if (ch < 0x20 || ch == 0x7f || (ch == 0xc2 && next >= 0x80 && next <= 0x9f))
            bad = true;
    }
    if (bad) {
        api_set_error_code(r, 400, "bad_name",
                           "bad \"name\": expected a display name of 1 to %d characters",
                           STORE_PLAYER_NAME_CHARS);
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
        /* The clock as it is played (0+N starts with a floor): its class is its own. */
        c->clock_initial_ms = people_clock_initial_ms(ini * 1000, inc * 1000);
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

/* A challenge, a seek or an accept of `hash`'s from the request's address: within the
 * limits a minute (API.md "Limits of games between people")?  0, or 429 with r set. */
static int people_limit(struct server *srv, const struct api_request *req, const char *hash,
                        struct api_response *r)
{
    int rc = ratelimit_take_pair(srv->people_by_addr, req->client, srv->people_by_token, hash,
                                 server_now_ms());
    if (rc)
        api_set_error_code(r, 429, "too_many_challenges",
                           "too many challenges, seeks and accepts from this %s: at most %d a "
                           "minute; wait a minute",
                           rc == 1 ? "address" : "player",
                           rc == 1 ? 3 * srv->cfg.people_per_minute : srv->cfg.people_per_minute);
    return rc ? 429 : 0;
}

static int seek_refused(struct api_response *r, int full, int cap)
{
    api_set_error_code(r, 429, "too_many_seeks",
                       "%s %d open seeks in the lobby already: wait for one to be taken, or "
                       "withdraw one",
                       full == 0 ? "you have" : "this address has", cap);
    return 429;
}

/* The lobby's caps of open seeks, per token and per address: a place for the new seek
 * c is taken (seek_caps.h), after the seeks remembered that are no longer open are
 * forgotten.  0, or 429 with r set. */
static int seek_place(struct server *srv, const struct api_request *req,
                      const struct store_challenge *c, int64_t now, struct api_response *r)
{
    char by_token[80], by_addr[80], err[ERROR_TEXT_MAX];
    snprintf(by_token, sizeof by_token, "t:%s", c->creator_hash);
    snprintf(by_addr, sizeof by_addr, "a:%s", req->client ? req->client : "");
    const char *keys[2] = {by_token, by_addr};
    int caps[2] = {srv->cfg.seeks_per_token, req->client ? srv->cfg.seeks_per_address : 0};
    int full = -1;
    if (srv->limits_shared) { /* the places every server counts (store_ops.def) */
        int rc = store_seek_place(srv->store, keys, caps, 2, c->id, c->expires_ms, now, &full, err,
                                  sizeof err);
        if (rc != 0) {
            api_store_error(r, rc, "%s", err);
            return rc == STORE_BUSY ? 503 : 500;
        }
        if (full < 0)
            return 0;
        return seek_refused(r, full, caps[full]);
    }
    for (int k = 0; k < 2; k++) {
        char ids[SEEK_CAPS_MAX][SEEK_CAPS_ID];
        int n = caps[k] > 0 ? seek_caps_list(srv->seek_caps, keys[k], now, ids) : 0;
        for (int i = 0; i < n; i++) {
            struct store_challenge o;
            int rc = store_get_challenge(srv->store, ids[i], &o, err, sizeof err);
            if (rc > 0 || (rc == 0 && (o.status != CHALLENGE_OPEN || o.expires_ms <= now)))
                seek_caps_forget(srv->seek_caps, keys[k], ids[i]);
        }
    }
    if (seek_caps_take(srv->seek_caps, 2, keys, caps, c->id, c->expires_ms, now, &full))
        return 0;
    return seek_refused(r, full, caps[full]);
}

static void seek_unplace(struct server *srv, const struct api_request *req,
                         const struct store_challenge *c)
{
    char key[80];
    if (srv->limits_shared) {
        char by_token[80], by_addr[80], err[ERROR_TEXT_MAX];
        snprintf(by_token, sizeof by_token, "t:%s", c->creator_hash);
        snprintf(by_addr, sizeof by_addr, "a:%s", req->client ? req->client : "");
        const char *keys[2] = {by_token, by_addr};
        if (store_seek_unplace(srv->store, keys, 2, c->id, err, sizeof err) != 0)
            fprintf(stderr, "agora: seek %s's places not given back: %s\n", c->id, err);
        return;
    }
    snprintf(key, sizeof key, "t:%s", c->creator_hash);
    seek_caps_forget(srv->seek_caps, key, c->id);
    snprintf(key, sizeof key, "a:%s", req->client ? req->client : "");
    seek_caps_forget(srv->seek_caps, key, c->id);
}

/* Tell a player of a challenge: made to them, theirs accepted (with the game's id),
 * in a club of theirs (with the club's id).  Logged when it fails: the challenge is
 * made or taken already. */
static void notify_challenge(struct server *srv, const char *hash, const char *kind,
                             const struct store_challenge *c, const char *game_id, const char *name,
                             const char *club_id)
{
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "challenge", c->id);
    jout_kstr(&j, "game", c->game);
    jout_kstr(&j, "name", name);
    if (game_id)
        jout_kstr(&j, "game_id", game_id);
    if (club_id)
        jout_kstr(&j, "club", club_id);
    jout_close(&j, '}');
    char *body = jout_finish(&j), err[ERROR_TEXT_MAX];
    if (body && notify_player(srv, hash, kind, body, err, sizeof err) != 0)
        fprintf(stderr, "agora: notification of challenge %s: %s\n", c->id, err);
    free(body);
}

/* The club's members, read first and told after: a notification is a write, which
 * may not wait inside the members' read. */
struct club_notice {
    int n;
    char hash[64][STORE_HASH_LEN + 1];
};

static void member_hash(void *ctx, const struct store_member *m)
{
    struct club_notice *n = ctx;
    if (n->n < (int)(sizeof n->hash / sizeof n->hash[0]))
        snprintf(n->hash[n->n++], sizeof n->hash[0], "%s", m->token_hash);
}

static void notify_members(struct server *srv, const struct store_challenge *c)
{
    struct club_notice *n = calloc(1, sizeof *n);
    char err[ERROR_TEXT_MAX];
    int rc = n ? store_list_members(srv->store, c->club_id, member_hash, n, err, sizeof err) : -1;
    if (rc != 0)
        fprintf(stderr, "agora: notification of challenge %s: %s\n", c->id,
                n ? err : "out of memory");
    for (int i = 0; rc == 0 && i < n->n; i++)
        if (!token_equal(n->hash[i], c->creator_hash))
            notify_challenge(srv, n->hash[i], NOTICE_CLUB_CHALLENGE, c, NULL, c->creator_name,
                             c->club_id);
    free(n);
}

/* The body's "to": a player's public id (the challenge is made to them: they are told
 * of it), absent or null for none.  0 (hash filled, or "" for none), or 400/404 with r
 * set. */
static int challenge_to(struct server *srv, json_t *body, char *hash, struct api_response *r)
{
    json_t *jt = json_object_get(body, "to");
    hash[0] = 0;
    if (!jt || json_is_null(jt))
        return 0;
    const char *id = json_is_string(jt) ? json_string_value(jt) : "";
    if (strlen(id) != STORE_PLAYER_ID_LEN ||
        strspn(id, "0123456789abcdef") != STORE_PLAYER_ID_LEN) {
        api_set_error(r, 400, "bad \"to\": expected a player's id (16 hex digits) or null");
        return 400;
    }
    struct store_player p;
    char err[ERROR_TEXT_MAX];
    int rc = store_player_by_id(srv->store, id, &p, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return 500;
    }
    if (rc > 0 || p.hidden) {
        api_set_error_code(r, 404, "no_player", "no player %s", id);
        return 404;
    }
    snprintf(hash, STORE_HASH_LEN + 1, "%s", p.token_hash);
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
    char token[TOKEN_HEX_LEN + 1], err[ERROR_TEXT_MAX], to[STORE_HASH_LEN + 1] = "";
    int bad = challenge_fields(body, &c, r);
    if (!bad && !lobby)
        bad = challenge_to(srv, body, to, r);
    if (!bad && people_visitor_token(srv, req, token, c.creator_hash, c.creator_name,
                                     sizeof c.creator_name, r) != 0)
        bad = 1;
    if (!bad)
        bad = people_body_name(body, c.creator_name, sizeof c.creator_name, true, r);
    json_decref(body);
    if (bad || people_limit(srv, req, c.creator_hash, r) != 0)
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
    bool seek = lobby && !c.club_id[0]; /* in the public lobby */
    if (seek && seek_place(srv, req, &c, now, r) != 0)
        return;
    int rc = store_put_player(srv->store, c.creator_hash, c.creator_name, now, err, sizeof err);
    if (rc == 0)
        rc = store_put_challenge(srv->store, &c, err, sizeof err);
    if (rc != 0) {
        if (seek)
            seek_unplace(srv, req, &c);
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (to[0] && !token_equal(to, c.creator_hash))
        notify_challenge(srv, to, NOTICE_CHALLENGE, &c, NULL, c.creator_name, NULL);
    if (c.club_id[0])
        notify_members(srv, &c);
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
        api_set_error_code(r, 404, "no_such_challenge", "no challenge '%.40s'", id);
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
    news_everywhere(srv, HUB_KIND_CHALLENGE, id); /* here and on the other servers */
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
        api_set_error_code(r, 409, "challenge_own",
                           "this is your own challenge: send its link to someone else");
    else if (c->status == CHALLENGE_ACCEPTED)
        api_set_error_code(r, 409, "challenge_taken", "the challenge was accepted already");
    else if (c->status == CHALLENGE_CANCELLED)
        api_set_error_code(r, 409, "challenge_withdrawn", "the challenge was withdrawn");
    else if (c->expires_ms <= now)
        api_set_error_code(r, 409, "challenge_expired", "the challenge has expired");
    else
        api_set_error_code(r, 409, "challenge_taken", "the challenge was taken by someone else");
}

/* Answer with the new game's state as `hash`'s side sees it, with `token`. */
static void reply_new_game(struct session *s, const char *hash, const char *token, int status,
                           struct api_response *r)
{
    pthread_mutex_lock(&s->mu);
    api_set_text(r, status, state_text_as(s, people_side(s, hash), token, NULL));
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
}

/* Accepting writes the game as the challenge is taken, once (cache_create's step). */
struct taking {
    const char *challenge_id, *acceptor_hash;
    int64_t now;
};
static int take_challenge(struct server *srv, const struct store_game *row, void *ctx, char *err,
                          size_t err_size)
{
    const struct taking *t = ctx;
    outbox_attach(srv, HUB_KIND_CHALLENGE, t->challenge_id); /* in the taking's transaction */
    return store_accept_challenge(srv->store, t->challenge_id, t->acceptor_hash, row, t->now, err,
                                  err_size);
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
    if (bad || people_limit(srv, req, hash, r) != 0)
        return;
    int64_t now = server_now_ms();
    int member = c.club_id[0] ? people_club_member(srv, c.club_id, hash, NULL) : 0;
    if (member < 0) {
        api_store_error(r, member, "the club's members could not be read");
        return;
    }
    if (member > 0) {
        api_set_error_code(r, 403, "club_members_only",
                           "this challenge is for the club's members: join the club first");
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
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    const struct game *kind = game_find(g.game);
    if (!kind) {
        api_set_error(r, 500, "challenge %s is of an unknown game '%s'", c.id, g.game);
        return;
    }
    struct taking take = {.challenge_id = c.id, .acceptor_hash = hash, .now = now};
    struct session *s;
    int code = cache_create(srv, kind, &g, take_challenge, &take, &rc, &s, err, sizeof err);
    if (code > 0) {
        api_set_error(r, code, "%s", err);
        return;
    }
    if (code < 0 && rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (code < 0) { /* another accept came first: say why from the row as it is now */
        if (load_challenge(srv, id, &c, r) == 0)
            refuse_accept(&c, hash, now, r);
        return;
    }
    challenge_news(srv, c.id);
    notify_challenge(srv, c.creator_hash, NOTICE_ACCEPTED, &c, g.id, name, NULL);
    reply_new_game(s, hash, token, 200, r);
}

static void handle_cancel(struct server *srv, const struct api_request *req, const char *id,
                          struct api_response *r)
{
    struct store_challenge c;
    if (load_challenge(srv, id, &c, r) != 0)
        return;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (api_bearer_hash(srv, req, hash) != 0 || !token_equal(hash, c.creator_hash)) {
        api_set_error_code(r, 403, "not_challenge_creator",
                           "only the challenge's creator may withdraw it");
        return;
    }
    outbox_attach(srv, HUB_KIND_CHALLENGE, id);
    int rc = store_cancel_challenge(srv->store, id, hash, server_now_ms(), err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error_code(r, 409, "challenge_not_open", "the challenge is not open");
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

/* {"name"}, with the token for a POST (a new one for an unknown visitor). */
/* The visitor as /api/me answers: their name, public id and whether they hide (and
 * their token when it is new). */
static void reply_me(const struct store_player *p, const char *token, struct api_response *r)
{
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "name", p->name);
    jout_kstr(&j, "id", p->id);
    jout_kbool(&j, "hidden", p->hidden);
    if (token)
        jout_kstr(&j, "token", token);
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

static void handle_get_me(struct server *srv, const struct api_request *req, struct api_response *r)
{
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (api_bearer_hash(srv, req, hash) != 0) {
        api_set_error_code(r, 403, "no_token", "missing or malformed token");
        return;
    }
    struct store_player p;
    int rc = store_player_by_hash(srv->store, hash, &p, err, sizeof err);
    if (rc > 0)
        api_set_error_code(r, 404, "no_name", "no name chosen yet");
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    else
        reply_me(&p, NULL, r);
}

/* A new name, or (with a name known) "hidden": true or false alone. */
static void handle_post_me(struct server *srv, const struct api_request *req,
                           struct api_response *r)
{
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX];
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    json_t *jh = json_object_get(body, "hidden");
    int bad = 0;
    if (jh && !json_is_boolean(jh)) {
        api_set_error(r, 400, "\"hidden\" is true or false");
        bad = 1;
    }
    if (!bad)
        bad = people_visitor_token(srv, req, token, hash, name, sizeof name, r);
    if (!bad)
        bad = people_body_name(body, name, sizeof name, jh != NULL, r);
    int hidden = json_is_true(jh);
    json_decref(body);
    if (bad)
        return;
    int64_t now = server_now_ms();
    int rc = store_put_player(srv->store, hash, name, now, err, sizeof err);
    if (rc == 0 && jh)
        rc = store_set_player_hidden(srv->store, hash, hidden, now, err, sizeof err);
    struct store_player p;
    if (rc == 0)
        rc = store_player_by_hash(srv->store, hash, &p, err, sizeof err);
    if (rc != 0)
        api_store_error(r, rc < 0 ? rc : -1, "%s", rc > 0 ? "the player was not stored" : err);
    else
        reply_me(&p, token, r);
}

void people_challenge_create(struct server *srv, const struct api_request *req,
                             const struct route_args *a, struct api_response *r)
{
    (void)a;
    people_create_challenge(srv, req, false, NULL, r);
}

void people_seek_create(struct server *srv, const struct api_request *req,
                        const struct route_args *a, struct api_response *r)
{
    (void)a;
    people_create_challenge(srv, req, true, NULL, r);
}

void people_seeks_list(struct server *srv, const struct api_request *req,
                       const struct route_args *a, struct api_response *r)
{
    (void)req, (void)a;
    handle_list_seeks(srv, r);
}

void people_challenge_get(struct server *srv, const struct api_request *req,
                          const struct route_args *a, struct api_response *r)
{
    (void)req;
    handle_get_challenge(srv, a->param[0], r);
}

void people_challenge_events(struct server *srv, const struct api_request *req,
                             const struct route_args *a, struct api_response *r)
{
    (void)req;
    handle_challenge_events(srv, a->param[0], r);
}

void people_challenge_accept(struct server *srv, const struct api_request *req,
                             const struct route_args *a, struct api_response *r)
{
    handle_accept(srv, req, a->param[0], r);
}

void people_challenge_cancel(struct server *srv, const struct api_request *req,
                             const struct route_args *a, struct api_response *r)
{
    handle_cancel(srv, req, a->param[0], r);
}

void people_me_get(struct server *srv, const struct api_request *req, const struct route_args *a,
                   struct api_response *r)
{
    (void)a;
    handle_get_me(srv, req, r);
}

void people_me_post(struct server *srv, const struct api_request *req, const struct route_args *a,
                    struct api_response *r)
{
    (void)a;
    handle_post_me(srv, req, r);
}
