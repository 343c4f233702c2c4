/* The engine workers: a fixed number of threads taking computer moves from a queue,
 * so thinking never runs on (or blocks) an HTTP thread.  The queue is one per client
 * address, served in turn (fair_queue.c), so one address's flood of moves makes only
 * its own replies slower; and an address may have at most queued_per_address moves
 * waiting (workers_admit: the API answers 429 beyond).  A game has at most one move
 * queued, and queued games hold a reference, so the queue is never longer than the
 * cache.
 *
 * A worker hands the move it found to the committers, threads that only wait on the
 * store: thinking (CPU, as many threads as cores) is kept apart from committing (the
 * disk), so the engine never idles on an fsync and concurrent commits group.
 *
 * The ticker thread is the watchdog of the per-move time cap: a move still thinking
 * WATCHDOG_GRACE_MS after its cap has its stop flag raised (the engine is asked for
 * the cap itself; this catches one that overruns).  It also wakes every event stream
 * now and then for a keep-alive comment, which is how streams whose clients went
 * away are noticed and closed. */
#include "server/games/workers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "server/common/stream_hub.h"
#include "server/games/cache.h"
#include "server/games/db_jobs.h"
#include "server/games/fair_queue.h"
#include "server/games/session.h"
#include "server/games/workers_shared.h"
#include "server/server_state.h"
#include "worker/worker.h"

#define PING_MS_DEFAULT 15000
#define WATCH_MS 20
#define WATCHDOG_GRACE_MS 50

/* What the watchdog knows of a worker: when its move must be over (0: idle) and the
 * flag it raises then. */
struct worker_slot {
    struct server *srv;
    atomic_int stop;
    _Atomic int64_t deadline_ms;
};

/* Queue a computer move in its client's queue; false once the server is stopping. */
static bool push(struct server *srv, struct session *s, const char *client)
{
    pthread_mutex_lock(&srv->jobs_mu);
    bool ok = !srv->jobs_closed && fair_queue_push(srv->jobs, client, s);
    if (ok)
        pthread_cond_signal(&srv->jobs_cv);
    pthread_mutex_unlock(&srv->jobs_mu);
    return ok;
}

bool workers_admit(struct server *srv, const char *client)
{
    if (srv->db_jobs)
        return db_jobs_admit(srv, client);
    if (srv->cfg.queued_per_address <= 0 || !srv->jobs)
        return true;
    pthread_mutex_lock(&srv->jobs_mu);
    bool ok = fair_queue_count(srv->jobs, client) < srv->cfg.queued_per_address;
    pthread_mutex_unlock(&srv->jobs_mu);
    return ok;
}

void workers_schedule(struct session *s)
{
    workers_schedule_from(s, NULL);
}

void workers_schedule_from(struct session *s, const char *client)
{
    if (s->job_pending || !session_computer_to_move(s))
        return;
    if (s->srv->db_jobs) {
        if (!atomic_load(&s->srv->stopping))
            db_jobs_schedule(s, client);
        return;
    }
    s->job_pending = true;
    cache_ref(s);
    if (!push(s->srv, s, client)) {
        s->job_pending = false;
        cache_put(s);
    }
}

static struct session *pop(struct server *srv, bool wait)
{
    pthread_mutex_lock(&srv->jobs_mu);
    while (wait && fair_queue_empty(srv->jobs) && !atomic_load(&srv->stopping))
        pthread_cond_wait(&srv->jobs_cv, &srv->jobs_mu);
    struct session *s = fair_queue_pop(srv->jobs);
    pthread_mutex_unlock(&srv->jobs_mu);
    return s;
}

static void push_commit(struct server *srv, struct session *s)
{
    pthread_mutex_lock(&srv->jobs_mu);
    s->commit_next = NULL;
    if (srv->commit_tail)
        srv->commit_tail->commit_next = s;
    else
        srv->commit_head = s;
    srv->commit_tail = s;
    pthread_cond_signal(&srv->commit_cv);
    pthread_mutex_unlock(&srv->jobs_mu);
}

