/* A bound on the threads that may wait on the database at once: when `max_waiting`
 * marked threads (the server's HTTP threads, marked with store_gate_mark_thread) are
 * inside a store opened with that bound (store_options.max_waiting) and no call has
 * come out of it for 100 ms (the database is stuck, not merely busy), one more gets
 * STORE_BUSY at once instead of waiting.  So a locked or slow database can hold at
 * most that many HTTP threads, and the others go on serving files, the catalogue and
 * games in memory.  Unmarked threads (the committers, the review thread) pass.
 *
 * The gate sits once, in the calls store.c makes from store_ops.def (every operation
 * of every backend passes it), not in a backend. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

/* The calling thread's calls into a gated store count against its bound from now on. */
void store_gate_mark_thread(void);

/* For store.c: a gate for at most `max_waiting` marked threads (NULL: out of memory),
 * and the way in and out of every call.  A NULL gate lets everyone in. */
struct store_gate *store_gate_new(int max_waiting);
void store_gate_free(struct store_gate *g);
/* Take a place (true), or say why not in err (false). */
bool store_gate_enter(struct store_gate *g, char *err, size_t err_size);
void store_gate_leave(struct store_gate *g);
