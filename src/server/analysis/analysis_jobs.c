/* The analysis threads: a queue of analyses and a few threads of their own, at the
 * lowest scheduling priority, so that analyses never take an engine worker from a
 * game, nor a core the game's worker wants (analysis_jobs.h). */
#include "server/analysis/analysis_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "analysis/live.h"
#include "core/error.h"
#include "engines/profile.h"
#include "server/analysis/analysis_engines.h"
#include "server/games/session.h"
#include "server/server_state.h"

#define WATCH_MS 25

/* An analysis's nodes per line: by default what a review spends on a position
 * times ANALYSIS_DEFAULT_FACTOR, at most ANALYSIS_CAP_FACTOR times it. */
#define ANALYSIS_DEFAULT_FACTOR 4
#define ANALYSIS_CAP_FACTOR 20

void analysis_budget(const struct server *srv, const struct game *g, int lines, uint64_t *def,
                     uint64_t *cap)
{
    uint64_t per = engine_profile_of(g)->review_nodes;
    if (!per)
        per = 100000;
    uint64_t n = lines > 0 ? (uint64_t)lines : 1;
    uint64_t d = per * ANALYSIS_DEFAULT_FACTOR * n, c = per * ANALYSIS_CAP_FACTOR * n;
    uint64_t lim = srv->cfg.analysis_nodes_cap > 0 ? (uint64_t)srv->cfg.analysis_nodes_cap : 0;
    if (lim && c > lim)
        c = lim;
    if (d > c)
        d = c;
    *def = d;
    *cap = c;
}

struct analysis_job *analysis_job_new(struct server *srv, const struct game *g, void *st)
{
    struct analysis_job *j = calloc(1, sizeof *j);
    if (!j) {
        free(st);
        return NULL;
    }
    j->srv = srv;
    j->g = g;
    j->st = st;
    j->multipv = 1;
    atomic_init(&j->refs, 1);
    atomic_init(&j->stop, 0);
    pthread_mutex_init(&j->mu, NULL);
    return j;
}

void analysis_job_put(struct analysis_job *j)
{
    if (!j || atomic_fetch_sub(&j->refs, 1) != 1)
        return;
    pthread_mutex_destroy(&j->mu);
    free(j->out);
    free(j->st);
    free(j);
}

int analysis_jobs_live(struct server *srv)
{
    pthread_mutex_lock(&srv->an_mu);
    int n = srv->an_live_count;
    pthread_mutex_unlock(&srv->an_mu);
    return n;
}

int analysis_submit(struct analysis_job *j, char *err, size_t err_size)
{
    struct server *srv = j->srv;
    int per_client = srv->cfg.analysis_per_client > 0 ? srv->cfg.analysis_per_client : 2;
    int total = srv->cfg.analysis_max > 0 ? srv->cfg.analysis_max : 4;
    pthread_mutex_lock(&srv->an_mu);
    int mine = 0;
    for (struct analysis_job *o = srv->an_live; o; o = o->live_next)
        mine += !strcmp(o->client, j->client);
    int code = 0;
    if (srv->an_closed || srv->n_an_threads == 0) {
        code = 503;
        fail(err, err_size, "analysis is not available on this server now");
    } else if (mine >= per_client) {
        code = 429;
        fail(err, err_size, "too many analyses from this address at once (at most %d)", per_client);
    } else if (srv->an_live_count >= total) {
        code = 503;
        fail(err, err_size, "the server is analysing all it can (%d at once); try again soon",
             total);
    } else {
        atomic_fetch_add(&j->refs, 1);
        j->live_next = srv->an_live;
        srv->an_live = j;
        srv->an_live_count++;
        j->next = NULL;
        if (srv->an_tail)
            srv->an_tail->next = j;
        else
            srv->an_head = j;
        srv->an_tail = j;
        pthread_cond_signal(&srv->an_cv);
    }
    pthread_mutex_unlock(&srv->an_mu);
    return code;
}

void analysis_job_emit(struct analysis_job *j, char *text, bool last)
{
    pthread_mutex_lock(&j->mu);
    size_t n = text ? strlen(text) : 0;
    if (j->out_len + n + 1 > j->out_cap) {
        size_t cap = (j->out_len + n + 1) * 2;
        char *b = realloc(j->out, cap);
        if (b) {
            j->out = b;
            j->out_cap = cap;
        } else {
            n = 0; /* out of memory: this event is lost, the stream goes on */
        }
    }
    if (n) {
        memcpy(j->out + j->out_len, text, n);
        j->out_len += n;
        j->out[j->out_len] = 0;
    }
    if (last)
        j->finished = true;
    if (j->suspended && j->wake) {
        j->suspended = false;
        j->wake(j);
    }
    pthread_mutex_unlock(&j->mu);
    free(text);
}

