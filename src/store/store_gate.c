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

static int gt_put_challenge(struct store *base, const struct store_challenge *c, char *err,
                            size_t err_size)
{
    GATED(put_challenge(g->inner, c, err, err_size));
}

static int gt_get_challenge(struct store *base, const char *id, struct store_challenge *c,
                            char *err, size_t err_size)
{
    GATED(get_challenge(g->inner, id, c, err, err_size));
}

static int gt_accept_challenge(struct store *base, const char *id, const char *acceptor_hash,
                               const struct store_game *game, int64_t now_ms, char *err,
                               size_t err_size)
{
    GATED(accept_challenge(g->inner, id, acceptor_hash, game, now_ms, err, err_size));
}

static int gt_cancel_challenge(struct store *base, const char *id, const char *creator_hash,
                               int64_t now_ms, char *err, size_t err_size)
{
    GATED(cancel_challenge(g->inner, id, creator_hash, now_ms, err, err_size));
}

static int gt_list_seeks(struct store *base, int64_t now_ms, int limit, store_challenge_fn fn,
                         void *ctx, char *err, size_t err_size)
{
    GATED(list_seeks(g->inner, now_ms, limit, fn, ctx, err, err_size));
}

static int gt_add_people_move(struct store *base, const char *id, int ply, const char *move,
                              int result, int reason, int64_t now_ms, int64_t deadline_ms,
                              char *err, size_t err_size)
{
    GATED(add_people_move(g->inner, id, ply, move, result, reason, now_ms, deadline_ms, err,
                          err_size));
}

static int gt_end_people_game(struct store *base, const char *id, int result, int reason,
                              int64_t at_ms, char *err, size_t err_size)
{
    GATED(end_people_game(g->inner, id, result, reason, at_ms, err, err_size));
}

static int gt_set_offers(struct store *base, const char *id, int draw, int takeback, int rematch,
                         const char *rematch_id, int64_t now_ms, char *err, size_t err_size)
{
    GATED(set_offers(g->inner, id, draw, takeback, rematch, rematch_id, now_ms, err, err_size));
}

static int gt_load_move_times(struct store *base, const char *id, int64_t **times, int *count,
                              char *err, size_t err_size)
{
    *times = NULL;
    *count = 0;
    GATED(load_move_times(g->inner, id, times, count, err, err_size));
}

static int gt_next_deadline(struct store *base, int64_t *when, char *err, size_t err_size)
{
    GATED(next_deadline(g->inner, when, err, err_size));
}

static int gt_due_games(struct store *base, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                        size_t err_size)
{
    GATED(due_games(g->inner, now_ms, fn, ctx, err, err_size));
}

static int gt_get_rating(struct store *base, const char *token_hash, const char *game,
                         const char *klass, struct store_rating *out, char *err, size_t err_size)
{
    GATED(get_rating(g->inner, token_hash, game, klass, out, err, err_size));
}

static int gt_rate_game(struct store *base, const char *id, const struct store_rater *rater,
                        int64_t now_ms, int *white_after, int *black_after, char *err,
                        size_t err_size)
{
    GATED(rate_game(g->inner, id, rater, now_ms, white_after, black_after, err, err_size));
}

static int gt_unrated_games(struct store *base, store_id_fn fn, void *ctx, char *err,
                            size_t err_size)
{
    GATED(unrated_games(g->inner, fn, ctx, err, err_size));
}

static int gt_create_club(struct store *base, const struct store_club *c,
                          const struct store_member *m, char *err, size_t err_size)
{
    GATED(create_club(g->inner, c, m, err, err_size));
}

static int gt_get_club(struct store *base, const char *id, struct store_club *c, char *err,
                       size_t err_size)
{
    GATED(get_club(g->inner, id, c, err, err_size));
}

static int gt_list_members(struct store *base, const char *club_id, store_member_fn fn, void *ctx,
                           char *err, size_t err_size)
{
    GATED(list_members(g->inner, club_id, fn, ctx, err, err_size));
}

static int gt_join_club(struct store *base, const char *club_id, const struct store_member *m,
                        char *err, size_t err_size)
{
    GATED(join_club(g->inner, club_id, m, err, err_size));
}

static int gt_set_member(struct store *base, const char *club_id, const char *member_id, int role,
                         char *err, size_t err_size)
{
    GATED(set_member(g->inner, club_id, member_id, role, err, err_size));
}

