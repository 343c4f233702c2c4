#include "stats.h"

#include <math.h>

static double elo_of(double score)
{
    return -400.0 * log10(1.0 / score - 1.0);
}

static double score_of(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Mean score and per-game variance of the first player; 0 with no games. */
static int moments(const struct match_score *s, double *mean, double *var)
{
    double n = s->wins + s->draws + s->losses;
    if (n <= 0)
        return 0;
    double m = (s->wins + 0.5 * s->draws) / n;
    *mean = m;
    *var = (s->wins * (1 - m) * (1 - m) + s->draws * (0.5 - m) * (0.5 - m) + s->losses * m * m) / n;
    return 1;
}

void match_elo(const struct match_score *s, double *elo, double *error95)
{
    double m, var;
    int n = s->wins + s->draws + s->losses;
    *elo = 0;
    *error95 = NAN;
    if (!moments(s, &m, &var))
        return;
    if (m <= 0 || m >= 1) {
        *elo = m <= 0 ? -INFINITY : INFINITY;
        return;
    }
    *elo = elo_of(m);
    if (n < 2)
        return;
    double half = 1.959964 * sqrt(var / n);
    double lo = m - half, hi = m + half;
    if (lo <= 0 || hi >= 1) {
        *error95 = INFINITY;
        return;
    }
    *error95 = (elo_of(hi) - elo_of(lo)) / 2;
}

double match_sprt_llr(const struct match_score *s, double elo0, double elo1)
{
    double m, var;
    if (!moments(s, &m, &var) || var <= 0)
        return 0;
    int n = s->wins + s->draws + s->losses;
    double s0 = score_of(elo0), s1 = score_of(elo1);
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
}

double match_sprt_llr_pairs(const int pairs[5], double elo0, double elo1)
{
    double n = 0, sum = 0;
    for (int k = 0; k < 5; k++) {
        n += pairs[k];
        sum += pairs[k] * (k / 4.0);
    }
    if (n <= 0)
        return 0;
    double m = sum / n, var = 0;
    for (int k = 0; k < 5; k++)
        var += pairs[k] * (k / 4.0 - m) * (k / 4.0 - m);
    var /= n;
    if (var <= 0)
        return 0;
    double s0 = score_of(elo0), s1 = score_of(elo1);
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var);
}

void match_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
