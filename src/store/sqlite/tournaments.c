/* The SQLite backend's part for tournaments (store.h "Tournaments"): the tournament,
 * its entrants, its games (rows of the games table carrying its id), the pairing that
 * creates a game only while neither player has one of the tournament's games on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "store/sqlite/private.h"

#define TOURNEY_COLUMNS                                                                            \
    "id, kind, name, game, clock_initial_ms, clock_increment_ms, days, rated, starts_ms,"          \
    " duration_ms, rounds, min_rating, max_rating, club_id, creator_hash, creator_name, status,"   \
    " round, created_ms"

static void read_tournament(sqlite3_stmt *st, struct store_tournament *t)
{
    memset(t, 0, sizeof *t);
    sq_text(st, 0, t->id, sizeof t->id);
    t->kind = sqlite3_column_int(st, 1);
    sq_text(st, 2, t->name, sizeof t->name);
    sq_text(st, 3, t->game, sizeof t->game);
    t->clock_initial_ms = sqlite3_column_int64(st, 4);
    t->clock_increment_ms = sqlite3_column_int64(st, 5);
    t->days = sqlite3_column_int(st, 6);
    t->rated = sqlite3_column_int(st, 7);
    t->starts_ms = sqlite3_column_int64(st, 8);
    t->duration_ms = sqlite3_column_int64(st, 9);
    t->rounds = sqlite3_column_int(st, 10);
    t->min_rating = sqlite3_column_int(st, 11);
    t->max_rating = sqlite3_column_int(st, 12);
    sq_text(st, 13, t->club_id, sizeof t->club_id);
    sq_text(st, 14, t->creator_hash, sizeof t->creator_hash);
    sq_text(st, 15, t->creator_name, sizeof t->creator_name);
    t->status = sqlite3_column_int(st, 16);
    t->round = sqlite3_column_int(st, 17);
    t->created_ms = sqlite3_column_int64(st, 18);
}

static const char sql_put[] = "INSERT INTO tournaments (" TOURNEY_COLUMNS ") VALUES (?1, ?2, ?3,"
                              " ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
                              " ?18, ?19)";

static int create_tournament(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const struct store_tournament *t = ctx;
    return sq_done(sq_bind(s, sql_put, "tittIIiiIIiiitttiiI", t->id, t->kind, t->name, t->game,
                           t->clock_initial_ms, t->clock_increment_ms, t->days, t->rated,
                           t->starts_ms, t->duration_ms, t->rounds, t->min_rating, t->max_rating,
                           t->club_id, t->creator_hash, t->creator_name, t->status, t->round,
                           t->created_ms));
}

int sqlite_store_create_tournament(struct store *s, const struct store_tournament *t, char *err,
                                   size_t err_size)
{
    return sqlite_store_write(s, create_tournament, (void *)t, "create tournament", err, err_size);
}

struct get_ctx {
    const char *id;
    struct store_tournament *t;
};

static const char sql_get[] = "SELECT " TOURNEY_COLUMNS " FROM tournaments WHERE id = ?1";

static int get_tournament(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct get_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get, "t", g->id);
    int row = sq_row(st);
    if (row > 0)
        read_tournament(st, g->t);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_tournament(struct store *s, const char *id, struct store_tournament *t,
                                char *err, size_t err_size)
{
    struct get_ctx g = {id, t};
    return sqlite_store_read(s, get_tournament, &g, "tournament", err, err_size);
}

struct list_ctx {
    int status;
    const char *club;
    int limit;
    store_tournament_fn fn;
    void *ctx;
};

/* ?1 status (-1 any), ?2 club (NULL any), ?3 limit: finished ones latest first. */
static const char sql_list[] =
    "SELECT " TOURNEY_COLUMNS " FROM tournaments WHERE (?1 < 0 OR status = ?1)"
    " AND (?2 IS NULL OR club_id = ?2)"
    " ORDER BY CASE WHEN status = 2 THEN -starts_ms ELSE starts_ms END, id LIMIT ?3";

static int list_tournaments(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *q = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_list);
    if (!st)
        return -1;
    sqlite3_bind_int(st, 1, q->status);
    if (q->club)
        sqlite3_bind_text(st, 2, q->club, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 2);
    sqlite3_bind_int(st, 3, q->limit);
    int row;
    struct store_tournament t;
    while ((row = sq_row(st)) > 0) {
        read_tournament(st, &t);
        q->fn(q->ctx, &t);
    }
    return row;
}

int sqlite_store_list_tournaments(struct store *s, int status, const char *club_id, int limit,
                                  store_tournament_fn fn, void *ctx, char *err, size_t err_size)
{
    struct list_ctx q = {status, club_id, limit, fn, ctx};
    return sqlite_store_read(s, list_tournaments, &q, "tournaments", err, err_size);
}

