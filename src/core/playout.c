#include "playout.h"

int playout(const struct game *g, void *st, struct rng *r, int max_plies, Move *line, Move *buf)
{
    int plies = 0;
    while (plies < max_plies) {
        int n = game_legal_moves(g, st, buf);
        if (n == 0)
            break;
        Move m = buf[rng_below(r, (uint32_t)n)];
        g->make_move(st, m);
        line[plies++] = m;
    }
    return plies;
}

void playout_undo(const struct game *g, void *st, const Move *line, int n)
{
    while (n > 0) {
        n--;
        g->unmake_move(st, line[n]);
    }
}
