/* The players' room (players_api.h; API.md "Players").  Everything here reads: the
 * page, the search, the archive and the leaderboards are answered from the store at
 * request time (its indexes make that cheap), so they are as fresh as the last game
 * that ended.  A hidden player (POST /api/me {"hidden": true}) is in no search and on
 * no leaderboard, and their page answers only to themself; their games still show in
 * their opponents' archives, under the name they played with, without a link. */
#include "server/players/players_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/game.h"
#include "core/json_out.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/server_state.h"

#define SEARCH_MAX 20      /* players a search answers at most */
#define PAGE_GAMES 20      /* games a page of the archive */
#define PAGE_MAX 1000      /* the last page asked for */
#define RECENT_GAMES 10    /* games on the player's page */
#define HISTORY_POINTS 500 /* points of the rating history on the page */
#define EXPORT_MAX 200     /* games in one export */
#define BOARD_MAX 100      /* players on a leaderboard */
#define QUERY_TEXT_MAX 161 /* a decoded query value's bytes (40 characters of UTF-8) + NUL */
#define ESTABLISHED_DEVIATION 110.0 /* below: the rating is established (not provisional) */
#define DAY_MS (24 * 3600 * 1000LL)

static const char *const classes[] = {"blitz", "rapid", "classical", "correspondence"};

/* ---- the query ---- */

/* "YYYY-MM-DD" (UTC) as the milliseconds of its midnight; -1 when it is no date. */
static int64_t parse_date(const char *t)
{
    int y, m, d, used = 0;
    if (strlen(t) != 10 || sscanf(t, "%4d-%2d-%2d%n", &y, &m, &d, &used) != 3 || used != 10 ||
        t[4] != '-' || t[7] != '-')
        return -1;
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
        return -1;
    /* Days since 1970-01-01 (the civil calendar's count from March). */
    int yy = m <= 2 ? y - 1 : y;
    int era = yy / 400, yoe = yy - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    long long days = (long long)era * 146097 + doe - 719468;
    return days * DAY_MS;
}

/* ---- the player ---- */