struct status_ctx {
    const char *id;
    int from, to, round;
};

static const char sql_status[] = "UPDATE tournaments SET status = ?3,"
                                 " round = CASE WHEN ?4 < 0 THEN round ELSE ?4 END"
                                 " WHERE id = ?1 AND status = ?2";

static int set_status(struct store *s, sqlite3 *db, void *ctx)
{
    struct status_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_status, "tiii", q->id, q->from, q->to, q->round)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_set_tournament_status(struct store *s, const char *id, int from, int to, int round,
                                       char *err, size_t err_size)
{
    struct status_ctx q = {id, from, to, round};
    return sqlite_store_write(s, set_status, &q, "tournament status", err, err_size);
}

struct join_ctx {
    const char *id;
    const struct store_entrant *e;
    int64_t now;
};

static const char sql_join[] =
    "INSERT INTO tournament_entrants (tournament_id, token_hash, name, rating, state, joined_ms,"
    " active_ms) SELECT ?1, ?2, ?3, ?4, 0, ?5, ?5 FROM tournaments WHERE id = ?1 AND status < 2"
    " ON CONFLICT (tournament_id, token_hash) DO UPDATE SET state = 0, active_ms = ?5,"
    " name = excluded.name WHERE state <> 0";

static int join(struct store *s, sqlite3 *db, void *ctx)
{
    struct join_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_join, "tttiI", q->id, q->e->token_hash, q->e->name, q->e->rating,
                        q->now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_join_tournament(struct store *s, const char *id, const struct store_entrant *e,
                                 int64_t now_ms, char *err, size_t err_size)
{
    struct join_ctx q = {id, e, now_ms};
    return sqlite_store_write(s, join, &q, "join tournament", err, err_size);
}

struct state_ctx {
    const char *id, *hash;
    int state;
    int64_t now;
};

static const char sql_state[] = "UPDATE tournament_entrants SET state = ?3,"
                                " active_ms = CASE WHEN ?3 = 0 THEN ?4 ELSE active_ms END"
                                " WHERE tournament_id = ?1 AND token_hash = ?2";

static int set_state(struct store *s, sqlite3 *db, void *ctx)
{
    struct state_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_state, "ttiI", q->id, q->hash, q->state, q->now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_set_entrant_state(struct store *s, const char *id, const char *token_hash,
                                   int state, int64_t now_ms, char *err, size_t err_size)
{
    struct state_ctx q = {id, token_hash, state, now_ms};
    return sqlite_store_write(s, set_state, &q, "entrant state", err, err_size);
}

struct entrants_ctx {
    const char *id;
    store_entrant_fn fn;
    void *ctx;
};

static const char sql_entrants[] =
    "SELECT e.token_hash, e.name, CASE WHEN p.hidden = 0 THEN p.id ELSE '' END, e.rating,"
    " e.state, e.joined_ms, e.active_ms FROM tournament_entrants e LEFT JOIN players p"
    " ON p.token_hash = e.token_hash WHERE e.tournament_id = ?1 ORDER BY e.joined_ms,"
    " e.token_hash";

static int entrants(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct entrants_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_entrants, "t", q->id);
    int row;
    struct store_entrant e;
    while ((row = sq_row(st)) > 0) {
        memset(&e, 0, sizeof e);
        sq_text(st, 0, e.token_hash, sizeof e.token_hash);
        sq_text(st, 1, e.name, sizeof e.name);
        sq_text(st, 2, e.player_id, sizeof e.player_id);
        e.rating = sqlite3_column_int(st, 3);
        e.state = sqlite3_column_int(st, 4);
        e.joined_ms = sqlite3_column_int64(st, 5);
        e.active_ms = sqlite3_column_int64(st, 6);
        q->fn(q->ctx, &e);
    }
    return row;
}

int sqlite_store_list_entrants(struct store *s, const char *id, store_entrant_fn fn, void *ctx,
                               char *err, size_t err_size)
{
    struct entrants_ctx q = {id, fn, ctx};
    return sqlite_store_read(s, entrants, &q, "entrants", err, err_size);
}

struct pair_ctx {
    const char *id;
    int round;
    const struct store_game *g;
};

/* ?1 the tournament, ?2 and ?3 the players: 1 when the pairing may be made. */
static const char sql_may_pair[] =
    "SELECT (SELECT status FROM tournaments WHERE id = ?1) = 1"
    " AND (SELECT count(*) FROM tournament_entrants WHERE tournament_id = ?1"
    "      AND token_hash IN (?2, ?3) AND state = 0) = 2"
    " AND NOT EXISTS (SELECT 1 FROM games WHERE tournament_id = ?1 AND result = 0"
    "      AND (white_hash IN (?2, ?3) OR black_hash IN (?2, ?3)))";
static const char sql_mark_game[] = "UPDATE games SET tournament_id = ?2, round = ?3 WHERE id = ?1";

static int pair(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pair_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_may_pair, "ttt", q->id, q->g->white_hash, q->g->black_hash);
    int row = sq_row(st);
    if (row < 0)
        return -1;
    int ok = sqlite3_column_int(st, 0);
    sq_end(st);
    if (!ok)
        return 1;
    if (sqlite_insert_people_game(s, q->g) != 0)
        return -1;
    return sq_done(sq_bind(s, sql_mark_game, "tti", q->g->id, q->id, q->round));
}

