#include "ab_refine.h"

#include <math.h>

void ab_lmr_init(struct ab_lmr *t)
{
    for (int d = 0; d < AB_LMR_SIZE; d++)
        for (int i = 0; i < AB_LMR_SIZE; i++) {
            double r = d < 1 || i < 1 ? 0 : 0.25 + log((double)d) * log((double)i) / 2.0;
            t->r[d][i] = (uint8_t)(r < 0 ? 0 : r > 20 ? 20 : r);
        }
}

int ab_lmr_reduction(const struct ab_lmr *t, int depth, int i, int pv, int good_history)
{
    int r =
        t->r[depth < AB_LMR_SIZE ? depth : AB_LMR_SIZE - 1][i < AB_LMR_SIZE ? i : AB_LMR_SIZE - 1];
    if (!pv && r > 0)
        r++;
    if (good_history && r > 0)
        r--;
    if (r > depth - 2)
        r = depth - 2;
    return r < 0 ? 0 : r;
}
