/* The routes of tournaments (tournaments_api.h). */
#include "server/tournaments/tournaments_api.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "core/json_out.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/people/people_api.h"
#include "server/server_state.h"
#include "server/tournaments/director.h"
#include "server/tournaments/swiss_play.h"
#include "server/tournaments/tourney_data.h"
#include "server/tournaments/tourney_json.h"

#define DEFAULT_MINUTE_MS 60000
#define ARENA_MINUTES_MAX 720   /* twelve hours */
#define START_AHEAD_MAX_DAYS 60 /* a tournament starts within this many days */
#define START_SLACK_MS 5000     /* a start this far in the past is "now" */
#define LIST_MAX 50
#define SWISS_ROUNDS_MAX 20

static int64_t minute_ms(struct server *srv)
{
    return srv->cfg.tournament_minute_ms > 0 ? srv->cfg.tournament_minute_ms : DEFAULT_MINUTE_MS;
}

/* ---- creating ---- */

/* An integer member in [lo, hi], or `absent` when missing or null: 0, or 400. */
static int int_field(json_t *body, const char *key, long long lo, long long hi, long long absent,
                     long long *out, struct api_response *r)
{
    json_t *j = json_object_get(body, key);
    if (!j || json_is_null(j)) {
        *out = absent;
        return 0;
    }
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi) {
        api_set_error(r, 400, "bad \"%s\": expected an integer %lld..%lld", key, lo, hi);
        return 400;
    }
    *out = json_integer_value(j);
    return 0;
}

/* The tournament's name: 1 to 80 characters, no control characters, not only spaces. */
static int name_field(json_t *body, char *out, size_t size, struct api_response *r)
{
    json_t *j = json_object_get(body, "tournament");
    const char *v = json_is_string(j) ? json_string_value(j) : NULL;
    size_t n = v ? json_string_length(j) : 0;
    bool ok = v && n > 0 && n < size && strlen(v) == n && utf8_valid(v, n) &&
              utf8_chars(v, n) <= 80 && strspn(v, " ") < n;
    for (size_t i = 0; ok && i < n; i++) {
        unsigned char ch = (unsigned char)v[i], next = i + 1 < n ? (unsigned char)v[i + 1] : 0;
        if (ch < 0x20 || ch == 0x7f || (ch == 0xc2 && next >= 0x80 && next <= 0x9f))
            ok = false;
    }
    if (!ok)
        return api_set_error_code(
                   r, 400, "bad_text",
                   "bad \"tournament\": expected its name, 1 to 80 characters, not only spaces, "
                   "no control characters"),
               400;
    memcpy(out, v, n + 1);
    return 0;
}