static void *committer_main(void *arg)
{
    struct server *srv = arg;
    pthread_mutex_lock(&srv->jobs_mu);
    for (;;) {
        struct session *s = srv->commit_head;
        if (!s) {
            /* Done only when no worker can queue another commit. */
            if (srv->workers_busy == 0 && srv->jobs_closed)
                break;
            pthread_cond_wait(&srv->commit_cv, &srv->jobs_mu);
            continue;
        }
        srv->commit_head = s->commit_next;
        if (!srv->commit_head)
            srv->commit_tail = NULL;
        pthread_mutex_unlock(&srv->jobs_mu);
        session_commit(s);
        cache_put(s);
        pthread_mutex_lock(&srv->jobs_mu);
    }
    pthread_mutex_unlock(&srv->jobs_mu);
    return NULL;
}

void workers_run_inline(struct server *srv)
{
    struct session *s;
    while ((s = pop(srv, false))) {
        session_think(s, &srv->stopping);
        session_commit(s);
        cache_put(s);
    }
}

static void *worker_main(void *arg)
{
    struct worker_slot *slot = arg;
    struct server *srv = slot->srv;
    struct session *s;
    /* On stop, the queue is still drained: every waiting request gets its answer
     * (the engine stops early: the watchdog raises every flag). */
    for (;;) {
        /* Idle with --shared-jobs: the moves of the shared queue (a --workers 0
         * server's, issue 26), between its own. */
        s = srv->shared_jobs ? workers_shared_next(srv) : pop(srv, true);
        if (!s)
            break;
        atomic_store(&slot->stop, atomic_load(&srv->stopping));
        atomic_store(&slot->deadline_ms,
                     server_now_ms() + srv->cfg.move_time_ms + WATCHDOG_GRACE_MS);
        session_think(s, &slot->stop);
        atomic_store(&slot->deadline_ms, 0);
        if (srv->n_committers > 0) {
            push_commit(srv, s); /* the reference goes with it */
        } else {
            session_commit(s);
            cache_put(s);
        }
    }
    pthread_mutex_lock(&srv->jobs_mu);
    srv->workers_busy--;
    pthread_cond_broadcast(&srv->commit_cv);
    pthread_mutex_unlock(&srv->jobs_mu);
    return NULL;
}

/* Every ping, the streams of the games in memory read their game again (the clocks, the
 * viewers and players on other servers: presence.h).  Nothing changed: this server's
 * streams only, never an event for the other servers (session_notify would write one to
 * the outbox for every game in memory at every ping, and each would make the other
 * servers read the game again). */
static void ping_streams(struct session *s)
{
    pthread_mutex_lock(&s->mu);
    stream_hub_news(s->srv->hub, s->row.id);
    pthread_mutex_unlock(&s->mu);
}

static void *ticker_main(void *arg)
{
    struct server *srv = arg;
    int64_t ping_ms = srv->cfg.ping_ms > 0 ? srv->cfg.ping_ms : PING_MS_DEFAULT;
    int64_t next_ping = server_now_ms() + ping_ms;
    pthread_mutex_lock(&srv->jobs_mu);
    while (!atomic_load(&srv->stopping)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&srv->ticker_cv, &srv->jobs_mu, &until);
        int64_t now = server_now_ms();
        for (int i = 0; i < srv->n_workers; i++) {
            int64_t deadline = atomic_load(&srv->slots[i].deadline_ms);
            if (deadline && now > deadline)
                atomic_store(&srv->slots[i].stop, 1);
        }
        if (srv->db_jobs) { /* games waiting long for a worker's move */
            pthread_mutex_unlock(&srv->jobs_mu);
            db_jobs_tick(srv, now);
            pthread_mutex_lock(&srv->jobs_mu);
        }
        if (srv->hub) { /* streams due now (a challenge's expiry) */
            pthread_mutex_unlock(&srv->jobs_mu);
            stream_hub_wake_due(srv->hub, now);
            pthread_mutex_lock(&srv->jobs_mu);
        }
        if (now >= next_ping && !atomic_load(&srv->stopping)) {
            next_ping = now + ping_ms;
            pthread_mutex_unlock(&srv->jobs_mu);
            if (srv->hub) {
                cache_each(srv, ping_streams);
                stream_hub_ping_all(srv->hub, false);
            }
            pthread_mutex_lock(&srv->jobs_mu);
        }
    }
    pthread_mutex_unlock(&srv->jobs_mu);
    return NULL;
}