static bool player_id_well_formed(const char *id)
{
    if (strlen(id) != STORE_PLAYER_ID_LEN)
        return false;
    for (const char *c = id; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

/* The player of the path's id, as the requester may see them: 0, or the error set in r
 * (a hidden player is unknown to all but themself).  *self: the requester is them. */
static int load_player(struct server *srv, const struct api_request *req, const char *id,
                       struct store_player *p, bool *self, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int rc = player_id_well_formed(id) ? store_player_by_id(srv->store, id, p, err, sizeof err) : 1;
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    *self = false;
    char hash[STORE_HASH_LEN + 1];
    if (rc == 0 && api_bearer_hash(srv, req, hash) == 0)
        *self = token_equal(hash, p->token_hash);
    if (rc == 1 || (p->hidden && !*self)) {
        api_set_error_code(r, 404, "no_player", "no player '%.40s'", id);
        return -1;
    }
    return 0;
}

/* ---- a game as a player's archive shows it ---- */

struct rows {
    struct store_game *row;
    int n, cap;
};

static void keep_row(void *ctx, const struct store_game *row)
{
    struct rows *l = ctx;
    if (l->n == l->cap)
        return;
    l->row[l->n++] = *row;
}

static int my_side(const struct store_game *g, const char *hash)
{
    if (!g->people)
        return g->human_side;
    return token_equal(g->white_hash, hash) ? SIDE_WHITE : SIDE_BLACK;
}

static const char *outcome(const struct store_game *g, int side)
{
    if (g->result == RESULT_ONGOING)
        return "ongoing";
    if (g->reason == REASON_ABORTED)
        return "aborted";
    if (g->result == RESULT_DRAW)
        return "draw";
    return g->result - 1 == side ? "win" : "loss";
}

static void game_out(struct server *srv, struct jout *j, const struct store_game *g,
                     const char *hash)
{
    const struct game *kind = game_find(g->game);
    int side = my_side(g, hash);
    jout_open(j, '{');
    jout_kstr(j, "id", g->id);
    jout_kstr(j, "game", g->game);
    jout_kint(j, "created", g->created_ms);
    jout_kint(j, "updated", g->updated_ms);
    jout_kstr(j, "side", side == SIDE_WHITE ? "white" : "black");
    jout_kstr(j, "result", outcome(g, side));
    if (g->result != RESULT_ONGOING && kind)
        jout_kstr(j, "reason", reason_name(kind, g->reason));
    jout_kint(j, "plies", g->plies);
    jout_key(j, "opponent");
    jout_open(j, '{');
    if (g->people) {
        const char *name = side == SIDE_WHITE ? g->black_name : g->white_name;
        const char *opp = side == SIDE_WHITE ? g->black_hash : g->white_hash;
        jout_kstr(j, "name", name);
        struct store_player p;
        char err[ERROR_TEXT_MAX];
        if (store_player_by_hash(srv->store, opp, &p, err, sizeof err) == 0 && !p.hidden)
            jout_kstr(j, "id", p.id);
    } else {
        jout_kint(j, "level", g->level);
    }
    jout_close(j, '}');
    jout_kbool(j, "rated", g->people && g->rated && !g->rated_capped);
    const char *klass =
        g->people ? people_clock_class(g->clock_initial_ms, g->clock_increment_ms, g->days) : NULL;
    if (klass)
        jout_kstr(j, "class", klass);
    int after = side == SIDE_WHITE ? g->white_rating_after : g->black_rating_after;
    if (after)
        jout_kint(j, "rating_after", after);
    if (g->club_id[0])
        jout_kstr(j, "club", g->club_id);
    jout_close(j, '}');
}

/* ---- the archive's filters ---- */

struct filters {
    char game[STORE_NAME_MAX];
    char opponent[STORE_HASH_LEN + 1];
    struct store_archive q;
};

static int bad_query(struct api_response *r, const char *key, const char *why)
{
    api_set_error_code(r, 400, "bad_query", "bad '%s' in the query: %s", key, why);
    return -1;
}

/* The query's filters for the player `hash` into f: 0, or the error set in r. */
static int read_filters(struct server *srv, const struct api_request *req, const char *hash,
                        struct filters *f, struct api_response *r)
{
    char v[QUERY_TEXT_MAX], err[ERROR_TEXT_MAX];
    memset(f, 0, sizeof *f);
    f->q.token_hash = hash;
    f->q.game = f->game;
    f->q.opponent_hash = f->opponent;
    int h = api_query_text(req->url, "game", v, sizeof v);
    if (h != 0) {
        const struct game *g = h > 0 && v[0] ? game_find(v) : NULL;
        if (!g)
            return bad_query(r, "game", "no such game");
        snprintf(f->game, sizeof f->game, "%s", g->name);
    }
    h = api_query_text(req->url, "opponent", v, sizeof v);
    if (h < 0)
        return bad_query(r, "opponent", "a player's id or 'computer'");
    if (h > 0 && !strcmp(v, "computer")) {
        f->q.computer = 1;
    } else if (h > 0) {
        struct store_player p;
        int rc =
            player_id_well_formed(v) ? store_player_by_id(srv->store, v, &p, err, sizeof err) : 1;
        if (rc < 0) {
            api_store_error(r, rc, "%s", err);
            return -1;
        }
        if (rc == 1) {
            api_set_error_code(r, 404, "no_player", "no player '%.40s'", v);
            return -1;
        }
        snprintf(f->opponent, sizeof f->opponent, "%s", p.token_hash);
    }
    h = api_query_text(req->url, "result", v, sizeof v);
    if (h != 0) {
        static const char *const names[] = {"", "win", "draw", "loss", "ongoing"};
        for (int i = 1; h > 0 && i < 5; i++)
            if (!strcmp(v, names[i]))
                f->q.outcome = i;
        if (!f->q.outcome)
            return bad_query(r, "result", "win, draw, loss or ongoing");
    }
    const char *dates[2] = {"from", "to"};
    for (int i = 0; i < 2; i++) {
        h = api_query_text(req->url, dates[i], v, sizeof v);
        if (h == 0)
            continue;
        int64_t ms = h > 0 ? parse_date(v) : -1;
        if (ms < 0) {
            api_set_error_code(r, 400, "bad_date", "bad '%s': a date is YYYY-MM-DD", dates[i]);
            return -1;
        }
        if (i == 0)
            f->q.from_ms = ms;
        else
            f->q.to_ms = ms + DAY_MS; /* the whole of that day */
    }
    if (f->q.to_ms && f->q.to_ms <= f->q.from_ms) {
        api_set_error_code(r, 400, "bad_date", "'to' is before 'from'");
        return -1;
    }
    return 0;
}

/* Read the player's games as f says, at most `limit` from `offset`, into l: 0, or the
 * error set in r. */
static int read_games(struct server *srv, struct filters *f, int offset, int limit, struct rows *l,
                      struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    l->row = calloc((size_t)limit, sizeof *l->row);
    l->n = 0;
    l->cap = limit;
    if (!l->row) {
        api_set_error(r, 500, "out of memory");
        return -1;
    }
    f->q.offset = offset;
    f->q.limit = limit;
    int rc = store_archive_games(srv->store, &f->q, keep_row, l, err, sizeof err);
    if (rc != 0) {
        free(l->row);
        l->row = NULL;
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    return 0;
}

/* ---- GET /api/players?name= ---- */

static void found_out(void *ctx, const struct store_player *p)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "id", p->id);
    jout_kstr(j, "name", p->name);
    jout_close(j, '}');
}

void players_search(struct server *srv, const struct api_request *req, const struct route_args *a,
                    struct api_response *r)
{
    (void)a;
    char text[QUERY_TEXT_MAX], err[ERROR_TEXT_MAX];
    int h = api_query_text(req->url, "name", text, sizeof text);
    if (h <= 0 || !text[0] || utf8_chars(text, strlen(text)) > STORE_PLAYER_NAME_CHARS) {
        bad_query(r, "name", "1 to 40 characters of a name");
        return;
    }
    struct jout j;
    jout_init(&j, 1024);
    jout_open(&j, '{');
    jout_key(&j, "players");
    jout_open(&j, '[');
    int rc = store_find_players(srv->store, text, SEARCH_MAX, found_out, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *body = jout_finish(&j);
    if (rc != 0) {
        free(body);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, body);
}

/* ---- GET /api/players/{id} ---- */

static void rating_out(void *ctx, const char *game, const char *klass,
                       const struct store_rating *rt, int64_t updated_ms)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "game", game);
    jout_kstr(j, "class", klass);
    jout_kint(j, "rating", (long long)(rt->rating + 0.5));
    jout_kint(j, "deviation", (long long)(rt->deviation + 0.5));
    jout_kint(j, "games", rt->games);
    jout_kbool(j, "established", rt->deviation < ESTABLISHED_DEVIATION);
    jout_kint(j, "updated", updated_ms);
    jout_close(j, '}');
}

