/* The JSON API: routing and one handler per operation (the contract is in
 * src/server/API.md).  Handlers know nothing of HTTP libraries: they take an
 * api_request and fill an api_response, so the fuzz target drives them directly.
 *
 * Every rejected request leaves the game untouched: handlers check (404, 403, 400
 * body, 409 turn, 400 move) before they change anything, and a change is made in
 * memory only once the store has committed it. */
#include "server/games/games_api.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/json_out.h"
#include "engines/engine.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/ratelimit.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/move_ply.h"
#include "server/games/people_game_api.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/games/workers.h"
#include "server/server_state.h"
#include "store/store.h"

#define LIST_LIMIT 100

/* 0 when the request carries the game's token; otherwise a 403 is set. */
static int authorize(const struct api_request *req, const struct session *s, struct api_response *r)
{
    const char *tok = api_bearer(req);
    if (!tok || !*tok) {
        api_set_error_code(r, 403, "no_token",
                           "missing token: send 'Authorization: Bearer <token>'");
        return -1;
    }
    char hash[STORE_HASH_LEN + 1];
    token_hash(tok, hash);
    /* The game's own token, or a device's standing for its player (API.md "Devices"). */
    if (!token_equal(hash, s->row.token_hash) &&
        (api_bearer_hash(s->srv, req, hash) != 0 || !token_equal(hash, s->row.token_hash))) {
        api_set_error_code(r, 403, "wrong_token", "wrong token for this game");
        return -1;
    }
    return 0;
}

/* The session's answer to a request that waited (under s->mu): what failed, or (NULL)
 * the state as it is now, with the computer's reply. */
static void answer_waiter(struct session_waiter *sw, struct session *s, const char *error)
{
    struct api_waiter *w = (struct api_waiter *)sw;
    if (error) {
        int status = sw->busy ? 503 : 500;
        w->done(w, status, api_error_body(status, NULL, "%s", error));
        return;
    }
    char *text = state_text(s, w->token[0] ? w->token : NULL, NULL);
    w->done(w, text ? w->ok_status : 500, text ? text : api_error_body(500, NULL, "out of memory"));
}

/* Answer with the state now, or wait for the computer's reply. */
static void reply_state(struct server *srv, const struct api_request *req, struct session *s,
                        int ok_status, const char *new_token, struct api_response *r)
{
    workers_schedule_from(s, req->client);
    char err[ERROR_TEXT_MAX];
    int rc = s->job_pending ? 0 : session_settle(s, err, sizeof err);
    if (rc != 0) {
        /* No reply is coming (the server is stopping): the move goes alone or not at all. */
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (s->job_pending && req->waiter && !s->waiter) {
        req->waiter->base.answer = answer_waiter;
        req->waiter->ok_status = ok_status;
        snprintf(req->waiter->token, sizeof req->waiter->token, "%s", new_token ? new_token : "");
        s->waiter = &req->waiter->base;
        r->kind = API_WAIT;
        r->session = s; /* the caller's reference passes to the HTTP layer */
        return;
    }
    if (s->job_pending && srv->cfg.engine_workers == 0 && !srv->db_jobs) {
        pthread_mutex_unlock(&s->mu);
        workers_run_inline(srv);
        pthread_mutex_lock(&s->mu);
    }
    api_set_text(r, ok_status, state_text(s, new_token, NULL));
}

/* A game's levels with their measured ratings (the engine profile's table; `elo` null
 * where the levels are not rated). */
static json_t *levels_json(const struct game *g)
{
    const struct engine_profile *p = engine_profile_of(g);
    json_t *levels = json_array();
    for (int l = ENGINE_LEVEL_MIN; l <= ENGINE_LEVEL_MAX; l++) {
        int elo = engine_level_elo(p, l);
        json_array_append_new(
            levels, json_pack("{siso}", "level", l, "elo", elo ? json_integer(elo) : json_null()));
    }
    return levels;
}

/* The games this server plays, with their boards' geometry: static, fetched once. */
static void handle_catalog(struct api_response *r)
{
    json_t *games = json_array();
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        json_t *aliases = json_array();
        for (int k = 0; g->aliases && g->aliases[k]; k++)
            json_array_append_new(aliases, json_string(g->aliases[k]));
        json_t *start = json_null();
        void *st = game_state_new(g);
        if (st) {
            char pos[POSITION_TEXT_MAX];
            g->start(st);
            g->write_position(st, pos, sizeof pos);
            start = json_string(pos);
            free(st);
        }
        /* The levels' measured Elo, where the engine profile has one: `levels` with the
         * level numbers, `level_elo` the bare numbers (the people pages read it). */
        const struct engine_profile *prof = engine_profile_of(g);
        json_t *elo = prof && engine_level_elo(prof, 1) ? json_array() : json_null();
        for (int l = 1; json_is_array(elo) && l <= 8; l++)
            json_array_append_new(elo, json_integer(engine_level_elo(prof, l)));
        json_array_append_new(games, json_pack("{sssssosososisisoso}", "name", g->name, "title",
                                               g->title, "aliases", aliases, "start_position",
                                               start, "layout", layout_json(g), "level_min",
                                               ENGINE_LEVEL_MIN, "level_max", ENGINE_LEVEL_MAX,
                                               "levels", levels_json(g), "level_elo", elo));
    }
    json_t *j = json_object();
    json_object_set_new(j, "games", games);
    api_set_json(r, 200, j);
}

