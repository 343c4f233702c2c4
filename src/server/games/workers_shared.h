/* How the engine threads of a `--shared-jobs` server sit idle (workers_shared.c; issue
 * 26): they take their own server's moves first, then the shared queue's (moves other
 * servers queued in the database), and with neither they sleep until one comes.  One
 * watcher thread per server waits on the database for them (store_wait_jobs: LISTEN
 * agora_jobs on PostgreSQL, one connection whatever the number of threads), and only
 * while some thread is idle; when a move may be there it wakes every idle thread, and
 * each claims (SKIP LOCKED gives each job to one).  A move of the server's own wakes
 * a thread at once (workers.c: push).  No poll: an idle server makes no claim; a
 * thread looks again by itself only after SHARED_SAFETY_MS.
 *
 * Locking: all of it under jobs_mu (workers.c); the watcher waits on the database
 * without it. */
#pragma once

#include <stddef.h>

struct server;
struct session;

/* After srv->shared_jobs is made: start the watcher.  0, or -1 with err. */
int workers_shared_start(struct server *srv, char *err, size_t err_size);
/* An engine thread's next move of its own (a reference it owns), after making the
 * shared queue's moves in between; NULL once the server stops and no move of its own
 * is left. */
struct session *workers_shared_next(struct server *srv);
/* After srv->stopping is set and the engine threads have ended: end the watcher
 * (within the store's wait, about a second). */
void workers_shared_stop(struct server *srv);