static int gt_remove_member(struct store *base, const char *club_id, const char *member_id,
                            int max_role, const char *invite, char *err, size_t err_size)
{
    GATED(remove_member(g->inner, club_id, member_id, max_role, invite, err, err_size));
}

static int gt_club_results(struct store *base, const char *club_id, store_result_fn fn, void *ctx,
                           char *err, size_t err_size)
{
    GATED(club_results(g->inner, club_id, fn, ctx, err, err_size));
}

static int gt_club_games(struct store *base, const char *club_id, int limit, store_game_fn fn,
                         void *ctx, char *err, size_t err_size)
{
    GATED(club_games(g->inner, club_id, limit, fn, ctx, err, err_size));
}

static int gt_club_challenges(struct store *base, const char *club_id, int64_t now_ms,
                              store_challenge_fn fn, void *ctx, char *err, size_t err_size)
{
    GATED(club_challenges(g->inner, club_id, now_ms, fn, ctx, err, err_size));
}

static int gt_put_player(struct store *base, const char *token_hash, const char *name,
                         int64_t now_ms, char *err, size_t err_size)
{
    GATED(put_player(g->inner, token_hash, name, now_ms, err, err_size));
}

static int gt_get_player(struct store *base, const char *token_hash, char *name, size_t name_size,
                         char *err, size_t err_size)
{
    GATED(get_player(g->inner, token_hash, name, name_size, err, err_size));
}

static int gt_puzzle_player(struct store *base, const char *token_hash, const char *game,
                            struct store_puzzle_rating *out, char *err, size_t err_size)
{
    GATED(puzzle_player(g->inner, token_hash, game, out, err, err_size));
}

static int gt_puzzle_ratings(struct store *base, store_puzzle_rating_fn fn, void *ctx, char *err,
                             size_t err_size)
{
    GATED(puzzle_ratings(g->inner, fn, ctx, err, err_size));
}

static int gt_puzzle_attempted(struct store *base, const char *token_hash, const char *game,
                               store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size)
{
    GATED(puzzle_attempted(g->inner, token_hash, game, fn, ctx, err, err_size));
}

static int gt_puzzle_attempt(struct store *base, const struct store_puzzle_attempt *a, char *err,
                             size_t err_size)
{
    GATED(puzzle_attempt(g->inner, a, err, err_size));
}

static int gt_puzzle_serve(struct store *base, const char *token_hash, const char *puzzle_id,
                           int issued, int64_t now_ms, char *err, size_t err_size)
{
    GATED(puzzle_serve(g->inner, token_hash, puzzle_id, issued, now_ms, err, err_size));
}

static int gt_puzzle_served(struct store *base, const char *token_hash, const char *puzzle_id,
                            int64_t *served_ms, char *err, size_t err_size)
{
    GATED(puzzle_served(g->inner, token_hash, puzzle_id, served_ms, err, err_size));
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
    .put_challenge = gt_put_challenge,
    .get_challenge = gt_get_challenge,
    .accept_challenge = gt_accept_challenge,
    .cancel_challenge = gt_cancel_challenge,
    .list_seeks = gt_list_seeks,
    .add_people_move = gt_add_people_move,
    .end_people_game = gt_end_people_game,
    .set_offers = gt_set_offers,
    .load_move_times = gt_load_move_times,
    .next_deadline = gt_next_deadline,
    .due_games = gt_due_games,
    .get_rating = gt_get_rating,
    .rate_game = gt_rate_game,
    .unrated_games = gt_unrated_games,
    .create_club = gt_create_club,
    .get_club = gt_get_club,
    .list_members = gt_list_members,
    .join_club = gt_join_club,
    .set_member = gt_set_member,
    .remove_member = gt_remove_member,
    .club_results = gt_club_results,
    .club_games = gt_club_games,
    .club_challenges = gt_club_challenges,
    .put_player = gt_put_player,
    .get_player = gt_get_player,
    .puzzle_player = gt_puzzle_player,
    .puzzle_ratings = gt_puzzle_ratings,
    .puzzle_attempted = gt_puzzle_attempted,
    .puzzle_attempt = gt_puzzle_attempt,
    .puzzle_serve = gt_puzzle_serve,
    .puzzle_served = gt_puzzle_served,
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
