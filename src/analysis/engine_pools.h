/* The external analysis engines of one process (engine_pools.c): for each game whose
 * engine profile names one (Stockfish for chess), a bounded pool of its processes
 * (engines/uci_engine.h).  The server's analyses and reviews use them
 * (server/analysis/analysis_engines.h), and so do an `agora worker`'s reviews
 * (src/worker/).  A game without one, or whose engine is missing or fails at start,
 * is judged by agora's own engine; why is kept to be said in the answers. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "core/game.h"

struct uci_pool;

#define ENGINE_POOLS_MAX 8 /* games with an external analysis engine at most */

struct engine_pools_config {
    const char *path;   /* for every game whose profile names an engine; "none": none;
                           NULL: each profile's own */
    int processes;      /* per game at most (<= 0: 1) */
    int nice;           /* the processes' nice value (< 0: inherited) */
    int64_t timeout_ms; /* their longest silence before they are killed (<= 0: 10000) */
    FILE *say;          /* a line a game of which engine judges it (NULL: none) */
    const char *who;    /* those lines' start ("agora", "agora worker") */
    const char *what;   /* and what is judged ("analysis", "reviews") */
};

struct engine_pools {
    struct engine_pool_of {
        const struct game *g;
        struct uci_pool *pool;    /* NULL: agora's own engine judges g */
        char why[ERROR_TEXT_MAX]; /* why pool is NULL ("" when none was wanted) */
    } of[ENGINE_POOLS_MAX];
    int n;
};

/* Start the pools (a missing or broken engine is no error: agora's own judges that
 * game) and say what judges each game on cfg->say. */
void engine_pools_start(struct engine_pools *e, const struct engine_pools_config *cfg);
/* Once nothing asks them any more. */
void engine_pools_stop(struct engine_pools *e);
/* The pool for g, or NULL; *why (may be NULL) then the reason, "" when none was
 * wanted. */
struct uci_pool *engine_pools_of(struct engine_pools *e, const struct game *g, const char **why);
