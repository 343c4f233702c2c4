/* The PostgreSQL backend's part for puzzles (store.h "Puzzles"): the ratings of players
 * (per token hash and game) and of puzzles, one row per counted attempt (its key
 * refuses a second attempt of one puzzle by one token), the puzzles served. */
#include <string.h>

#include "store/postgres/private.h"

static void read_rating(const PGresult *r, int i, int col, struct store_puzzle_rating *out)
{
    out->rating = pg_col_double(r, i, col);
    out->deviation = pg_col_double(r, i, col + 1);
    out->volatility = pg_col_double(r, i, col + 2);
    out->attempts = pg_col_int(r, i, col + 3);
    out->solved = pg_col_int(r, i, col + 4);
}

static const char sql_player[] = "SELECT rating, deviation, volatility, attempts, solved, streak"
                                 " FROM puzzle_players WHERE token_hash = $1 AND game = $2";

static void read_player(void *ctx, const PGresult *r)
{
    struct store_puzzle_rating *out = ctx;
    read_rating(r, 0, 0, out);
    out->streak = pg_col_int(r, 0, 5);
}

int pg_store_puzzle_player(struct store *s, const char *token_hash, const char *game,
                           struct store_puzzle_rating *out, char *err, size_t err_size)
{
    return pg_one(
        pg_store_query(s, "puzzle player", err, err_size, sql_player, "tt", token_hash, game),
        read_player, out);
}

static const char sql_ratings[] = "SELECT puzzle_id, rating, deviation, volatility, attempts,"
                                  " solved FROM puzzle_ratings";

int pg_store_puzzle_ratings(struct store *s, store_puzzle_rating_fn fn, void *ctx, char *err,
                            size_t err_size)
{
    PGresult *r = pg_store_query(s, "puzzle ratings", err, err_size, sql_ratings, "");
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++) {
        struct store_puzzle_rating z = {0};
        read_rating(r, i, 1, &z);
        fn(ctx, PQgetvalue(r, i, 0), &z);
    }
    PQclear(r);
    return 0;
}

static const char sql_rating[] = "SELECT rating, deviation, volatility, attempts, solved"
                                 " FROM puzzle_ratings WHERE puzzle_id = $1";

static void read_one(void *ctx, const PGresult *r)
{
    struct store_puzzle_rating *out = ctx;
    memset(out, 0, sizeof *out);
    read_rating(r, 0, 0, out);
}

int pg_store_puzzle_rating(struct store *s, const char *puzzle_id, struct store_puzzle_rating *out,
                           char *err, size_t err_size)
{
    return pg_one(pg_store_query(s, "puzzle rating", err, err_size, sql_rating, "t", puzzle_id),
                  read_one, out);
}

static const char sql_attempted[] = "SELECT puzzle_id FROM puzzle_attempts"
                                    " WHERE token_hash = $1 AND game = $2";

int pg_store_puzzle_attempted(struct store *s, const char *token_hash, const char *game,
                              store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "puzzle attempts", err, err_size, sql_attempted, "tt", token_hash, game);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++)
        fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}

static const char sql_attempt[] =
    "INSERT INTO puzzle_attempts (token_hash, game, puzzle_id, solved, created_ms)"
    " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
static const char sql_put_player[] =
    "INSERT INTO puzzle_players (token_hash, game, rating, deviation, volatility, attempts,"
    " solved, streak, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    " ON CONFLICT (token_hash, game) DO UPDATE SET rating = excluded.rating,"
    " deviation = excluded.deviation, volatility = excluded.volatility,"
    " attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak,"
    " updated_ms = excluded.updated_ms WHERE puzzle_players.attempts = excluded.attempts - 1";
static const char sql_put_puzzle[] =
    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, solved)"
    " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (puzzle_id) DO UPDATE SET"
    " rating = excluded.rating, deviation = excluded.deviation,"
    " volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved"
    " WHERE puzzle_ratings.attempts = excluded.attempts - 1";

static int attempt(struct pg_conn *c, void *ctx)
{
    const struct store_puzzle_attempt *a = ctx;
    const struct store_puzzle_rating *p = &a->player, *z = &a->puzzle;
    int n =
        pg_do(c, sql_attempt, "tttiI", a->token_hash, a->game, a->puzzle_id, a->solved, a->now_ms);
    if (n < 0)
        return -1;
    if (n == 0)
        return 1; /* attempted already: nothing changes */
    /* Each row only over the count its new rating was computed from (store.h). */
    n = pg_do(c, sql_put_player, "ttdddiiiI", a->token_hash, a->game, p->rating, p->deviation,
              p->volatility, p->attempts, p->solved, p->streak, a->now_ms);
    if (n <= 0)
        return n < 0 ? -1 : 2;
    n = pg_do(c, sql_put_puzzle, "tdddii", a->puzzle_id, z->rating, z->deviation, z->volatility,
              z->attempts, z->solved);
    return n < 0 ? -1 : n == 0 ? 2 : 0;
}

int pg_store_puzzle_attempt(struct store *s, const struct store_puzzle_attempt *a, char *err,
                            size_t err_size)
{
    return pg_store_write(s, attempt, (void *)a, "puzzle attempt", err, err_size);
}

struct serve_ctx {
    const char *token_hash, *puzzle_id;
    int issued;
    int64_t now;
};

static const char sql_known[] =
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM puzzle_players WHERE token_hash = $1)"
    " OR EXISTS (SELECT 1 FROM puzzle_served WHERE token_hash = $1)";
static const char sql_serve[] =
    "INSERT INTO puzzle_served (token_hash, puzzle_id, served_ms) VALUES ($1, $2, $3)"
    " ON CONFLICT (token_hash, puzzle_id) DO UPDATE SET served_ms = excluded.served_ms";

static int serve(struct pg_conn *c, void *ctx)
{
    struct serve_ctx *q = ctx;
    if (!q->issued) {
        PGresult *r = pg_exec(c, sql_known, "t", q->token_hash);
        if (!r)
            return -1;
        int known = PQntuples(r);
        PQclear(r);
        if (!known)
            return 1; /* a token the server never issued */
    }
    return pg_do(c, sql_serve, "ttI", q->token_hash, q->puzzle_id, q->now) == 1 ? 0 : -1;
}

int pg_store_puzzle_serve(struct store *s, const char *token_hash, const char *puzzle_id,
                          int issued, int64_t now_ms, char *err, size_t err_size)
{
    struct serve_ctx q = {token_hash, puzzle_id, issued, now_ms};
    return pg_store_write(s, serve, &q, "puzzle served", err, err_size);
}

static const char sql_served[] =
    "SELECT served_ms FROM puzzle_served WHERE token_hash = $1 AND puzzle_id = $2";

static void read_served(void *ctx, const PGresult *r)
{
    *(int64_t *)ctx = pg_col_int64(r, 0, 0);
}

int pg_store_puzzle_served(struct store *s, const char *token_hash, const char *puzzle_id,
                           int64_t *served_ms, char *err, size_t err_size)
{
    return pg_one(
        pg_store_query(s, "puzzle served", err, err_size, sql_served, "tt", token_hash, puzzle_id),
        read_served, served_ms);
}