static int terms(struct server *srv, json_t *body, struct store_tournament *t,
                 struct api_response *r)
{
    json_t *jk = json_object_get(body, "kind"), *jg = json_object_get(body, "game");
    json_t *jc = json_object_get(body, "clock"), *jr = json_object_get(body, "rated");
    const char *kind = json_is_string(jk) ? json_string_value(jk) : "";
    if (!strcmp(kind, "arena"))
        t->kind = TOURNEY_ARENA;
    else if (!strcmp(kind, "swiss"))
        t->kind = TOURNEY_SWISS;
    else
        return api_set_error_code(r, 400, "bad_request",
                                  "bad \"kind\": expected \"arena\" or \"swiss\""),
               400;
    if (name_field(body, t->name, sizeof t->name, r))
        return 400;
    const struct game *g = json_is_string(jg) ? game_find(json_string_value(jg)) : NULL;
    if (!g)
        return api_set_error_code(r, 400, "bad_request",
                                  "bad \"game\": expected a game of GET /api/catalog"),
               400;
    snprintf(t->game, sizeof t->game, "%s", g->name);
    json_t *ji = json_object_get(jc, "initial"), *jn = json_object_get(jc, "increment");
    long long ini = json_is_integer(ji) ? json_integer_value(ji) : -1;
    long long inc = jn ? (json_is_integer(jn) ? json_integer_value(jn) : -1) : 0;
    /* A Swiss may be played at days a move instead (1, 3 or 7): then no clock. */
    json_t *jd = json_object_get(body, "days");
    long long days =
        jd && !json_is_null(jd) ? (json_is_integer(jd) ? json_integer_value(jd) : -1) : 0;
    if (t->kind == TOURNEY_SWISS && days != 0 && (!jc || json_is_null(jc))) {
        if (days != 1 && days != 3 && days != 7)
            return api_set_error_code(r, 400, "bad_clock",
                                      "bad \"days\": expected 1, 3 or 7 days a move"),
                   400;
        t->days = (int)days;
    } else if (!json_is_object(jc) || ini < 0 || ini > 10800 || inc < 0 || inc > 180 ||
               ini + inc == 0 || days != 0)
        return api_set_error_code(
                   r, 400, "bad_clock",
                   "bad \"clock\": expected {\"initial\": 0..10800, \"increment\": 0..180} "
                   "seconds, not both 0"),
               400;
    if (!t->days) {
        t->clock_initial_ms = people_clock_initial_ms(ini * 1000, inc * 1000);
        t->clock_increment_ms = inc * 1000;
    }
    if (jr && !json_is_boolean(jr))
        return api_set_error_code(r, 400, "bad_request", "bad \"rated\": expected true or false"),
               400;
    t->rated = json_is_true(jr);
    long long starts, lo, hi;
    json_t *jm = json_object_get(body, "minutes"), *jrounds = json_object_get(body, "rounds");
    if (t->kind == TOURNEY_SWISS) {
        if (!json_is_integer(jrounds) || json_integer_value(jrounds) < 1 ||
            json_integer_value(jrounds) > SWISS_ROUNDS_MAX) {
            api_set_error_code(r, 400, "bad_duration", "bad \"rounds\": a Swiss has 1 to %d rounds",
                               SWISS_ROUNDS_MAX);
            return 400;
        }
        t->rounds = (int)json_integer_value(jrounds);
    } else if (!json_is_integer(jm) || json_integer_value(jm) < 1 ||
               json_integer_value(jm) > ARENA_MINUTES_MAX) {
        api_set_error_code(r, 400, "bad_duration",
                           "bad \"minutes\": an arena lasts 1 to %d minutes", ARENA_MINUTES_MAX);
        return 400;
    } else {
        t->duration_ms = json_integer_value(jm) * minute_ms(srv);
    }
    int64_t now = server_now_ms();
    json_t *js = json_object_get(body, "starts");
    if (!json_is_integer(js))
        return api_set_error_code(r, 400, "bad_request",
                                  "bad \"starts\": expected the start, Unix milliseconds"),
               400;
    starts = json_integer_value(js);
    if (starts < now - START_SLACK_MS)
        return api_set_error_code(r, 400, "tournament_in_past",
                                  "bad \"starts\": that time is past"),
               400;
    if (starts > now + START_AHEAD_MAX_DAYS * 86400000LL) {
        api_set_error_code(r, 400, "bad_request", "bad \"starts\": within %d days, please",
                           START_AHEAD_MAX_DAYS);
        return 400;
    }
    t->starts_ms = starts < now ? now : starts;
    if (int_field(body, "min_rating", 0, 4000, 0, &lo, r) ||
        int_field(body, "max_rating", 0, 4000, 0, &hi, r))
        return 400;
    if (lo && hi && lo > hi)
        return api_set_error_code(r, 400, "bad_request",
                                  "bad \"min_rating\": above \"max_rating\""),
               400;
    t->min_rating = (int)lo;
    t->max_rating = (int)hi;
    return 0;
}

/* A club's tournament: only its admins make one. */
static int club_field(struct server *srv, json_t *body, const char *hash,
                      struct store_tournament *t, struct api_response *r)
{
    json_t *jc = json_object_get(body, "club");
    if (!jc || json_is_null(jc))
        return 0;
    const char *id = json_is_string(jc) ? json_string_value(jc) : "";
    struct store_club club;
    char err[ERROR_TEXT_MAX];
    int rc =
        strlen(id) == STORE_ID_LEN ? store_get_club(srv->store, id, &club, err, sizeof err) : 1;
    if (rc == 1) {
        api_set_error_code(r, 404, "no_such_club", "no club '%.40s'", id);
        return 404;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return 500;
    }
    struct store_member m;
    rc = people_club_member(srv, id, hash, &m);
    if (rc < 0) {
        api_store_error(r, rc, "the club's members could not be read");
        return 500;
    }
    if (rc > 0 || m.role == CLUB_MEMBER) {
        api_set_error_code(r, 403, "club_admins_only",
                           "only the club's admins make its tournaments");
        return 403;
    }
    snprintf(t->club_id, sizeof t->club_id, "%s", id);
    return 0;
}

