/* The engine worker's own state and helpers, shared by its files (worker.c: the
 * claims and the computer's moves; review.c: the reviews; clock_log.c: the clock and
 * the log).  Not for other rooms. */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "analysis/engine_pools.h"
#include "store/store.h"
#include "worker/worker.h"

struct worker {
    struct worker_config cfg;
    struct store *store;
    char id[STORE_JOB_WORKER_MAX]; /* "worker-" and 16 hex digits: the claims' name */
    char body[96];                 /* the events' body: whose move it was */
    int max_priority;              /* the jobs it claims (a server's threads: moves only) */
    bool own_store;                /* worker_start's: closed by worker_stop */
    struct engine_pools engines;   /* the reviews' external engines (worker_start's) */
    atomic_bool stopping;
    atomic_long moves, stale, reviews, claims;
    pthread_t *threads;
    int n_threads;
    /* The idle threads: one at a time waits on the database (`watching`), the others
     * on idle_cv until it wakes (`wakes` counts its wake-ups: a job may be there). */
    pthread_mutex_t idle_mu;
    pthread_cond_t idle_cv;
    bool watching, wait_failing;
    uint64_t wakes;
};

/* clock_log.c: the wall clock in ms (the leases' clock), a sleep, the log. */
int64_t worker_wall_ms(void);
void worker_sleep_ms(int ms);
/* A line on cfg.log ("agora worker: ..."), when there is one. */
void worker_say(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Review the claimed job of kind "review" (review.c): store the review and drop the
 * job, or drop a job that cannot be done (said), or leave it to its lease (the store
 * failed, the lease was lost, the worker stops). */
void worker_review(struct worker *w, const struct store_job *job);
/* Run the claimed job of kind "analysis" (analysis.c): its events written into the
 * job's output, the last left for the server holding the stream; or drop a job that
 * cannot be done or that nobody follows any more (said); stop when the job is dropped
 * or claimed again. */
void worker_analysis(struct worker *w, const struct store_job *job);
