/* A game as the server plays it: the human's moves, the computer's replies, endings
 * without a move, every change committed before anyone hears of it.  All functions
 * but session_think and session_commit run under the session's mutex.  Nothing here
 * calls up: a waiting request and the event streams are reached through their hooks
 * (session.h). */
#include "server/games/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "engines/engine.h"
#include "server/common/stream_hub.h"
#include "server/server_state.h"

int64_t server_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct session *session_new(struct server *srv, const struct game *g, const struct store_game *row,
                            char *err, size_t err_size)
{
    struct session *s = calloc(1, sizeof *s);
    if (!s || !(s->st = game_state_new(g))) {
        free(s);
        fail(err, err_size, "out of memory");
        return NULL;
    }
    s->srv = srv;
    s->g = g;
    s->row = *row;
    pthread_mutex_init(&s->mu, NULL);
    if (!row->start[0]) {
        g->start(s->st);
    } else if (g->parse_position(s->st, row->start, err, err_size) != 0) {
        session_free(s);
        return NULL;
    }
    return s;
}

void session_free(struct session *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->mu);
    free(s->st);
    free(s->moves);
    free(s->move_ms);
    free(s);
}

int session_append(struct session *s, const char *text, const char *display)
{
    if (s->n_moves == s->cap_moves) {
        int cap = s->cap_moves ? 2 * s->cap_moves : 64;
        struct move_rec *m = realloc(s->moves, sizeof *m * (size_t)cap);
        if (!m)
            return -1;
        s->moves = m;
        s->cap_moves = cap;
    }
    struct move_rec *r = &s->moves[s->n_moves++];
    snprintf(r->text, sizeof r->text, "%s", text);
    snprintf(r->display, sizeof r->display, "%s", display);
    return 0;
}

int session_replay(struct session *s, char (*moves)[MOVE_TEXT_MAX], int n, char *err,
                   size_t err_size)
{
    for (int i = 0; i < n; i++) {
        Move m;
        char why[ERROR_TEXT_MAX], display[MOVE_TEXT_MAX];
        if (s->g->ply(s->st) >= s->g->max_plies ||
            s->g->parse_move(s->st, moves[i], &m, why, sizeof why) != 0)
            return fail(err, err_size, "game %s: stored move %d '%s' does not apply", s->row.id,
                        i + 1, moves[i]);
        game_move_display(s->g, s->st, m, display, sizeof display);
        s->g->make_move(s->st, m);
        if (session_append(s, moves[i], display) != 0)
            return fail(err, err_size, "out of memory");
        s->n_stored = s->n_moves;
    }
    return 0;
}

void session_status(const struct session *s, struct game_status *out)
{
    if (s->row.result != RESULT_ONGOING) {
        out->result = (enum result)s->row.result;
        out->reason = s->row.reason;
        out->claims = 0;
        return;
    }
    s->g->status(s->st, out);
}

bool session_over(const struct session *s)
{
    struct game_status gs;
    session_status(s, &gs);
    return gs.result != RESULT_ONGOING;
}

bool session_computer_to_move(const struct session *s)
{
    return !s->row.people && !session_over(s) &&
           (int)s->g->side_to_move(s->st) != s->row.human_side;
}

/* Store the moves made since the last commit (s->n_stored .. s->n_moves) with the
 * game's result now, in one transaction (the computer's games' commit). */
static int commit_moves(struct session *s, const struct move_policy *p, char *err, size_t err_size)
{
    (void)p;
    int count = s->n_moves - s->n_stored;
    if (count <= 0)
        return 0;
    const char *texts[2];
    if (count > (int)(sizeof texts / sizeof texts[0]))
        return fail(err, err_size, "internal: %d moves waiting for one commit", count);
    for (int i = 0; i < count; i++)
        texts[i] = s->moves[s->n_stored + i].text;
    int64_t now = server_now_ms();
    session_attach_event(s);
    int rc = store_add_moves(s->srv->store, s->row.id, s->n_stored + 1, count, texts, s->row.result,
                             s->row.reason, now, err, err_size);
    if (rc != 0) {
        /* Perhaps stored after all (the COMMIT's answer lost): the next request reads
         * the game again, where a retry of the move finds it (API.md "ply"). */
        atomic_store(&s->stale, true);
        return rc < 0 ? rc : -1;
    }
    s->n_stored = s->n_moves;
    s->row.plies = s->n_moves;
    s->row.updated_ms = now;
    return 0;
}

/* Take back the human's move that was waiting to be committed with the reply. */
static void drop_unstored(struct session *s)
{
    if (s->n_moves > s->n_stored) {
        s->g->unmake_move(s->st, s->unstored_move);
        s->n_moves--;
    }
}

