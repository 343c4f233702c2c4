/* Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system":
 * a player of 1500, deviation 200, volatility 0.06 (tau 0.5) beats 1400/30 and loses to
 * 1550/100 and 1700/300; the paper's answer is 1464.06, 151.52, 0.05999. */
#include "harness.h"
#include "rating/glicko2.h"

#include <math.h>

#define NEAR(a, b, eps) CHECK_MSG(fabs((a) - (b)) <= (eps), "%.6f, expected %.6f", (a), (b))

TEST(glicko2_worked_example)
{
    struct glicko2 player = {1500, 200, 0.06};
    struct glicko2_game games[] = {
        {{1400, 30, 0.06}, 1},
        {{1550, 100, 0.06}, 0},
        {{1700, 300, 0.06}, 0},
    };
    struct glicko2 r = glicko2_update(player, games, 3, 0.5);
    NEAR(r.rating, 1464.06, 0.01);
    NEAR(r.deviation, 151.52, 0.01);
    NEAR(r.volatility, 0.05999, 0.00001);
    /* The paper's intermediate quantities, through the expected scores: E = 0.639,
     * 0.432, 0.303 for the three opponents. */
    NEAR(glicko2_expected(player, games[0].opponent), 0.639, 0.001);
    NEAR(glicko2_expected(player, games[1].opponent), 0.432, 0.001);
    NEAR(glicko2_expected(player, games[2].opponent), 0.303, 0.001);
}

TEST(glicko2_idle_and_limits)
{
    struct glicko2 fresh = glicko2_initial();
    CHECK(fresh.rating == 1500 && fresh.deviation == 350 && fresh.volatility == 0.06);
    /* A period without games widens only the deviation: sqrt(200^2 + (0.06*173.7178)^2). */
    struct glicko2 idle = glicko2_update((struct glicko2){1500, 200, 0.06}, NULL, 0, 0.5);
    NEAR(idle.rating, 1500.0, 1e-9);
    NEAR(idle.deviation, 200.2714, 0.001);
    NEAR(glicko2_update(fresh, NULL, 0, 0.5).deviation, 350.0, 1e-9);
    /* A win raises, a loss lowers, a draw between equals changes nothing; the deviation
     * shrinks after any game. */
    struct glicko2_game g = {fresh, 1};
    struct glicko2 won = glicko2_update(fresh, &g, 1, GLICKO2_TAU);
    g.score = 0;
    struct glicko2 lost = glicko2_update(fresh, &g, 1, GLICKO2_TAU);
    g.score = 0.5;
    struct glicko2 drawn = glicko2_update(fresh, &g, 1, GLICKO2_TAU);
    CHECK(won.rating > 1500 && lost.rating < 1500);
    NEAR(won.rating - 1500, 1500 - lost.rating, 1e-6);
    NEAR(drawn.rating, 1500.0, 1e-6);
    CHECK(won.deviation < 350 && lost.deviation < 350);
    /* A score out of range counts as the nearest bound. */
    g.score = 7;
    NEAR(glicko2_update(fresh, &g, 1, GLICKO2_TAU).rating, won.rating, 1e-9);
}
