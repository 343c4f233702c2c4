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
/* The bounds for error rates alpha and beta: stop when llr leaves (lower, upper). */
void match_sprt_bounds(double alpha, double beta, double *lower, double *upper);
