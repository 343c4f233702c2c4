/* The idle engine threads of a --shared-jobs server (workers_shared.h).
 *
 * shared_wakes counts the watcher's wake-ups: a thread reads it before it claims, and
 * sleeps only while it has not changed since, so a job queued after its claim found
 * none is not missed.  shared_idle counts the threads asleep since the last wake-up:
 * the watcher waits on the database only while there is one (a busy server does not
 * keep it reading the queue), and a wake-up releases them all (the count starts
 * again from 0: each that finds nothing counts itself again). */
#include "server/games/workers_shared.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "core/error.h"
#include "server/games/fair_queue.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"
#include "worker/worker.h"

/* A thread asleep this long looks at the shared queue anyway (a wake-up lost to a
 * failing store; the watcher's own wait reads the queue every second). */
#define SHARED_SAFETY_MS 10000
/* The watcher's longest wait on the database: a stop waits for it. */
#define SHARED_WAIT_MS 1000
#define SHARED_RETRY_MS 500 /* after the store failed */

static struct timespec realtime_in(int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static void *watcher_main(void *arg)
{
    struct server *srv = arg;
    char err[ERROR_TEXT_MAX];
    bool failing = false;
    pthread_mutex_lock(&srv->jobs_mu);
    while (!atomic_load(&srv->stopping)) {
        if (srv->shared_idle == 0) {
            pthread_cond_wait(&srv->shared_cv, &srv->jobs_mu);
            continue;
        }
        pthread_mutex_unlock(&srv->jobs_mu);
        int rc = store_wait_jobs(srv->store, server_now_ms(), SHARED_WAIT_MS,
                                 STORE_JOB_PRIORITY_MOVE, err, sizeof err);
        if (rc < 0 && !failing)
            fprintf(stderr, "agora: cannot wait for the shared jobs: %s (trying again)\n", err);
        failing = rc < 0;
        if (failing) { /* the threads claim (and fail) once, then sleep again */
            struct timespec pause = {0, SHARED_RETRY_MS * 1000000L};
            nanosleep(&pause, NULL);
        }
        pthread_mutex_lock(&srv->jobs_mu);
        if (rc != 1) {
            srv->shared_wakes++;
            srv->shared_idle = 0;
            pthread_cond_broadcast(&srv->jobs_cv);
        }
    }
    pthread_mutex_unlock(&srv->jobs_mu);
    return NULL;
}

int workers_shared_start(struct server *srv, char *err, size_t err_size)
{
    pthread_cond_init(&srv->shared_cv, NULL);
    srv->shared_wakes = 0;
    srv->shared_idle = 0;
    if (pthread_create(&srv->shared_watcher, NULL, watcher_main, srv) != 0) {
        pthread_cond_destroy(&srv->shared_cv);
        return fail(err, err_size, "cannot start the shared jobs' watcher thread");
    }
    srv->shared_watching = true;
    return 0;
}

/* Asleep (under jobs_mu) until a move of its own, a wake-up since `seen`, the stop or
 * SHARED_SAFETY_MS. */
static void sleep_idle(struct server *srv, uint64_t seen)
{
    srv->shared_idle++;
    pthread_cond_signal(&srv->shared_cv);
    struct timespec until = realtime_in(SHARED_SAFETY_MS);
    while (fair_queue_empty(srv->jobs) && srv->shared_wakes == seen && !atomic_load(&srv->stopping))
        if (pthread_cond_timedwait(&srv->jobs_cv, &srv->jobs_mu, &until) == ETIMEDOUT)
            break;
    if (srv->shared_wakes == seen)
        srv->shared_idle--; /* still counted: not released by a wake-up */
}

struct session *workers_shared_next(struct server *srv)
{
    pthread_mutex_lock(&srv->jobs_mu);
    for (;;) {
        uint64_t seen = srv->shared_wakes;
        struct session *s = fair_queue_pop(srv->jobs);
        if (s || atomic_load(&srv->stopping)) {
            pthread_mutex_unlock(&srv->jobs_mu);
            return s;
        }
        pthread_mutex_unlock(&srv->jobs_mu);
        int rc = worker_run_one(srv->shared_jobs); /* 0: made one; look again */
        pthread_mutex_lock(&srv->jobs_mu);
        if (rc != 0)
            sleep_idle(srv, seen);
    }
}

void workers_shared_stop(struct server *srv)
{
    if (!srv->shared_watching)
        return;
    pthread_mutex_lock(&srv->jobs_mu);
    pthread_cond_broadcast(&srv->shared_cv);
    pthread_mutex_unlock(&srv->jobs_mu);
    pthread_join(srv->shared_watcher, NULL);
    pthread_cond_destroy(&srv->shared_cv);
    srv->shared_watching = false;
}
