/* The game model: one game as the server plays it (struct session) and the rules of
 * its changes: replay, the human's move, the computer's move (think, then commit),
 * endings without a move, every change committed to the store before anyone hears of
 * it.  The bottom of the server: it writes no JSON, knows no HTTP status, queues no
 * job.  Whoever waits on a game (a request for the computer's reply, an event stream)
 * registers a hook below, and the model calls it; the layers above give it meaning.
 *
 * Locking (the order is in server_state.h): every function here but session_think and
 * session_commit runs under s->mu; those two lock it themselves. */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "server/common/session_waiter.h"
#include "store/store.h"

struct server;
struct session;

struct move_rec {
    char text[MOVE_TEXT_MAX];
    char display[MOVE_TEXT_MAX];
};

/* One game in memory: its row, its state rebuilt from the start and the moves, the
 * request waiting on the computer.  The event streams read it by its id (the stream
 * hub, stream_hub.h). */
struct session {
    /* The cache's bookkeeping (cache.c), under the server's cache_mu (refs: see
     * cache_ref). */
    atomic_int refs;
    /* Another server changed the game (outbox.c): the next cache_get loads it again;
     * orphan: out of the cache, freed by its last cache_put. */
    atomic_bool stale, orphan;
    struct session *hash_next, *lru_prev, *lru_next;
    /* The job queue's link (workers.c), under jobs_mu. */
    struct session *job_next;

    struct server *srv; /* the model reads its cfg and store */
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
    bool job_pending;              /* a computer move is queued, thought or committed */
    Move think_move;               /* the move found, waiting for its commit */
    int think_ply;                 /* the ply it was found at */
    struct session *commit_next;   /* the commit queue's link (workers.c), under jobs_mu */
    struct session_waiter *waiter; /* to answer when the computer has moved */
    /* db_jobs.c: the list of games waiting for a worker's move (under srv->dj_mu), and
     * since when it last looked. */
    struct session *dj_next;
    _Atomic int64_t dj_since;
    /* A game between people (people.h): each stored move's time of receipt and the
     * count of changes other than moves (offers, clocks) the event streams follow (the
     * viewers are counted by the stream hub, stream_hub.h). */
    int64_t *move_ms;
    int cap_move_ms;
    unsigned version;
    /* By side: when the player was last seen (a request with their token, or their
     * page's event stream ending), for abandonment (people_away); memory only. */
    int64_t seen_ms[2];
    /* Between people: each side's public player id (API.md "Players"), read once when
     * the game is made or loaded (people_read_ids), for the state's links to their
     * pages; "" for a player who hides or has no page. */
    char player_id[2][STORE_PLAYER_ID_LEN + 1];
};

struct session *session_new(struct server *srv, const struct game *g, const struct store_game *row,
                            char *err, size_t err_size);
/* Replay the stored moves; -1 with a message if one does not apply. */
int session_replay(struct session *s, char (*moves)[MOVE_TEXT_MAX], int n, char *err,
                   size_t err_size);
void session_free(struct session *s);
void session_status(const struct session *s, struct game_status *out);
bool session_over(const struct session *s);
bool session_computer_to_move(const struct session *s);
/* Below, "-1 when the store fails" is the store's answer: -1, or STORE_BUSY when its
 * gate refused the call (store.h), which the routes answer with 503 (api_store_error). */
/* The one path of a move, for both kinds of game (session_move): its text, make it,
 * the status (a game the server's cap makes too long is a draw), then the commit, and
 * back out of everything when the store refuses; after the commit one step tells the
 * policy (the clock, the rating) and then the event streams.  What differs by kind is
 * the policy: the computer's games (session_play) commit the human's move with the
 * computer's reply when `defer`; games between people (people_move) commit each move
 * with its time of receipt and the deadline it sets. */
struct move_policy {
    /* Store the moves s->n_stored .. s->n_moves (s->row has the result they lead to);
     * 0, or the store's failure (-1, STORE_BUSY) with a message and nothing stored
     * (session_move restores the rest). */
    int (*commit)(struct session *s, const struct move_policy *p, char *err, size_t err_size);
    /* After the commit, before the streams hear of it; NULL: nothing. */
    void (*committed)(struct session *s, const struct move_policy *p);
    bool defer;     /* a move the computer answers waits to be committed with the reply */
    int64_t now_ms; /* the move's time of receipt (people.c) */
};
/* Make the legal move m along that path.  -1 (state unchanged) when the store fails;
 * with `defer`, a move waiting for the reply is taken back too if this commit fails. */
int session_move(struct session *s, Move m, const struct move_policy *p, char *err,
                 size_t err_size);
/* session_move with the computer's games' policy: with `defer`, a move after which the
 * computer is to move is made in memory only: session_commit stores it with the reply
 * (session_settle, when no reply is coming, stores it alone). */
int session_play(struct session *s, Move m, bool defer, char *err, size_t err_size);
/* Commit the move waiting for the computer's reply, if any; -1 (it is taken back)
 * when the store fails. */
int session_settle(struct session *s, char *err, size_t err_size);
/* Whether the game's move at `ply` (1 .. the moves made) is the move `text` (any
 * text the game reads for it, in the position before it); *side: who made it.  A
 * replay of the moves before it: for a request's retry (API.md "ply"), not for play. */
bool session_made(const struct session *s, int ply, const char *text, int *side);
/* Take back the human's last move and what followed it (the computer's reply): the
 * moves go from the store in one transaction (store_ops.take_back), then from memory,
 * and the watchers hear of it.  The caller checks that the game is on, the human to
 * move and no job pending.  1 (nothing changed) when the human has no move to take
 * back; -1 when the store fails (nothing changed). */
int session_takeback(struct session *s, char *err, size_t err_size);
/* End the game without a move (resignation, agreement, claim). */
int session_end(struct session *s, enum result r, int why, char *err, size_t err_size);
/* The computer's move in two steps, each locking s->mu itself: session_think (an
 * engine worker: CPU) finds it, and the engine stops when *stop becomes non-zero (the
 * watchdog's time cap, or the server stopping); session_commit (a committer: waits on
 * the store) plays and commits it and answers the waiter.  Whoever queued the job
 * (workers_schedule) set job_pending; session_commit clears it. */
void session_think(struct session *s, const atomic_int *stop);
void session_commit(struct session *s);
/* Under s->mu: the computer's move is in (or will not come: db_jobs.c); job_pending is
 * cleared and the waiting request answered (error: what failed, NULL: the state). */
void session_job_done(struct session *s, const char *error);
/* Append a move's texts to the game's list (people.c); -1 without memory. */
int session_append(struct session *s, const char *text, const char *display);
/* Tell the game's event streams (the stream hub) there is news, and the other servers'
 * (srv->tell_others) unless the change's own transaction wrote its event. */
void session_notify(struct session *s);
/* The game's event goes with the next store operation of this thread, in its
 * transaction (srv->attach_event; nothing with the outbox off): called just before
 * the operation that changes the game. */
void session_attach_event(struct session *s);
/* The wall clock in milliseconds (the store's timestamps). */
int64_t server_now_ms(void);
