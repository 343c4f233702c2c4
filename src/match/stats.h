/* The statistics of `agora match`: score, Elo difference with a 95% error bar,
 * and a sequential probability ratio test (SPRT). */
#pragma once

struct match_score {
    int wins, draws, losses; /* of the first player */
};

/* The first player's Elo advantage and the half-width of its 95% interval, from the
 * trinomial (win/draw/loss) per-game variance and a normal approximation of the
 * mean score.  `elo` is +-INFINITY for a clean sweep, and the error NAN with fewer
 * than two games. */
void match_elo(const struct match_score *s, double *elo, double *error95);

/* The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), using the same
 * normal approximation (the form Fishtest used for trinomial results). */
double match_sprt_llr(const struct match_score *s, double elo0, double elo1);
/* The pentanomial form: games come in pairs from one start with colours swapped, so the
 * unit is the pair, scored 0, 1/4, 1/2, 3/4 or 1 (the first player's mean over its two
 * games); pairs[k] counts the pairs that scored k/4.  The same normal approximation over
 * pairs (Fishtest's pentanomial GSPRT): n (s1 - s0) (2m - s0 - s1) / (2 var) with m and var
 * the pairs' mean and variance.  It sees that a pair of wins from a won start and a pair
 * of losses from a lost one say little, which the trinomial form over games cannot.  0 with
 * no pairs or no spread. */
double match_sprt_llr_pairs(const int pairs[5], double elo0, double elo1);
/* The bounds for error rates alpha and beta: stop when llr leaves (lower, upper). */
void match_sprt_bounds(double alpha, double beta, double *lower, double *upper);
