#include "perft.h"

#include <stdlib.h>

static uint64_t perft_rec(const struct game *g, void *st, int depth, Move *buf)
{
    int n = g->gen_moves(st, buf);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    Move *next = buf + n;
    for (int i = 0; i < n; i++) {
        g->make_move(st, buf[i]);
        total += perft_rec(g, st, depth - 1, next);
        g->unmake_move(st, buf[i]);
    }
    return total;
}

uint64_t perft_generic(const struct game *g, void *st, int depth)
{
    if (depth <= 0)
        return 1;
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves * (size_t)depth);
    if (!buf)
        abort();
    uint64_t n = perft_rec(g, st, depth, buf);
    free(buf);
    return n;
}

uint64_t perft(const struct game *g, void *st, int depth)
{
    if (g->perft)
        return g->perft(st, depth);
    return perft_generic(g, st, depth);
}
