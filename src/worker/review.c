/* A review made by the engine worker (private.h: worker_review): the job's payload
 * (analysis/review_payload.h) read and its game replayed with the game's own parser,
 * every position judged at the server's node budget (analysis_review) by the game's
 * external engine when the worker has one (worker_start: Stockfish for chess, as the
 * servers'), else by agora's own, the progress and the lease renewed about once a second, and the
 * finished review stored with the text the server would write (analysis_json.h)
 * before the job is dropped.  A worker killed midway loses the review: its lease runs
 * out and another worker does it again from the start (storing it twice replaces
 * the same text). */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_json.h"
#include "analysis/review_payload.h"
#include "core/error.h"
#include "games/registry.h"
#include "worker/private.h"

#define REVIEW_PROGRESS_MS 1000 /* the progress written (and the lease renewed) this often */

struct review_run {
    struct worker *w;
    const struct store_job *job;
    int64_t last_ms;
    atomic_int stop;
    bool lost; /* another worker holds the job now */
};

/* Record done of total and renew the lease; stop when the job is no longer ours. */
static void report(struct review_run *r, int done, int total)
{
    char err[ERROR_TEXT_MAX];
    r->last_ms = worker_wall_ms();
    int rc = store_job_progress(r->w->store, r->job->id, r->w->id, done, total, r->last_ms,
                                r->w->cfg.lease_ms, err, sizeof err);
    if (rc == 1) {
        r->lost = true;
        atomic_store(&r->stop, 1);
    } else if (rc != 0) {
        worker_say(r->w, "review %s: progress not stored: %s", r->job->id, err);
    }
}

static void on_progress(void *ctx, int done, int total)
{
    struct review_run *r = ctx;
    for (int slept = 0; slept < r->w->cfg.test_think_ms; slept += 5)
        worker_sleep_ms(5); /* tests: a slow review, to be caught midway */
    if (atomic_load(&r->w->stopping))
        atomic_store(&r->stop, 1); /* the lease runs out; another worker does it */
    if (worker_wall_ms() - r->last_ms >= REVIEW_PROGRESS_MS && done < total)
        report(r, done, total);
}

/* A job that cannot be done: dropped, with why. */
static void give_up(struct worker *w, const struct store_job *job, const char *why)
{
    char err[ERROR_TEXT_MAX];
    if (store_drop_job(w->store, job->id, err, sizeof err) != 0)
        worker_say(w, "review %s: the job stays: %s", job->id, err);
    atomic_fetch_add(&w->stale, 1);
    worker_say(w, "review %s: dropped: %s", job->id, why);
}

/* The payload read and its game replayed: 0, 1 (said, dropped) or -1 (the store
 * failed: the lease runs out and someone tries again). */
static int load(struct worker *w, const struct store_job *job, struct review_payload *p,
                const struct game **g, void **start, Move **moves)
{
    char err[ERROR_TEXT_MAX], *text = NULL;
    int rc = store_job_payload(w->store, job->id, &text, err, sizeof err);
    if (rc != 0) {
        if (rc < 0)
            worker_say(w, "review %s: cannot read it: %s", job->id, err);
        return rc; /* 1: gone meanwhile (done by another worker) */
    }
    rc = review_payload_read(text, p, err, sizeof err);
    free(text);
    if (rc != 0) {
        give_up(w, job, err);
        return 1;
    }
    if (!(*g = game_find(p->game))) {
        give_up(w, job, "unknown game");
        review_payload_free(p);
        return 1;
    }
    if (review_payload_replay(*g, p, start, moves, err, sizeof err) != 0) {
        give_up(w, job, err);
        review_payload_free(p);
        return 1;
    }
    return 0;
}

/* The review's JSON stored, then the job dropped: a GET between the two finds the
 * job still running, never neither. */
static void store_it(struct worker *w, const struct store_job *job, const struct game *g,
                     const struct review_payload *p, const struct analysis_ply *plies,
                     const struct analysis_summary *sum, const struct analysis_engine_report *rep,
                     const char *engine_why, int64_t start_ms)
{
    char err[ERROR_TEXT_MAX];
    /* As the servers': the engine that failed midway, else the one missing at start. */
    const char *why = rep->error[0] ? rep->error : engine_why;
    char *body = review_done_text(p->id, g, p->start, plies, p->n, sum, rep->name, why);
    if (!body) {
        worker_say(w, "review %s: out of memory", job->id);
        return;
    }
    int rc = store_put_review(w->store, p->id, g->name, body, worker_wall_ms(), err, sizeof err);
    free(body);
    if (rc == 0)
        rc = store_drop_job(w->store, job->id, err, sizeof err);
    if (rc != 0) {
        worker_say(w, "review %s: not stored (%s; the job goes back to the queue)", job->id, err);
        return;
    }
    atomic_fetch_add(&w->reviews, 1);
    worker_say(w, "review %s: %d plies in %lld ms", job->id, p->n,
               (long long)(worker_wall_ms() - start_ms));
}

void worker_review(struct worker *w, const struct store_job *job)
{
    int64_t start_ms = worker_wall_ms();
    struct review_payload p;
    const struct game *g = NULL;
    void *start = NULL;
    Move *moves = NULL;
    if (load(w, job, &p, &g, &start, &moves) != 0)
        return;
    struct review_run run = {.w = w, .job = job};
    atomic_init(&run.stop, 0);
    report(&run, 0, p.n + 1); /* its total, for the servers' progress */
    struct analysis_ply *plies = calloc((size_t)p.n + 1, sizeof *plies);
    struct analysis_summary sum;
    struct analysis_engine_report rep;
    memset(&rep, 0, sizeof rep);
    const char *engine_why = ""; /* why not the external engine, when it is missing */
    struct analysis_review_request rq = {
        .nodes = p.nodes,
        .movetime_ms = 0, /* the node budget bounds each position, as the server's */
        .stop = &run.stop,
        .on_progress = on_progress,
        .ctx = &run,
        .external = engine_pools_of(&w->engines, g, &engine_why),
        .report = &rep,
    };
    char err[ERROR_TEXT_MAX] = "out of memory";
    int n = plies && !run.lost
                ? analysis_review(g, start, moves, p.n, &rq, plies, &sum, err, sizeof err)
                : -1;
    if (run.lost)
        worker_say(w, "review %s: its lease was lost; left to the worker holding it", job->id);
    else if (n < 0)
        give_up(w, job, err);
    else if (n == p.n && !atomic_load(&run.stop))
        store_it(w, job, g, &p, plies, &sum, &rep, engine_why, start_ms);
    free(plies);
    free(start);
    free(moves);
    review_payload_free(&p);
}