static void reply_view(struct server *srv, const char *id, const char *viewer, const char *token,
                       int status, struct api_response *r)
{
    struct tourney_data d;
    char err[ERROR_TEXT_MAX];
    int rc = tourney_load(srv, id, &d, err, sizeof err);
    if (rc == 1)
        api_set_error_code(r, 404, "no_such_tournament", "no tournament '%.40s'", id);
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    if (rc != 0) {
        tourney_data_free(&d);
        return;
    }
    char *view = tourney_view(srv, &d, viewer, server_now_ms());
    tourney_data_free(&d);
    if (!view || !token || !token[0]) {
        api_set_text(r, status, view);
        return;
    }
    /* The view with the caller's token added (a new visitor's). */
    size_t n = strlen(view);
    char *with = malloc(n + TOKEN_HEX_LEN + 16);
    if (with) {
        snprintf(with, n + TOKEN_HEX_LEN + 16, "%.*s,\"token\":\"%s\"}", (int)(n - 1), view, token);
    }
    free(view);
    api_set_text(r, status, with);
}

void tournaments_create(struct server *srv, const struct api_request *req,
                        const struct route_args *a, struct api_response *r)
{
    (void)a;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    struct store_tournament t;
    memset(&t, 0, sizeof t);
    char token[TOKEN_HEX_LEN + 1], name[STORE_PLAYER_NAME_MAX], err[ERROR_TEXT_MAX];
    int fault = terms(srv, body, &t, r);
    if (!fault)
        fault = people_visitor_token(srv, req, token, t.creator_hash, name, sizeof name, r);
    if (!fault)
        fault = people_body_name(body, name, sizeof name, true, r);
    if (!fault)
        fault = club_field(srv, body, t.creator_hash, &t, r);
    json_decref(body);
    if (fault)
        return;
    snprintf(t.creator_name, sizeof t.creator_name, "%s", name);
    if (token_random_hex(t.id, STORE_ID_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    t.created_ms = server_now_ms();
    t.status = TOURNEY_UPCOMING;
    int rc = store_put_player(srv->store, t.creator_hash, name, t.created_ms, err, sizeof err);
    if (rc == 0)
        rc = store_create_tournament(srv->store, &t, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    director_kick(srv);
    reply_view(srv, t.id, t.creator_hash, token, 201, r);
}

/* ---- reading ---- */

/* The value of ?key= (ASCII letters and digits only) into buf: 1, 0 absent, -1 bad. */
static int query_word(const char *url, const char *key, char *buf, size_t size)
{
    const char *q = strchr(url, '?');
    size_t kl = strlen(key);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&')) {
        if (strncmp(p + 1, key, kl) != 0 || p[1 + kl] != '=')
            continue;
        const char *v = p + 2 + kl;
        size_t len = strcspn(v, "&");
        if (len == 0 || len >= size)
            return -1;
        for (size_t i = 0; i < len; i++)
            if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= '0' && v[i] <= '9')))
                return -1;
        memcpy(buf, v, len);
        buf[len] = 0;
        return 1;
    }
    return 0;
}

struct list {
    struct jout *j;
};

static void list_one(void *ctx, const struct store_tournament *t)
{
    struct list *l = ctx;
    tourney_summary(l->j, t, -1);
}

void tournaments_list(struct server *srv, const struct api_request *req, const struct route_args *a,
                      struct api_response *r)
{
    (void)a;
    char status[16] = "", club[STORE_ID_LEN + 1] = "";
    int hs = query_word(req->url, "status", status, sizeof status);
    int hc = query_word(req->url, "club", club, sizeof club);
    int st = !strcmp(status, "upcoming")   ? TOURNEY_UPCOMING
             : !strcmp(status, "running")  ? TOURNEY_RUNNING
             : !strcmp(status, "finished") ? TOURNEY_FINISHED
                                           : -2;
    if (hs < 0 || (hs > 0 && st == -2) || hc < 0) {
        api_set_error_code(r, 400, "bad_query",
                           "bad query: ?status=upcoming|running|finished, ?club=ID");
        return;
    }
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "tournaments");
    jout_open(&j, '[');
    struct list l = {&j};
    char err[ERROR_TEXT_MAX];
    /* Without ?club= the tournaments open to all; with it, the club's. */
    int rc = store_list_tournaments(srv->store, hs > 0 ? st : -1, hc > 0 ? club : "", LIST_MAX,
                                    list_one, &l, err, sizeof err);
    jout_close(&j, ']');
    jout_kint(&j, "now", server_now_ms());
    jout_close(&j, '}');
    char *text = jout_finish(&j);
    if (rc != 0) {
        free(text);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, text);
}

