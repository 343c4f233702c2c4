/* The database gate (store_gate.h): each op of the wrapped store, when called from a
 * marked thread, first takes one of max_waiting places or answers STORE_BUSY. */
#include "store/store_gate.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/error.h"

struct gated {
    struct store base;
    struct store *inner;
    int max_waiting;
    atomic_int inside;        /* marked threads inside */
    atomic_int active;        /* all threads inside */
    atomic_llong progress_ms; /* the last time a call came out (or one came into an idle store) */
};

/* The store counts as stuck when max_waiting marked threads are inside and no call has
 * come out for this long: only then is one more refused.  A store that is merely busy
 * (a burst of new games) keeps letting them in. */
#define STALL_MS 100

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static _Thread_local bool marked;

void store_gate_mark_thread(void)
{
    marked = true;
}

/* Take a place (true), or say why not in err (false).  Unmarked threads always pass. */
static bool enter(struct gated *g, char *err, size_t err_size)
{
    if (atomic_fetch_add(&g->active, 1) == 0)
        atomic_store(&g->progress_ms, now_ms());
    if (!marked)
        return true;
    if (atomic_fetch_add(&g->inside, 1) < g->max_waiting ||
        now_ms() - atomic_load(&g->progress_ms) < STALL_MS)
        return true;
    atomic_fetch_sub(&g->inside, 1);
    atomic_fetch_sub(&g->active, 1);
    fail(err, err_size, "the database is busy (%d requests wait for it already); try again soon",
         g->max_waiting);
    return false;
}

static void leave(struct gated *g)
{
    atomic_store(&g->progress_ms, now_ms());
    atomic_fetch_sub(&g->active, 1);
    if (marked)
        atomic_fetch_sub(&g->inside, 1);
}

#define GATED(call)                                                                                \
    do {                                                                                           \
        struct gated *g = (struct gated *)base;                                                    \
        if (!enter(g, err, err_size))                                                              \
            return STORE_BUSY;                                                                     \
        int rc = g->inner->ops->call;                                                              \
        leave(g);                                                                                  \
        return rc;                                                                                 \
    } while (0)

static int gt_create_game(struct store *base, const struct store_game *row, char *err,
                          size_t err_size)
{
    GATED(create_game(g->inner, row, err, err_size));
}

static int gt_add_moves(struct store *base, const char *id, int first_ply, int count,
                        const char *const *moves, int result, int reason, int64_t now_ms, char *err,
                        size_t err_size)
{
    GATED(add_moves(g->inner, id, first_ply, count, moves, result, reason, now_ms, err, err_size));
}

static int gt_set_result(struct store *base, const char *id, int result, int reason, int64_t now_ms,
                         char *err, size_t err_size)
{
    GATED(set_result(g->inner, id, result, reason, now_ms, err, err_size));
}

static int gt_take_back(struct store *base, const char *id, int keep_plies, int64_t now_ms,
                        char *err, size_t err_size)
{
    GATED(take_back(g->inner, id, keep_plies, now_ms, err, err_size));
}

static int gt_load_game(struct store *base, const char *id, struct store_game *row,
                        char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size)
{
    *moves = NULL;
    *count = 0;
    GATED(load_game(g->inner, id, row, moves, count, err, err_size));
}

static int gt_list_games(struct store *base, const char *token_hash, int limit, store_game_fn fn,
                         void *ctx, char *err, size_t err_size)
{
    GATED(list_games(g->inner, token_hash, limit, fn, ctx, err, err_size));
}

static int gt_put_review(struct store *base, const char *id, const char *game, const char *body,
                         int64_t now_ms, char *err, size_t err_size)
{
    GATED(put_review(g->inner, id, game, body, now_ms, err, err_size));
}

static int gt_get_review(struct store *base, const char *id, char **body, char *err,
                         size_t err_size)
{
    *body = NULL;
    GATED(get_review(g->inner, id, body, err, err_size));
}

static void gt_close(struct store *base)
{
    struct gated *g = (struct gated *)base;
    g->inner->ops->close(g->inner);
    free(g);
}

static const struct store_ops gated_ops = {
    .create_game = gt_create_game,
    .add_moves = gt_add_moves,
    .set_result = gt_set_result,
    .take_back = gt_take_back,
    .load_game = gt_load_game,
    .list_games = gt_list_games,
    .put_review = gt_put_review,
    .get_review = gt_get_review,
    .close = gt_close,
};

struct store *store_gate_wrap(struct store *inner, int max_waiting)
{
    if (!inner)
        return NULL;
    struct gated *g = calloc(1, sizeof *g);
    if (!g) {
        inner->ops->close(inner);
        return NULL;
    }
    g->base.ops = &gated_ops;
    g->inner = inner;
    g->max_waiting = max_waiting;
    return &g->base;
}
