/* The engine workers, the committers and the ticker (workers.c): the computer's moves
 * are thought off the HTTP threads and committed off the engine's. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct server;
struct session;

int workers_start(struct server *srv, char *err, size_t err_size);
/* After srv->stopping is set: let the workers drain the queue and end. */
void workers_stop(struct server *srv);
/* Under s->mu: queue the computer's move if it is its turn and none is queued (sets
 * job_pending and takes a reference for the job).  Once the server is stopping
 * nothing is queued, and job_pending stays clear. */
void workers_schedule(struct session *s);
/* The same, in the queue of `client` (the address whose request asks for the move). */
void workers_schedule_from(struct session *s, const char *client);
/* Whether `client` may queue another computer move (under queued_per_address). */
bool workers_admit(struct server *srv, const char *client);
/* Think the queued moves on this thread (engine_workers == 0; never under a lock). */
void workers_run_inline(struct server *srv);
