/* Egara-guti moves: steps, compulsory captures and the chains that must go on. */
#include <assert.h>

#include "state.h"

/* A capture chain grows by DFS over the jumps of its current point.  `empty` counts
 * the point the piece left and every jumped point as empty, as the rules say. */
struct chain_search {
    Move *out;
    int n;
};

static void extend_chain(struct chain_search *cs, int at, int jumps, uint32_t enemy,
                         uint32_t empty, Move partial)
{
    const struct egara_board *b = &egara_board;
    int extended = 0;
    for (int j = 0; j < b->jump_count[at]; j++) {
        int over = b->jumps[at][j].over, to = b->jumps[at][j].to;
        if (!((enemy >> over) & 1) || !((empty >> to) & 1))
            continue;
        extended = 1;
        Move next = partial | ((Move)to << EG_MOVE_TO_SLOT(jumps + 1));
        uint32_t next_empty = (empty | (1u << over) | (1u << at)) & ~(1u << to);
        extend_chain(cs, to, jumps + 1, enemy & ~(1u << over), next_empty, next);
    }
    if (!extended && jumps > 0 && cs->n < EGARA_MAX_MOVES)
        cs->out[cs->n++] = partial | ((Move)jumps << 60);
}

static int gen_captures(const struct egara_state *s, Move *moves)
{
    struct chain_search cs = {moves, 0};
    uint32_t own = s->pieces[s->side], enemy = s->pieces[!s->side];
    uint32_t empty = EGARA_ALL_POINTS & ~(own | enemy);
    for (uint32_t bits = own; bits; bits &= bits - 1) {
        int from = __builtin_ctz(bits);
        extend_chain(&cs, from, 0, enemy, empty | (1u << from), (Move)from);
    }
    return cs.n;
}

int egara_gen_moves(const void *st, Move *moves)
{
    const struct egara_state *s = st;
    int n = gen_captures(s, moves);
    if (n)
        return n;
    uint32_t own = s->pieces[s->side];
    uint32_t empty = EGARA_ALL_POINTS & ~(own | s->pieces[!s->side]);
    for (uint32_t bits = own; bits; bits &= bits - 1) {
        int from = __builtin_ctz(bits);
        for (uint32_t to = egara_board.adjacent[from] & empty; to; to &= to - 1)
            moves[n++] = eg_step(from, __builtin_ctz(to));
    }
    return n;
}

bool egara_has_move(const struct egara_state *s)
{
    const struct egara_board *b = &egara_board;
    uint32_t own = s->pieces[s->side], enemy = s->pieces[!s->side];
    uint32_t empty = EGARA_ALL_POINTS & ~(own | enemy);
    for (uint32_t bits = own; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        if (b->adjacent[p] & empty)
            return true;
        for (int j = 0; j < b->jump_count[p]; j++)
            if (((enemy >> b->jumps[p][j].over) & 1) && ((empty >> b->jumps[p][j].to) & 1))
                return true;
    }
    return false;
}

void egara_make_move(void *st, Move m)
{
    struct egara_state *s = st;
    assert(s->ply < EGARA_MAX_PLIES);
    s->history[s->ply++] = (struct egara_undo){s->key, (uint16_t)s->quiet};
    int us = s->side, them = !us;
    int from = EG_MOVE_FROM(m), jumps = EG_MOVE_JUMPS(m);
    int at = from;
    if (jumps == 0) {
        at = EG_MOVE_LANDING(m, 1);
        s->quiet++;
    } else {
        for (int k = 1; k <= jumps; k++) {
            int to = EG_MOVE_LANDING(m, k);
            int over = egara_board.middle[at][to];
            s->pieces[them] &= ~(1u << over);
            s->key ^= egara_zobrist_piece[them][over];
            at = to;
        }
        s->quiet = 0;
    }
    /* Two toggles, not one mask: a chain may end where it began. */
    s->pieces[us] ^= 1u << from;
    s->pieces[us] ^= 1u << at;
    s->key ^= egara_zobrist_piece[us][from] ^ egara_zobrist_piece[us][at] ^ egara_zobrist_black;
    s->side = (enum side)them;
}

void egara_unmake_move(void *st, Move m)
{
    struct egara_state *s = st;
    assert(s->ply > 0);
    int them = s->side, us = !them;
    int from = EG_MOVE_FROM(m), jumps = EG_MOVE_JUMPS(m);
    int at = jumps ? from : EG_MOVE_LANDING(m, 1);
    for (int k = 1; k <= jumps; k++) {
        int to = EG_MOVE_LANDING(m, k);
        s->pieces[them] |= 1u << egara_board.middle[at][to];
        at = to;
    }
    s->pieces[us] ^= 1u << at;
    s->pieces[us] ^= 1u << from;
    s->side = (enum side)us;
    s->ply--;
    s->key = s->history[s->ply].key;
    s->quiet = s->history[s->ply].quiet;
}
