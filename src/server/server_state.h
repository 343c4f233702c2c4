/* What one server owns: struct server, the root every layer of src/server hangs off
 * (no globals, so a test can run two servers in one process).  Data only: each layer
 * reads and writes its own fields (the cache its table, the workers their queues, the
 * HTTP layer the daemon); the game model (session.c) reads only cfg and store.  This
 * header includes no other server header, so every layer may include it.
 *
 * Locking, in the only order ever taken:  cache_mu -> session mu -> store's mutex.
 * jobs_mu and orphans_mu are leaves (nothing else is locked while holding them).  A
 * session's fields below `mu` are read and written only under it (session.h). */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/engine_pools.h"
#include "core/types.h"
#include "server/server_config.h"

struct MHD_Daemon;
struct analysis_job;
struct analysis_db;
struct book_names;
struct conn_limits;
struct director_news;
struct fair_queue;
struct worker; /* src/worker/worker.h */
struct stream_hub;
struct swiss_pairer;
struct review_job;
struct uci_pool;

#define SERVER_ORPHANS_MAX 32 /* cache.c: games named to read again, kept at most */
#define SERVER_GAME_ID_MAX 33 /* a game id and its NUL (STORE_ID_LEN + 1) */
struct ratelimit;
struct seek_caps;
struct puzzle_set;
struct session;
struct store;
struct worker_slot;

struct server {
    struct server_config cfg;
    char host[64];
    char web_dir[4096];
    bool have_web;
    struct store *store;
    struct MHD_Daemon *daemon;
    int port;
    atomic_int stopping;
    struct ratelimit *limiter;
    /* Games between people (people_api.c): challenges, seeks and accepts, and draw
     * offers, a minute per token and per address (NULL: no cap); open seeks per token
     * and per address. */
    struct ratelimit *people_by_token, *people_by_addr, *draws_by_token, *draws_by_addr;
    struct seek_caps *seek_caps;
    struct conn_limits *limits; /* http_limits.c: request deadlines, streams per address */
    struct stream_hub *hub;     /* stream_hub.c: the event streams by game id */
    struct puzzle_set *puzzles; /* puzzle_set.c: the shipped puzzles and their ratings */

    /* cache.c */
    pthread_mutex_t cache_mu;
    unsigned cache_drops; /* cache_drop's count: a game read meanwhile may be stale */
    struct session **buckets;
    size_t n_buckets;
    int n_cached;
    struct session *lru_head, *lru_tail; /* head: most recently used */
    /* Games changed through a copy the cache had already let go (session_notify calls
     * changed_out_of_cache), for cache_get to read again; orphans_mu is a leaf (taken
     * under a session's mu).  n_orphans past SERVER_ORPHANS_MAX: more than were kept,
     * every game is read again. */
    pthread_mutex_t orphans_mu;
    atomic_int n_orphans;
    char orphans[SERVER_ORPHANS_MAX][SERVER_GAME_ID_MAX];
    void (*changed_out_of_cache)(struct server *srv, const char *id);

    /* workers.c */
    pthread_mutex_t jobs_mu;
    pthread_cond_t jobs_cv;
    struct fair_queue *jobs; /* the computer moves waiting, per client (fair_queue.c) */
    pthread_t *workers;
    struct worker_slot *slots; /* one per worker: its stop flag and deadline */
    int n_workers;
    /* Committers: threads that commit the computer's moves, so that engine workers
     * never wait on the disk (and commits group). */
    pthread_cond_t commit_cv;
    struct session *commit_head, *commit_tail;
    pthread_t *committers;
    int n_committers;
    int workers_busy;              /* engine workers not yet finished (for the committers' exit) */
    bool jobs_inited, jobs_closed; /* closed: stopping, push refuses */
    pthread_t ticker;
    bool ticker_running;
    pthread_cond_t ticker_cv; /* under jobs_mu */
    /* db_jobs.c: the computer's moves made by workers through the store (PostgreSQL,
     * no engine workers here): the games waiting for one (dj_mu a leaf). */
    bool db_jobs;
    pthread_mutex_t dj_mu;
    struct session *dj_head;
    int64_t dj_next_tick; /* the ticker's */
    /* With engine workers on PostgreSQL: the shared queue, which idle engine threads
     * take moves from (worker_run_one, src/worker/). */
    struct worker *shared_jobs;
    /* workers_shared.c: its idle threads' watcher (under jobs_mu). */
    pthread_t shared_watcher;
    bool shared_watching;
    pthread_cond_t shared_cv; /* the watcher's: a thread went idle */
    uint64_t shared_wakes;    /* the watcher's wake-ups so far */
    int shared_idle;          /* threads asleep since the last wake-up */

