/* The puzzles' statements (store_puzzles.h).  Each call prepares its statements (a few
 * microseconds, next to a commit's cost) and runs under the store's connection mutex,
 * as the store's other one-off statements do. */
#include "store_puzzles.h"

#include "core/error.h"

static int db_fail(sqlite3 *db, char *err, size_t err_size, const char *what)
{
    return fail(err, err_size, "database: %s: %s", what, sqlite3_errmsg(db));
}

static void read_rating(sqlite3_stmt *st, int col, struct store_puzzle_rating *out)
{
    out->rating = sqlite3_column_double(st, col);
    out->deviation = sqlite3_column_double(st, col + 1);
    out->volatility = sqlite3_column_double(st, col + 2);
    out->attempts = sqlite3_column_int(st, col + 3);
    out->solved = sqlite3_column_int(st, col + 4);
}

int store_puzzles_player(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash, const char *game,
                         struct store_puzzle_rating *out, char *err, size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *st = NULL;
    int rc;
    if (sqlite3_prepare_v2(db,
                           "SELECT rating, deviation, volatility, attempts, solved, streak"
                           " FROM puzzle_players WHERE token_hash = ?1 AND game = ?2",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_fail(db, err, err_size, "puzzle player");
    } else {
        sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        if (step == SQLITE_ROW) {
            read_rating(st, 0, out);
            out->streak = sqlite3_column_int(st, 5);
            rc = 0;
        } else {
            rc = step == SQLITE_DONE ? 1 : db_fail(db, err, err_size, "puzzle player");
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(mu);
    return rc;
}

int store_puzzles_ratings(sqlite3 *db, pthread_mutex_t *mu, store_puzzle_rating_fn fn, void *ctx,
                          char *err, size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT puzzle_id, rating, deviation, volatility, attempts, solved"
                           " FROM puzzle_ratings",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_fail(db, err, err_size, "puzzle ratings");
    } else {
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW) {
            struct store_puzzle_rating r = {0};
            read_rating(st, 1, &r);
            fn(ctx, (const char *)sqlite3_column_text(st, 0), &r);
        }
        if (step != SQLITE_DONE)
            rc = db_fail(db, err, err_size, "puzzle ratings");
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(mu);
    return rc;
}

int store_puzzles_attempted(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                            const char *game, store_puzzle_id_fn fn, void *ctx, char *err,
                            size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT puzzle_id FROM puzzle_attempts"
                           " WHERE token_hash = ?1 AND game = ?2",
                           -1, &st, NULL) != SQLITE_OK) {
        rc = db_fail(db, err, err_size, "puzzle attempts");
    } else {
        sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
        int step;
        while ((step = sqlite3_step(st)) == SQLITE_ROW)
            fn(ctx, (const char *)sqlite3_column_text(st, 0));
        if (step != SQLITE_DONE)
            rc = db_fail(db, err, err_size, "puzzle attempts");
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(mu);
    return rc;
}

static int exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int bind_rating(sqlite3_stmt *st, int first, const struct store_puzzle_rating *r)
{
    return sqlite3_bind_double(st, first, r->rating) |
           sqlite3_bind_double(st, first + 1, r->deviation) |
           sqlite3_bind_double(st, first + 2, r->volatility) |
           sqlite3_bind_int(st, first + 3, r->attempts) |
           sqlite3_bind_int(st, first + 4, r->solved);
}

/* One statement run to its end: 0, or -1. */
static int run_one(sqlite3 *db, const char *sql, sqlite3_stmt **out)
{
    return sqlite3_prepare_v2(db, sql, -1, out, NULL) == SQLITE_OK ? 0 : -1;
}

int store_puzzles_attempt(sqlite3 *db, pthread_mutex_t *mu, const struct store_puzzle_attempt *a,
                          char *err, size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *ins = NULL, *pl = NULL, *pz = NULL;
    int rc = -1;
    if (exec(db, "BEGIN IMMEDIATE") != 0) {
        rc = db_fail(db, err, err_size, "begin");
        goto out;
    }
    if (run_one(db,
                "INSERT OR IGNORE INTO puzzle_attempts (token_hash, game, puzzle_id, solved,"
                " created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                &ins) != 0)
        goto fail;
    sqlite3_bind_text(ins, 1, a->token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, a->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 3, a->puzzle_id, -1, SQLITE_STATIC);
    sqlite3_bind_int(ins, 4, a->solved);
    sqlite3_bind_int64(ins, 5, a->now_ms);
    if (sqlite3_step(ins) != SQLITE_DONE)
        goto fail;
    if (sqlite3_changes(db) == 0) { /* attempted already: nothing changes */
        exec(db, "ROLLBACK");
        rc = 1;
        goto out;
    }
    if (run_one(db,
                "INSERT OR REPLACE INTO puzzle_players (token_hash, game, rating, deviation,"
                " volatility, attempts, solved, streak, updated_ms)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                &pl) != 0)
        goto fail;
    sqlite3_bind_text(pl, 1, a->token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(pl, 2, a->game, -1, SQLITE_STATIC);
    bind_rating(pl, 3, &a->player);
    sqlite3_bind_int(pl, 8, a->player.streak);
    sqlite3_bind_int64(pl, 9, a->now_ms);
    if (sqlite3_step(pl) != SQLITE_DONE)
        goto fail;
    if (run_one(db,
                "INSERT OR REPLACE INTO puzzle_ratings (puzzle_id, rating, deviation, volatility,"
                " attempts, solved) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                &pz) != 0)
        goto fail;
    sqlite3_bind_text(pz, 1, a->puzzle_id, -1, SQLITE_STATIC);
    bind_rating(pz, 2, &a->puzzle);
    if (sqlite3_step(pz) != SQLITE_DONE)
        goto fail;
    if (exec(db, "COMMIT") != 0)
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = db_fail(db, err, err_size, "puzzle attempt");
    exec(db, "ROLLBACK");
out:
    sqlite3_finalize(ins);
    sqlite3_finalize(pl);
    sqlite3_finalize(pz);
    pthread_mutex_unlock(mu);
    return rc;
}

/* A row of `sql` (?1 the token's hash) exists: 1, 0, or -1. */
static int exists(sqlite3 *db, const char *sql, const char *token_hash)
{
    sqlite3_stmt *st = NULL;
    if (run_one(db, sql, &st) != 0)
        return -1;
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
}

int store_puzzles_serve(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                        const char *puzzle_id, int issued, int64_t now_ms, char *err,
                        size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (exec(db, "BEGIN IMMEDIATE") != 0) {
        rc = db_fail(db, err, err_size, "begin");
        goto out;
    }
    if (!issued) {
        int known =
            exists(db, "SELECT 1 FROM puzzle_players WHERE token_hash = ?1 LIMIT 1", token_hash);
        if (known == 0)
            known =
                exists(db, "SELECT 1 FROM puzzle_served WHERE token_hash = ?1 LIMIT 1", token_hash);
        if (known < 0)
            goto fail;
        if (!known) {
            exec(db, "ROLLBACK");
            rc = 1;
            goto out;
        }
    }
    if (run_one(db,
                "INSERT OR REPLACE INTO puzzle_served (token_hash, puzzle_id, served_ms)"
                " VALUES (?1, ?2, ?3)",
                &st) != 0)
        goto fail;
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, puzzle_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, now_ms);
    if (sqlite3_step(st) != SQLITE_DONE || exec(db, "COMMIT") != 0)
        goto fail;
    rc = 0;
    goto out;
fail:
    rc = db_fail(db, err, err_size, "puzzle served");
    exec(db, "ROLLBACK");
out:
    sqlite3_finalize(st);
    pthread_mutex_unlock(mu);
    return rc;
}

int store_puzzles_served(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                         const char *puzzle_id, int64_t *served_ms, char *err, size_t err_size)
{
    pthread_mutex_lock(mu);
    sqlite3_stmt *st = NULL;
    int rc;
    if (run_one(db, "SELECT served_ms FROM puzzle_served WHERE token_hash = ?1 AND puzzle_id = ?2",
                &st) != 0) {
        rc = db_fail(db, err, err_size, "puzzle served");
    } else {
        sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, puzzle_id, -1, SQLITE_STATIC);
        int step = sqlite3_step(st);
        if (step == SQLITE_ROW) {
            *served_ms = sqlite3_column_int64(st, 0);
            rc = 0;
        } else {
            rc = step == SQLITE_DONE ? 1 : db_fail(db, err, err_size, "puzzle served");
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(mu);
    return rc;
}
