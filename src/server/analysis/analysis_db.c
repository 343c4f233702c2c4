/* Analyses as jobs for the engine workers (analysis_db.h). */
#include "server/analysis/analysis_db.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis_json.h"
#include "analysis/analysis_payload.h"
#include "core/error.h"
#include "server/analysis/analysis_jobs.h"
#include "server/common/token.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

/* One stream followed: its job's id, the claim whose output it reads and how much of
 * that output it has sent. */
struct followed {
    struct analysis_job *j; /* a reference */
    char id[STORE_JOB_ID_MAX];
    int tries;
    size_t sent;
    int64_t expires_ms;
    struct followed *next;
};

/* The follower: its thread and the streams (mu a leaf). */
struct analysis_db {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
    struct followed *head;
    bool closing;
};

/* The caps: per address and in all, counted in the store with the insert in one step
 * (store_put_job_capped), so servers asked at the same moment never pass them together. */
static int cap_per_client(const struct server *srv)
{
    return srv->cfg.analysis_per_client > 0 ? srv->cfg.analysis_per_client : 2;
}

static int cap_total(const struct server *srv)
{
    return srv->cfg.analysis_max > 0 ? srv->cfg.analysis_max : 4;
}

/* A refusal by the caps (store_put_job_capped's *full): 429 or 503 with err. */
static int refused(const struct server *srv, int full, char *err, size_t err_size)
{
    if (full == 1) {
        fail(err, err_size, "too many analyses from this address at once (at most %d)",
             cap_per_client(srv));
        return 429;
    }
    fail(err, err_size, "the server is analysing all it can (%d at once); try again soon",
         cap_total(srv));
    return 503;
}

/* The stream's end without a done from a worker: a done event without lines saying
 * why (as the engine's error). */
static void end_with_error(struct analysis_job *j, const char *why)
{
    char engine[ANALYSIS_ENGINE_MAX];
    analysis_own_engine_name(j->g, engine, sizeof engine);
    analysis_job_emit(j, analysis_event_text(NULL, 0, true, engine, why, NULL, NULL), true);
}

/* Read f's job and send what is new: true when the stream is over (f then goes). */
static bool follow(struct server *srv, struct followed *f)
{
    char err[ERROR_TEXT_MAX], *out = NULL;
    if (atomic_load(&f->j->stop)) { /* the client went away */
        store_drop_job(srv->store, f->id, err, sizeof err);
        analysis_job_emit(f->j, NULL, true); /* its connection resumed, to be closed */
        return true;
    }
    struct store_job job;
    int rc = store_job_output(srv->store, f->id, &job, &out, err, sizeof err);
    bool over = false;
    if (rc == 1) {
        end_with_error(f->j, "the analysis's job was dropped by its worker");
        return true;
    }
    if (rc == 0) {
        if (job.tries != f->tries) { /* claimed again: its output starts anew */
            f->tries = job.tries;
            f->sent = 0;
        }
        size_t len = strlen(out);
        over = job.total == 1;
        if (len > f->sent) {
            char *text = strdup(out + f->sent);
            f->sent = len;
            analysis_job_emit(f->j, text, over);
        } else if (over) {
            analysis_job_emit(f->j, NULL, true);
        }
        free(out);
    }
    if (!over && server_now_ms() >= f->expires_ms) {
        end_with_error(f->j, "no engine worker finished the analysis in time");
        over = true;
    }
    if (over)
        store_drop_job(srv->store, f->id, err, sizeof err);
    return over;
}

