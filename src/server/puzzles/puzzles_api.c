/* The puzzle routes (puzzles_api.h).  The server judges an attempt from the moves
 * sent, against the stored solution; the ratings are Glicko-2 (src/rating/), one
 * rating period per attempt for the player against the puzzle and for the puzzle
 * against the player.  Written against the game interface: nothing here names a game. */
#include "server/puzzles/puzzles_api.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_out.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/ratelimit.h"
#include "server/common/token.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/puzzles/puzzle_set.h"
#include "server/server_state.h"

#define QUERY_VALUE_MAX 64
#define PUZZLE_READ_MS 2000 /* an attempt sooner after the serving is not counted */
/* A player whose deviation is above this is not established: their attempts move their
 * own rating only, never the puzzle's (Glicko-2 "provisional", as the best sites do). */
#define PUZZLE_ESTABLISHED_DEVIATION 110.0

/* The value of ?name= in url into buf: 1 when there, 0 when absent, -1 when too long
 * or not of letters, digits and '-'. */
static int query_value(const char *url, const char *name, char *buf, size_t size)
{
    const char *q = strchr(url, '?');
    size_t nl = strlen(name);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&')) {
        if (strncmp(p + 1, name, nl) != 0 || p[1 + nl] != '=')
            continue;
        const char *v = p + 2 + nl;
        size_t len = strcspn(v, "&");
        if (len >= size)
            return -1;
        for (size_t i = 0; i < len; i++)
            if (!(v[i] == '-' || (v[i] >= 'a' && v[i] <= 'z') || (v[i] >= '0' && v[i] <= '9')))
                return -1;
        memcpy(buf, v, len);
        buf[len] = 0;
        return 1;
    }
    return 0;
}

