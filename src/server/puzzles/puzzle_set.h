/* The puzzles a server serves (the shipped set, data/puzzles/GAME.jsonl, read at start)
 * and their current ratings: the model of the puzzle routes (puzzles_api.c), without
 * JSON or HTTP.  The ratings change under `mu` (a leaf lock), in memory only after the
 * store has committed them. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "puzzles/puzzle_file.h"
#include "rating/glicko2.h"
#include "store/store.h"

struct puzzle_item {
    struct puzzle_entry e;
    int solver_moves;
    bool easy; /* of the game's easy track (engine profile's easy themes) */
    struct glicko2 r;
    int attempts, solved;
};

/* Per client address (issue 25): rated attempts, and new players' tokens, a minute. */
#define PUZZLE_ATTEMPTS_PER_MINUTE 30
#define PUZZLE_TOKENS_PER_MINUTE 30
#define PUZZLE_ATTEMPT_TRIES 5 /* an attempt computed again when another server's came first */

struct ratelimit;
struct puzzle_set {
    struct puzzle_item *items; /* sorted by id */
    int n;
    pthread_mutex_t mu;         /* the items' ratings and counts (a leaf) */
    pthread_mutex_t attempt_mu; /* attempts one at a time (taken before mu and the store's) */
    struct ratelimit *attempts, *tokens; /* PUZZLE_*_PER_MINUTE per address */
};

/* Read DIR/GAME.jsonl for every registered game (a game without a file has none) and
 * the ratings the store holds.  0, or -1 with err naming the bad file and line. */
int puzzle_set_load(struct puzzle_set *ps, const char *dir, struct store *store, char *err,
                    size_t err_size);
void puzzle_set_free(struct puzzle_set *ps);
/* Puzzle `it`'s rating read again from the store (another server on the same database
 * counted an attempt of it), under the set's mu: 0, or the store's code with err.  The
 * other puzzles are not read. */
int puzzle_set_reread(struct puzzle_set *ps, struct store *store, struct puzzle_item *it, char *err,
                      size_t err_size);

/* The puzzle with this id, or NULL. */
struct puzzle_item *puzzle_set_find(struct puzzle_set *ps, const char *id);

/* A puzzle of game `g` (with `theme` when not NULL, of the easy track when `easy`)
 * near `rating`, not among the ids `seen` says the player attempted (all of them
 * when every one is): drawn with `seed` among the nearest few.  NULL when the game has
 * none of that kind. */
struct puzzle_item *puzzle_set_pick(struct puzzle_set *ps, const struct game *g, const char *theme,
                                    bool easy, double rating,
                                    int (*seen)(void *ctx, const char *id), void *ctx,
                                    uint64_t seed);