static void *follower_main(void *arg)
{
    struct server *srv = arg;
    struct analysis_db *d = srv->an_db;
    pthread_mutex_lock(&d->mu);
    while (!d->closing) {
        /* Take the list, follow each without the lock, put back those still on. */
        struct followed *list = d->head, *keep = NULL;
        d->head = NULL;
        pthread_mutex_unlock(&d->mu);
        while (list) {
            struct followed *f = list;
            list = f->next;
            if (follow(srv, f)) {
                analysis_job_put(f->j);
                free(f);
            } else {
                f->next = keep;
                keep = f;
            }
        }
        pthread_mutex_lock(&d->mu);
        while (keep) {
            struct followed *f = keep;
            keep = f->next;
            f->next = d->head;
            d->head = f;
        }
        if (d->closing)
            break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += ANALYSIS_DB_POLL_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&d->cv, &d->mu, &until);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* The follower, started on the first analysis: NULL when it cannot be. */
static struct analysis_db *follower(struct server *srv)
{
    pthread_mutex_lock(&srv->an_mu);
    bool closed = srv->an_closed || atomic_load(&srv->stopping);
    struct analysis_db *d = closed ? NULL : srv->an_db;
    if (!d && !closed && (d = calloc(1, sizeof *d))) {
        pthread_mutex_init(&d->mu, NULL);
        pthread_cond_init(&d->cv, NULL);
        srv->an_db = d;
        if (pthread_create(&d->thread, NULL, follower_main, srv) != 0) {
            srv->an_db = NULL;
            pthread_cond_destroy(&d->cv);
            pthread_mutex_destroy(&d->mu);
            free(d);
            d = NULL;
        }
    }
    pthread_mutex_unlock(&srv->an_mu);
    return d;
}

int analysis_db_submit(struct analysis_job *j, const char *start, const struct move_rec *moves,
                       int n, int *store_rc, char *err, size_t err_size)
{
    struct server *srv = j->srv;
    struct analysis_db *d = follower(srv);
    if (!d) {
        fail(err, err_size, "analysis is not available on this server now");
        return 503;
    }
    struct analysis_payload p = {
        .n = n, .multipv = j->multipv, .nodes = j->nodes, .time_ms = j->time_ms};
    snprintf(p.game, sizeof p.game, "%s", j->g->name);
    snprintf(p.start, sizeof p.start, "%s", start);
    struct followed *f = calloc(1, sizeof *f);
    p.moves = malloc(sizeof *p.moves * ((size_t)n + 1));
    char *payload = NULL, hex[STORE_ID_LEN + 1];
    if (f && p.moves) {
        for (int i = 0; i < n; i++)
            snprintf(p.moves[i], MOVE_TEXT_MAX, "%s", moves[i].text);
        payload = analysis_payload_text(&p);
    }
    free(p.moves);
    if (!payload || token_random_hex(hex, STORE_ID_LEN / 2) != 0) {
        free(payload);
        free(f);
        fail(err, err_size, payload ? "no randomness from the kernel" : "out of memory");
        *store_rc = -1;
        return -1;
    }
    struct store_job job;
    memset(&job, 0, sizeof job);
    snprintf(job.id, sizeof job.id, "analysis.%s", hex);
    snprintf(job.kind, sizeof job.kind, "analysis");
    snprintf(job.client, sizeof job.client, "%s", j->client);
    snprintf(job.game, sizeof job.game, "%s", j->g->name);
    job.priority = STORE_JOB_PRIORITY_ANALYSIS; /* after every game's moves */
    job.created_ms = server_now_ms();
    job.payload = payload;
    int full = 0;
    int rc = store_put_job_capped(srv->store, &job, cap_per_client(srv), cap_total(srv), &full, err,
                                  err_size);
    free(payload);
    if (rc != 0) {
        free(f);
        *store_rc = rc;
        return -1;
    }
    if (full) {
        free(f);
        return refused(srv, full, err, err_size);
    }
    snprintf(f->id, sizeof f->id, "%s", job.id);
    f->expires_ms = analysis_payload_expires_ms(job.created_ms, j->time_ms);
    f->j = j;
    j->followed = true;
    atomic_fetch_add(&j->refs, 1);
    /* Followed only while the follower is there (analysis_db_stop takes it away under
     * an_mu): else the job goes again and the server is stopping. */
    pthread_mutex_lock(&srv->an_mu);
    bool on = srv->an_db == d;
    if (on) {
        pthread_mutex_lock(&d->mu);
        f->next = d->head;
        d->head = f;
        pthread_mutex_unlock(&d->mu);
    }
    pthread_mutex_unlock(&srv->an_mu);
    if (on)
        return 0;
    store_drop_job(srv->store, f->id, err, err_size);
    analysis_job_put(j);
    free(f);
    fail(err, err_size, "analysis is not available on this server now");
    return 503;
}

void analysis_db_stop(struct server *srv)
{
    if (!srv->an_inited)
        return; /* the analyses never started */
    pthread_mutex_lock(&srv->an_mu);
    struct analysis_db *d = srv->an_db;
    srv->an_db = NULL;
    pthread_mutex_unlock(&srv->an_mu);
    if (!d)
        return;
    pthread_mutex_lock(&d->mu);
    d->closing = true;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
    pthread_join(d->thread, NULL);
    char err[ERROR_TEXT_MAX];
    for (struct followed *f = d->head, *next; f; f = next) {
        next = f->next;
        store_drop_job(srv->store, f->id, err, sizeof err);
        analysis_job_emit(f->j, NULL, true);
        analysis_job_put(f->j);
        free(f);
    }
    pthread_cond_destroy(&d->cv);
    pthread_mutex_destroy(&d->mu);
    free(d);
}
