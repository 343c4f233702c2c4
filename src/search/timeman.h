/* Time management and the search's stop conditions: one `struct search_ctl` per
 * search, polled by alpha-beta and MCTS alike. */
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "search_types.h"

#define TIMEMAN_NONE INT64_MAX

struct search_ctl {
    int64_t start_us;
    /* soft: do not start new work after it; hard: abort the search at it. */
    int64_t soft_ms, hard_ms;
    uint64_t nodes, node_limit; /* node_limit 0: none */
    const atomic_int *stop;
    int stopped;
    unsigned poll;
    /* UCI pondering: while *ponder is non-zero the clock does not run out; when it is
     * cleared (ponderhit) the move's clock starts again from that moment. */
    const atomic_int *ponder;
    int64_t clock_us; /* when the move's clock started */
};

int64_t timeman_now_us(void);
/* The budget of one move from the limits: movetime is a hard cap; a clock gives a
 * soft share of the remaining time and a hard cap that never risks the flag. */
void timeman_init(struct search_ctl *ctl, const struct engine_limits *lim, enum side side);
int64_t timeman_elapsed_ms(const struct search_ctl *ctl);

/* Non-zero while the search ponders; at the first call after the ponder flag is
 * cleared, the clock restarts. */
static inline int timeman_pondering(struct search_ctl *ctl)
{
    if (!ctl->ponder)
        return 0;
    if (atomic_load_explicit(ctl->ponder, memory_order_relaxed))
        return 1;
    ctl->ponder = NULL;
    ctl->clock_us = timeman_now_us();
    return 0;
}

/* Milliseconds on this move's clock (pondering not counted); 0 while pondering. */
static inline int64_t timeman_clock_ms(struct search_ctl *ctl)
{
    return timeman_pondering(ctl) ? 0 : (timeman_now_us() - ctl->clock_us) / 1000;
}

/* Has the clock used at least num/den of the soft budget?  Never while pondering. */
static inline int timeman_past_soft(struct search_ctl *ctl, int num, int den)
{
    return ctl->soft_ms != TIMEMAN_NONE && timeman_clock_ms(ctl) * den >= ctl->soft_ms * num &&
           !timeman_pondering(ctl);
}

/* Called once a node: non-zero once the search must unwind.  The clock and the stop
 * flag are read every 256 calls (well under a millisecond at any node rate). */
static inline int search_poll(struct search_ctl *ctl)
{
    if (ctl->stopped)
        return 1;
    if (ctl->node_limit && ctl->nodes >= ctl->node_limit)
        return ctl->stopped = 1;
    if ((++ctl->poll & 255) == 0) {
        if (ctl->stop && atomic_load_explicit(ctl->stop, memory_order_relaxed))
            return ctl->stopped = 1;
        if (ctl->hard_ms != TIMEMAN_NONE && timeman_clock_ms(ctl) >= ctl->hard_ms &&
            !timeman_pondering(ctl))
            return ctl->stopped = 1;
    }
    return 0;
}
