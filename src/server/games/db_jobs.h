/* Computer moves as jobs in the database (db_jobs.c; issue 26): with a PostgreSQL
 * store and `--workers 0`, this server thinks no move itself.  workers_schedule puts
 * a job in the store (store_put_job: the human's move is stored already) and the
 * request waits; a worker process (src/worker/, `agora worker`) on any machine claims
 * it, commits the move with an event in the outbox, and the outbox's reader
 * (outbox.c) calls db_jobs_heard, which reads the game's new moves into the waiting
 * session and answers the request.  The ticker (workers.c) also looks at every game
 * waiting over a second (db_jobs_tick): a game that ended meanwhile (a resignation)
 * or a move whose event was missed is answered then.  The cap of moves queued per
 * address counts the address's jobs in the store, so it holds on every server.
 *
 * Locking: dj_mu is a leaf; schedule runs under s->mu; the others lock each waiting
 * session's mu themselves. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct server;
struct session;

/* Whether the store's jobs take this server's computer moves (PostgreSQL, no engine
 * workers of its own): set by workers_start. */
bool db_jobs_on(const struct server *srv);
/* Under s->mu, the computer to move and no job pending: queue its move for `client`
 * ("" or NULL: none); job_pending is set and a reference taken when it is queued. */
void db_jobs_schedule(struct session *s, const char *client);
/* Whether `client` may queue another computer move (queued_per_address, counted in
 * the store: every server's and worker's). */
bool db_jobs_admit(struct server *srv, const char *client);
/* Game `id` changed on another server or worker: its waiting sessions catch up. */
void db_jobs_heard(struct server *srv, const char *id);
/* The ticker's call: the sessions waiting long are read again from the store. */
void db_jobs_tick(struct server *srv, int64_t now_ms);
/* Stopping: answer every waiting request with the game as it stands (the job stays
 * in the store for the workers). */
void db_jobs_stop(struct server *srv);
