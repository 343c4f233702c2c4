/* The SQLite backend's part for puzzles (store.h "Puzzles"): the ratings of players
 * (per token hash and game) and of puzzles, and one row per counted attempt.  Reads
 * under the connection's mutex (sqlite_store_read), the attempt in the group commit
 * (sqlite_store_write). */
#include <string.h>

#include "store/sqlite/private.h"

static void read_rating(sqlite3_stmt *st, int col, struct store_puzzle_rating *out)
{
    out->rating = sqlite3_column_double(st, col);
    out->deviation = sqlite3_column_double(st, col + 1);
    out->volatility = sqlite3_column_double(st, col + 2);
    out->attempts = sqlite3_column_int(st, col + 3);
    out->solved = sqlite3_column_int(st, col + 4);
}

struct puzzle_ctx {
    const char *token_hash, *game, *puzzle_id;
    struct store_puzzle_rating *out;
    store_puzzle_rating_fn rating_fn;
    store_puzzle_id_fn id_fn;
    void *ctx;
};

static const char sql_player[] = "SELECT rating, deviation, volatility, attempts, solved, streak"
                                 " FROM puzzle_players WHERE token_hash = ?1 AND game = ?2";

static int player(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct puzzle_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_player, "tt", p->token_hash, p->game);
    int row = sq_row(st);
    if (row > 0) {
        read_rating(st, 0, p->out);
        p->out->streak = sqlite3_column_int(st, 5);
    }
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_puzzle_player(struct store *s, const char *token_hash, const char *game,
                               struct store_puzzle_rating *out, char *err, size_t err_size)
{
    struct puzzle_ctx p = {.token_hash = token_hash, .game = game, .out = out};
    return sqlite_store_read(s, player, &p, "puzzle player", err, err_size);
}

static const char sql_ratings[] = "SELECT puzzle_id, rating, deviation, volatility, attempts,"
                                  " solved FROM puzzle_ratings";

static int ratings(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct puzzle_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_ratings, "");
    int row;
    while ((row = sq_row(st)) > 0) {
        struct store_puzzle_rating r = {0};
        read_rating(st, 1, &r);
        p->rating_fn(p->ctx, (const char *)sqlite3_column_text(st, 0), &r);
    }
    return row;
}

int sqlite_store_puzzle_ratings(struct store *s, store_puzzle_rating_fn fn, void *ctx, char *err,
                                size_t err_size)
{
    struct puzzle_ctx p = {.rating_fn = fn, .ctx = ctx};
    return sqlite_store_read(s, ratings, &p, "puzzle ratings", err, err_size);
}

static const char sql_rating[] = "SELECT rating, deviation, volatility, attempts, solved"
                                 " FROM puzzle_ratings WHERE puzzle_id = ?1";

static int one_rating(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct puzzle_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_rating, "t", p->puzzle_id);
    int row = sq_row(st);
    if (row > 0) {
        memset(p->out, 0, sizeof *p->out);
        read_rating(st, 0, p->out);
    }
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_puzzle_rating(struct store *s, const char *puzzle_id,
                               struct store_puzzle_rating *out, char *err, size_t err_size)
{
    struct puzzle_ctx p = {.puzzle_id = puzzle_id, .out = out};
    return sqlite_store_read(s, one_rating, &p, "puzzle rating", err, err_size);
}

static const char sql_attempted[] = "SELECT puzzle_id FROM puzzle_attempts"
                                    " WHERE token_hash = ?1 AND game = ?2";

static int attempted(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct puzzle_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_attempted, "tt", p->token_hash, p->game);
    int row;
    while ((row = sq_row(st)) > 0)
        p->id_fn(p->ctx, (const char *)sqlite3_column_text(st, 0));
    return row;
}

int sqlite_store_puzzle_attempted(struct store *s, const char *token_hash, const char *game,
                                  store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size)
{
    struct puzzle_ctx p = {.token_hash = token_hash, .game = game, .id_fn = fn, .ctx = ctx};
    return sqlite_store_read(s, attempted, &p, "puzzle attempts", err, err_size);
}

static const char sql_attempt[] =
    "INSERT OR IGNORE INTO puzzle_attempts (token_hash, game, puzzle_id, solved, created_ms)"
    " VALUES (?1, ?2, ?3, ?4, ?5)";
static const char sql_put_player[] =
    "INSERT INTO puzzle_players (token_hash, game, rating, deviation, volatility,"
    " attempts, solved, streak, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
    " ON CONFLICT (token_hash, game) DO UPDATE SET rating = excluded.rating,"
    " deviation = excluded.deviation, volatility = excluded.volatility,"
    " attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak,"
    " updated_ms = excluded.updated_ms WHERE puzzle_players.attempts = excluded.attempts - 1";
