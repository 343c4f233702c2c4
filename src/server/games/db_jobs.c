/* Computer moves as jobs in the database (db_jobs.h). */
#include "server/games/db_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "server/common/stream_hub.h"
#include "server/games/cache.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

/* A session waiting this long without news is read again from the store. */
#define DJ_RECHECK_MS 1000
#define DJ_TICK_MS 500

bool db_jobs_on(const struct server *srv)
{
    return srv->db_jobs;
}

/* Take s off the list (under dj_mu); whether it was on it. */
static bool unlink_waiting(struct server *srv, struct session *s)
{
    for (struct session **p = &srv->dj_head; *p; p = &(*p)->dj_next)
        if (*p == s) {
            *p = s->dj_next;
            s->dj_next = NULL;
            return true;
        }
    return false;
}

void db_jobs_schedule(struct session *s, const char *client)
{
    struct server *srv = s->srv;
    char err[ERROR_TEXT_MAX];
    if (s->n_moves > s->n_stored && session_settle(s, err, sizeof err) != 0)
        return; /* the human's move goes first: the worker reads the game from the store */
    struct store_job job;
    memset(&job, 0, sizeof job);
    snprintf(job.id, sizeof job.id, "%s.%d", s->row.id, s->n_stored);
    snprintf(job.kind, sizeof job.kind, "move");
    snprintf(job.game_id, sizeof job.game_id, "%s", s->row.id);
    snprintf(job.game, sizeof job.game, "%s", s->g->name);
    snprintf(job.client, sizeof job.client, "%s", client ? client : "");
    job.ply = s->n_stored;
    job.priority = 0; /* games before analyses */
    job.created_ms = server_now_ms();
    /* Listed before the job exists: a worker's event arriving at once finds it (and
     * waits for s->mu, held until the request waits). */
    s->job_pending = true;
    s->dj_since = job.created_ms;
    cache_ref(s); /* the list's */
    pthread_mutex_lock(&srv->dj_mu);
    s->dj_next = srv->dj_head;
    srv->dj_head = s;
    pthread_mutex_unlock(&srv->dj_mu);
    if (store_put_job(srv->store, &job, err, sizeof err) != 0) {
        /* Not queued: the game waits for its next request, which queues it again. */
        fprintf(stderr, "agora: the computer's move in %s is not queued: %s\n", s->row.id, err);
        pthread_mutex_lock(&srv->dj_mu);
        bool listed = unlink_waiting(srv, s);
        pthread_mutex_unlock(&srv->dj_mu);
        s->job_pending = false;
        if (listed)
            cache_put(s); /* never the last: the caller holds one */
    }
}

bool db_jobs_admit(struct server *srv, const char *client)
{
    if (srv->cfg.queued_per_address <= 0)
        return true;
    int n = 0;
    char err[ERROR_TEXT_MAX];
    if (store_count_jobs(srv->store, "move", client ? client : "", &n, err, sizeof err) != 0)
        return true; /* the store will say more on the move itself */
    return n < srv->cfg.queued_per_address;
}

/* The waiting sessions `id` names (NULL: those waiting since before `before`), each
 * with a reference: at most `max`. */
static int collect(struct server *srv, const char *id, int64_t before, struct session **out,
                   int max)
{
    int n = 0;
    pthread_mutex_lock(&srv->dj_mu);
    for (struct session *s = srv->dj_head; s && n < max; s = s->dj_next)
        if (id ? !strcmp(s->row.id, id) : s->dj_since < before) {
            cache_ref(s);
            out[n++] = s;
        }
    pthread_mutex_unlock(&srv->dj_mu);
    return n;
}

/* Under s->mu: the moves stored since s's, made in memory too; 0, 1 when there were
 * none, -1 when the store fails or a stored move does not apply. */
static int read_moves(struct session *s)
{
    char err[ERROR_TEXT_MAX];
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    int rc = store_load_game(s->srv->store, s->row.id, &row, &moves, &n, err, sizeof err);
    if (rc == 0 && n > s->n_stored && s->n_moves == s->n_stored) {
        rc = session_replay(s, moves + s->n_stored, n - s->n_stored, err, sizeof err) ? -1 : 0;
        s->row.result = row.result;
        s->row.reason = row.reason;
        s->row.plies = s->n_stored;
        s->row.updated_ms = row.updated_ms;
    } else if (rc == 0) {
        rc = 1;
    }
    if (rc < 0)
        fprintf(stderr, "agora: game %s: its computer move not read: %s\n", s->row.id, err);
    free(moves);
    return rc;
}

/* Answer s's request if its move is in (or will never come): under no lock. */
static void catch_up(struct session *s, bool stopping)
{
    struct server *srv = s->srv;
    pthread_mutex_lock(&s->mu);
    bool done = false;
    if (s->job_pending) {
        int rc = stopping ? 1 : read_moves(s);
        done = stopping || rc == 0 || !session_computer_to_move(s);
        if (!done)
            s->dj_since = server_now_ms();
    }
    bool listed = false;
    if (done) {
        pthread_mutex_lock(&srv->dj_mu);
        listed = unlink_waiting(srv, s);
        pthread_mutex_unlock(&srv->dj_mu);
        session_job_done(s, NULL);
        if (srv->hub)
            stream_hub_news(srv->hub, s->row.id);
    }
    pthread_mutex_unlock(&s->mu);
    if (listed)
        cache_put(s); /* the list's */
}

#define DJ_BATCH 64

void db_jobs_heard(struct server *srv, const char *id)
{
    if (!srv->db_jobs)
        return;
    struct session *got[DJ_BATCH];
    int n = collect(srv, id, 0, got, DJ_BATCH);
    for (int i = 0; i < n; i++) {
        catch_up(got[i], false);
        cache_put(got[i]);
    }
}

void db_jobs_tick(struct server *srv, int64_t now_ms)
{
    if (!srv->db_jobs || now_ms < srv->dj_next_tick)
        return;
    srv->dj_next_tick = now_ms + DJ_TICK_MS;
    struct session *got[DJ_BATCH];
    int n = collect(srv, NULL, now_ms - DJ_RECHECK_MS, got, DJ_BATCH);
    for (int i = 0; i < n; i++) {
        catch_up(got[i], false);
        cache_put(got[i]);
    }
}

void db_jobs_stop(struct server *srv)
{
    if (!srv->db_jobs)
        return;
    for (;;) {
        struct session *got[DJ_BATCH];
        int n = collect(srv, NULL, INT64_MAX, got, DJ_BATCH);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) {
            catch_up(got[i], true);
            cache_put(got[i]);
        }
    }
}
