/* What the files of src/server share: the server and game-session structs and the
 * functions between the HTTP layer (http.c), the API (api.c), the games in memory
 * (session.c, cache.c), their JSON (state_json.c) and the engine workers (workers.c).
 *
 * Locking, in the only order ever taken:  cache_mu -> session mu -> store's mutex.
 * jobs_mu is a leaf (nothing else is locked while holding it).  A session's fields
 * below `mu` are read and written only under it. */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <jansson.h>

#include "core/game.h"
#include "ratelimit.h"
#include "server.h"
#include "store/store.h"

#define SERVER_BODY_MAX 16384

struct move_rec {
    char text[MOVE_TEXT_MAX];
    char display[MOVE_TEXT_MAX];
};

/* A request waiting for the computer's reply (a suspended HTTP connection).  The
 * worker that made the reply calls done() under the session mutex; `done` takes over
 * `body`. */
struct waiter {
    void (*done)(struct waiter *w, int status, char *body);
    int ok_status;  /* 200, or 201 for a new game */
    char token[40]; /* a new game's token to include, or "" */
};

/* An event stream reading a game.  `wake` resumes its suspended connection. */
struct sse_watch {
    struct session *s;
    int sent;       /* moves already sent: the stream's last event id */
    bool suspended; /* its connection waits for news */
    bool end_sent;  /* the final "end" event went out */
    bool ping;      /* send a keep-alive comment */
    void (*wake)(struct sse_watch *w);
    struct sse_watch *next;
};

/* One game in memory: its row, its state rebuilt from the start and the moves, the
 * request waiting on the computer, and the event streams reading it. */
struct session {
    /* Cache bookkeeping, under the server's cache_mu (refs: see session_ref). */
    atomic_int refs;
    struct session *hash_next, *lru_prev, *lru_next;
    /* The job queue's link, under jobs_mu. */
    struct session *job_next;

    struct server *srv;
    const struct game *g;
    pthread_mutex_t mu;
    struct store_game row;
    void *st;
    struct move_rec *moves;
    int n_moves, cap_moves;
    /* Moves committed to the store: n_moves, or n_moves - 1 while the human's last
     * move (unstored_move) waits to be committed together with the computer's reply
     * (then job_pending is set).  Event streams send only stored moves. */
    int n_stored;
    Move unstored_move;
    bool job_pending;            /* a computer move is queued, thought or committed */
    Move think_move;             /* the move found, waiting for its commit */
    int think_ply;               /* the ply it was found at */
    struct session *commit_next; /* the commit queue's link, under jobs_mu */
    struct waiter *waiter;       /* the request to answer when the computer has moved */
    struct sse_watch *watchers;
};

/* What the watchdog knows of a worker: when its move must be over (0: idle) and the
 * flag it raises then. */
struct worker_slot {
    struct server *srv;
    atomic_int stop;
    _Atomic int64_t deadline_ms;
};

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

    pthread_mutex_t cache_mu;
    struct session **buckets;
    size_t n_buckets;
    int n_cached;
    struct session *lru_head, *lru_tail; /* head: most recently used */

    pthread_mutex_t jobs_mu;
    pthread_cond_t jobs_cv;
    struct session *job_head, *job_tail;
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
};

/* The outcome of an API call: a complete response, or "wait" (the session holds the
 * request's waiter until the computer has moved), or an event stream to start. */
