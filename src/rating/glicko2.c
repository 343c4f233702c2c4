/* Glicko-2: the steps of Glickman's description, in its own names (mu, phi, sigma, v,
 * delta) so the code reads beside the paper. */
#include "rating/glicko2.h"

#include <math.h>

#define SCALE 173.7178 /* Glicko rating points per unit of the internal scale */
#define CENTRE 1500.0
#define CONVERGENCE 0.000001 /* the paper's epsilon for the volatility iteration */
#define ITERATIONS_MAX 100

struct glicko2 glicko2_initial(void)
{
    return (struct glicko2){CENTRE, GLICKO2_DEVIATION_MAX, 0.06};
}

/* g(phi): how much an opponent's uncertainty dampens what the game says. */
static double g(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g(phi_j) * (mu - mu_j)));
}

double glicko2_expected(struct glicko2 a, struct glicko2 b)
{
    return expected((a.rating - CENTRE) / SCALE, (b.rating - CENTRE) / SCALE, b.deviation / SCALE);
}

/* The paper's f(x), whose root gives the new volatility. */
static double volatility_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois variant of regula falsi. */
static double new_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma), big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (volatility_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < ITERATIONS_MAX)
            k++;
        big_b = a - k * tau;
    }
    double f_a = volatility_f(big_a, delta, phi, v, a, tau);
    double f_b = volatility_f(big_b, delta, phi, v, a, tau);
    for (int i = 0; fabs(big_b - big_a) > CONVERGENCE && i < ITERATIONS_MAX; i++) {
        double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        double f_c = volatility_f(big_c, delta, phi, v, a, tau);
        if (f_c * f_b <= 0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return exp(big_a / 2.0);
}

struct glicko2 glicko2_update(struct glicko2 player, const struct glicko2_game *games, size_t n,
                              double tau)
{
    double mu = (player.rating - CENTRE) / SCALE, phi = player.deviation / SCALE;
    double sigma = player.volatility;
    if (n == 0) {
        double grown = sqrt(phi * phi + sigma * sigma) * SCALE;
        player.deviation = grown < GLICKO2_DEVIATION_MAX ? grown : GLICKO2_DEVIATION_MAX;
        return player;
    }
    /* Steps 3 and 4: the estimated variance v and the improvement delta. */
    double v_inv = 0, sum = 0;
    for (size_t j = 0; j < n; j++) {
        double mu_j = (games[j].opponent.rating - CENTRE) / SCALE;
        double phi_j = games[j].opponent.deviation / SCALE;
        double score = games[j].score < 0 ? 0 : games[j].score > 1 ? 1 : games[j].score;
        double e = expected(mu, mu_j, phi_j), gj = g(phi_j);
        v_inv += gj * gj * e * (1.0 - e);
        sum += gj * (score - e);
    }
    double v = 1.0 / v_inv, delta = v * sum;
    /* Steps 5 to 7: volatility, the pre-period deviation, the new deviation and rating. */
    double sigma_new = new_volatility(sigma, delta, phi, v, tau);
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    return (struct glicko2){mu_new * SCALE + CENTRE, phi_new * SCALE, sigma_new};
}
