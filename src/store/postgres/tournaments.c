/* The PostgreSQL backend's part for tournaments (store.h "Tournaments"), as SQLite's
 * (sqlite/tournaments.c).  A pairing locks both entrants' rows first (in one order),
 * so that of two servers pairing one player at once the second waits for the first's
 * commit and then sees its game: a player is never paired twice. */
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "store/postgres/private.h"

#define TOURNEY_COLUMNS                                                                            \
    "id, kind, name, game, clock_initial_ms, clock_increment_ms, days, rated, starts_ms,"          \
    " duration_ms, rounds, min_rating, max_rating, club_id, creator_hash, creator_name, status,"   \
    " round, created_ms"

static void read_row(const PGresult *r, int i, struct store_tournament *t)
{
    memset(t, 0, sizeof *t);
    pg_col_text(r, i, 0, t->id, sizeof t->id);
    t->kind = pg_col_int(r, i, 1);
    pg_col_text(r, i, 2, t->name, sizeof t->name);
    pg_col_text(r, i, 3, t->game, sizeof t->game);
    t->clock_initial_ms = pg_col_int64(r, i, 4);
    t->clock_increment_ms = pg_col_int64(r, i, 5);
    t->days = pg_col_int(r, i, 6);
    t->rated = pg_col_int(r, i, 7);
    t->starts_ms = pg_col_int64(r, i, 8);
    t->duration_ms = pg_col_int64(r, i, 9);
    t->rounds = pg_col_int(r, i, 10);
    t->min_rating = pg_col_int(r, i, 11);
    t->max_rating = pg_col_int(r, i, 12);
    pg_col_text(r, i, 13, t->club_id, sizeof t->club_id);
    pg_col_text(r, i, 14, t->creator_hash, sizeof t->creator_hash);
    pg_col_text(r, i, 15, t->creator_name, sizeof t->creator_name);
    t->status = pg_col_int(r, i, 16);
    t->round = pg_col_int(r, i, 17);
    t->created_ms = pg_col_int64(r, i, 18);
}

static const char sql_put[] = "INSERT INTO tournaments (" TOURNEY_COLUMNS ") VALUES ($1, $2, $3,"
                              " $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,"
                              " $18, $19)";

static int create_tournament(struct pg_conn *c, void *ctx)
{
    const struct store_tournament *t = ctx;
    return pg_do(c, sql_put, "tittIIiiIIiiitttiiI", t->id, t->kind, t->name, t->game,
                 t->clock_initial_ms, t->clock_increment_ms, t->days, t->rated, t->starts_ms,
                 t->duration_ms, t->rounds, t->min_rating, t->max_rating, t->club_id,
                 t->creator_hash, t->creator_name, t->status, t->round, t->created_ms) == 1
               ? 0
               : -1;
}

int pg_store_create_tournament(struct store *s, const struct store_tournament *t, char *err,
                               size_t err_size)
{
    return pg_store_write(s, create_tournament, (void *)t, "create tournament", err, err_size);
}

static const char sql_get[] = "SELECT " TOURNEY_COLUMNS " FROM tournaments WHERE id = $1";

static void read_one(void *ctx, const PGresult *r)
{
    read_row(r, 0, ctx);
}

int pg_store_get_tournament(struct store *s, const char *id, struct store_tournament *t, char *err,
                            size_t err_size)
{
    return pg_one(pg_store_query(s, "tournament", err, err_size, sql_get, "t", id), read_one, t);
}

/* $1 status (-1 any), $2 1: any club, else only club $3 ("" none); $4 limit. */
static const char sql_list[] =
    "SELECT " TOURNEY_COLUMNS " FROM tournaments WHERE ($1::bigint < 0 OR status = $1::bigint)"
    " AND ($2::bigint = 1 OR club_id = $3)"
    " ORDER BY CASE WHEN status = 2 THEN -starts_ms ELSE starts_ms END, id LIMIT $4";

int pg_store_list_tournaments(struct store *s, int status, const char *club_id, int limit,
                              store_tournament_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "tournaments", err, err_size, sql_list, "iiti", status,
                                 club_id ? 0 : 1, club_id ? club_id : "", limit);
    if (!r)
        return -1;
    struct store_tournament t;
    for (int i = 0; i < PQntuples(r); i++) {
        read_row(r, i, &t);
        fn(ctx, &t);
    }
    PQclear(r);
    return 0;
}

struct status_ctx {
    const char *id;
    int from, to, round;
};

static const char sql_status[] = "UPDATE tournaments SET status = $3,"
                                 " round = CASE WHEN $4::bigint < 0 THEN round ELSE $4::bigint END"
                                 " WHERE id = $1 AND status = $2";