static void emit_event(void *ctx, char *text, bool last)
{
    analysis_job_emit(ctx, text, last);
}

static void run(struct analysis_job *j)
{
    /* The time cap is the watchdog's stop, not the search's movetime: a line searched
     * with a time limit may end at a shallow depth. */
    if (!atomic_load(&j->stop))
        atomic_store(&j->deadline_ms, server_now_ms() + j->time_ms);
    struct analysis_live rq = {
        .g = j->g,
        .st = j->st,
        .multipv = j->multipv,
        .nodes = j->nodes,
        .stop = &j->stop,
        .emit = emit_event,
        .ctx = j,
    };
    if (!atomic_load(&j->stop))
        rq.external = analysis_engine_of(j->srv, j->g, &rq.engine_why);
    analysis_live_run(&rq);
    atomic_store(&j->deadline_ms, 0);
}

static void *analysis_main(void *arg)
{
    struct server *srv = arg;
    /* Behind the games: the lowest priority this thread may take (Linux: per thread). */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), srv->cfg.analysis_nice) != 0) {
        /* not allowed: the analysis still runs on a thread of its own */
    }
    pthread_mutex_lock(&srv->an_mu);
    for (;;) {
        struct analysis_job *j = srv->an_head;
        if (!j) {
            if (srv->an_closed)
                break;
            pthread_cond_wait(&srv->an_cv, &srv->an_mu);
            continue;
        }
        srv->an_head = j->next;
        if (!srv->an_head)
            srv->an_tail = NULL;
        if (srv->an_closed)
            atomic_store(&j->stop, 1);
        pthread_mutex_unlock(&srv->an_mu);
        run(j);
        pthread_mutex_lock(&srv->an_mu);
        for (struct analysis_job **p = &srv->an_live; *p; p = &(*p)->live_next)
            if (*p == j) {
                *p = j->live_next;
                break;
            }
        srv->an_live_count--;
        pthread_mutex_unlock(&srv->an_mu);
        analysis_job_put(j);
        pthread_mutex_lock(&srv->an_mu);
    }
    pthread_mutex_unlock(&srv->an_mu);
    return NULL;
}

/* The watchdog of the analyses' time cap. */
static void *watch_main(void *arg)
{
    struct server *srv = arg;
    pthread_mutex_lock(&srv->an_mu);
    while (!srv->an_closed) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&srv->an_watch_cv, &srv->an_mu, &until);
        int64_t now = server_now_ms();
        for (struct analysis_job *o = srv->an_live; o; o = o->live_next) {
            int64_t d = atomic_load(&o->deadline_ms);
            if (d && now >= d)
                atomic_store(&o->stop, 1);
        }
    }
    pthread_mutex_unlock(&srv->an_mu);
    return NULL;
}

int analysis_jobs_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->an_mu, NULL);
    pthread_cond_init(&srv->an_cv, NULL);
    pthread_cond_init(&srv->an_watch_cv, NULL);
    srv->an_inited = true;
    int n = srv->cfg.analysis_threads;
    if (n <= 0)
        return 0;
    if (pthread_create(&srv->an_watch, NULL, watch_main, srv) != 0)
        return fail(err, err_size, "cannot start the analysis watchdog");
    srv->an_watching = true;
    if (!(srv->an_threads = calloc((size_t)n, sizeof *srv->an_threads)))
        return fail(err, err_size, "out of memory");
    for (; srv->n_an_threads < n; srv->n_an_threads++)
        if (pthread_create(&srv->an_threads[srv->n_an_threads], NULL, analysis_main, srv) != 0)
            return fail(err, err_size, "cannot start the analysis threads");
    return 0;
}

void analysis_jobs_stop(struct server *srv)
{
    if (!srv->an_inited)
        return;
    pthread_mutex_lock(&srv->an_mu);
    srv->an_closed = true;
    for (struct analysis_job *o = srv->an_live; o; o = o->live_next)
        atomic_store(&o->stop, 1);
    pthread_cond_broadcast(&srv->an_cv);
    pthread_cond_broadcast(&srv->an_watch_cv);
    pthread_mutex_unlock(&srv->an_mu);
    for (int i = 0; i < srv->n_an_threads; i++)
        pthread_join(srv->an_threads[i], NULL);
    if (srv->an_watching)
        pthread_join(srv->an_watch, NULL);
    srv->an_watching = false;
    pthread_cond_destroy(&srv->an_watch_cv);
    free(srv->an_threads);
    srv->an_threads = NULL;
    srv->n_an_threads = 0;
    pthread_cond_destroy(&srv->an_cv);
    pthread_mutex_destroy(&srv->an_mu);
    srv->an_inited = false;
}
