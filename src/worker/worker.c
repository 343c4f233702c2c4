/* The engine worker (worker.h): claim, load, think, commit; idle, wait on the database
 * for the next job (store_wait_jobs: LISTEN/NOTIFY on PostgreSQL), not a poll. */
#include "worker/worker.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/game.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "store/store.h"
#include "worker/private.h"

void worker_config_default(struct worker_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->threads = 1;
    cfg->move_time_ms = 5000;
    cfg->lease_ms = 30000;
    cfg->max_plies = 1000;
    cfg->wait_ms = 1000;
}

/* The game's state after its stored moves; NULL (why in err) when it cannot be built. */
static void *replay(const struct game *g, const struct store_game *row,
                    char (*moves)[MOVE_TEXT_MAX], int n, char *err, size_t err_size)
{
    void *st = game_state_new(g);
    if (!st) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    if (!row->start[0])
        g->start(st);
    else if (g->parse_position(st, row->start, err, err_size) != 0) {
        free(st);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        Move m;
        if (g->parse_move(st, moves[i], &m, err, err_size) != 0) {
            free(st);
            return NULL;
        }
        g->make_move(st, m);
    }
    return st;
}

/* Whether the computer is to move in the game as stored, at the job's ply. */
static bool computer_to_move(const struct game *g, void *st, const struct store_game *row, int n,
                             const struct store_job *job)
{
    if (row->people || row->result != RESULT_ONGOING || n != job->ply)
        return false;
    struct game_status gs;
    g->status(st, &gs);
    return gs.result == RESULT_ONGOING && (int)g->side_to_move(st) != row->human_side;
}

static void worker_stale_job(struct worker *w, const struct store_job *job, const char *why)
{
    char err[ERROR_TEXT_MAX];
    if (store_drop_job(w->store, job->id, err, sizeof err) != 0)
        worker_say(w, "game %s ply %d: the job stays: %s", job->game_id, job->ply, err);
    atomic_fetch_add(&w->stale, 1);
    worker_say(w, "game %s ply %d: nothing to do (%s)", job->game_id, job->ply, why);
}

/* Make the move of a claimed job, or drop the job when there is none to make. */
static void run_job(struct worker *w, const struct store_job *job)
{
    char err[ERROR_TEXT_MAX];
    int64_t start = worker_wall_ms();
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    int rc = store_load_game(w->store, job->game_id, &row, &moves, &n, err, sizeof err);
    if (rc != 0) {
        if (rc == 1)
            worker_stale_job(w, job, "no such game");
        else
            worker_say(w, "game %s ply %d: cannot load it: %s", job->game_id, job->ply, err);
        free(moves);
        return; /* a failed load: the lease runs out and someone tries again */
    }
    const struct game *g = game_find(row.game);
    void *st = g ? replay(g, &row, moves, n, err, sizeof err) : NULL;
    free(moves);
    if (!st || !computer_to_move(g, st, &row, n, job)) {
        worker_stale_job(w, job, !g ? "unknown game" : !st ? err : "not the computer's move");
        free(st);
        return;
    }
    atomic_int stop = 0;
    struct engine_limits limits = {0};
    limits.movetime_ms = w->cfg.move_time_ms;
    limits.stop = &stop;
    limits.book = w->cfg.book;
    struct engine_result res;
    Move m = engine_think(g, st, row.level, &limits, row.seed + (uint64_t)n, &res);
    for (int slept = 0; slept < w->cfg.test_think_ms; slept += 5)
        worker_sleep_ms(5);
    char text[MOVE_TEXT_MAX];
    g->move_text(st, m, text, sizeof text);
    g->make_move(st, m);
    struct game_status gs;
    g->status(st, &gs);
    /* The servers' adjudication (session_move): a game that long is a draw. */
    int cap = g->max_plies;
    if (w->cfg.max_plies > 0 && w->cfg.max_plies < cap)
        cap = w->cfg.max_plies;
    if (gs.result == RESULT_ONGOING && (g->ply(st) >= g->max_plies || n + 1 >= cap)) {
        gs.result = RESULT_DRAW;
        gs.reason = REASON_ADJUDICATION;
    }
    free(st);
    rc = store_finish_job(w->store, job, text, (int)gs.result, (int)gs.reason, worker_wall_ms(),
                          w->body, err, sizeof err);
    if (rc == 1) {
        worker_stale_job(w, job, "made meanwhile");
    } else if (rc != 0) {
        worker_say(w, "game %s ply %d: not stored (%s; the job goes back to the queue)",
                   job->game_id, job->ply, err);
    } else {
        atomic_fetch_add(&w->moves, 1);
        worker_say(w, "game %s ply %d: %s in %lld ms", job->game_id, job->ply + 1, text,
                   (long long)(worker_wall_ms() - start));
    }
}