int session_settle(struct session *s, char *err, size_t err_size)
{
    int waiting = s->n_moves - s->n_stored;
    int rc = commit_moves(s, NULL, err, err_size);
    if (rc == 0) {
        if (waiting > 0)
            session_notify(s);
        return 0;
    }
    drop_unstored(s);
    return rc;
}

int session_move(struct session *s, Move m, const struct move_policy *p, char *err, size_t err_size)
{
    const struct game *g = s->g;
    char text[MOVE_TEXT_MAX], display[MOVE_TEXT_MAX];
    g->move_text(s->st, m, text, sizeof text);
    game_move_display(g, s->st, m, display, sizeof display);
    g->make_move(s->st, m);
    if (session_append(s, text, display) != 0) {
        g->unmake_move(s->st, m);
        return fail(err, err_size, "out of memory");
    }
    struct game_status gs;
    g->status(s->st, &gs);
    /* A state holds max_plies moves, and the server may cap games sooner (the rule
     * books allow a server an adjudication cap): a game that long is a draw. */
    int cap = g->max_plies;
    if (s->srv->cfg.max_plies > 0 && s->srv->cfg.max_plies < cap)
        cap = s->srv->cfg.max_plies;
    if (gs.result == RESULT_ONGOING && (g->ply(s->st) >= g->max_plies || s->n_moves >= cap)) {
        gs.result = RESULT_DRAW;
        gs.reason = REASON_ADJUDICATION;
    }
    /* A move the computer answers waits for the answer: both go in one commit. */
    if (p->defer && s->n_moves == s->n_stored + 1 && gs.result == RESULT_ONGOING &&
        (int)g->side_to_move(s->st) != s->row.human_side) {
        s->unstored_move = m;
        return 0;
    }
    struct store_game saved = s->row;
    int stored = s->n_stored;
    s->row.result = (int)gs.result;
    s->row.reason = (int)gs.reason;
    int rc = p->commit(s, p, err, err_size);
    if (rc != 0) {
        s->row = saved;
        s->n_stored = stored;
        s->n_moves--;
        g->unmake_move(s->st, m);
        drop_unstored(s);
        return rc;
    }
    if (p->committed)
        p->committed(s, p);
    session_notify(s);
    return 0;
}

int session_play(struct session *s, Move m, bool defer, char *err, size_t err_size)
{
    const struct move_policy computer = {.commit = commit_moves, .defer = defer};
    return session_move(s, m, &computer, err, err_size);
}

/* A fresh state at the game's start position with the first `n` moves made; with
 * `human_last`, the number of moves before the human's last one (-1: none). */
static void *rebuild(const struct session *s, int n, int *human_last, char *err, size_t err_size)
{
    const struct game *g = s->g;
    void *st = game_state_new(g);
    if (!st) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    if (!s->row.start[0])
        g->start(st);
    else if (g->parse_position(st, s->row.start, err, err_size) != 0) {
        free(st);
        return NULL;
    }
    if (human_last)
        *human_last = -1;
    for (int i = 0; i < n; i++) {
        Move m;
        if (human_last && (int)g->side_to_move(st) == s->row.human_side)
            *human_last = i;
        if (g->parse_move(st, s->moves[i].text, &m, err, err_size) != 0) {
            free(st);
            return NULL;
        }
        g->make_move(st, m);
    }
    return st;
}

bool session_made(const struct session *s, int ply, const char *text, int *side)
{
    if (ply < 1 || ply > s->n_moves)
        return false;
    char err[ERROR_TEXT_MAX], canon[MOVE_TEXT_MAX];
    void *st = rebuild(s, ply - 1, NULL, err, sizeof err);
    if (!st)
        return false;
    Move m;
    /* The text as the client wrote it, read in the position before that ply: the
     * same move whatever notation the game accepts for it. */
    bool same = s->g->parse_move(st, text, &m, err, sizeof err) == 0;
    if (same) {
        s->g->move_text(st, m, canon, sizeof canon);
        same = !strcmp(canon, s->moves[ply - 1].text);
    }
    *side = (int)s->g->side_to_move(st);
    free(st);
    return same;
}

int session_takeback(struct session *s, char *err, size_t err_size)
{
    int keep;
    void *st = rebuild(s, s->n_stored, &keep, err, err_size);
    if (!st)
        return -1;
    free(st);
    if (keep < 0 || s->n_moves != s->n_stored)
        return 1;
    if (!(st = rebuild(s, keep, NULL, err, err_size)))
        return -1;
    int64_t now = server_now_ms();
    session_attach_event(s);
    int rc = store_take_back(s->srv->store, s->row.id, keep, now, err, err_size);
    if (rc != 0) {
        free(st);
        return rc < 0 ? rc : -1;
    }
    free(s->st);
    s->st = st;
    s->n_moves = s->n_stored = keep;
    s->row.plies = keep;
    s->row.takebacks++;
    s->row.updated_ms = now;
    session_notify(s);
    return 0;
}

