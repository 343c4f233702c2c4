/* Ratings of games between people (people_rating.h). */
#include "server/games/people_rating.h"

#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/game.h"
#include "rating/glicko2.h"
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

static const char *row_class(const struct store_game *row)
{
    if (row->reason == REASON_ABORTED || row->result == RESULT_ONGOING)
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