static void point_out(void *ctx, const char *game, const char *klass, const char *game_id,
                      double rating, double deviation, int64_t at_ms)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "game", game);
    jout_kstr(j, "class", klass);
    jout_kstr(j, "game_id", game_id);
    jout_kint(j, "rating", (long long)(rating + 0.5));
    if (deviation > 0)
        jout_kint(j, "deviation", (long long)(deviation + 0.5));
    jout_kint(j, "at", at_ms);
    jout_close(j, '}');
}

static void level_out(void *ctx, const char *game, int level, int wins, int draws, int losses)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "game", game);
    jout_kint(j, "level", level);
    jout_kint(j, "wins", wins);
    jout_kint(j, "draws", draws);
    jout_kint(j, "losses", losses);
    jout_close(j, '}');
}

static void club_out(void *ctx, const char *id, const char *name, int role)
{
    struct jout *j = ctx;
    static const char *const roles[] = {"member", "admin", "creator"};
    jout_open(j, '{');
    jout_kstr(j, "id", id);
    jout_kstr(j, "name", name);
    jout_kstr(j, "role", roles[role >= 0 && role <= 2 ? role : 0]);
    jout_close(j, '}');
}

/* The player's puzzle ratings, one a game they solved puzzles of: 0, or the store's
 * answer. */
static int puzzles_out(struct server *srv, struct jout *j, const char *hash, char *err,
                       size_t err_size)
{
    jout_open(j, '[');
    for (int i = 0; game_registry[i]; i++) {
        struct store_puzzle_rating pr;
        int rc = store_puzzle_player(srv->store, hash, game_registry[i]->name, &pr, err, err_size);
        if (rc < 0)
            return rc;
        if (rc > 0 || pr.attempts == 0)
            continue;
        jout_open(j, '{');
        jout_kstr(j, "game", game_registry[i]->name);
        jout_kint(j, "rating", (long long)(pr.rating + 0.5));
        jout_kint(j, "deviation", (long long)(pr.deviation + 0.5));
        jout_kint(j, "attempts", pr.attempts);
        jout_kint(j, "solved", pr.solved);
        jout_close(j, '}');
    }
    jout_close(j, ']');
    return 0;
}

