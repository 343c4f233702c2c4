/* Ratings of games between people (people_rating.h). */
#include "server/games/people_rating.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "rating/glicko2.h"
#include "server/common/token.h"
#include "server/games/session.h"
#include "server/server_state.h"

const char *people_clock_class(int64_t initial_ms, int64_t increment_ms, int days)
{
    if (days > 0)
        return "correspondence";
    if (initial_ms <= 0 && increment_ms <= 0)
        return NULL;
    int64_t expected_s = (initial_ms + 40 * increment_ms) / 1000;
    return expected_s < 8 * 60 ? "blitz" : expected_s < 25 * 60 ? "rapid" : "classical";
}

int64_t people_clock_initial_ms(int64_t initial_ms, int64_t increment_ms)
{
    const int64_t floor_ms = 3000;
    if (initial_ms > 0 || increment_ms <= 0)
        return initial_ms;
    return increment_ms > floor_ms ? increment_ms : floor_ms;
}

#define PAIR_WINDOW_MS (24 * 3600 * 1000LL) /* the cap of rated games per pair: a day */

static const char *row_class(const struct store_game *row)
{
    /* Never before both sides have moved (such a game can only be aborted). */
    if (row->reason == REASON_ABORTED || row->result == RESULT_ONGOING || row->plies_max < 2)
        return NULL;
    return people_clock_class(row->clock_initial_ms, row->clock_increment_ms, row->days);
}

static struct glicko2 from_store(const struct store_rating *r)
{
    if (r->games <= 0)
        return glicko2_initial();
    return (struct glicko2){r->rating, r->deviation, r->volatility};
}

static struct store_rating to_store(struct glicko2 g, int games)
{
    return (struct store_rating){g.rating, g.deviation, g.volatility, games};
}

static void update(const struct store_game *row, const struct store_rating *white,
                   const struct store_rating *black, struct store_rating *white_after,
                   struct store_rating *black_after)
{
    double score = row->result == RESULT_WHITE_WINS   ? 1.0
                   : row->result == RESULT_BLACK_WINS ? 0.0
                                                      : 0.5;
    struct glicko2 w = from_store(white), b = from_store(black);
    struct glicko2_game gw = {b, score}, gb = {w, 1.0 - score};
    *white_after = to_store(glicko2_update(w, &gw, 1, GLICKO2_TAU), white->games + 1);
    *black_after = to_store(glicko2_update(b, &gb, 1, GLICKO2_TAU), black->games + 1);
}

static const struct store_rater rater = {row_class, update};

int people_rating_of(struct server *srv, const char *token_hash, const char *game,
                     const char *klass)
{
    struct store_rating r;
    char err[ERROR_TEXT_MAX];
    if (!klass || store_get_rating(srv->store, token_hash, game, klass, &r, err, sizeof err) != 0)
        r.games = 0;
    return (int)lround(from_store(&r).rating);
}

void people_rate(struct server *srv, const char *game_id, int *white_after, int *black_after)
{
    char err[ERROR_TEXT_MAX];
    if (store_rate_game(srv->store, game_id, &rater, server_now_ms(), white_after, black_after, err,
                        sizeof err) < 0)
        fprintf(stderr, "agora: rating game %s: %s\n", game_id, err);
}

/* The game a challenge starts, for its creator and the acceptor. */
int people_game_row(struct server *srv, const struct store_challenge *c, const char *acceptor_hash,
                    const char *acceptor_name, int64_t now, struct store_game *g)
{
    memset(g, 0, sizeof *g);
    uint64_t bits;
    if (token_random_hex(g->id, STORE_ID_LEN / 2) != 0 || token_random_u64(&bits) != 0)
        return -1;
    int creator = c->side == 2 ? (int)(bits & 1) : c->side;
    snprintf(g->game, sizeof g->game, "%s", c->game);
    g->human_side = creator;
    snprintf(g->token_hash, sizeof g->token_hash, "%s", c->creator_hash);
    snprintf(creator == SIDE_WHITE ? g->white_hash : g->black_hash, sizeof g->white_hash, "%s",
             c->creator_hash);
    snprintf(creator == SIDE_WHITE ? g->black_hash : g->white_hash, sizeof g->white_hash, "%s",
             acceptor_hash);
    snprintf(creator == SIDE_WHITE ? g->white_name : g->black_name, sizeof g->white_name, "%s",
             c->creator_name);
    snprintf(creator == SIDE_WHITE ? g->black_name : g->white_name, sizeof g->white_name, "%s",
             acceptor_name);
    g->people = 1;
    g->clock_initial_ms = c->clock_initial_ms;
    g->clock_increment_ms = c->clock_increment_ms;
    g->days = c->days;
    g->rated = c->rated;
    g->created_ms = g->updated_ms = now;
    /* The same two players' rated games count for their ratings at most rated_per_pair
     * times in 24 hours: later ones are played unrated, and say so (API.md "Ratings"). */
    int cap = srv->cfg.rated_per_pair, count = 0;
    char err[ERROR_TEXT_MAX];
    if (g->rated && cap > 0 &&
        store_count_rated_pair(srv->store, c->creator_hash, acceptor_hash, now - PAIR_WINDOW_MS,
                               &count, err, sizeof err) == 0 &&
        count >= cap) {
        g->rated = 0;
        g->rated_capped = 1;
    }
    snprintf(g->club_id, sizeof g->club_id, "%s", c->club_id);
    if (g->rated) {
        const char *klass = people_clock_class(c->clock_initial_ms, c->clock_increment_ms, c->days);
        g->white_rating = people_rating_of(srv, g->white_hash, g->game, klass);
        g->black_rating = people_rating_of(srv, g->black_hash, g->game, klass);
    }
    return 0;
}