/* A job of a kind this worker does not know (a newer server's): dropped, said. */
static void unknown_kind(struct worker *w, const struct store_job *job)
{
    char err[ERROR_TEXT_MAX];
    if (store_drop_job(w->store, job->id, err, sizeof err) != 0)
        worker_say(w, "job %s: the job stays: %s", job->id, err);
    worker_say(w, "job %s: dropped, of an unknown kind '%s'", job->id, job->kind);
}

/* Claim one job and run it: 0, 1 none, -1 (err) the store failed. */
static int claim_and_run(struct worker *w, char *err, size_t err_size)
{
    struct store_job job;
    atomic_fetch_add(&w->claims, 1);
    int rc = store_claim_job(w->store, w->id, worker_wall_ms(), w->cfg.lease_ms, w->max_priority,
                             &job, err, err_size);
    if (rc == 0 && !strcmp(job.kind, "review"))
        worker_review(w, &job);
    else if (rc == 0 && !strcmp(job.kind, "analysis"))
        worker_analysis(w, &job);
    else if (rc == 0 && !strcmp(job.kind, "move"))
        run_job(w, &job);
    else if (rc == 0)
        unknown_kind(w, &job);
    return rc < 0 ? -1 : rc;
}

int worker_run_one(struct worker *w)
{
    char err[ERROR_TEXT_MAX];
    int rc = claim_and_run(w, err, sizeof err);
    if (rc < 0)
        worker_say(w, "cannot claim: %s", err);
    return rc;
}

/* One wait on the database for a job (the watching thread's): 0 one may be there,
 * 1 none came within wait_ms, else the store failed (said once a run of failures,
 * then a pause before the threads claim again). */
static int watch(struct worker *w)
{
    char err[ERROR_TEXT_MAX];
    int rc = store_wait_jobs(w->store, worker_wall_ms(), w->cfg.wait_ms, w->max_priority, err,
                             sizeof err);
    if (rc == 0 || rc == 1) {
        w->wait_failing = false;
        return rc;
    }
    if (!w->wait_failing)
        worker_say(w, "cannot wait for jobs: %s (trying again)", err);
    w->wait_failing = true;
    worker_sleep_ms(500);
    return -1;
}

static uint64_t wakes_now(struct worker *w)
{
    pthread_mutex_lock(&w->idle_mu);
    uint64_t n = w->wakes;
    pthread_mutex_unlock(&w->idle_mu);
    return n;
}

/* Sleep until a job may be there, or the worker stops: at once when the watching
 * thread woke since `seen` (read before this thread's claim found none, so a job
 * queued after that claim is not missed); else this thread watches the database if
 * none does (store_wait_jobs: a job queued, a lease's end, or wait_ms), or waits for
 * the one that does.  Every wake-up wakes every idle thread: each claims, SKIP LOCKED
 * gives each job to one, and the others come back here. */
static void wait_for_jobs(struct worker *w, uint64_t seen)
{
    pthread_mutex_lock(&w->idle_mu);
    while (w->wakes == seen && !atomic_load(&w->stopping)) {
        if (w->watching) {
            pthread_cond_wait(&w->idle_cv, &w->idle_mu);
            continue;
        }
        w->watching = true;
        pthread_mutex_unlock(&w->idle_mu);
        int rc = watch(w);
        pthread_mutex_lock(&w->idle_mu);
        w->watching = false;
        if (rc != 1) {
            w->wakes++; /* a job may be there (or the store failed: claims tell) */
            pthread_cond_broadcast(&w->idle_cv);
        }
    }
    pthread_mutex_unlock(&w->idle_mu);
}

static void *thread_main(void *arg)
{
    struct worker *w = arg;
    char err[ERROR_TEXT_MAX];
    bool failing = false;
    while (!atomic_load(&w->stopping)) {
        uint64_t seen = wakes_now(w);
        int rc = claim_and_run(w, err, sizeof err);
        if (rc < 0) {
            if (!failing)
                worker_say(w, "cannot claim: %s (trying again)", err);
            failing = true;
            worker_sleep_ms(500);
            continue;
        }
        failing = false;
        if (rc == 1)
            wait_for_jobs(w, seen); /* none waiting */
    }
    return NULL;
}