void players_get(struct server *srv, const struct api_request *req, const struct route_args *a,
                 struct api_response *r)
{
    struct store_player p;
    bool self;
    if (load_player(srv, req, a->param[0], &p, &self, r) != 0)
        return;
    char err[ERROR_TEXT_MAX];
    struct filters f;
    memset(&f, 0, sizeof f);
    f.q.token_hash = p.token_hash;
    f.q.game = f.game;
    f.q.opponent_hash = f.opponent;
    struct rows recent;
    if (read_games(srv, &f, 0, RECENT_GAMES, &recent, r) != 0)
        return;
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_kstr(&j, "id", p.id);
    jout_kstr(&j, "name", p.name);
    jout_kint(&j, "created", p.created_ms);
    if (self) {
        jout_kbool(&j, "me", true);
        jout_kbool(&j, "hidden", p.hidden);
    }
    int rc = 0;
    jout_key(&j, "ratings");
    jout_open(&j, '[');
    rc = store_player_ratings(srv->store, p.token_hash, rating_out, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_key(&j, "history");
    jout_open(&j, '[');
    if (rc == 0)
        rc = store_rating_history(srv->store, p.token_hash, HISTORY_POINTS, point_out, &j, err,
                                  sizeof err);
    jout_close(&j, ']');
    jout_key(&j, "computer");
    jout_open(&j, '[');
    if (rc == 0)
        rc = store_computer_results(srv->store, p.token_hash, level_out, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_key(&j, "puzzles");
    if (rc == 0)
        rc = puzzles_out(srv, &j, p.token_hash, err, sizeof err);
    else
        jout_raw(&j, "[]");
    jout_key(&j, "clubs");
    jout_open(&j, '[');
    if (rc == 0)
        rc = store_player_clubs(srv->store, p.token_hash, club_out, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_key(&j, "games");
    jout_open(&j, '[');
    for (int i = 0; rc == 0 && i < recent.n; i++)
        game_out(srv, &j, &recent.row[i], p.token_hash);
    jout_close(&j, ']');
    jout_close(&j, '}');
    free(recent.row);
    char *body = jout_finish(&j);
    if (rc != 0) {
        free(body);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, body);
}

/* ---- GET /api/players/{id}/games ---- */

void players_games(struct server *srv, const struct api_request *req, const struct route_args *a,
                   struct api_response *r)
{
    struct store_player p;
    bool self;
    if (load_player(srv, req, a->param[0], &p, &self, r) != 0)
        return;
    struct filters f;
    if (read_filters(srv, req, p.token_hash, &f, r) != 0)
        return;
    char v[QUERY_TEXT_MAX];
    int page = 1;
    int h = api_query_text(req->url, "page", v, sizeof v);
    if (h != 0) {
        char *end = NULL;
        long n = h > 0 && v[0] >= '1' && v[0] <= '9' ? strtol(v, &end, 10) : 0;
        if (!end || *end || n < 1 || n > PAGE_MAX) {
            bad_query(r, "page", "a page from 1 to 1000");
            return;
        }
        page = (int)n;
    }
    struct rows l;
    if (read_games(srv, &f, (page - 1) * PAGE_GAMES, PAGE_GAMES + 1, &l, r) != 0)
        return;
    struct jout j;
    jout_init(&j, 8192);
    jout_open(&j, '{');
    jout_kstr(&j, "player", p.id);
    jout_kstr(&j, "name", p.name);
    jout_kint(&j, "page", page);
    jout_kint(&j, "per_page", PAGE_GAMES);
    jout_kbool(&j, "more", l.n > PAGE_GAMES);
    jout_key(&j, "games");
    jout_open(&j, '[');
    for (int i = 0; i < l.n && i < PAGE_GAMES; i++)
        game_out(srv, &j, &l.row[i], p.token_hash);
    jout_close(&j, ']');
    jout_close(&j, '}');
    free(l.row);
    api_set_text(r, 200, jout_finish(&j));
}

/* ---- GET /api/players/{id}/games/export ---- */

/* Game `id`'s record (malloc'ed), from the store without the cache (an export must not
 * push the games being played out of memory); NULL when it cannot be made. */
static char *stored_record(struct server *srv, const char *id)
{
    char err[ERROR_TEXT_MAX];
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    if (store_load_game(srv->store, id, &row, &moves, &n, err, sizeof err) != 0)
        return NULL;
    const struct game *g = game_find(row.game);
    struct session *s = g ? session_new(srv, g, &row, err, sizeof err) : NULL;
    char *text = NULL;
    if (s && session_replay(s, moves, n, err, sizeof err) == 0)
        text = record_text(s);
    if (s)
        session_free(s);
    free(moves);
    return text;
}

void players_export(struct server *srv, const struct api_request *req, const struct route_args *a,
                    struct api_response *r)
{
    struct store_player p;
    bool self;
    if (load_player(srv, req, a->param[0], &p, &self, r) != 0)
        return;
    struct filters f;
    if (read_filters(srv, req, p.token_hash, &f, r) != 0)
        return;
    if (!f.game[0]) {
        bad_query(r, "game", "an export is of one game's records: name the game");
        return;
    }
    struct rows l;
    if (read_games(srv, &f, 0, EXPORT_MAX, &l, r) != 0)
        return;
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    for (int i = 0; out && i < l.n; i++) {
        char *rec = stored_record(srv, l.row[i].id);
        if (!rec) {
            free(out);
            out = NULL;
            break;
        }
        size_t rl = strlen(rec);
        if (len + rl + 2 > cap) {
            cap = (len + rl + 2) * 2;
            char *grown = realloc(out, cap);
            if (!grown) {
                free(rec);
                free(out);
                out = NULL;
                break;
            }
            out = grown;
        }
        memcpy(out + len, rec, rl);
        len += rl;
        free(rec);
    }
    free(l.row);
    if (!out) {
        api_set_error(r, 500, "the records could not be made");
        return;
    }
    out[len] = 0;
    r->kind = API_DONE;
    r->status = 200;
    r->body = out;
    r->content_type = "text/plain; charset=utf-8";
}

/* ---- GET /api/leaderboards/{game}/{class} ---- */

struct board {
    struct jout *j;
    int rank;
};

static void leader_out(void *ctx, const struct store_player *p, const struct store_rating *rt,
                       int64_t updated_ms)
{
    struct board *b = ctx;
    jout_open(b->j, '{');
    jout_kint(b->j, "rank", ++b->rank);
    jout_kstr(b->j, "id", p->id);
    jout_kstr(b->j, "name", p->name);
    jout_kint(b->j, "rating", (long long)(rt->rating + 0.5));
    jout_kint(b->j, "deviation", (long long)(rt->deviation + 0.5));
    jout_kint(b->j, "games", rt->games);
    jout_kint(b->j, "updated", updated_ms);
    jout_close(b->j, '}');
}

void players_leaderboard(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    (void)req;
    const struct game *g = game_find(a->param[0]);
    const char *klass = NULL;
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (!strcmp(a->param[1], classes[i]))
            klass = classes[i];
    if (!g || !klass) {
        api_set_error_code(r, 404, "no_leaderboard",
                           "no leaderboard '%.40s/%.40s': a game and blitz, rapid, classical or "
                           "correspondence",
                           a->param[0], a->param[1]);
        return;
    }
    const struct server_config *c = &srv->cfg;
    int days = c->board_days > 0 ? c->board_days : 90;
    struct store_board_rule rule = {
        .min_games = c->board_games > 0 ? c->board_games : 10,
        .max_deviation = c->board_deviation > 0 ? c->board_deviation : 110,
        .since_ms = server_now_ms() - days * DAY_MS,
        .limit = BOARD_MAX,
    };
    char err[ERROR_TEXT_MAX];
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_kstr(&j, "game", g->name);
    jout_kstr(&j, "class", klass);
    jout_key(&j, "rule");
    jout_open(&j, '{');
    jout_kint(&j, "games", rule.min_games);
    jout_kint(&j, "deviation", (long long)rule.max_deviation);
    jout_kint(&j, "days", days);
    jout_close(&j, '}');
    jout_key(&j, "players");
    jout_open(&j, '[');
    struct board b = {&j, 0};
    int rc = store_leaderboard(srv->store, g->name, klass, &rule, leader_out, &b, err, sizeof err);
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *body = jout_finish(&j);
    if (rc != 0) {
        free(body);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, body);
}
