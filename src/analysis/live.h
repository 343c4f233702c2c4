/* A live analysis: the analysis board's stream of events for one position (API.md
 * "Analysis"), run by the server's analysis threads and by the engine workers alike
 * (live.c).  The endgame tables' verdict and the proof search first, then agora's (or
 * the external) engine's lines after every iteration as `line` events, and last one
 * `done` event with the final lines.  Knows no job, no store and no HTTP: the caller
 * bounds its time by raising `stop` and sends the events where they go. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/analysis.h"

struct analysis_live {
    const struct game *g;
    const void *st; /* the position (left unchanged) */
    int multipv;
    uint64_t nodes;
    const atomic_int *stop; /* raised: no more `line` events, the search ends soon */
    struct uci_pool *external;
    const char *engine_why; /* why not the game's external engine ("" or NULL: none) */
    /* Each event's text in order (malloc'ed, taken over; NULL without memory); `last`
     * for the `done` event, which comes whatever `stop` says. */
    void (*emit)(void *ctx, char *text, bool last);
    void *ctx;
};

/* Run it: the events through rq->emit, the last with `last`. */
void analysis_live_run(const struct analysis_live *rq);