/* The player's token: the request's (0), a new one into buf (1), or a 403 (-1). */
static int player_token(const struct api_request *req, char *buf, struct api_response *r)
{
    const char *tok = api_bearer(req);
    if (tok && *tok) {
        if (!token_well_formed(tok)) {
            api_set_error_code(r, 403, "no_token",
                               "malformed token: send 'Authorization: Bearer <token>'");
            return -1;
        }
        snprintf(buf, TOKEN_HEX_LEN + 1, "%s", tok);
        return 0;
    }
    if (token_random_hex(buf, TOKEN_HEX_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return -1;
    }
    return 1;
}

/* The player's puzzle rating in g, the initial one for a new player: 0, or -1 with
 * the store's failure answered in r (a failure is not a new player: their rating
 * would start again). */
static int player_rating(struct server *srv, const char *hash, const struct game *g,
                         struct store_puzzle_rating *out, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    struct glicko2 initial = glicko2_initial();
    int rc = store_puzzle_player(srv->store, hash, g->name, out, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    if (rc > 0)
        *out = (struct store_puzzle_rating){
            initial.rating, initial.deviation, initial.volatility, 0, 0, 0};
    return 0;
}

/* ---- GET /api/puzzles ----------------------------------------------------------- */

static void handle_list(struct server *srv, struct api_response *r)
{
    struct puzzle_set *ps = srv->puzzles;
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "games");
    jout_open(&j, '[');
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
        int count = 0, easy = 0;
        for (int i = 0; i < ps->n; i++)
            if (ps->items[i].e.g == g) {
                count++;
                easy += ps->items[i].easy;
            }
        jout_open(&j, '{');
        jout_kstr(&j, "game", g->name);
        jout_kstr(&j, "title", g->title);
        jout_kint(&j, "count", count);
        jout_kint(&j, "easy", easy);
        jout_key(&j, "themes");
        jout_open(&j, '[');
        for (int t = 0; rules && rules->theme_names && rules->theme_names[t]; t++) {
            int n = 0;
            for (int i = 0; i < ps->n; i++)
                n += ps->items[i].e.g == g &&
                     puzzle_entry_has_theme(&ps->items[i].e, rules->theme_names[t]);
            jout_open(&j, '{');
            jout_kstr(&j, "name", rules->theme_names[t]);
            jout_kint(&j, "count", n);
            jout_close(&j, '}');
        }
        jout_close(&j, ']');
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

/* ---- GET /api/puzzles/next -------------------------------------------------------- */

struct seen_ids {
    char (*id)[PUZZLE_ID_MAX];
    int n, cap;
};

static void seen_add(void *ctx, const char *id)
{
    struct seen_ids *s = ctx;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 64;
        void *t = realloc(s->id, (size_t)cap * sizeof *s->id);
        if (!t)
            return;
        s->id = t;
        s->cap = cap;
    }
    snprintf(s->id[s->n++], PUZZLE_ID_MAX, "%s", id);
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

static int seen_has(void *ctx, const char *id)
{
    struct seen_ids *s = ctx;
    return s->n && bsearch(id, s->id, (size_t)s->n, sizeof *s->id, cmp_id) != NULL;
}

/* The position of solver step k (after the first 2k moves of the solution), with its
 * legal moves, as POST /api/positions writes a position. */
static char *step_text(const struct puzzle_entry *e, int k)
{
    const struct game *g = e->g;
    void *st = game_state_new(g);
    struct move_rec *moves = calloc((size_t)(2 * k + 1), sizeof *moves);
    char *text = NULL, err[ERROR_TEXT_MAX];
    if (st && moves && g->parse_position(st, e->position, err, sizeof err) == 0) {
        int i = 0;
        for (; i < 2 * k && i < e->n; i++) {
            Move m;
            if (g->parse_move(st, e->moves[i], &m, err, sizeof err) != 0)
                break;
            snprintf(moves[i].text, sizeof moves[i].text, "%s", e->moves[i]);
            game_move_display(g, st, m, moves[i].display, sizeof moves[i].display);
            g->make_move(st, m);
        }
        struct position_view v = {
            .g = g, .st = st, .start = e->position, .moves = moves, .n_moves = i};
        g->status(st, &v.status);
        text = position_text(&v);
    }
    free(moves);
    free(st);
    return text;
}

static void rating_out(struct jout *j, const char *key, const struct glicko2 *r, double change,
                       int attempts, int solved)
{
    jout_key(j, key);
    jout_open(j, '{');
    jout_kint(j, "rating", lround(r->rating));
    jout_kint(j, "deviation", lround(r->deviation));
    jout_kint(j, "change", lround(change));
    jout_kint(j, "attempts", attempts);
    jout_kint(j, "solved", solved);
}

/* The solution as move texts and as display texts. */
/* "judge": who proved the puzzle (the file's line says; null for a line that does not). */
static void judge_out(struct jout *j, const struct puzzle_entry *e)
{
    jout_key(j, "judge");
    if (e->by == PUZZLE_BY_ANY) {
        jout_null(j);
        return;
    }
    char engine[64];
    snprintf(engine, sizeof engine, "agora %s", e->g->name);
    jout_open(j, '{');
    jout_kstr(j, "engine", engine);
    jout_kstr(j, "by", puzzle_judge_name(e->by));
    if (e->by == PUZZLE_BY_SEARCH)
        jout_kint(j, "nodes", (long long)e->nodes);
    jout_close(j, '}');
}

static void solution_out(struct jout *j, const struct puzzle_entry *e)
{
    const struct game *g = e->g;
    jout_key(j, "solution");
    jout_open(j, '[');
    for (int i = 0; i < e->n; i++)
        jout_str(j, e->moves[i]);
    jout_close(j, ']');
    /* The other moves accepted as the last one (each wins at once, as the solution's
     * last move does). */
    jout_key(j, "alternatives");
    jout_open(j, '[');
    for (int i = 0; i < e->nalt; i++)
        jout_str(j, e->alternatives[i]);
    jout_close(j, ']');
    jout_key(j, "solution_display");
    jout_open(j, '[');
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    if (st && g->parse_position(st, e->position, err, sizeof err) == 0)
        for (int i = 0; i < e->n; i++) {
            Move m;
            char disp[MOVE_TEXT_MAX];
            if (g->parse_move(st, e->moves[i], &m, err, sizeof err) != 0)
                break;
            game_move_display(g, st, m, disp, sizeof disp);
            jout_str(j, disp);
            g->make_move(st, m);
        }
    free(st);
    jout_close(j, ']');
}

static void handle_next(struct server *srv, const struct api_request *req, struct api_response *r)
{
    char game[QUERY_VALUE_MAX], theme[QUERY_VALUE_MAX], track[QUERY_VALUE_MAX];
    int hg = query_value(req->url, "game", game, sizeof game);
    int ht = query_value(req->url, "theme", theme, sizeof theme);
    int hk = query_value(req->url, "track", track, sizeof track);
    if (hg <= 0 || ht < 0 || hk < 0) {
        const char *which = hg < 0 ? "game" : ht < 0 ? "theme" : "track";
        if (hg == 0)
            api_set_error(r, 400, "missing ?game= (a game's name)");
        else
            api_set_error(r, 400,
                          "bad ?%s=: too long or not of letters, digits and '-' (at "
                          "most %d characters)",
                          which, QUERY_VALUE_MAX - 1);
        return;
    }
    const struct game *g = game_find(game);
    if (!g) {
        api_set_error(r, 400, "unknown game '%s'", game);
        return;
    }
    if (hk && strcmp(track, "easy") != 0) {
        api_set_error(r, 400, "unknown track '%s' (only 'easy')", track);
        return;
    }
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    bool known = false;
    for (int t = 0; ht && rules && rules->theme_names && rules->theme_names[t]; t++)
        known |= !strcmp(rules->theme_names[t], theme);
    if (ht && !known) {
        api_set_error(r, 400, "unknown theme '%s' for %s", theme, g->name);
        return;
    }
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    int fresh = player_token(req, token, r);
    if (fresh < 0)
        return;
    if (fresh)
        token_hash(token, hash);
    else /* a device's token: its player's hash */
        api_bearer_hash(srv, req, hash);
    struct store_puzzle_rating pr;
    if (player_rating(srv, hash, g, &pr, r) != 0)
        return;
    struct seen_ids seen = {0};
    int rc =
        fresh ? 0
              : store_puzzle_attempted(srv->store, hash, g->name, seen_add, &seen, err, sizeof err);
    if (rc != 0) {
        free(seen.id);
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (seen.n)
        qsort(seen.id, (size_t)seen.n, sizeof *seen.id, cmp_id);
    uint64_t seed = 0;
    token_random_u64(&seed);
    struct puzzle_item *it = puzzle_set_pick(srv->puzzles, g, ht ? theme : NULL, hk > 0, pr.rating,
                                             seen_has, &seen, seed);
    free(seen.id);
    if (!it) {
        api_set_error_code(r, 404, "no_puzzle", "no %s puzzle%s%s", g->name, ht ? " of theme " : "",
                           ht ? theme : "");
        return;
    }
    const struct puzzle_entry *e = &it->e;
    /* Served to this token now (its attempt is timed from here); a token the server never
     * issued gets a new one, as a visitor without a token does (issue 25). */
    int64_t now = server_now_ms();
    /* A token the server knows otherwise (a player's: games, a name, progress) is one it
     * issued too (API.md "One identity"): their puzzles are the same player's. */
    int player = 0;
    int served = fresh ? 0 : store_token_known(srv->store, hash, &player, err, sizeof err);
    if (served == 0)
        served =
            fresh ? 1 : store_puzzle_serve(srv->store, hash, e->id, player, now, err, sizeof err);
    if (served == 1) {
        if (req->client && !ratelimit_take(srv->puzzles->tokens, req->client, now)) {
            api_set_error_code(r, 429, "too_many_players",
                               "too many new puzzle players from this address: at most %d a "
                               "minute",
                               PUZZLE_TOKENS_PER_MINUTE);
            return;
        }
        if (!fresh && token_random_hex(token, TOKEN_HEX_LEN / 2) != 0) {
            api_set_error(r, 500, "no randomness from the kernel");
            return;
        }
        fresh = 1;
        token_hash(token, hash);
        served = store_puzzle_serve(srv->store, hash, e->id, 1, now, err, sizeof err);
    }
    if (served < 0) {
        api_store_error(r, served, "%s", err);
        return;
    }
    if (served != 0) {
        api_set_error(r, 500, "the puzzle could not be served");
        return;
    }
    pthread_mutex_lock(&srv->puzzles->mu);
    struct glicko2 rating = it->r;
    int attempts = it->attempts, solved = it->solved;
    pthread_mutex_unlock(&srv->puzzles->mu);
    struct jout j;
    jout_init(&j, 16384);
    jout_open(&j, '{');
    if (fresh)
        jout_kstr(&j, "token", token);
    jout_key(&j, "puzzle");
    jout_open(&j, '{');
    jout_kstr(&j, "id", e->id);
    jout_kstr(&j, "game", g->name);
    jout_kstr(&j, "title", g->title);
    jout_kstr(&j, "position", e->position);
    jout_key(&j, "themes");
    jout_open(&j, '[');
    for (int i = 0; i < e->nthemes; i++)
        jout_str(&j, e->themes[i]);
    jout_close(&j, ']');
    jout_kint(&j, "rating", lround(rating.rating));
    jout_kint(&j, "attempts", attempts);
    jout_kint(&j, "solved", solved);
    void *st = game_state_new(g);
    if (st && g->parse_position(st, e->position, err, sizeof err) == 0)
        jout_kstr(&j, "solver", g->side_to_move(st) == SIDE_WHITE ? "white" : "black");
    free(st);
    jout_kint(&j, "solver_moves", it->solver_moves);
    judge_out(&j, e);
    solution_out(&j, e);
    jout_key(&j, "steps");
    jout_open(&j, '[');
    for (int k = 0; k < it->solver_moves; k++) {
        char *t = step_text(e, k);
        if (t)
            jout_raw(&j, t);
        free(t);
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    struct glicko2 p = {pr.rating, pr.deviation, pr.volatility};
    rating_out(&j, "player", &p, 0, pr.attempts, pr.solved);
    jout_kint(&j, "streak", pr.streak);
    jout_close(&j, '}');
    jout_kint(&j, "streak", pr.streak); /* also beside "player", as API.md's table has it */
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

/* ---- POST /api/puzzles/{id}/attempts ------------------------------------------------ */

/* Judge the solver's moves `tried` against the solution (at the last step, one of its
 * alternatives is right too): 1 solved, 0 not; -1 with a 400 set for a move that is
 * not legal, or moves after a wrong one. */
static int judge(const struct puzzle_item *it, json_t *tried, struct api_response *r)
{
    const struct puzzle_entry *e = &it->e;
    const struct game *g = e->g;
    size_t n = json_array_size(tried);
    if (n > (size_t)it->solver_moves) {
        api_set_error(r, 400, "\"moves\": at most %d moves (the solver's)", it->solver_moves);
        return -1;
    }
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    if (!st || g->parse_position(st, e->position, err, sizeof err) != 0) {
        free(st);
        api_set_error(r, 500, "the puzzle's position does not read");
        return -1;
    }
    int right = 0, rc = 0;
    for (size_t k = 0; k < n; k++) {
        const char *text = json_string_value(json_array_get(tried, k));
        Move m, want;
        char canon[MOVE_TEXT_MAX];
        if (!text) {
            api_set_error(r, 400, "\"moves\": move %zu is not a string", k + 1);
            rc = -1;
            break;
        }
        if ((size_t)right < k) {
            api_set_error(r, 400, "\"moves\": move %zu comes after a wrong move", k + 1);
            rc = -1;
            break;
        }
        if (g->parse_move(st, text, &m, err, sizeof err) != 0) {
            api_set_error(r, 400, "\"moves\": move %zu '%.40s': %s", k + 1, text, err);
            rc = -1;
            break;
        }
        g->move_text(st, m, canon, sizeof canon);
        /* The solution's move, or at the last step one of its alternatives. */
        if (!puzzle_entry_accepts(e, (int)k, canon) ||
            g->parse_move(st, canon, &want, err, sizeof err) != 0)
            continue; /* wrong: the attempt ends here */
        right++;
        g->make_move(st, want);
        if (2 * k + 1 < (size_t)e->n &&
            g->parse_move(st, e->moves[2 * k + 1], &want, err, sizeof err) == 0)
            g->make_move(st, want);
    }
    free(st);
    return rc < 0 ? -1 : right == it->solver_moves;
}

static void handle_attempt(struct server *srv, const struct api_request *req, const char *id,
                           struct api_response *r)
{
    const char *tok = api_bearer(req);
    if (!tok || !token_well_formed(tok)) {
        api_set_error_code(r, 403, "no_token",
                           "missing or malformed token: send 'Authorization: Bearer <token>'");
        return;
    }
    struct puzzle_item *it = puzzle_set_find(srv->puzzles, id);
    if (!it) {
        api_set_error_code(r, 404, "puzzle_not_found", "no such puzzle '%.60s'", id);
        return;
    }
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    json_t *moves = json_object_get(body, "moves");
    if (!json_is_array(moves)) {
        json_decref(body);
        api_set_error(r, 400, "\"moves\" must be an array of the solver's move texts");
        return;
    }
    int solved = judge(it, moves, r);
    json_decref(body);
    if (solved < 0)
        return;
    const struct game *g = it->e.g;
    struct puzzle_set *ps = srv->puzzles;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    api_bearer_hash(srv, req, hash); /* tok is well-formed: checked above */
    /* Counted only for a token the server served this puzzle to, no sooner than a person
     * reads it, within the address's rated attempts a minute (issue 25). */
    int64_t now = server_now_ms(), served_ms = 0;
    int64_t read_ms = srv->cfg.puzzle_read_ms > 0   ? srv->cfg.puzzle_read_ms
                      : srv->cfg.puzzle_read_ms < 0 ? 0
                                                    : PUZZLE_READ_MS;
    int sv = store_puzzle_served(srv->store, hash, it->e.id, &served_ms, err, sizeof err);
    if (sv < 0) {
        api_store_error(r, sv, "%s", err);
        return;
    }
    const char *why = sv                          ? "not-served"
                      : now - served_ms < read_ms ? "too-fast"
                      : req->client && !ratelimit_take(ps->attempts, req->client, now)
                          ? "rate-limit"
                          : NULL;
    /* Attempts one at a time: a player's rating is read, updated and stored whole. */
    pthread_mutex_lock(&ps->attempt_mu);
    struct store_puzzle_rating pr;
    struct glicko2 p0, p1, zr, z1;
    int z_attempts, z_solved, rc;
    struct store_puzzle_attempt a;
    /* Computed from the stored counts; when another server counted an attempt meanwhile
     * (2: nothing stored), the ratings are read again and it is computed again. */
    for (int tries = 0;; tries++) {
        if (player_rating(srv, hash, g, &pr, r) != 0) {
            pthread_mutex_unlock(&ps->attempt_mu);
            return;
        }
        pthread_mutex_lock(&ps->mu);
        zr = it->r;
        z_attempts = it->attempts;
        z_solved = it->solved;
        pthread_mutex_unlock(&ps->mu);
        p0 = (struct glicko2){pr.rating, pr.deviation, pr.volatility};
        struct glicko2_game vs_puzzle = {zr, solved ? 1.0 : 0.0};
        struct glicko2_game vs_player = {p0, solved ? 0.0 : 1.0};
        p1 = glicko2_update(p0, &vs_puzzle, 1, GLICKO2_TAU);
        /* The puzzle's rating moves only with an established player's attempt. */
        z1 = pr.deviation <= PUZZLE_ESTABLISHED_DEVIATION
                 ? glicko2_update(zr, &vs_player, 1, GLICKO2_TAU)
                 : zr;
        a = (struct store_puzzle_attempt){
            .game = g->name,
            .puzzle_id = it->e.id,
            .solved = solved,
            .now_ms = server_now_ms(),
            .player = {p1.rating, p1.deviation, p1.volatility, pr.attempts + 1, pr.solved + solved,
                       solved ? pr.streak + 1 : 0},
            .puzzle = {z1.rating, z1.deviation, z1.volatility, z_attempts + 1, z_solved + solved,
                       0},
        };
        snprintf(a.token_hash, sizeof a.token_hash, "%s", hash);
        rc = why ? 1 : store_puzzle_attempt(srv->store, &a, err, sizeof err);
        if (rc != 2)
            break;
        if (tries == PUZZLE_ATTEMPT_TRIES - 1 ||
            puzzle_set_reread(ps, srv->store, it, err, sizeof err) != 0) {
            pthread_mutex_unlock(&ps->attempt_mu);
            api_set_error_code(r, 503, "busy",
                               "the puzzle's rating kept changing meanwhile; try again");
            return;
        }
    }
    if (rc == 0) {
        pthread_mutex_lock(&ps->mu);
        it->r = z1;
        it->attempts = a.puzzle.attempts;
        it->solved = a.puzzle.solved;
        pthread_mutex_unlock(&ps->mu);
    }
    pthread_mutex_unlock(&ps->attempt_mu);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    bool counted = rc == 0;
    struct jout j;
    jout_init(&j, 2048);
    jout_open(&j, '{');
    jout_kstr(&j, "id", it->e.id);
    jout_kbool(&j, "solved", solved);
    jout_kbool(&j, "counted", counted);
    if (!counted)
        jout_kstr(&j, "why", why ? why : "attempted");
    solution_out(&j, &it->e);
    if (counted) {
        rating_out(&j, "player", &p1, p1.rating - p0.rating, a.player.attempts, a.player.solved);
        jout_kint(&j, "streak", a.player.streak);
        jout_close(&j, '}');
        rating_out(&j, "puzzle", &z1, z1.rating - zr.rating, a.puzzle.attempts, a.puzzle.solved);
    } else {
        rating_out(&j, "player", &p0, 0, pr.attempts, pr.solved);
        jout_kint(&j, "streak", pr.streak);
        jout_close(&j, '}');
        rating_out(&j, "puzzle", &zr, 0, z_attempts, z_solved);
    }
    jout_close(&j, '}');
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

void puzzles_list(struct server *srv, const struct api_request *req, const struct route_args *a,
                  struct api_response *r)
{
    (void)req, (void)a;
    handle_list(srv, r);
}

void puzzles_next(struct server *srv, const struct api_request *req, const struct route_args *a,
                  struct api_response *r)
{
    (void)a;
    handle_next(srv, req, r);
}

void puzzles_attempt(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    if (strlen(a->param[0]) >= PUZZLE_ID_MAX)
        api_set_error(r, 404, "no such API path '%.100s'", a->path);
    else
        handle_attempt(srv, req, a->param[0], r);
}
