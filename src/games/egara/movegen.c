/* Egara-guti moves: steps, compulsory captures and the chains that must go on. */
#include <assert.h>

#include "core/debug_check.h"
#include "egara.h"
#include "state.h"

/* A capture chain grows by DFS over the jumps of its current point.  `empty` counts
 * the point the piece left and every jumped point as empty, as the rules say. */
struct chain_search {
    Move *out;
    int n;
};

static void extend_chain(struct chain_search *cs, int at, int jumps, uint32_t enemy, uint32_t empty,
                         Move partial)
{
    const struct egara_jump *jp = egara_board.jumps[at];
    int extended = 0;
    for (int j = 0; j < egara_board.jump_count[at]; j++) {
        if (!(enemy & jp[j].over_bit) || !(empty & jp[j].to_bit))
            continue;
        extended = 1;
        Move next = partial | ((Move)jp[j].to << EG_MOVE_TO_SLOT(jumps + 1));
        uint32_t next_empty = (empty | jp[j].over_bit | (1u << at)) & ~jp[j].to_bit;
        extend_chain(cs, jp[j].to, jumps + 1, enemy & ~jp[j].over_bit, next_empty, next);
    }
    if (!extended && jumps > 0 && cs->n < EGARA_MAX_MOVES)
        cs->out[cs->n++] = partial | ((Move)jumps << 60);
}

static inline uint32_t triples_at(int k, uint32_t points)
{
    const uint32_t(*t)[256] = egara_board.to_triples[k];
    return t[0][points & 255] | t[1][(points >> 8) & 255] | t[2][points >> 16];
}

static inline uint32_t ends_of(int k, uint32_t triples)
{
    const uint32_t(*t)[256] = egara_board.from_triples[k];
    return t[0][triples & 255] | t[1][(triples >> 8) & 255] | t[2][(triples >> 16) & 255] |
           t[3][triples >> 24];
}

/* The pieces of `own` that can jump now, without a loop over pieces: a jump is a
 * triple (a, b, c) with an own piece on one end, an enemy in the middle and the
 * other end empty. */
static uint32_t capturers(uint32_t own, uint32_t enemy, uint32_t empty)
{
    uint32_t middle = triples_at(1, enemy);
    uint32_t forward = middle & triples_at(0, own) & triples_at(2, empty);
    uint32_t backward = middle & triples_at(2, own) & triples_at(0, empty);
    return ends_of(0, forward) | ends_of(1, backward);
}

static int gen_captures(const struct egara_state *s, Move *moves)
{
    struct chain_search cs = {moves, 0};
    uint32_t own = s->pieces[s->side], enemy = s->pieces[!s->side];
    uint32_t empty = EGARA_ALL_POINTS & ~(own | enemy);
    for (uint32_t bits = capturers(own, enemy, empty); bits; bits &= bits - 1) {
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
    uint32_t own = s->pieces[s->side], enemy = s->pieces[!s->side];
    uint32_t empty = EGARA_ALL_POINTS & ~(own | enemy);
    for (uint32_t bits = own; bits; bits &= bits - 1)
        if (egara_board.adjacent[__builtin_ctz(bits)] & empty)
            return true;
    return capturers(own, enemy, empty) != 0;
}

void egara_make_move(void *st, Move m)
{
    struct egara_state *s = st;
    assert(s->ply < EGARA_MAX_PLIES);
    s->history[s->ply++] = (struct egara_undo){s->key, m, (uint16_t)s->quiet};
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
    DEBUG_CHECK_STATE(&egara_game, s, "make", m);
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
    DEBUG_CHECK_STATE(&egara_game, s, "unmake", m);
}