    /* analysis_jobs.c: the analyses' queue, the live ones (queued or running) and the
     * threads; an_mu is a leaf, like jobs_mu (a job's own mu is taken after it). */
    pthread_mutex_t an_mu;
    pthread_cond_t an_cv;
    struct analysis_job *an_head, *an_tail, *an_live;
    int an_live_count;
    pthread_t *an_threads;
    int n_an_threads;
    pthread_t an_watch; /* the watchdog of their time cap */
    pthread_cond_t an_watch_cv;
    bool an_inited, an_closed, an_watching;
    struct analysis_db *an_db; /* analysis_db.c: the analyses followed in the store */

    /* clock.c: the timer that ends games whose flag fell, woken at the earliest
     * deadline the store knows (ck_mu a leaf). */
    pthread_mutex_t ck_mu;
    pthread_cond_t ck_cv;
    pthread_t ck_thread;
    bool ck_running, ck_kicked;
    /* outbox.c: events across servers (on with a PostgreSQL store); ob_self this
     * server's id in its events, ob_last the last event read (the reader's own). */
    pthread_t ob_thread;
    bool ob_on, ob_running;
    char ob_self[17];
    int64_t ob_last;
    /* outbox_put while the outbox is on (NULL: off), for the model below it. */
    void (*tell_others)(struct server *srv, const char *kind, const char *id);
    /* outbox_attach while the outbox is on (NULL: off): the event goes with the next
     * store operation, in its transaction. */
    void (*attach_event)(struct server *srv, const char *kind, const char *id);
    /* Several servers on one database (PostgreSQL): the limits per client and the
     * lobby's caps are the store's (server.c, people_api.c), not this process's. */
    bool limits_shared;
    /* presence.c: the other servers' presence in the games, sorted by game id, as the
     * outbox thread last read it (pr_mu, made when the outbox starts). */
    pthread_mutex_t pr_mu;
    struct store_presence *pr_rows;
    int pr_n;
    int64_t ck_until; /* when it wakes next */

    /* analysis_engines.c: the external analysis engines, one pool per game whose
     * profile names one; made before the analysis and review threads start, freed
     * after they stop (read without a lock between). */
    struct engine_pools an_engines;

    /* tournaments/director.c: the thread that starts, pairs and ends tournaments, woken
     * every tick or at once (td_kicked: someone joined); td_mu a leaf.  td_news: the
     * last standings' signature of each running tournament, to tell its streams only of
     * a change. */
    pthread_mutex_t td_mu;
    pthread_cond_t td_cv;
    pthread_t td_thread;
    bool td_running, td_kicked;
    struct director_news *td_news;
    int td_n_news;
    struct swiss_pairer *td_pairer; /* swiss_pairer.c: the Swiss rounds' own thread */

    /* review_jobs.c: the same for reviews; rv_mu a leaf too. */
    pthread_mutex_t rv_mu;
    pthread_cond_t rv_cv;
    struct review_job *rv_head, *rv_tail, *rv_live;
    int rv_live_count;
    pthread_t *rv_threads;
    int n_rv_threads;
    bool rv_inited, rv_closed;

    /* openings_api.c: each game's opening names (by registry index), read on first
     * use under names_mu (a leaf). */
#define SERVER_NAMED_GAMES 16
    pthread_mutex_t names_mu;
    bool names_inited;
    bool names_tried[SERVER_NAMED_GAMES];
    struct book_names *names[SERVER_NAMED_GAMES];
};
