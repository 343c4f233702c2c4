/* The database gate (store_gate.h): each call into a gated store (store.c), when made
 * from a marked thread, first takes one of max_waiting places or answers STORE_BUSY. */
#include "store/store_gate.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/error.h"

struct store_gate {
    int max_waiting;
    atomic_int inside;        /* marked threads inside */
    atomic_int active;        /* all threads inside */
    atomic_llong progress_ms; /* the last time a call came out (or one came into an idle store) */
};

/* The store counts as stuck when max_waiting marked threads are inside and no call has
 * come out for this long: only then is one more refused.  A store that is merely busy
 * (a burst of new games) keeps letting them in. */
#define STALL_MS 100

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static _Thread_local bool marked;

void store_gate_mark_thread(void)
{
    marked = true;
}

/* Take a place (true), or say why not in err (false).  Unmarked threads always pass. */
bool store_gate_enter(struct store_gate *g, char *err, size_t err_size)
{
    if (!g)
        return true;
    if (atomic_fetch_add(&g->active, 1) == 0)
        atomic_store(&g->progress_ms, now_ms());
    if (!marked)
        return true;
    if (atomic_fetch_add(&g->inside, 1) < g->max_waiting ||
        now_ms() - atomic_load(&g->progress_ms) < STALL_MS)
        return true;
    atomic_fetch_sub(&g->inside, 1);
    atomic_fetch_sub(&g->active, 1);
    fail(err, err_size, "the database is busy (%d requests wait for it already); try again soon",
         g->max_waiting);
    return false;
}

void store_gate_leave(struct store_gate *g)
{
    if (!g)
        return;
    atomic_store(&g->progress_ms, now_ms());
    atomic_fetch_sub(&g->active, 1);
    if (marked)
        atomic_fetch_sub(&g->inside, 1);
}

struct store_gate *store_gate_new(int max_waiting)
{
    struct store_gate *g = calloc(1, sizeof *g);
    if (g)
        g->max_waiting = max_waiting;
    return g;
}

void store_gate_free(struct store_gate *g)
{
    free(g);
}