enum api_kind { API_DONE, API_WAIT, API_STREAM, API_STATIC };
struct api_request {
    const char *method, *url, *authorization, *last_event_id, *client;
    const char *body;
    size_t body_len;
    bool body_too_large;
    struct waiter *waiter; /* NULL: the computer's reply is made inline */
};
struct api_response {
    enum api_kind kind;
    int status;
    char *body; /* malloc'ed JSON or text */
    const char *content_type;
    struct session *session; /* API_WAIT: lock it and check; API_STREAM: its game (a ref) */
    int stream_from;         /* API_STREAM: moves the client already has */
    char path[4200];         /* API_STATIC: the file */
};
void api_handle(struct server *srv, const struct api_request *req, struct api_response *resp);
/* A JSON error body {"error": message}. */
char *api_error_body(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cache.c: games in memory by id.  session_get loads from the store on a miss and
 * returns the session with a reference held; 0, or 404 when no such game, or 500/503
 * with a message. */
int session_get(struct server *srv, const char *id, struct session **out, char *err,
                size_t err_size);
/* Add a new game's session (one reference held). */
int session_insert(struct server *srv, struct session *s, char *err, size_t err_size);
/* Take back a session just inserted (its only reference the caller's) and free it. */
void session_discard(struct server *srv, struct session *s);
/* Another reference, for a caller that already holds one. */
void session_ref(struct session *s);
void session_put(struct session *s);
void cache_init(struct server *srv);
void cache_free(struct server *srv);
/* Call fn on every cached session (under cache_mu; fn may lock the session). */
void cache_each(struct server *srv, void (*fn)(struct session *s));

/* session.c: a game's rules as the server applies them; all under s->mu. */
struct session *session_new(struct server *srv, const struct game *g, const struct store_game *row,
                            char *err, size_t err_size);
/* Replay the stored moves; -1 with a message if one does not apply. */
int session_replay(struct session *s, char (*moves)[MOVE_TEXT_MAX], int n, char *err,
                   size_t err_size);
void session_free(struct session *s);
void session_status(const struct session *s, struct game_status *out);
bool session_over(const struct session *s);
bool session_computer_to_move(const struct session *s);
/* Make a legal move, commit it, tell the watchers.  -1 (state unchanged) when the
 * store fails.  With `defer`, a move after which the computer is to move is made in
 * memory only: session_commit stores it with the reply (session_settle, when no reply
 * is coming, stores it alone).  A move waiting so is taken back too if the commit of
 * this one fails. */
int session_play(struct session *s, Move m, bool defer, char *err, size_t err_size);
/* Commit the move waiting for the computer's reply, if any; -1 (it is taken back)
 * when the store fails. */
int session_settle(struct session *s, char *err, size_t err_size);
/* End the game without a move (resignation, agreement, claim). */
int session_end(struct session *s, enum result r, int why, char *err, size_t err_size);
/* Queue the computer's move if it is its turn and none is queued (takes a reference). */
void session_schedule(struct session *s);
/* The computer's move in two steps, each locking s->mu itself: session_think (an
 * engine worker: CPU) finds it, and the engine stops when *stop becomes non-zero (the
 * watchdog's time cap, or the server stopping); session_commit (a committer: waits on
 * the store) plays and commits it and answers the waiting request. */
void session_think(struct session *s, const atomic_int *stop);
void session_commit(struct session *s);
void session_notify(struct session *s);
int64_t server_now_ms(void);

/* state_json.c */
/* A game's state as JSON text (malloc'ed; NULL without memory), with the new
 * game's token and the draw offer's answer when given. */
char *state_text(const struct session *s, const char *token, const char *draw);
struct jout;
/* A summary for the history list, as one value. */
void summary_out(struct jout *j, const struct store_game *row);
/* A game's board geometry (static): shape, cells with coordinates, edges. */
json_t *layout_json(const struct game *g);
char *json_text(json_t *j); /* dumps and releases j */
/* One event of the stream for move k (1-based) into buf; its length. */
size_t event_move_text(const struct session *s, int k, char *buf, size_t size);
size_t event_end_text(const struct session *s, char *buf, size_t size);
/* The move record: PGN-style tags and numbered moves. */
char *record_text(const struct session *s);
const char *side_name(int side);

/* workers.c */
int workers_start(struct server *srv, char *err, size_t err_size);
void workers_stop(struct server *srv);
/* Queue a computer move; false once the server is stopping. */
bool workers_push(struct server *srv, struct session *s);
/* Think the queued moves on this thread (engine_workers == 0; never under a lock). */
void workers_run_inline(struct server *srv);
