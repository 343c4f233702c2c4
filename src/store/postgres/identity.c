/* The PostgreSQL backend's part for one identity (store_ops.def "One identity"), as
 * SQLite's (sqlite/identity.c): whether the server knows a token, and one token's games
 * against the computer and puzzles taken over by another's.  SQLite's UPDATE OR IGNORE
 * is here an UPDATE of the rows that would not collide, then a DELETE of the rest. */
#include <string.h>

#include "store/postgres/private.h"

/* Every table that makes a token known, each by an index on its token's hash. */
static const char sql_known[] = "SELECT EXISTS (SELECT 1 FROM players WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM games WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM games WHERE white_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM games WHERE black_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM progress WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM puzzle_players WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM puzzle_served WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM club_members WHERE token_hash = $1)"
                                " OR EXISTS (SELECT 1 FROM notices WHERE token_hash = $1)";

int pg_store_token_known(struct store *s, const char *token_hash, int *known, char *err,
                         size_t err_size)
{
    PGresult *r = pg_store_query(s, "token known", err, err_size, sql_known, "t", token_hash);
    if (!r)
        return -1;
    *known = PQntuples(r) > 0 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return 0;
}

struct merge_ctx {
    const char *hash, *old;
    int games, puzzles;
};

static const char sql_merge_games[] =
    "UPDATE games SET token_hash = $1 WHERE token_hash = $2 AND people = 0";
static const char sql_merge_puzzle_players[] =
    "UPDATE puzzle_players SET token_hash = $1 WHERE token_hash = $2 AND game NOT IN"
    " (SELECT game FROM puzzle_players WHERE token_hash = $1)";
static const char sql_merge_attempts[] =
    "UPDATE puzzle_attempts a SET token_hash = $1 WHERE token_hash = $2 AND NOT EXISTS"
    " (SELECT 1 FROM puzzle_attempts b WHERE b.token_hash = $1 AND b.game = a.game"
    " AND b.puzzle_id = a.puzzle_id)";
static const char sql_drop_attempts[] = "DELETE FROM puzzle_attempts WHERE token_hash = $1";
static const char sql_merge_served[] =
    "UPDATE puzzle_served a SET token_hash = $1 WHERE token_hash = $2 AND NOT EXISTS"
    " (SELECT 1 FROM puzzle_served b WHERE b.token_hash = $1 AND b.puzzle_id = a.puzzle_id)";
static const char sql_drop_served[] = "DELETE FROM puzzle_served WHERE token_hash = $1";

static int merge(struct pg_conn *c, void *ctx)
{
    struct merge_ctx *q = ctx;
    if ((q->games = pg_do(c, sql_merge_games, "tt", q->hash, q->old)) < 0 ||
        (q->puzzles = pg_do(c, sql_merge_puzzle_players, "tt", q->hash, q->old)) < 0)
        return -1;
    if (pg_do(c, sql_merge_attempts, "tt", q->hash, q->old) < 0 ||
        pg_do(c, sql_drop_attempts, "t", q->old) < 0 ||
        pg_do(c, sql_merge_served, "tt", q->hash, q->old) < 0 ||
        pg_do(c, sql_drop_served, "t", q->old) < 0)
        return -1;
    return 0;
}

int pg_store_merge_token(struct store *s, const char *token_hash, const char *old_hash, int *games,
                         int *puzzles, char *err, size_t err_size)
{
    struct merge_ctx q = {token_hash, old_hash, 0, 0};
    int rc = strcmp(token_hash, old_hash) == 0
                 ? 0
                 : pg_store_write(s, merge, &q, "merge token", err, err_size);
    if (rc == 0) {
        *games = q.games;
        *puzzles = q.puzzles;
    }
    return rc;
}