int sqlite_store_pair_tournament_game(struct store *s, const char *id, int round,
                                      const struct store_game *game, char *err, size_t err_size)
{
    struct pair_ctx q = {id, round, game};
    return sqlite_store_write(s, pair, &q, "pair tournament game", err, err_size);
}

struct games_ctx {
    const char *id;
    store_game_fn fn;
    void *ctx;
};

static int tgames(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct games_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sqlite_tournament_games_sql, "t", q->id);
    int row;
    struct store_game g;
    while ((row = sq_row(st)) > 0) {
        sqlite_read_game_row(st, &g);
        q->fn(q->ctx, &g);
    }
    return row;
}

int sqlite_store_tournament_games(struct store *s, const char *id, store_game_fn fn, void *ctx,
                                  char *err, size_t err_size)
{
    struct games_ctx q = {id, fn, ctx};
    return sqlite_store_read(s, tgames, &q, "tournament games", err, err_size);
}

struct berserk_ctx {
    const char *id, *game;
    int side;
};

/* Before the side's first move: white's is ply 1, black's ply 2. */
static const char sql_berserk[] =
    "UPDATE games SET berserk = berserk | ?3 WHERE id = ?2 AND tournament_id = ?1 AND result = 0"
    " AND (SELECT count(*) FROM moves WHERE game_id = games.id) < ?4 AND (berserk & ?3) = 0";

static int berserk(struct store *s, sqlite3 *db, void *ctx)
{
    struct berserk_ctx *q = ctx;
    int bit = q->side == SIDE_WHITE ? 1 : 2, plies = q->side == SIDE_WHITE ? 1 : 2;
    if (sq_done(sq_bind(s, sql_berserk, "ttii", q->id, q->game, bit, plies)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_berserk(struct store *s, const char *id, const char *game_id, int side, char *err,
                         size_t err_size)
{
    struct berserk_ctx q = {id, game_id, side};
    return sqlite_store_write(s, berserk, &q, "berserk", err, err_size);
}

struct swiss_ctx {
    const char *id;
    int round;
    const struct store_game *games;
    int n;
    const char *bye;
};

static const char sql_next_round[] = "UPDATE tournaments SET round = ?2 WHERE id = ?1"
                                     " AND round = ?2 - 1 AND status = 1";
static const char sql_bye[] =
    "INSERT INTO tournament_byes (tournament_id, round, token_hash) VALUES (?1, ?2, ?3)";

static int swiss_round(struct store *s, sqlite3 *db, void *ctx)
{
    struct swiss_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_next_round, "ti", q->id, q->round)) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1;
    for (int i = 0; i < q->n; i++)
        if (sqlite_insert_people_game(s, &q->games[i]) != 0 ||
            sq_done(sq_bind(s, sql_mark_game, "tti", q->games[i].id, q->id, q->round)) != 0)
            return -1;
    if (q->bye[0] && sq_done(sq_bind(s, sql_bye, "tit", q->id, q->round, q->bye)) != 0)
        return -1;
    return 0;
}

int sqlite_store_swiss_round(struct store *s, const char *id, int round,
                             const struct store_game *games, int n, const char *bye_hash, char *err,
                             size_t err_size)
{
    struct swiss_ctx q = {id, round, games, n, bye_hash ? bye_hash : ""};
    return sqlite_store_write(s, swiss_round, &q, "swiss round", err, err_size);
}

struct byes_ctx {
    const char *id;
    store_bye_fn fn;
    void *ctx;
};

static const char sql_byes[] = "SELECT round, token_hash FROM tournament_byes"
                               " WHERE tournament_id = ?1 ORDER BY round";

static int byes(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct byes_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_byes, "t", q->id);
    int row;
    char hash[STORE_HASH_LEN + 1];
    while ((row = sq_row(st)) > 0) {
        sq_text(st, 1, hash, sizeof hash);
        q->fn(q->ctx, sqlite3_column_int(st, 0), hash);
    }
    return row;
}

int sqlite_store_tournament_byes(struct store *s, const char *id, store_bye_fn fn, void *ctx,
                                 char *err, size_t err_size)
{
    struct byes_ctx q = {id, fn, ctx};
    return sqlite_store_read(s, byes, &q, "tournament byes", err, err_size);
}