static int set_status(struct pg_conn *c, void *ctx)
{
    struct status_ctx *q = ctx;
    int n = pg_do(c, sql_status, "tiii", q->id, q->from, q->to, q->round);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_set_tournament_status(struct store *s, const char *id, int from, int to, int round,
                                   char *err, size_t err_size)
{
    struct status_ctx q = {id, from, to, round};
    return pg_store_write(s, set_status, &q, "tournament status", err, err_size);
}

struct join_ctx {
    const char *id;
    const struct store_entrant *e;
    int64_t now;
};

static const char sql_join[] =
    "INSERT INTO tournament_entrants (tournament_id, token_hash, name, rating, state, joined_ms,"
    " active_ms) SELECT $1, $2, $3, $4, 0, $5, $5 FROM tournaments WHERE id = $1 AND status < 2"
    " ON CONFLICT (tournament_id, token_hash) DO UPDATE SET state = 0, active_ms = $5,"
    " name = excluded.name WHERE tournament_entrants.state <> 0";

static int join(struct pg_conn *c, void *ctx)
{
    struct join_ctx *q = ctx;
    int n = pg_do(c, sql_join, "tttiI", q->id, q->e->token_hash, q->e->name, q->e->rating, q->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_join_tournament(struct store *s, const char *id, const struct store_entrant *e,
                             int64_t now_ms, char *err, size_t err_size)
{
    struct join_ctx q = {id, e, now_ms};
    return pg_store_write(s, join, &q, "join tournament", err, err_size);
}

struct state_ctx {
    const char *id, *hash;
    int state;
    int64_t now;
};

static const char sql_state[] =
    "UPDATE tournament_entrants SET state = $3,"
    " active_ms = CASE WHEN $3::bigint = 0 THEN $4::bigint ELSE active_ms END"
    " WHERE tournament_id = $1 AND token_hash = $2";

static int set_state(struct pg_conn *c, void *ctx)
{
    struct state_ctx *q = ctx;
    int n = pg_do(c, sql_state, "ttiI", q->id, q->hash, q->state, q->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_set_entrant_state(struct store *s, const char *id, const char *token_hash, int state,
                               int64_t now_ms, char *err, size_t err_size)
{
    struct state_ctx q = {id, token_hash, state, now_ms};
    return pg_store_write(s, set_state, &q, "entrant state", err, err_size);
}

/* The entrants' token_hash is in "C" (their order the same as SQLite's), the players'
 * in the default: the join compares in the players' collation, so that their key's
 * index serves it (tests/server/store/test_store_pg_plans.c). */
const char pg_entrants_sql[] =
    "SELECT e.token_hash, e.name, COALESCE(CASE WHEN p.hidden = 0 THEN p.id END, ''), e.rating,"
    " e.state, e.joined_ms, e.active_ms FROM tournament_entrants e LEFT JOIN players p"
    " ON p.token_hash = e.token_hash COLLATE \"default\" WHERE e.tournament_id = $1"
    " ORDER BY e.joined_ms, e.token_hash";

int pg_store_list_entrants(struct store *s, const char *id, store_entrant_fn fn, void *ctx,
                           char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "entrants", err, err_size, pg_entrants_sql, "t", id);
    if (!r)
        return -1;
    struct store_entrant e;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&e, 0, sizeof e);
        pg_col_text(r, i, 0, e.token_hash, sizeof e.token_hash);
        pg_col_text(r, i, 1, e.name, sizeof e.name);
        pg_col_text(r, i, 2, e.player_id, sizeof e.player_id);
        e.rating = pg_col_int(r, i, 3);
        e.state = pg_col_int(r, i, 4);
        e.joined_ms = pg_col_int64(r, i, 5);
        e.active_ms = pg_col_int64(r, i, 6);
        fn(ctx, &e);
    }
    PQclear(r);
    return 0;
}

struct pair_ctx {
    const char *id;
    int round;
    const struct store_game *g;
};

/* Both entrants' rows locked, in one order: a second pairing of either waits here. */
static const char sql_lock[] = "SELECT token_hash FROM tournament_entrants"
                               " WHERE tournament_id = $1 AND token_hash IN ($2, $3)"
                               " ORDER BY token_hash FOR UPDATE";
static const char sql_may_pair[] =
    "SELECT CASE WHEN (SELECT status FROM tournaments WHERE id = $1) = 1"
    " AND (SELECT count(*) FROM tournament_entrants WHERE tournament_id = $1"
    "      AND token_hash IN ($2, $3) AND state = 0) = 2"
    " AND NOT EXISTS (SELECT 1 FROM games WHERE tournament_id = $1 AND result = 0"
    "      AND (white_hash IN ($2, $3) OR black_hash IN ($2, $3))) THEN 1 ELSE 0 END";
static const char sql_mark_game[] = "UPDATE games SET tournament_id = $2, round = $3 WHERE id = $1";

static int pair(struct pg_conn *c, void *ctx)
{
    struct pair_ctx *q = ctx;
    PGresult *r = pg_exec(c, sql_lock, "ttt", q->id, q->g->white_hash, q->g->black_hash);
    if (!r)
        return -1;
    PQclear(r);
    r = pg_exec(c, sql_may_pair, "ttt", q->id, q->g->white_hash, q->g->black_hash);
    if (!r)
        return -1;
    int ok = PQntuples(r) == 1 && pg_col_int(r, 0, 0) == 1;
    PQclear(r);
    if (!ok)
        return 1;
    if (pg_insert_people_game(c, q->g) != 0)
        return -1;
    return pg_do(c, sql_mark_game, "tti", q->g->id, q->id, q->round) == 1 ? 0 : -1;
}

int pg_store_pair_tournament_game(struct store *s, const char *id, int round,
                                  const struct store_game *game, char *err, size_t err_size)
{
    struct pair_ctx q = {id, round, game};
    return pg_store_write(s, pair, &q, "pair tournament game", err, err_size);
}

int pg_store_tournament_games(struct store *s, const char *id, store_game_fn fn, void *ctx,
                              char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "tournament games", err, err_size, pg_tournament_games_sql, "t", id);
    if (!r)
        return -1;
    struct store_game g;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_game(r, i, &g);
        fn(ctx, &g);
    }
    PQclear(r);
    return 0;
}