static const char sql_put_puzzle[] =
    "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts,"
    " solved) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (puzzle_id) DO UPDATE SET"
    " rating = excluded.rating, deviation = excluded.deviation,"
    " volatility = excluded.volatility, attempts = excluded.attempts, solved = excluded.solved"
    " WHERE puzzle_ratings.attempts = excluded.attempts - 1";

struct attempt_ctx {
    const struct store_puzzle_attempt *a;
    bool stale; /* a row's count was not the one the ratings were computed from */
};

static int attempt(struct store *s, sqlite3 *db, void *ctx)
{
    struct attempt_ctx *q = ctx;
    const struct store_puzzle_attempt *a = q->a;
    const struct store_puzzle_rating *p = &a->player, *z = &a->puzzle;
    if (sq_done(sq_bind(s, sql_attempt, "tttiI", a->token_hash, a->game, a->puzzle_id, a->solved,
                        a->now_ms)) != 0)
        return -1;
    if (sqlite3_changes(db) == 0)
        return 1; /* attempted already: nothing changes */
    /* Each row only over the count its new rating was computed from (store.h); a
     * refusal (1) rolls the attempt back, and q->stale tells it apart. */
    if (sq_done(sq_bind(s, sql_put_player, "ttdddiiiI", a->token_hash, a->game, p->rating,
                        p->deviation, p->volatility, p->attempts, p->solved, p->streak,
                        a->now_ms)) != 0)
        return -1;
    q->stale = sqlite3_changes(db) == 0;
    if (q->stale)
        return 1;
    if (sq_done(sq_bind(s, sql_put_puzzle, "tdddii", a->puzzle_id, z->rating, z->deviation,
                        z->volatility, z->attempts, z->solved)) != 0)
        return -1;
    q->stale = sqlite3_changes(db) == 0;
    return q->stale ? 1 : 0;
}

int sqlite_store_puzzle_attempt(struct store *s, const struct store_puzzle_attempt *a, char *err,
                                size_t err_size)
{
    struct attempt_ctx q = {a, false};
    int rc = sqlite_store_write(s, attempt, &q, "puzzle attempt", err, err_size);
    return rc == 1 && q.stale ? 2 : rc;
}

struct serve_ctx {
    const char *token_hash, *puzzle_id;
    int issued;
    int64_t now;
};

static const char sql_known_player[] = "SELECT 1 FROM puzzle_players WHERE token_hash = ?1 LIMIT 1";
static const char sql_known_served[] = "SELECT 1 FROM puzzle_served WHERE token_hash = ?1 LIMIT 1";
static const char sql_serve[] = "INSERT OR REPLACE INTO puzzle_served (token_hash, puzzle_id,"
                                " served_ms) VALUES (?1, ?2, ?3)";

/* A row of `sql` (?1 the token's hash) exists: 1, 0, or -1. */
static int known(struct store *s, const char *sql, const char *token_hash)
{
    sqlite3_stmt *st = sq_bind(s, sql, "t", token_hash);
    int row = sq_row(st);
    if (row > 0)
        sq_end(st);
    return row;
}

static int serve(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct serve_ctx *q = ctx;
    if (!q->issued) {
        int k = known(s, sql_known_player, q->token_hash);
        if (k == 0)
            k = known(s, sql_known_served, q->token_hash);
        if (k < 0)
            return -1;
        if (k == 0)
            return 1; /* a token the server never issued */
    }
    return sq_done(sq_bind(s, sql_serve, "ttI", q->token_hash, q->puzzle_id, q->now));
}

int sqlite_store_puzzle_serve(struct store *s, const char *token_hash, const char *puzzle_id,
                              int issued, int64_t now_ms, char *err, size_t err_size)
{
    struct serve_ctx q = {token_hash, puzzle_id, issued, now_ms};
    return sqlite_store_write(s, serve, &q, "puzzle served", err, err_size);
}

struct served_ctx {
    const char *token_hash, *puzzle_id;
    int64_t *served_ms;
};

static const char sql_served[] =
    "SELECT served_ms FROM puzzle_served WHERE token_hash = ?1 AND puzzle_id = ?2";

static int served(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct served_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_served, "tt", q->token_hash, q->puzzle_id);
    int row = sq_row(st);
    if (row > 0) {
        *q->served_ms = sqlite3_column_int64(st, 0);
        sq_end(st);
    }
    return sq_found(row);
}

int sqlite_store_puzzle_served(struct store *s, const char *token_hash, const char *puzzle_id,
                               int64_t *served_ms, char *err, size_t err_size)
{
    struct served_ctx q = {token_hash, puzzle_id, served_ms};
    return sqlite_store_read(s, served, &q, "puzzle served", err, err_size);
}
