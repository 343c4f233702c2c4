/* The engine worker (issue 26): computer moves made away from the servers, by
 * `agora worker --db URL` processes on any machine.  A server on PostgreSQL with
 * `--workers 0` queues each computer move as a job in the database (store_ops.def
 * "Engine jobs"); a worker's threads claim them (the next by priority, then the
 * address's fair share, then age), each for a lease, think, and commit the move, the
 * job's end and the event that tells every server, in one transaction
 * (store_finish_job).  Idle, one thread of a worker waits on the database for the
 * next job (store_wait_jobs: LISTEN/NOTIFY, woken when a job is queued or a lease
 * ends), the others for it; no poll.  A worker killed mid-move loses nothing: its job
 * is claimed again once the lease runs out, and the store refuses a second commit of
 * one ply.  Reviews are jobs too (kind "review", after the moves; review.c): the
 * worker reviews the game its payload carries, with the game's external engine
 * (Stockfish for chess) when it has one, as the servers do, else agora's own, and
 * stores the review.
 *
 * Knows the store, the games and the engine; no server (a server may use it: its own
 * engine threads take jobs too when idle, workers.c). */
#pragma once

#include <stdint.h>
#include <stdio.h>

struct engine_book;
struct store;

struct worker_config {
    const char *db_url;   /* the servers' database (postgresql://...) */
    int threads;          /* moves thought at once (1..64) */
    int64_t move_time_ms; /* a move's cap (the servers' --move-ms; 5000) */
    int64_t lease_ms;     /* a claim's lease: longer than a move (default 30000) */
    int max_plies;        /* a game this long is a draw (the servers' cap; 1000) */
    int wait_ms;          /* an idle worker's longest wait on the database before it
                             reads the queue again (1000); a stop waits for it */
    int test_think_ms;    /* tests: each move, and each position of a review, takes at least
                           * this long */
    const struct engine_book *book;
    /* The reviews' external engine, as the servers' (analysis/engine_pools.h): a path
     * for every game whose profile names one, "none" for none, NULL for each
     * profile's own (Stockfish for chess, when installed); agora's own engine judges
     * a game without one, or whose engine is missing or fails (the review's "engine"
     * says which judged, "engine_error" why not the external one). */
    const char *analysis_engine;
    int analysis_engines;       /* its processes at most per game (0: one a thread) */
    int64_t analysis_engine_ms; /* its longest silence before it is killed (0: 10000) */
    FILE *log;                  /* a line a move (NULL: none) */
};

void worker_config_default(struct worker_config *cfg);

struct worker;
/* Open the database and start the threads: the worker, or NULL with one line in err. */
struct worker *worker_start(const struct worker_config *cfg, char *err, size_t err_size);
/* Stop claiming, let the moves being thought finish (each within its cap), commit
 * them, and free everything. */
void worker_stop(struct worker *w);
/* A worker without threads over a store the caller keeps (a server whose own engine
 * threads also take jobs from the shared queue, workers.c): NULL without memory. */
struct worker *worker_attach(struct store *store, const struct worker_config *cfg);
/* Claim one job and make its move on this thread: 0 done, 1 none waiting, -1 the
 * store failed (said on cfg->log). */
int worker_run_one(struct worker *w);
/* Moves committed, reviews stored, and jobs found stale (the game over or moved on,
 * a review that cannot be done) so far. */
long worker_moves(const struct worker *w);
long worker_reviews(const struct worker *w);
long worker_stale(const struct worker *w);
/* The claims asked of the store so far, found or not (tests: an idle worker asks none). */
long worker_claims(const struct worker *w);