struct berserk_ctx {
    const char *id, *game;
    int side;
};

/* Before the side's first move: white's is ply 1, black's ply 2. */
static const char sql_berserk[] =
    "UPDATE games SET berserk = berserk | $3::bigint WHERE id = $2 AND tournament_id = $1"
    " AND result = 0 AND (SELECT count(*) FROM moves WHERE game_id = games.id) < $4::bigint"
    " AND (berserk & $3::bigint) = 0";

static int berserk(struct pg_conn *c, void *ctx)
{
    struct berserk_ctx *q = ctx;
    int bit = q->side == SIDE_WHITE ? 1 : 2, plies = q->side == SIDE_WHITE ? 1 : 2;
    int n = pg_do(c, sql_berserk, "ttii", q->id, q->game, bit, plies);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_berserk(struct store *s, const char *id, const char *game_id, int side, char *err,
                     size_t err_size)
{
    struct berserk_ctx q = {id, game_id, side};
    return pg_store_write(s, berserk, &q, "berserk", err, err_size);
}

struct swiss_ctx {
    const char *id;
    int round;
    const struct store_game *games;
    int n;
    const char *bye;
};

static const char sql_next_round[] = "UPDATE tournaments SET round = $2::bigint WHERE id = $1"
                                     " AND round = $2::bigint - 1 AND status = 1";
static const char sql_bye[] =
    "INSERT INTO tournament_byes (tournament_id, round, token_hash) VALUES ($1, $2, $3)";

static int swiss_round(struct pg_conn *c, void *ctx)
{
    struct swiss_ctx *q = ctx;
    int n = pg_do(c, sql_next_round, "ti", q->id, q->round);
    if (n < 0)
        return -1;
    if (n != 1)
        return 1;
    for (int i = 0; i < q->n; i++)
        if (pg_insert_people_game(c, &q->games[i]) != 0 ||
            pg_do(c, sql_mark_game, "tti", q->games[i].id, q->id, q->round) != 1)
            return -1;
    if (q->bye[0] && pg_do(c, sql_bye, "tit", q->id, q->round, q->bye) != 1)
        return -1;
    return 0;
}

int pg_store_swiss_round(struct store *s, const char *id, int round, const struct store_game *games,
                         int n, const char *bye_hash, char *err, size_t err_size)
{
    struct swiss_ctx q = {id, round, games, n, bye_hash ? bye_hash : ""};
    return pg_store_write(s, swiss_round, &q, "swiss round", err, err_size);
}

static const char sql_byes[] = "SELECT round, token_hash FROM tournament_byes"
                               " WHERE tournament_id = $1 ORDER BY round";

int pg_store_tournament_byes(struct store *s, const char *id, store_bye_fn fn, void *ctx, char *err,
                             size_t err_size)
{
    PGresult *r = pg_store_query(s, "tournament byes", err, err_size, sql_byes, "t", id);
    if (!r)
        return -1;
    char hash[STORE_HASH_LEN + 1];
    for (int i = 0; i < PQntuples(r); i++) {
        pg_col_text(r, i, 1, hash, sizeof hash);
        fn(ctx, pg_col_int(r, i, 0), hash);
    }
    PQclear(r);
    return 0;
}
