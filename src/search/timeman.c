#include "timeman.h"

#include <time.h>

/* Kept back from the clock for process and pipe latency (UCI, match). */
#define TIMEMAN_OVERHEAD_MS 30
/* Moves the remaining time is shared among when the clock gives no movestogo. */
#define TIMEMAN_HORIZON 30

int64_t timeman_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t timeman_elapsed_ms(const struct search_ctl *ctl)
{
    return (timeman_now_us() - ctl->start_us) / 1000;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

void timeman_init(struct search_ctl *ctl, const struct engine_limits *lim, enum side side)
{
    ctl->start_us = timeman_now_us();
    ctl->soft_ms = ctl->hard_ms = TIMEMAN_NONE;
    ctl->nodes = 0;
    ctl->node_limit = lim->nodes;
    ctl->stop = lim->stop;
    ctl->stopped = 0;
    ctl->poll = 0;
    ctl->ponder = lim->ponder;
    ctl->clock_us = ctl->start_us;
    if (lim->movetime_ms > 0)
        ctl->soft_ms = ctl->hard_ms = lim->movetime_ms;
    int64_t left = lim->time_ms[side], inc = lim->inc_ms[side];
    if (left > 0 || inc > 0) {
        int horizon =
            lim->movestogo > 0 ? (lim->movestogo < 50 ? lim->movestogo : 50) : TIMEMAN_HORIZON;
        int64_t usable = left - TIMEMAN_OVERHEAD_MS;
        if (usable < 1)
            usable = 1;
        /* Soft: an even share plus most of the increment.  Hard: at most four soft
         * shares and never more than a quarter of what is left (all of it but the
         * overhead on the last move before a time control), so one long iteration
         * can neither lose on time nor drain the clock for the moves after it. */
        int64_t soft = usable / horizon + inc * 3 / 4;
        int64_t hard =
            lim->movestogo == 1 ? usable : min64(usable, min64(usable / 4 + inc / 2, soft * 4));
        if (hard < 1)
            hard = 1;
        if (soft > hard)
            soft = hard;
        ctl->soft_ms = min64(ctl->soft_ms, soft);
        ctl->hard_ms = min64(ctl->hard_ms, hard);
    }
}
