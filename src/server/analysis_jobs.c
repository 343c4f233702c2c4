/* The analysis threads: a queue of analyses and a few threads of their own, at the
 * lowest scheduling priority, so that analyses never take an engine worker from a
 * game, nor a core the game's worker wants (analysis_jobs.h). */
#include "analysis_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/error.h"
#include "engines/engine.h"
#include "server_state.h"

#define ANALYSIS_NODES_FALLBACK 1000000ull
#define ANALYSIS_CAP_FACTOR 4

void analysis_budget(const struct server *srv, const struct game *g, uint64_t *def, uint64_t *cap)
{
    /* The strongest level's nodes: what the game's engine spends on its best move. */
    const struct engine_profile *p = engine_profile_of(g);
    uint64_t d = p->levels[ENGINE_LEVEL_MAX - 1].nodes;
    if (!d)
        d = ANALYSIS_NODES_FALLBACK;
    uint64_t c = d * ANALYSIS_CAP_FACTOR;
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
    void *root = malloc(g->state_size);
    if (!j || !root) {
        free(j);
        free(root);
        free(st);
        return NULL;
    }
    memcpy(root, st, g->state_size);
    j->srv = srv;
    j->g = g;
    j->st = st;
    j->root = root;
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
    free(j->root);
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

/* Queue an event's text for the reader and wake it. */
static void emit(struct analysis_job *j, char *text, bool last)
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

/* After every finished iteration the search reports its lines, one call a line, the
 * best first: the set goes out when its last line comes.  A search that reports fewer
 * lines than asked (one, where a game's search has no multi-line mode) is noticed when
 * its next iteration's first line comes, and then reported as it is. */
static void on_info(void *ctx, const struct engine_info *info)
{
    struct analysis_job *j = ctx;
    int k = info->multipv > 0 ? info->multipv : 1;
    if (info->bound != ENGINE_BOUND_EXACT || k > j->n_lines || atomic_load(&j->stop))
        return;
    if (k == 1 && j->seen >= 1 && j->seen < j->n_lines)
        j->n_lines = j->seen;
    j->lines[k - 1] = *info;
    if (k > j->seen)
        j->seen = k;
    if (k == j->n_lines && j->format)
        emit(j, j->format(j, j->lines, j->n_lines, false), false);
}

static void run(struct analysis_job *j)
{
    const struct game *g = j->g;
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    int legal = moves ? game_legal_moves(g, j->st, moves) : 0;
    free(moves);
    j->n_lines = j->multipv < legal ? j->multipv : legal;
    j->seen = 0;
    if (j->n_lines > 0 && !atomic_load(&j->stop)) {
        struct engine_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = j->nodes;
        lim.movetime_ms = j->time_ms;
        lim.stop = &j->stop;
        lim.multipv = j->n_lines;
        lim.contempt = -1; /* an analysis judges the position, it plays no one */
        lim.on_info = on_info;
        lim.info_ctx = j;
        struct engine_result res;
        memset(&res, 0, sizeof res);
        Move best = engine_think(g, j->st, 0, &lim, 0, &res);
        if (j->seen == 0 && best) {
            /* No iteration reported (stopped in the first): the move found. */
            memset(&j->lines[0], 0, sizeof j->lines[0]);
            j->lines[0].multipv = 1;
            j->lines[0].depth = res.depth;
            j->lines[0].score = res.score;
            j->lines[0].nodes = res.nodes;
            j->lines[0].time_ms = res.time_ms;
            g->move_text(j->st, best, j->lines[0].pv, sizeof j->lines[0].pv);
            j->seen = j->n_lines = 1;
        }
    }
    int n = j->seen < j->n_lines ? j->seen : j->n_lines;
    emit(j, j->format ? j->format(j, j->lines, n, true) : NULL, true);
}

static void *analysis_main(void *arg)
{
    struct server *srv = arg;
    /* Behind the games: the lowest priority this thread may take (Linux: per thread). */
    if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) != 0) {
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

int analysis_jobs_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->an_mu, NULL);
    pthread_cond_init(&srv->an_cv, NULL);
    srv->an_inited = true;
    int n = srv->cfg.analysis_threads;
    if (n <= 0)
        return 0;
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
    pthread_mutex_unlock(&srv->an_mu);
    for (int i = 0; i < srv->n_an_threads; i++)
        pthread_join(srv->an_threads[i], NULL);
    free(srv->an_threads);
    srv->an_threads = NULL;
    srv->n_an_threads = 0;
    pthread_cond_destroy(&srv->an_cv);
    pthread_mutex_destroy(&srv->an_mu);
    srv->an_inited = false;
}
