/* The SQLite backend's part for one identity (store_ops.def "One identity"): whether
 * the server knows a token, and one token's games against the computer and puzzles
 * taken over by another's (the browser's old tokens merged into the player's). */
#include <string.h>

#include "store/sqlite/private.h"

/* Every table that makes a token known, each by an index on its token's hash. */
static const char *const sql_known[] = {
    "SELECT 1 FROM players WHERE token_hash = ?1",
    "SELECT 1 FROM games WHERE token_hash = ?1 LIMIT 1",
    "SELECT 1 FROM games WHERE white_hash = ?1 LIMIT 1",
    "SELECT 1 FROM games WHERE black_hash = ?1 LIMIT 1",
    "SELECT 1 FROM progress WHERE token_hash = ?1",
    "SELECT 1 FROM puzzle_players WHERE token_hash = ?1 LIMIT 1",
    "SELECT 1 FROM puzzle_served WHERE token_hash = ?1 LIMIT 1",
    "SELECT 1 FROM club_members WHERE token_hash = ?1 LIMIT 1",
    "SELECT 1 FROM notices WHERE token_hash = ?1 LIMIT 1",
};

struct known_ctx {
    const char *hash;
    int *known;
};

static int token_known(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct known_ctx *q = ctx;
    *q->known = 0;
    for (size_t i = 0; i < sizeof sql_known / sizeof sql_known[0] && !*q->known; i++) {
        sqlite3_stmt *st = sq_bind(s, sql_known[i], "t", q->hash);
        int row = sq_row(st);
        if (row < 0)
            return -1;
        if (row > 0) {
            sq_end(st);
            *q->known = 1;
        }
    }
    return 0;
}

int sqlite_store_token_known(struct store *s, const char *token_hash, int *known, char *err,
                             size_t err_size)
{
    int k = 0;
    struct known_ctx q = {token_hash, &k};
    int rc = sqlite_store_read(s, token_known, &q, "token known", err, err_size);
    if (rc == 0)
        *known = k;
    return rc;
}

struct merge_ctx {
    const char *hash, *old;
    int games, puzzles;
};

static const char sql_merge_games[] =
    "UPDATE games SET token_hash = ?1 WHERE token_hash = ?2 AND people = 0";
static const char sql_merge_puzzle_players[] =
    "UPDATE puzzle_players SET token_hash = ?1 WHERE token_hash = ?2 AND game NOT IN"
    " (SELECT game FROM puzzle_players WHERE token_hash = ?1)";
static const char sql_merge_attempts[] =
    "UPDATE OR IGNORE puzzle_attempts SET token_hash = ?1 WHERE token_hash = ?2";
static const char sql_drop_attempts[] = "DELETE FROM puzzle_attempts WHERE token_hash = ?2";
static const char sql_merge_served[] =
    "UPDATE OR IGNORE puzzle_served SET token_hash = ?1 WHERE token_hash = ?2";
static const char sql_drop_served[] = "DELETE FROM puzzle_served WHERE token_hash = ?2";

static int merge(struct store *s, sqlite3 *db, void *ctx)
{
    struct merge_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_merge_games, "tt", q->hash, q->old)) != 0)
        return -1;
    q->games = sqlite3_changes(db);
    if (sq_done(sq_bind(s, sql_merge_puzzle_players, "tt", q->hash, q->old)) != 0)
        return -1;
    q->puzzles = sqlite3_changes(db);
    const char *const rest[] = {sql_merge_attempts, sql_drop_attempts, sql_merge_served,
                                sql_drop_served};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
        if (sq_done(sq_bind(s, rest[i], "tt", q->hash, q->old)) != 0)
            return -1;
    return 0;
}

int sqlite_store_merge_token(struct store *s, const char *token_hash, const char *old_hash,
                             int *games, int *puzzles, char *err, size_t err_size)
{
    struct merge_ctx q = {token_hash, old_hash, 0, 0};
    int rc = strcmp(token_hash, old_hash) == 0
                 ? 0
                 : sqlite_store_write(s, merge, &q, "merge token", err, err_size);
    if (rc == 0) {
        *games = q.games;
        *puzzles = q.puzzles;
    }
    return rc;
}
