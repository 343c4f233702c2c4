/* Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
 * deviation (how uncertain it is) and its volatility (how erratic the player is), updated
 * once per rating period from the games played in it.  Numbers are on the Glicko scale
 * (a new player: 1500, 350, 0.06); the system's internal scale stays inside glicko2.c.
 * Used for players and puzzles alike; it knows no game. */
#ifndef AGORA_RATING_GLICKO2_H
#define AGORA_RATING_GLICKO2_H

#include <stddef.h>

struct glicko2 {
    double rating, deviation, volatility;
};

/* One game of the period: the opponent's rating before the period and the score
 * (1 a win, 0.5 a draw, 0 a loss). */
struct glicko2_game {
    struct glicko2 opponent;
    double score;
};

/* The system constant tau: how fast the volatility may change (Glickman suggests 0.3 to
 * 1.2; 0.5 is his example's). */
#define GLICKO2_TAU 0.5
/* The deviation of a new player, and the most a deviation may grow to while idle. */
#define GLICKO2_DEVIATION_MAX 350.0

/* A new player: 1500, 350, 0.06. */
struct glicko2 glicko2_initial(void);

/* The rating after one rating period with games[0..n-1]; with n == 0 only the deviation
 * grows (by the volatility), never beyond GLICKO2_DEVIATION_MAX.  A score outside 0..1
 * is clamped into it. */
struct glicko2 glicko2_update(struct glicko2 player, const struct glicko2_game *games, size_t n,
                              double tau);

/* The expected score of `a` against `b` (0..1), taking both deviations into account only
 * through b's, as in the update. */
double glicko2_expected(struct glicko2 a, struct glicko2 b);

#endif
