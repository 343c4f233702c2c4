/* A bound on the threads that may wait on the database at once (store_gate.c): when
 * `max_waiting` marked threads (the server's HTTP threads, marked with
 * store_gate_mark_thread) are inside a store wrapped by store_gate_wrap and no call has
 * come out of it for 100 ms (the database is stuck, not merely busy), one more gets
 * STORE_BUSY at once instead of waiting.  So a locked or slow database can hold
 * at most that many HTTP threads, and the others go on serving files, the catalogue
 * and games in memory.  Unmarked threads (the committers, the review thread) pass. */
#pragma once

#include "store/store.h"

/* The store's answer when the gate is full (never returned by a backend itself). */
#define STORE_BUSY (-2)

/* Wrap `inner` (taking it over: closing the wrapper closes it); NULL when out of
 * memory (inner closed). */
struct store *store_gate_wrap(struct store *inner, int max_waiting);
/* The calling thread's calls into a gated store count against its bound from now on. */
void store_gate_mark_thread(void);
