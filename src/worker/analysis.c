/* An analysis run by the engine worker (private.h: worker_analysis): the job's payload
 * (analysis/analysis_payload.h) read and its position played with the game's own
 * parser, then the server's own live analysis (analysis/live.h) with the worker's
 * external engine for the game where it has one (Stockfish for chess), else agora's
 * own, each event appended to the job's output as it comes (job_output_add, which
 * renews the lease), the last one, `done`, left there for the server holding the
 * stream (it drops the job once read), with a lease to the time that server stops
 * waiting, so nobody runs it again.  The time cap is a timer of the worker's, as the
 * server's watchdog.  A refused write (the stream closed and the job dropped, or the
 * job claimed again) stops the search.  A worker killed midway: the lease runs out
 * and another worker runs the analysis again from its start. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_payload.h"
#include "analysis/live.h"
#include "core/error.h"
#include "games/registry.h"
#include "worker/private.h"

#define TIMER_MS 25

struct analysis_run {
    struct worker *w;
    const struct store_job *job;
    int64_t deadline_ms, expires_ms;
    atomic_int stop, over;
    bool lost; /* the job is gone or another claim holds it */
};

/* The time cap, and the worker's stop. */
static void *timer_main(void *arg)
{
    struct analysis_run *r = arg;
    while (!atomic_load(&r->over)) {
        if (worker_wall_ms() >= r->deadline_ms || atomic_load(&r->w->stopping))
            atomic_store(&r->stop, 1);
        worker_sleep_ms(TIMER_MS);
    }
    return NULL;
}

static void emit(void *ctx, char *text, bool last)
{
    struct analysis_run *r = ctx;
    char err[ERROR_TEXT_MAX];
    if (!text || r->lost) {
        free(text);
        return;
    }
    int64_t now = worker_wall_ms();
    int64_t lease = r->w->cfg.lease_ms;
    if (last && r->expires_ms - now > lease)
        lease = r->expires_ms - now; /* read by the server, then dropped by it */
    int rc = store_job_output_add(r->w->store, r->job, text, last, now, lease, err, sizeof err);
    free(text);
    if (rc == 1) {
        r->lost = true;
        atomic_store(&r->stop, 1);
    } else if (rc != 0) {
        worker_say(r->w, "analysis %s: output not stored: %s", r->job->id, err);
    }
}

/* A job that cannot be done, or that nobody follows any more: dropped, with why. */
static void give_up(struct worker *w, const struct store_job *job, const char *why)
{
    char err[ERROR_TEXT_MAX];
    if (store_drop_job(w->store, job->id, err, sizeof err) != 0)
        worker_say(w, "analysis %s: the job stays: %s", job->id, err);
    atomic_fetch_add(&w->stale, 1);
    worker_say(w, "analysis %s: dropped: %s", job->id, why);
}

/* The payload read and its position played: the position, or NULL (said). */
static void *load(struct worker *w, const struct store_job *job, struct analysis_payload *p,
                  const struct game **g)
{
    char err[ERROR_TEXT_MAX], *text = NULL;
    int rc = store_job_payload(w->store, job->id, &text, err, sizeof err);
    if (rc != 0) {
        if (rc < 0)
            worker_say(w, "analysis %s: cannot read it: %s", job->id, err);
        return NULL; /* 1: gone meanwhile (the stream closed) */
    }
    rc = analysis_payload_read(text, p, err, sizeof err);
    free(text);
    if (rc != 0) {
        give_up(w, job, err);
        return NULL;
    }
    void *st = NULL;
    if (worker_wall_ms() >= analysis_payload_expires_ms(job->created_ms, p->time_ms))
        give_up(w, job, "its stream's server stopped waiting for it");
    else if (!(*g = game_find(p->game)))
        give_up(w, job, "unknown game");
    else if (!(st = analysis_payload_position(*g, p, err, sizeof err)))
        give_up(w, job, err);
    if (!st)
        analysis_payload_free(p);
    return st;
}

void worker_analysis(struct worker *w, const struct store_job *job)
{
    int64_t start_ms = worker_wall_ms();
    struct analysis_payload p;
    const struct game *g = NULL;
    void *st = load(w, job, &p, &g);
    if (!st)
        return;
    struct analysis_run run = {
        .w = w,
        .job = job,
        .deadline_ms = start_ms + p.time_ms,
        .expires_ms = analysis_payload_expires_ms(job->created_ms, p.time_ms),
    };
    atomic_init(&run.stop, 0);
    atomic_init(&run.over, 0);
    pthread_t timer;
    bool timed = pthread_create(&timer, NULL, timer_main, &run) == 0;
    if (!timed)
        atomic_store(&run.stop, 1); /* no time cap: a done event at once */
    const char *engine_why = "";    /* why not the game's external engine, when it is missing */
    struct analysis_live rq = {
        .g = g,
        .st = st,
        .multipv = p.multipv,
        .nodes = p.nodes,
        .stop = &run.stop,
        /* the worker's external engine (Stockfish for chess), as a server's analysis */
        .external = engine_pools_of(&w->engines, g, &engine_why),
        .engine_why = engine_why,
        .emit = emit,
        .ctx = &run,
    };
    analysis_live_run(&rq);
    atomic_store(&run.over, 1);
    if (timed)
        pthread_join(timer, NULL);
    if (run.lost)
        worker_say(w, "analysis %s: stopped, its stream closed (or another claim holds it)",
                   job->id);
    else
        worker_say(w, "analysis %s: done in %lld ms", job->id,
                   (long long)(worker_wall_ms() - start_ms));
    free(st);
    analysis_payload_free(&p);
}