static void list_one(void *ctx, const struct store_game *row)
{
    summary_out(ctx, row);
}

static void handle_list(struct server *srv, const struct api_request *req, struct api_response *r)
{
    const char *tok = api_bearer(req);
    if (!tok || !token_well_formed(tok)) {
        api_set_error_code(r, 403, "no_token",
                           "missing or malformed token: send 'Authorization: Bearer <token>'");
        return;
    }
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    api_bearer_hash(srv, req, hash); /* tok is well-formed: checked above */
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "games");
    jout_open(&j, '[');
    int rc = store_list_games(srv->store, hash, LIST_LIMIT, list_one, &j, err, sizeof err);
    if (rc != 0) {
        free(jout_finish(&j));
        api_store_error(r, rc, "%s", err);
        return;
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

/* A game against the computer is written to the store as it is (cache_create's step). */
static int store_new_game(struct server *srv, const struct store_game *row, void *ctx, char *err,
                          size_t err_size)
{
    (void)ctx;
    return store_create_game(srv->store, row, err, err_size);
}

static void handle_create(struct server *srv, const struct api_request *req, struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    char err[ERROR_TEXT_MAX];
    json_t *jg = json_object_get(body, "game"), *jl = json_object_get(body, "level");
    json_t *js = json_object_get(body, "side"), *jp = json_object_get(body, "position");
    const struct game *g = json_is_string(jg) ? game_find(json_string_value(jg)) : NULL;
    long level = jl ? (json_is_integer(jl) ? (long)json_integer_value(jl) : -1) : 1;
    char side[8]; /* copied: the body is released before it is used */
    snprintf(side, sizeof side, "%s",
             js ? (json_is_string(js) ? json_string_value(js) : "") : "white");
    struct store_game row;
    memset(&row, 0, sizeof row);
    if (!g) {
        char list[200] = "";
        for (int i = 0; game_registry[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, game_registry[i]->name, sizeof list - strlen(list) - 1);
        }
        api_set_error(r, 400, "%s \"game\": expected one of %s", jg ? "unknown" : "missing", list);
    } else if (level < 1 || level > 8) {
        api_set_error(r, 400, "bad \"level\": expected a whole number from 1 to 8");
    } else if (strcmp(side, "white") && strcmp(side, "black") && strcmp(side, "random")) {
        api_set_error(r, 400, "bad \"side\": expected \"white\", \"black\" or \"random\"");
    } else if (jp && !json_is_null(jp) &&
               (!json_is_string(jp) || json_string_length(jp) >= sizeof row.start)) {
        api_set_error(r, 400, "bad \"position\": expected position text of at most %zu characters",
                      sizeof row.start - 1);
    } else {
        if (json_is_string(jp))
            snprintf(row.start, sizeof row.start, "%s", json_string_value(jp));
        goto valid;
    }
    json_decref(body);
    return;
valid:
    json_decref(body);
    /* The position must parse and leave a game to play. */
    void *st = game_state_new(g);
    if (!st) {
        api_set_error(r, 500, "out of memory");
        return;
    }
    struct game_status gs = {RESULT_ONGOING, REASON_NONE, 0};
    int bad = row.start[0] && g->parse_position(st, row.start, err, sizeof err) != 0;
    if (!bad) {
        if (!row.start[0])
            g->start(st);
        g->status(st, &gs);
    }
    free(st);
    if (bad) {
        api_set_error(r, 400, "bad \"position\" for %s: %s", g->name, err);
        return;
    }
    if (gs.result != RESULT_ONGOING) {
        api_set_error(r, 400, "bad \"position\": the game is already over there (%s)",
                      reason_text(g, gs.reason));
        return;
    }
    int64_t now = server_now_ms();
    if (srv->limiter && req->client && !ratelimit_take(srv->limiter, req->client, now)) {
        api_set_error_code(r, 429, "too_many_games",
                           "too many new games from this address; wait a minute");
        return;
    }
    /* A visitor whose token the server knows (a game, a name, progress, puzzles, a club:
     * one player for everything, API.md "One identity") keeps it, so their history stays
     * in one list (their archive, API.md "Players"); anyone else gets a new one. */
    char token[TOKEN_HEX_LEN + 1] = "";
    const char *old = api_bearer(req);
    if (old && token_well_formed(old)) {
        int count = 0;
        api_bearer_hash(srv, req, row.token_hash); /* a device's: its player's */
        int rc = store_token_known(srv->store, row.token_hash, &count, err, sizeof err);
        if (rc != 0) { /* whether the token is known is not known: no new one */
            api_store_error(r, rc, "%s", err);
            return;
        }
        if (count > 0)
            snprintf(token, sizeof token, "%s", old);
    }
    uint64_t side_bits;
    if ((!token[0] && token_random_hex(token, TOKEN_HEX_LEN / 2) != 0) ||
        token_random_hex(row.id, STORE_ID_LEN / 2) != 0 || token_random_u64(&row.seed) != 0 ||
        token_random_u64(&side_bits) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    if (!old || strcmp(old, token) != 0) /* a new token: the game is kept under its hash */
        token_hash(token, row.token_hash);
    snprintf(row.game, sizeof row.game, "%s", g->name);
    row.level = (int)level;
    row.human_side = !strcmp(side, "black")   ? SIDE_BLACK
                     : !strcmp(side, "white") ? SIDE_WHITE
                                              : (int)(side_bits & 1);
    row.seed >>= 1; /* SQLite integers are signed */
    row.created_ms = row.updated_ms = now;
    struct session *s;
    int rc, code = cache_create(srv, g, &row, store_new_game, NULL, &rc, &s, err, sizeof err);
    if (code) {
        if (code > 0)
            api_set_error(r, code, "%s", err);
        else
            api_store_error(r, rc, "%s", err);
        return;
    }
    pthread_mutex_lock(&s->mu);
    reply_state(srv, req, s, 201, token, r);
    pthread_mutex_unlock(&s->mu);
    if (r->kind != API_WAIT)
        cache_put(s);
}

static void handle_move(struct server *srv, const struct api_request *req, struct session *s,
                        json_t *body, struct api_response *r)
{
    json_t *jm = json_object_get(body, "move");
    if (!json_is_string(jm)) {
        api_set_error(r, 400, "missing \"move\": expected {\"move\": \"<move text>\"}");
        return;
    }
    const char *text = json_string_value(jm);
    char err[ERROR_TEXT_MAX];
    /* A retry of a move already made (its "ply") is answered as the move was: the state,
     * with the computer's reply when it is coming. */
    enum move_ply retry = move_ply_judge(s, body, s->row.human_side, r);
    if (retry == MOVE_PLY_MADE)
        reply_state(srv, req, s, 200, NULL, r);
    if (retry != MOVE_PLY_NEXT)
        return;
    if (session_over(s)) {
        api_set_error_code(r, 409, "game_over", "the game is over");
        return;
    }
    if (session_computer_to_move(s)) {
        api_set_error_code(r, 409, "not_your_turn", "not your turn: the computer is to move");
        return;
    }
    Move m;
    if (json_string_length(jm) >= MOVE_TEXT_MAX || strlen(text) != json_string_length(jm)) {
        api_set_error_code(r, 400, "illegal_move",
                           "illegal move: the move text is too long or holds a NUL");
        return;
    }
    if (s->g->parse_move(s->st, text, &m, err, sizeof err) != 0) {
        api_set_error_code(r, 400, "illegal_move", "%s", err);
        return;
    }
    if (!workers_admit(srv, req->client)) {
        api_set_error_code(r, 429, "too_many_moves",
                           "too many computer moves queued from this address (%d); wait for their "
                           "replies",
                           srv->cfg.queued_per_address);
        return;
    }
    /* When this request can wait for the computer's reply, the move is committed with
     * the reply (one transaction, then one answer). */
    bool defer = req->waiter && !s->waiter && srv->cfg.engine_workers > 0;
    int rc = session_play(s, m, defer, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    reply_state(srv, req, s, 200, NULL, r);
}

static void handle_end(struct session *s, const char *op, json_t *body, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    struct game_status gs;
    session_status(s, &gs);
    if (gs.result != RESULT_ONGOING) {
        api_set_error_code(r, 409, "game_over", "the game is over");
        return;
    }
    int human = s->row.human_side;
    const char *draw = NULL;
    int rc = 0;
    if (!strcmp(op, "resign")) {
        rc = session_end(s, human == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS,
                         REASON_RESIGNATION, err, sizeof err);
    } else if (!strcmp(op, "draw")) {
        int accept = engine_accepts_draw(s->g, s->st, (enum side) !human, s->g->key(s->st));
        draw = accept ? "accepted" : "declined";
        if (accept)
            rc = session_end(s, RESULT_DRAW, REASON_AGREEMENT, err, sizeof err);
    } else { /* claim */
        json_t *jc = json_object_get(body, "claim");
        const char *want = json_is_string(jc) ? json_string_value(jc) : NULL;
        unsigned pick = gs.claims, kind = want ? game_word_code(s->g->claim_names, want) : 0;
        if (kind)
            pick &= kind;
        else if (want || (jc && !json_is_null(jc))) {
            char names[128] = "";
            for (const struct game_word *w = s->g->claim_names; w && w->name; w++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"",
                         w == s->g->claim_names ? ""
                         : w[1].name            ? ", "
                                                : " or ",
                         w->name);
            api_set_error(r, 400, "bad \"claim\": expected %s", names[0] ? names : "no claim");
            return;
        }
        if ((int)s->g->side_to_move(s->st) != human) {
            api_set_error_code(r, 409, "not_your_turn",
                               "not your turn: a draw is claimed on one's own move");
            return;
        }
        if (!pick) {
            api_set_error_code(r, 409, "no_claim", "no claim available");
            return;
        }
        /* The game judges the claim (claim_draw); the status it gives is what is
         * recorded. */
        struct game_status end;
        if (!s->g->claim_draw || s->g->claim_draw(s->st, pick, &end) != 0) {
            api_set_error_code(r, 409, "no_claim", "no claim available");
            return;
        }
        rc = session_end(s, end.result, end.reason, err, sizeof err);
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, state_text(s, NULL, draw));
}

/* POST .../takeback: the human's last move and the computer's reply undone. */
static void handle_takeback(struct server *srv, const struct api_request *req, struct session *s,
                            struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    if (session_over(s)) {
        api_set_error_code(r, 409, "game_over", "the game is over");
        return;
    }
    if (s->job_pending || session_computer_to_move(s)) {
        api_set_error_code(r, 409, "engine_thinking", "the computer is thinking");
        return;
    }
    int rc = session_takeback(s, err, sizeof err);
    if (rc > 0) {
        api_set_error_code(r, 409, "no_takeback", "no move of yours to take back");
        return;
    }
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    reply_state(srv, req, s, 200, NULL, r);
}

/* The moves a reconnecting stream already has (Last-Event-ID), within [0, n + 1]: an
 * id beyond the game (moves since taken back) is n + 1, and the stream then says
 * `takeback` first. */
static int stream_start(const char *last, int n)
{
    if (!last)
        return 0;
    char *end;
    long v = strtol(last, &end, 10);
    if (*end || end == last || v < 0)
        return 0;
    return v > n ? n + 1 : (int)v;
}

/* What another server may have changed in a people game: its plies, result,
 * takebacks and offers. */
struct game_mark {
    int plies, result, takebacks, offers;
};

static struct game_mark mark_of(int plies, const struct store_game *row)
{
    return (struct game_mark){plies, row->result, row->takebacks,
                              row->draw_offer * 100 + row->takeback_offer * 10 +
                                  row->rematch_offer};
}

/* Several servers (the outbox on): a people game's operation refused by this server's
 * copy (locked, a reference held) may be one that the other server's news, not yet
 * heard here, makes right (its move made the turn this player's).  The game's row is
 * read from the store: when the copy is behind it, the copy is read again and the
 * operation judged again on the fresh one; else the answer stands (and the copy, with
 * what only memory holds, is kept).  The game now held (locked, a reference) is
 * returned, or NULL when none is. */
static struct session *judge_again(struct server *srv, const struct api_request *req,
                                   struct session *s, const char *op, struct api_response *r)
{
    char id[STORE_ID_LEN + 1], err[ERROR_TEXT_MAX];
    snprintf(id, sizeof id, "%s", s->row.id);
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    int rc = store_load_game(srv->store, id, &row, &moves, &n, err, sizeof err);
    free(moves);
    if (rc != 0)
        return s; /* not known: the answer stands */
    struct game_mark was = mark_of(s->n_stored, &s->row), stored = mark_of(n, &row);
    if (!memcmp(&was, &stored, sizeof was))
        return s;                  /* not behind: the answer stands */
    atomic_store(&s->stale, true); /* the next cache_get reads the store */
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
    struct session *fresh;
    if (cache_get(srv, id, &fresh, err, sizeof err) != 0)
        return NULL; /* the store did not answer: the first answer stands */
    pthread_mutex_lock(&fresh->mu);
    free(r->body);
    r->body = NULL;
    r->status = 0;
    people_game_op(srv, req, fresh, op, r);
    return fresh;
}

static void handle_game(struct server *srv, const struct api_request *req, const char *id,
                        const char *op, struct api_response *r)
{
    bool post = !strcmp(req->method, "POST");
    if (strlen(id) != STORE_ID_LEN || strspn(id, "0123456789abcdef") != STORE_ID_LEN) {
        api_set_error_code(r, 404, "no_such_game", "no game '%.40s'", id);
        return;
    }
    struct session *s;
    char err[ERROR_TEXT_MAX];
    int code = cache_get(srv, id, &s, err, sizeof err);
    if (code) {
        api_set_error(r, code, "%s", err);
        return;
    }
    pthread_mutex_lock(&s->mu);
    json_t *body = NULL;
    if (s->row.people && strcmp(op, "events") && strcmp(op, "record")) {
        /* Between people: each side acts with its own token (people_api.c). */
        people_game_op(srv, req, s, op, r);
        /* A refusal (4xx) may be this copy's being behind; a failure of the store (5xx)
         * stands: the change may have been stored, and judged again on the game read
         * back it would be refused as if it were not the player's (a move stored whose
         * COMMIT's answer was lost, then "not your turn"). */
        if (post && r->status >= 400 && r->status < 500 && srv->ob_on)
            s = judge_again(srv, req, s, op, r);
        goto out;
    }
    if (!strcmp(op, "abort") || !strcmp(op, "rematch") || !strcmp(op, "claim-win")) {
        api_set_error(r, 409, "'%s' is for games between people", op);
        goto out;
    }
    if (post) {
        if (authorize(req, s, r) != 0 ||
            !(body = api_body_object(req, strcmp(op, "moves") != 0, r)))
            goto out;
    }
    if (!*op) {
        reply_state(srv, req, s, 200, NULL, r);
    } else if (!strcmp(op, "moves")) {
        handle_move(srv, req, s, body, r);
    } else if (!strcmp(op, "takeback")) {
        handle_takeback(srv, req, s, r);
    } else if (!strcmp(op, "events")) {
        workers_schedule(s);
        r->kind = API_STREAM;
        r->status = 200;
        r->session = s;
        r->stream_from = stream_start(req->last_event_id, s->n_stored);
        r->stream_seat = people_stream_seat(req, s) + 1;
    } else if (!strcmp(op, "record")) {
        r->kind = API_DONE;
        r->status = 200;
        r->body = record_text(s);
        r->content_type = "text/plain; charset=utf-8";
    } else {
        handle_end(s, op, body, r);
    }
out:
    json_decref(body);
    if (!s)
        return;
    pthread_mutex_unlock(&s->mu);
    if (r->kind == API_DONE)
        cache_put(s);
}

/* ---- the routes (routes.c's table): a game's operations by the name in its path ---- */

void games_catalog(struct server *srv, const struct api_request *req, const struct route_args *a,
                   struct api_response *r)
{
    (void)srv, (void)req, (void)a;
    handle_catalog(r);
}

void games_create(struct server *srv, const struct api_request *req, const struct route_args *a,
                  struct api_response *r)
{
    (void)a;
    handle_create(srv, req, r);
}

void games_list(struct server *srv, const struct api_request *req, const struct route_args *a,
                struct api_response *r)
{
    (void)a;
    handle_list(srv, req, r);
}

#define GAME_OPERATION(name, op)                                                                   \
    void name(struct server *srv, const struct api_request *req, const struct route_args *a,       \
              struct api_response *r)                                                              \
    {                                                                                              \
        handle_game(srv, req, a->param[0], op, r);                                                 \
    }
GAME_OPERATION(games_state, "")
GAME_OPERATION(games_moves, "moves")
GAME_OPERATION(games_resign, "resign")
GAME_OPERATION(games_draw, "draw")
GAME_OPERATION(games_claim, "claim")
GAME_OPERATION(games_takeback, "takeback")
GAME_OPERATION(games_abort, "abort")
GAME_OPERATION(games_rematch, "rematch")
GAME_OPERATION(games_claim_win, "claim-win")
GAME_OPERATION(games_events, "events")
GAME_OPERATION(games_record, "record")