/* The caller's token hash, or "" without a well-formed token. */
static void caller_hash(const struct api_request *req, char *hash)
{
    const char *tok = api_bearer(req);
    hash[0] = 0;
    if (tok && token_well_formed(tok))
        token_hash(tok, hash);
}

void tournaments_get(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    char hash[STORE_HASH_LEN + 1];
    caller_hash(req, hash);
    reply_view(srv, a->param[0], hash, NULL, 200, r);
}

/* ---- joining, pausing, withdrawing ---- */

static int load_row(struct server *srv, const char *id, struct store_tournament *t,
                    struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int rc = store_get_tournament(srv->store, id, t, err, sizeof err);
    if (rc == 1)
        api_set_error_code(r, 404, "no_such_tournament", "no tournament '%.40s'", id);
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    return rc;
}

struct find_entrant {
    const char *hash;
    bool found;
};

static void entrant_is(void *ctx, const struct store_entrant *e)
{
    struct find_entrant *f = ctx;
    f->found |= !strcmp(e->token_hash, f->hash);
}

/* Whether token_hash is an entrant of tournament id already (in any state): 1 yes, 0
 * no, or the store's failure. */
static int entered(struct server *srv, const char *id, const char *token_hash)
{
    struct find_entrant f = {token_hash, false};
    char err[ERROR_TEXT_MAX];
    int rc = store_list_entrants(srv->store, id, entrant_is, &f, err, sizeof err);
    return rc != 0 ? (rc < 0 ? rc : -1) : f.found;
}

