/* The review thread: a queue of reviews, each searched position by position at the
 * game's review budget, stored when finished (review_jobs.h). */
#include "server/analysis/review_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/error.h"
#include "server/analysis/analysis_engines.h"
#include "server/games/session.h"
#include "server/server_state.h"

#define REVIEW_POSITION_MS                                                                         \
    0 /* none: the node budget bounds each position (a time stop in the first                      \
       * iteration would leave a position unscored) */

struct review_job *review_job_new(struct server *srv, const struct game *g, void *st,
                                  const char *id)
{
    struct review_job *j = calloc(1, sizeof *j);
    int n = g->ply(st);
    Move *moves = malloc(sizeof(Move) * (size_t)(n + 1));
    if (!j || !moves) {
        free(j);
        free(moves);
        free(st);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        moves[i] = g->history_move(st, i);
    for (int i = n - 1; i >= 0; i--)
        g->unmake_move(st, moves[i]);
    j->srv = srv;
    snprintf(j->id, sizeof j->id, "%s", id);
    j->g = g;
    j->start = st;
    j->moves = moves;
    j->n = n;
    atomic_init(&j->refs, 1);
    atomic_init(&j->total, n + 1);
    return j;
}

void review_job_put(struct review_job *j)
{
    if (!j || atomic_fetch_sub(&j->refs, 1) != 1)
        return;
    free(j->start);
    free(j->moves);
    free(j->plies);
    free(j);
}

/* Under rv_mu. */
static struct review_job *live_with(struct server *srv, const char *id)
{
    for (struct review_job *o = srv->rv_live; o; o = o->live_next)
        if (!strcmp(o->id, id))
            return o;
    return NULL;
}

struct review_job *review_find(struct server *srv, const char *id)
{
    pthread_mutex_lock(&srv->rv_mu);
    struct review_job *j = live_with(srv, id);
    if (j)
        atomic_fetch_add(&j->refs, 1);
    pthread_mutex_unlock(&srv->rv_mu);
    return j;
}

struct review_job *review_submit(struct review_job *j, int *code, char *err, size_t err_size)
{
    struct server *srv = j->srv;
    int total = srv->cfg.review_max > 0 ? srv->cfg.review_max : 2;
    pthread_mutex_lock(&srv->rv_mu);
    struct review_job *got = live_with(srv, j->id);
    int mine = 0;
    for (struct review_job *o = srv->rv_live; o; o = o->live_next)
        mine += !strcmp(o->client, j->client);
    *code = 503;
    if (got) {
        atomic_fetch_add(&got->refs, 1);
    } else if (srv->rv_closed || srv->n_rv_threads == 0) {
        fail(err, err_size, "reviews are not available on this server now");
    } else if (mine >= REVIEW_PER_CLIENT) {
        *code = 429;
        fail(err, err_size, "too many reviews from this address at once (at most %d)",
             REVIEW_PER_CLIENT);
    } else if (srv->rv_live_count >= total) {
        fail(err, err_size, "the server is reviewing all it can (%d at once); try again soon",
             total);
    } else {
        got = j;
        atomic_fetch_add(&j->refs, 2); /* the caller's and the thread's */
        j->live_next = srv->rv_live;
        srv->rv_live = j;
        srv->rv_live_count++;
        j->next = NULL;
        if (srv->rv_tail)
            srv->rv_tail->next = j;
        else
            srv->rv_head = j;
        srv->rv_tail = j;
        pthread_cond_signal(&srv->rv_cv);
    }
    pthread_mutex_unlock(&srv->rv_mu);
    review_job_put(j); /* the reference the job was made with */
    return got;
}

static void on_progress(void *ctx, int done, int total)
{
    struct review_job *j = ctx;
    atomic_store(&j->done, done);
    atomic_store(&j->total, total);
}

static void run(struct review_job *j)
{
    struct server *srv = j->srv;
    j->plies = calloc((size_t)j->n + 1, sizeof *j->plies);
    char err[ERROR_TEXT_MAX];
    struct analysis_review_request rq = {
        .nodes = srv->cfg.review_nodes > 0 ? (uint64_t)srv->cfg.review_nodes : 0,
        .movetime_ms = REVIEW_POSITION_MS,
        .stop = &j->stop,
        .on_progress = on_progress,
        .ctx = j,
        .external = analysis_engine_of(srv, j->g, &j->engine_why),
        .report = &j->report,
    };
    int n = j->plies ? analysis_review(j->g, j->start, j->moves, j->n, &rq, j->plies, &j->sum, err,
                                       sizeof err)
                     : -1;
    if (n != j->n || atomic_load(&j->stop))
        return; /* stopped or failed: nothing stored, a new POST starts again */
    j->n_reviewed = n;
    char *text = j->format ? j->format(j) : NULL;
    if (text)
        store_put_review(srv->store, j->id, j->g->name, text, server_now_ms(), err, sizeof err);
    free(text);
}

static void *review_main(void *arg)
{
    struct server *srv = arg;
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), srv->cfg.analysis_nice) != 0) {
        /* not allowed: the review still runs on a thread of its own */
    }
    pthread_mutex_lock(&srv->rv_mu);
    for (;;) {
        struct review_job *j = srv->rv_head;
        if (!j) {
            if (srv->rv_closed)
                break;
            pthread_cond_wait(&srv->rv_cv, &srv->rv_mu);
            continue;
        }
        srv->rv_head = j->next;
        if (!srv->rv_head)
            srv->rv_tail = NULL;
        if (srv->rv_closed)
            atomic_store(&j->stop, 1);
        pthread_mutex_unlock(&srv->rv_mu);
        run(j); /* stored before it leaves the live list: no moment shows neither */
        pthread_mutex_lock(&srv->rv_mu);
        for (struct review_job **p = &srv->rv_live; *p; p = &(*p)->live_next)
            if (*p == j) {
                *p = j->live_next;
                break;
            }
        srv->rv_live_count--;
        pthread_mutex_unlock(&srv->rv_mu);
        review_job_put(j);
        pthread_mutex_lock(&srv->rv_mu);
    }
    pthread_mutex_unlock(&srv->rv_mu);
    return NULL;
}

int review_jobs_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->rv_mu, NULL);
    pthread_cond_init(&srv->rv_cv, NULL);
    srv->rv_inited = true;
    int n = srv->cfg.review_threads;
    if (n <= 0)
        return 0;
    if (!(srv->rv_threads = calloc((size_t)n, sizeof *srv->rv_threads)))
        return fail(err, err_size, "out of memory");
    for (; srv->n_rv_threads < n; srv->n_rv_threads++)
        if (pthread_create(&srv->rv_threads[srv->n_rv_threads], NULL, review_main, srv) != 0)
            return fail(err, err_size, "cannot start the review threads");
    return 0;
}

void review_jobs_stop(struct server *srv)
{
    if (!srv->rv_inited)
        return;
    pthread_mutex_lock(&srv->rv_mu);
    srv->rv_closed = true;
    for (struct review_job *o = srv->rv_live; o; o = o->live_next)
        atomic_store(&o->stop, 1);
    pthread_cond_broadcast(&srv->rv_cv);
    pthread_mutex_unlock(&srv->rv_mu);
    for (int i = 0; i < srv->n_rv_threads; i++)
        pthread_join(srv->rv_threads[i], NULL);
    free(srv->rv_threads);
    srv->rv_threads = NULL;
    srv->n_rv_threads = 0;
    pthread_cond_destroy(&srv->rv_cv);
    pthread_mutex_destroy(&srv->rv_mu);
    srv->rv_inited = false;
}
