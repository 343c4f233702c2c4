/* Storage of games and moves, behind an interface.
 *
 * The server talks to a `struct store` only through its `ops` table, so a second
 * backend (PostgreSQL over libpq, for several stateless servers behind one database)
 * can replace the SQLite one without touching the server.  Every function is safe to
 * call from any thread (a backend serialises internally as it must), returns 0 on
 * success and -1 with one line in `err` on failure.  A write returns only after it is
 * durable (committed): the server acknowledges a move only after add_moves returns 0. */
#pragma once

#include <stdint.h>

#include "core/types.h"

#define STORE_ID_LEN 32   /* hex digits of a game id (128 random bits) */
#define STORE_HASH_LEN 64 /* hex digits of a token hash (SHA-256) */
#define STORE_NAME_MAX 32

/* One game's row: everything but its moves. */
struct store_game {
    char id[STORE_ID_LEN + 1];
    char game[STORE_NAME_MAX];     /* the registry name: "egara-guti" */
    int level;                     /* 1..8 */
    int human_side;                /* enum side */
    char start[POSITION_TEXT_MAX]; /* start position text; "" = the game's start */
    char token_hash[STORE_HASH_LEN + 1];
    uint64_t seed;                  /* the computer's moves use seed + ply */
    int64_t created_ms, updated_ms; /* Unix time in milliseconds */
    int result, reason;             /* enum result / enum reason once over, else 0 */
    int plies;                      /* moves stored */
    int takebacks;                  /* takebacks used (POST .../takeback) */
};

/* Called once per game by list_games, newest first. */
typedef void (*store_game_fn)(void *ctx, const struct store_game *row);

/* Puzzles (store_puzzles.c): the Glicko-2 rating of a player (a token's hash, per
 * game) or of a puzzle, with its counts. */
struct store_rating {
    double rating, deviation, volatility;
    int attempts, solved;
    int streak; /* players: solved in a row, the last attempts */
};
/* One counted attempt: the player's and the puzzle's ratings after it. */
struct store_puzzle_attempt {
    char token_hash[STORE_HASH_LEN + 1];
    const char *game, *puzzle_id;
    int solved;
    int64_t now_ms;
    struct store_rating player, puzzle;
};
typedef void (*store_puzzle_rating_fn)(void *ctx, const char *puzzle_id,
                                       const struct store_rating *r);
typedef void (*store_puzzle_id_fn)(void *ctx, const char *puzzle_id);

struct store;
struct store_ops {
    int (*create_game)(struct store *s, const struct store_game *row, char *err, size_t err_size);
    /* Append `count` moves numbered from `first_ply` (1-based) and the game's new
     * result, updated time and ply count, all in one transaction (the human's move
     * and the computer's reply go together).  Fails, storing none, if one of those
     * plies is already stored. */
    int (*add_moves)(struct store *s, const char *id, int first_ply, int count,
                     const char *const *moves, int result, int reason, int64_t now_ms, char *err,
                     size_t err_size);
    /* End a game without a move (resignation, agreement, claim). */
    int (*set_result)(struct store *s, const char *id, int result, int reason, int64_t now_ms,
                      char *err, size_t err_size);
    /* A takeback: the moves after ply `keep_plies` are removed and the game's count of
     * takebacks grows by one, in one transaction; fails, changing nothing, when the
     * game is over or unknown. */
    int (*take_back)(struct store *s, const char *id, int keep_plies, int64_t now_ms, char *err,
                     size_t err_size);
    /* The game row and its moves in order (`*moves` is malloc'ed, `*count` of them,
     * MOVE_TEXT_MAX bytes each).  Returns 1 when there is no such game. */
    int (*load_game)(struct store *s, const char *id, struct store_game *row,
                     char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size);
    /* The games whose token hash is `token_hash`, newest first, at most `limit`. */
    int (*list_games)(struct store *s, const char *token_hash, int limit, store_game_fn fn,
                      void *ctx, char *err, size_t err_size);
    /* A finished review (src/server/API.md: the analysis of a stored game, under the
     * game's id, or of an imported record, under its own), kept as the JSON text the
     * server answers with; one with the same id is replaced. */
    int (*put_review)(struct store *s, const char *id, const char *game, const char *body,
                      int64_t now_ms, char *err, size_t err_size);
    /* The review `id` (*body malloc'ed, the caller frees).  Returns 1 when there is none. */
    int (*get_review)(struct store *s, const char *id, char **body, char *err, size_t err_size);
    /* The player's puzzle rating in `game`: 0, or 1 when it has none yet. */
    int (*puzzle_player)(struct store *s, const char *token_hash, const char *game,
                         struct store_rating *out, char *err, size_t err_size);
    /* Every puzzle's stored rating (those attempted at least once). */
    int (*puzzle_ratings)(struct store *s, store_puzzle_rating_fn fn, void *ctx, char *err,
                          size_t err_size);
    /* The puzzles of `game` the player has attempted. */
    int (*puzzle_attempted)(struct store *s, const char *token_hash, const char *game,
                            store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size);
    /* Record a counted attempt and both new ratings in one transaction: 0; 1 (storing
     * nothing) when the player has attempted this puzzle already. */
    int (*puzzle_attempt)(struct store *s, const struct store_puzzle_attempt *a, char *err,
                          size_t err_size);
    void (*close)(struct store *s);
};

struct store {
    const struct store_ops *ops;
};

/* Durability of a commit in SQLite's WAL mode:
 *   STORE_SYNC_FULL    fsync on every commit: survives power loss;
 *   STORE_SYNC_NORMAL  the commit reaches the OS, fsync at checkpoints: survives a
 *                      killed process (kill -9) but a power loss may drop the last
 *                      commits.  The server's default. */
enum store_sync { STORE_SYNC_FULL, STORE_SYNC_NORMAL };

/* Open (creating on first use) the SQLite database at `path` (":memory:" for tests). */
struct store *store_sqlite_open(const char *path, enum store_sync sync, char *err, size_t err_size);