void tournaments_join(struct server *srv, const struct api_request *req, const struct route_args *a,
                      struct api_response *r)
{
    struct store_tournament t;
    if (load_row(srv, a->param[0], &t, r) != 0)
        return;
    json_t *body = api_body_object(req, true, r);
    if (!body)
        return;
    struct store_entrant e;
    memset(&e, 0, sizeof e);
    char token[TOKEN_HEX_LEN + 1], err[ERROR_TEXT_MAX];
    int fault = people_visitor_token(srv, req, token, e.token_hash, e.name, sizeof e.name, r);
    if (!fault)
        fault = people_body_name(body, e.name, sizeof e.name, true, r);
    json_decref(body);
    if (fault)
        return;
    if (t.status == TOURNEY_FINISHED) {
        api_set_error_code(r, 409, "tournament_finished", "the tournament is over");
        return;
    }
    /* An entrant comes back (after a pause, a forfeit, a withdrawal) at any time; a new
     * one is taken until half a Swiss's rounds are played and within its rating range. */
    int back = entered(srv, t.id, e.token_hash);
    if (back < 0) {
        api_store_error(r, back, "the tournament's entrants could not be read");
        return;
    }
    if (t.kind == TOURNEY_SWISS && 2 * t.round > t.rounds && !back) {
        api_set_error_code(r, 409, "swiss_too_late",
                           "too late to join: %d of the %d rounds are played", t.round, t.rounds);
        return;
    }
    if (t.club_id[0]) {
        int rc = people_club_member(srv, t.club_id, e.token_hash, NULL);
        if (rc < 0) {
            api_store_error(r, rc, "the club's members could not be read");
            return;
        }
        if (rc > 0) {
            api_set_error_code(r, 403, "club_members_only",
                               "only the club's members play in its tournaments");
            return;
        }
    }
    const char *klass = people_clock_class(t.clock_initial_ms, t.clock_increment_ms, t.days);
    e.rating = people_rating_of(srv, e.token_hash, t.game, klass);
    if (!back &&
        ((t.min_rating && e.rating < t.min_rating) || (t.max_rating && e.rating > t.max_rating))) {
        api_set_error_code(r, 403, "rating_out_of_range",
                           "your rating, %d, is outside the tournament's range", e.rating);
        return;
    }
    int64_t now = server_now_ms();
    int rc = store_put_player(srv->store, e.token_hash, e.name, now, err, sizeof err);
    if (rc == 0)
        rc = store_join_tournament(srv->store, t.id, &e, now, err, sizeof err);
    if (rc == 1) {
        api_set_error_code(r, 409, "already_joined", "you are in this tournament already");
        return;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    director_news(srv, t.id);
    director_kick(srv);
    reply_view(srv, t.id, e.token_hash, token, 200, r);
}

static void set_state(struct server *srv, const struct api_request *req, const struct route_args *a,
                      int state, struct api_response *r)
{
    struct store_tournament t;
    if (load_row(srv, a->param[0], &t, r) != 0)
        return;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    caller_hash(req, hash);
    if (!hash[0]) {
        api_set_error_code(r, 403, "no_token", "no token: join the tournament first");
        return;
    }
    int rc =
        store_set_entrant_state(srv->store, t.id, hash, state, server_now_ms(), err, sizeof err);
    if (rc == 1) {
        api_set_error_code(r, 409, "not_entrant", "you are not in this tournament");
        return;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    director_news(srv, t.id);
    reply_view(srv, t.id, hash, NULL, 200, r);
}

void tournaments_pause(struct server *srv, const struct api_request *req,
                       const struct route_args *a, struct api_response *r)
{
    set_state(srv, req, a, ENTRANT_PAUSED, r);
}

void tournaments_withdraw(struct server *srv, const struct api_request *req,
                          const struct route_args *a, struct api_response *r)
{
    set_state(srv, req, a, ENTRANT_WITHDRAWN, r);
}

/* ---- berserk ---- */

void tournaments_berserk(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    struct store_tournament t;
    if (load_row(srv, a->param[0], &t, r) != 0)
        return;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    caller_hash(req, hash);
    struct session *s;
    int rc = cache_get(srv, a->param[1], &s, err, sizeof err);
    if (rc == 1 || (rc == 0 && strcmp(s->row.tournament_id, t.id) != 0)) {
        if (rc == 0)
            cache_put(s);
        api_set_error_code(r, 404, "no_such_game", "no game '%.40s' in this tournament",
                           a->param[1]);
        return;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    pthread_mutex_lock(&s->mu);
    int side = !strcmp(s->row.white_hash, hash)   ? SIDE_WHITE
               : !strcmp(s->row.black_hash, hash) ? SIDE_BLACK
                                                  : -1;
    if (side < 0) {
        pthread_mutex_unlock(&s->mu);
        cache_put(s);
        api_set_error_code(r, 403, "wrong_token", "only the game's players berserk");
        return;
    }
    session_attach_event(s);
    rc = store_berserk(srv->store, t.id, s->row.id, side, err, sizeof err);
    if (rc == 0) {
        s->row.berserk |= side == SIDE_WHITE ? 1 : 2;
        session_notify(s);
    }
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
    if (rc == 1) {
        api_set_error_code(r, 409, "no_berserk",
                           "berserk only before your first move, once, in a game on");
        return;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    director_news(srv, t.id);
    struct jout j;
    jout_init(&j, 64);
    jout_open(&j, '{');
    jout_kbool(&j, "berserk", true);
    jout_kstr(&j, "side", side == SIDE_WHITE ? "white" : "black");
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

/* ---- the TRF ---- */

void tournaments_trf(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    (void)req;
    struct tourney_data d;
    char err[ERROR_TEXT_MAX];
    int rc = tourney_load(srv, a->param[0], &d, err, sizeof err);
    if (rc == 0 && d.t.kind != TOURNEY_SWISS)
        rc = 1;
    if (rc == 1)
        api_set_error_code(r, 404, "no_such_tournament", "no Swiss tournament '%.40s'",
                           a->param[0]);
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    struct tswiss ts;
    /* The rounds played: the one on is left out until its last game ends. */
    int rounds = rc == 0 && !tswiss_round_over(&d, d.t.round) ? d.t.round - 1 : d.t.round;
    if (rc == 0 && tswiss_build(&d, rounds, &ts) == 0) {
        char *text = swiss_trf_write(ts.t, SWISS_TRF_2026);
        tswiss_free(&ts);
        api_set_text(r, 200, text);
        r->content_type = "text/plain; charset=utf-8";
    } else if (rc == 0) {
        api_set_error(r, 500, "out of memory");
    }
    tourney_data_free(&d);
}

/* ---- the stream ---- */

void tournaments_events(struct server *srv, const struct api_request *req,
                        const struct route_args *a, struct api_response *r)
{
    (void)req;
    struct store_tournament t;
    if (load_row(srv, a->param[0], &t, r) != 0)
        return;
    r->kind = API_TOURNAMENT_STREAM;
    r->status = 200;
    snprintf(r->challenge, sizeof r->challenge, "%s", t.id);
}