static void random_hex(char *out, int n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    unsigned char b[16] = {0};
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    if (got != sizeof b) { /* no /dev/urandom: the time and the process */
        uint64_t x = (uint64_t)worker_wall_ms() * 1000003u ^ (uint64_t)getpid();
        memcpy(b, &x, sizeof x);
    }
    for (int i = 0; i < n; i++)
        out[i] = "0123456789abcdef"[(b[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[n] = 0;
}

/* A worker's name and its events' body. */
static void name_it(struct worker *w)
{
    char hex[17];
    random_hex(hex, 16);
    snprintf(w->id, sizeof w->id, "worker-%s", hex);
    snprintf(w->body, sizeof w->body, "{\"server\":\"%s\"}", w->id);
}

/* A worker without store or threads yet: NULL without memory. */
static struct worker *new_worker(const struct worker_config *cfg)
{
    struct worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->cfg = *cfg;
    w->max_priority = STORE_JOB_PRIORITY_MOVE; /* a server's engine threads: moves only */
    name_it(w);
    pthread_mutex_init(&w->idle_mu, NULL);
    pthread_cond_init(&w->idle_cv, NULL);
    return w;
}

struct worker *worker_attach(struct store *store, const struct worker_config *cfg)
{
    struct worker *w = new_worker(cfg);
    if (w)
        w->store = store;
    return w;
}

struct worker *worker_start(const struct worker_config *cfg, char *err, size_t err_size)
{
    if (cfg->threads < 1 || cfg->threads > 64) {
        fail(err, err_size, "threads: %d is not within 1..64", cfg->threads);
        return NULL;
    }
    if (cfg->lease_ms <= cfg->move_time_ms) {
        fail(err, err_size, "the lease (%lld ms) must be longer than a move (%lld ms)",
             (long long)cfg->lease_ms, (long long)cfg->move_time_ms);
        return NULL;
    }
    struct worker *w = new_worker(cfg);
    if (!w) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    w->max_priority = STORE_JOB_PRIORITY_ANY; /* a worker process: reviews too */
    w->own_store = true;
    struct store_options opt = {.pool = cfg->threads + 1};
    if (!(w->store = store_open(cfg->db_url, &opt, err, err_size))) {
        free(w);
        return NULL;
    }
    struct engine_pools_config ec = {
        .path = cfg->analysis_engine,
        .processes = cfg->analysis_engines > 0 ? cfg->analysis_engines : cfg->threads,
        .nice = -1, /* the worker's own */
        .timeout_ms = cfg->analysis_engine_ms,
        .say = cfg->log,
        .who = "agora worker",
        .what = "reviews",
    };
    engine_pools_start(&w->engines, &ec);
    if (!(w->threads = calloc((size_t)cfg->threads, sizeof *w->threads))) {
        fail(err, err_size, "out of memory");
        worker_stop(w);
        return NULL;
    }
    for (; w->n_threads < cfg->threads; w->n_threads++)
        if (pthread_create(&w->threads[w->n_threads], NULL, thread_main, w) != 0) {
            fail(err, err_size, "cannot start the worker's threads");
            worker_stop(w);
            return NULL;
        }
    return w;
}

void worker_stop(struct worker *w)
{
    if (!w)
        return;
    atomic_store(&w->stopping, true);
    pthread_mutex_lock(&w->idle_mu); /* the idle threads: the watching one within wait_ms */
    pthread_cond_broadcast(&w->idle_cv);
    pthread_mutex_unlock(&w->idle_mu);
    for (int i = 0; i < w->n_threads; i++)
        pthread_join(w->threads[i], NULL);
    free(w->threads);
    engine_pools_stop(&w->engines); /* none asks them any more */
    if (w->own_store)
        store_close(w->store);
    pthread_mutex_destroy(&w->idle_mu);
    pthread_cond_destroy(&w->idle_cv);
    free(w);
}

long worker_moves(const struct worker *w)
{
    return atomic_load(&w->moves);
}

long worker_reviews(const struct worker *w)
{
    return atomic_load(&w->reviews);
}

long worker_claims(const struct worker *w)
{
    return atomic_load(&w->claims);
}

long worker_stale(const struct worker *w)
{
    return atomic_load(&w->stale);
}