int workers_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->jobs_mu, NULL);
    pthread_cond_init(&srv->jobs_cv, NULL);
    pthread_cond_init(&srv->ticker_cv, NULL);
    pthread_cond_init(&srv->commit_cv, NULL);
    if (!(srv->jobs = fair_queue_new()))
        return fail(err, err_size, "out of memory");
    srv->jobs_inited = true;
    int n = srv->cfg.engine_workers;
    /* PostgreSQL without engine workers here: the moves are the workers' (db_jobs.c),
     * and the ticker still runs (the waiting games, the streams' pings). */
    const char *url = srv->cfg.db_path;
    bool postgres = url && (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11));
    srv->db_jobs = n <= 0 && postgres;
    pthread_mutex_init(&srv->dj_mu, NULL);
    if (n <= 0 && !srv->db_jobs)
        return 0;
    if (n > 0 && postgres && srv->cfg.shared_jobs) {
        /* Its threads also make the moves other servers queue (--workers 0 ones). */
        struct worker_config wc;
        worker_config_default(&wc);
        wc.move_time_ms = srv->cfg.move_time_ms;
        wc.lease_ms = srv->cfg.move_time_ms + 25000;
        wc.max_plies = srv->cfg.max_plies;
        wc.book = srv->cfg.book;
        if (!(srv->shared_jobs = worker_attach(srv->store, &wc)))
            return fail(err, err_size, "out of memory");
        if (workers_shared_start(srv, err, err_size) != 0)
            return -1;
    }
    srv->workers = calloc((size_t)n + 1, sizeof *srv->workers);
    srv->slots = calloc((size_t)n + 1, sizeof *srv->slots);
    if (!srv->workers || !srv->slots)
        return fail(err, err_size, "out of memory");
    for (; srv->n_workers < n; srv->n_workers++) {
        struct worker_slot *slot = &srv->slots[srv->n_workers];
        slot->srv = srv;
        pthread_mutex_lock(&srv->jobs_mu);
        srv->workers_busy++;
        pthread_mutex_unlock(&srv->jobs_mu);
        if (pthread_create(&srv->workers[srv->n_workers], NULL, worker_main, slot) != 0) {
            srv->workers_busy--;
            return fail(err, err_size, "cannot start engine worker threads");
        }
    }
    int nc = n > 0 ? srv->cfg.committers : 0; /* 0: the workers commit their own moves */
    srv->committers = calloc((size_t)nc + 1, sizeof *srv->committers);
    if (!srv->committers)
        return fail(err, err_size, "out of memory");
    for (; srv->n_committers < nc; srv->n_committers++)
        if (pthread_create(&srv->committers[srv->n_committers], NULL, committer_main, srv) != 0)
            return fail(err, err_size, "cannot start committer threads");
    if (pthread_create(&srv->ticker, NULL, ticker_main, srv) != 0)
        return fail(err, err_size, "cannot start the ticker thread");
    srv->ticker_running = true;
    return 0;
}

/* After srv->stopping is set: let the workers drain the queue and end. */
void workers_stop(struct server *srv)
{
    if (!srv->jobs_inited)
        return;
    for (int i = 0; i < srv->n_workers; i++)
        atomic_store(&srv->slots[i].stop, 1);
    db_jobs_stop(srv);
    pthread_mutex_lock(&srv->jobs_mu);
    srv->jobs_closed = true;
    pthread_cond_broadcast(&srv->jobs_cv);
    pthread_cond_broadcast(&srv->commit_cv);
    pthread_cond_broadcast(&srv->ticker_cv);
    pthread_mutex_unlock(&srv->jobs_mu);
    for (int i = 0; i < srv->n_workers; i++)
        pthread_join(srv->workers[i], NULL);
    for (int i = 0; i < srv->n_committers; i++)
        pthread_join(srv->committers[i], NULL);
    if (srv->ticker_running)
        pthread_join(srv->ticker, NULL);
    workers_shared_stop(srv);
    workers_run_inline(srv);
    worker_stop(srv->shared_jobs); /* no thread of its own: the store stays */
    srv->shared_jobs = NULL;
    fair_queue_free(srv->jobs);
    srv->jobs = NULL;
    free(srv->workers);
    free(srv->slots);
    free(srv->committers);
    srv->workers = NULL;
    srv->slots = NULL;
    srv->committers = NULL;
    srv->n_workers = srv->n_committers = 0;
    pthread_cond_destroy(&srv->jobs_cv);
    pthread_cond_destroy(&srv->commit_cv);
    pthread_cond_destroy(&srv->ticker_cv);
    pthread_mutex_destroy(&srv->jobs_mu);
    pthread_mutex_destroy(&srv->dj_mu);
    srv->jobs_inited = false;
}