int session_end(struct session *s, enum result r, int why, char *err, size_t err_size)
{
    /* A move waiting for the computer's reply is stored first, as it stands. */
    int rc = session_settle(s, err, err_size);
    if (rc != 0)
        return rc;
    int64_t now = server_now_ms();
    session_attach_event(s);
    rc = store_set_result(s->srv->store, s->row.id, (int)r, (int)why, now, err, err_size);
    if (rc != 0)
        return rc < 0 ? rc : -1;
    s->row.result = (int)r;
    s->row.reason = (int)why;
    s->row.updated_ms = now;
    session_notify(s);
    return 0;
}

void session_attach_event(struct session *s)
{
    if (s->srv->attach_event)
        s->srv->attach_event(s->srv, "game", s->row.id);
}

void session_notify(struct session *s)
{
    /* A change through a copy the cache let go meanwhile: the cache reads it again. */
    if (atomic_load(&s->orphan) && s->srv->changed_out_of_cache)
        s->srv->changed_out_of_cache(s->srv, s->row.id);
    if (s->srv->hub) /* the event streams, which wait by the game's id */
        stream_hub_news(s->srv->hub, s->row.id);
    if (s->srv->tell_others) /* and the other servers' streams (outbox.c) */
        s->srv->tell_others(s->srv, "game", s->row.id);
}

/* Answer the waiting request, if any: what failed, or (NULL) the move is made; `rc`
 * the store's answer (STORE_BUSY: busy or away). */
static void finish_waiter(struct session *s, const char *error, int rc)
{
    struct session_waiter *w = s->waiter;
    s->waiter = NULL;
    if (w) {
        w->busy = rc == STORE_BUSY;
        w->answer(w, s, error);
    }
}

void session_think(struct session *s, const atomic_int *stop)
{
    pthread_mutex_lock(&s->mu);
    const struct game *g = s->g;
    void *copy = NULL;
    int ply = s->n_moves;
    uint64_t seed = s->row.seed + (uint64_t)ply;
    int level = s->row.level;
    if (session_computer_to_move(s) && (copy = malloc(g->state_size)))
        /* States are flat blocks (game.h: "an opaque block of state_size bytes"). */
        memcpy(copy, s->st, g->state_size);
    pthread_mutex_unlock(&s->mu);

    Move m = 0;
    if (copy) {
        struct engine_limits limits = {0};
        limits.movetime_ms = s->srv->cfg.move_time_ms;
        limits.stop = stop;
        limits.book = s->srv->cfg.book;
        if (s->srv->cfg.test_uncapped_engine) {
            /* An engine that would overrun its cap: only the watchdog ends it. */
            limits.movetime_ms = 0;
            limits.infinite = 1;
        }
        struct engine_result res;
        m = engine_think(g, copy, level, &limits, seed, &res);
        free(copy);
        /* Tests: the move takes at least test_think_ms, unless it is stopped. */
        for (int slept = 0; slept < s->srv->cfg.test_think_ms && !atomic_load(stop); slept += 5)
            nanosleep(&(struct timespec){0, 5000000L}, NULL);
    }
    /* Only s's job touches these until session_commit clears job_pending. */
    s->think_move = m;
    s->think_ply = ply;
}

void session_commit(struct session *s)
{
    pthread_mutex_lock(&s->mu);
    char err[ERROR_TEXT_MAX];
    /* What failed, for the waiter: as long as an API error message, which it becomes. */
    char error[512];
    const char *failed = NULL;
    Move m = s->think_move;
    /* The game may have changed meanwhile (a resignation, an accepted draw).  The
     * human's move waiting for this reply is committed with it, or alone when there
     * is no reply to make; if the commit fails, neither move was made. */
    int unstored = s->n_moves - s->n_stored, rc = 0;
    if (m && s->n_moves == s->think_ply && session_computer_to_move(s)) {
        if ((rc = session_play(s, m, false, err, sizeof err)) != 0) {
            failed = error;
            snprintf(error, sizeof error, "%s could not be stored: %s",
                     unstored ? "your move" : "the computer's move", err);
        }
    } else if ((rc = session_settle(s, err, sizeof err)) != 0) {
        failed = error;
        snprintf(error, sizeof error, "your move could not be stored: %s", err);
    }
    s->job_pending = false;
    finish_waiter(s, failed, rc);
    pthread_mutex_unlock(&s->mu);
}

void session_job_done(struct session *s, const char *error)
{
    s->job_pending = false;
    finish_waiter(s, error, 0);
}
