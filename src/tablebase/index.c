/* The numbering of a signature's positions (index.h draws it). */
#include "index.h"

#define FULL ((1u << TB_POINTS) - 1)

static uint64_t binomial[TB_POINTS + 1][TB_POINTS + 1];

static void init_binomial(void)
{
    if (binomial[0][0])
        return;
    for (int n = 0; n <= TB_POINTS; n++) {
        binomial[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binomial[n][k] = binomial[n - 1][k - 1] + (k <= n - 1 ? binomial[n - 1][k] : 0);
    }
}

uint64_t tb_binomial(int n, int k)
{
    init_binomial();
    if (n < 0 || n > TB_POINTS || k < 0 || k > n)
        return 0;
    return binomial[n][k];
}

uint64_t tb_signature_size(int m, int o)
{
    return tb_binomial(TB_POINTS, m) * tb_binomial(TB_POINTS - m, o);
}

uint64_t tb_subset_rank(uint32_t set)
{
    init_binomial();
    uint64_t r = 0;
    int i = 1;
    for (; set; set &= set - 1, i++)
        r += binomial[__builtin_ctz(set)][i];
    return r;
}

uint32_t tb_subset_unrank(int k, uint64_t rank)
{
    init_binomial();
    uint32_t set = 0;
    int p = TB_POINTS - 1;
    for (int i = k; i >= 1; i--) {
        while (binomial[p][i] > rank)
            p--;
        rank -= binomial[p][i];
        set |= 1u << p;
        p--;
    }
    return set;
}

uint32_t tb_deposit(uint32_t mask, uint32_t free)
{
    uint32_t out = 0;
    for (int i = 0; free; free &= free - 1, i++)
        if (mask >> i & 1)
            out |= free & -free;
    return out;
}

uint32_t tb_squeeze(uint32_t set, uint32_t free)
{
    uint32_t out = 0;
    for (uint32_t bits = set; bits; bits &= bits - 1) {
        uint32_t bit = bits & -bits;
        out |= 1u << __builtin_popcount(free & (bit - 1));
    }
    return out;
}

TbIndex tb_index(uint32_t own, uint32_t other)
{
    int m = __builtin_popcount(own), o = __builtin_popcount(other);
    uint32_t free = FULL & ~own;
    return tb_subset_rank(own) * tb_binomial(TB_POINTS - m, o) +
           tb_subset_rank(tb_squeeze(other, free));
}

void tb_position(int m, int o, TbIndex index, uint32_t *own, uint32_t *other)
{
    uint64_t per = tb_binomial(TB_POINTS - m, o);
    *own = tb_subset_unrank(m, index / per);
    *other = tb_deposit(tb_subset_unrank(o, index % per), FULL & ~*own);
}
