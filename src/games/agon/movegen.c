/* Agon moves: steps and returns, the no-sandwich rule, captures, make/unmake, and a
 * bulk-counting perft that calls them directly. */
#include <assert.h>
#include <stdlib.h>

#include "state.h"

/* Would a piece of the side with owner bits `us` on `cell` stand between two enemy
 * pieces (captured or not) on one straight line?  `them` is the enemy's owner bits;
 * the sentinel's bits (3) never match, so edges need no test. */
static inline bool sandwiched(const uint8_t *board, const Cell *nb, unsigned them)
{
    return (AG_OWNER(board[nb[0]]) == them && AG_OWNER(board[nb[3]]) == them) ||
           (AG_OWNER(board[nb[1]]) == them && AG_OWNER(board[nb[4]]) == them) ||
           (AG_OWNER(board[nb[2]]) == them && AG_OWNER(board[nb[5]]) == them);
}

bool agon_sandwiched(const struct agon_state *s, int cell, enum side side)
{
    return sandwiched(s->board, agon_board.nb[cell], AG_CODE(!side));
}

static inline bool formation(const struct agon_state *s, enum side mover)
{
    const uint8_t *b = s->board;
    const Cell *r1 = agon_board.ring1;
    unsigned want = AG_CODE(mover);
    /* Owner bits match and the index is not 0: a guard, captured or not. */
    for (int i = 0; i < 6; i++) {
        unsigned v = b[r1[i]];
        if (AG_OWNER(v) != want || AG_INDEX(v) == 0)
            return false;
    }
    return true;
}

bool agon_formation(const struct agon_state *s)
{
    return formation(s, !s->side);
}

unsigned agon_step_captures(const struct agon_state *s, int from, int to)
{
    (void)from; /* `from` is adjacent to `to`, so never two cells away from it */
    const uint8_t *b = s->board;
    unsigned us = AG_CODE(s->side), them = AG_CODE(!s->side);
    unsigned caps = 0;
    for (int d = 0; d < AGON_DIRS; d++) {
        int x = agon_board.nb[to][d];
        if ((b[x] & (AG_OWNER_MASK | AG_CAPTURED)) == them &&
            AG_OWNER(b[agon_board.nb[x][d]]) == us)
            caps |= 1u << d;
    }
    return caps;
}

/* Empty cells a piece of the side to move may be returned to, not sandwiched:
 * the whole board for the queen, the outer ring for a guard. */
static int return_targets(const struct agon_state *s, bool queen, Cell *out)
{
    const uint8_t *b = s->board;
    unsigned them = AG_CODE(!s->side);
    int n = 0;
    if (queen) {
        for (int c = 0; c < AGON_CELLS; c++)
            if (!b[c] && !sandwiched(b, agon_board.nb[c], them))
                out[n++] = (Cell)c;
    } else {
        for (int i = 0; i < AGON_OUTER_CELLS; i++) {
            int c = agon_board.outer[i];
            if (!b[c] && !sandwiched(b, agon_board.nb[c], them))
                out[n++] = (Cell)c;
        }
    }
    return n;
}

static int gen_returns(const struct agon_state *s, Move *moves)
{
    unsigned caps = s->captured[s->side];
    const uint8_t *pos = s->pos[s->side];
    Cell to[AGON_CELLS];
    int n = 0;
    if (caps & 1) { /* the queen first */
        int k = return_targets(s, true, to);
        for (int i = 0; i < k; i++)
            moves[n++] = ag_return(pos[0], to[i]);
        return n;
    }
    int k = return_targets(s, false, to);
    for (unsigned bits = caps; bits; bits &= bits - 1) {
        int from = pos[__builtin_ctz(bits)];
        for (int i = 0; i < k; i++)
            moves[n++] = ag_return(from, to[i]);
    }
    return n;
}

static inline int gen_steps(const struct agon_state *s, Move *moves)
{
    const uint8_t *b = s->board;
    const uint8_t *pos = s->pos[s->side];
    unsigned them = AG_CODE(!s->side);
    int n = 0;
    for (int i = 0; i < AGON_PIECES; i++) {
        int from = pos[i];
        int count = agon_board.step_count[from];
        const Cell *steps = agon_board.steps[from];
        for (int k = 0; k < count; k++) {
            int to = steps[k];
            if (b[to] || (to == AGON_THRONE && i != 0))
                continue;
            if (sandwiched(b, agon_board.nb[to], them))
                continue;
            moves[n++] = ag_step(from, to);
        }
    }
    return n;
}

static inline int gen_moves(const struct agon_state *s, Move *moves)
{
    if (formation(s, !s->side))
        return 0; /* the last move ended the game */
    if (s->captured[s->side])
        return gen_returns(s, moves);
    return gen_steps(s, moves);
}

int agon_gen_moves(const void *st, Move *moves)
{
    return gen_moves(st, moves);
}

bool agon_has_move(const struct agon_state *s)
{
    const uint8_t *b = s->board;
    unsigned them = AG_CODE(!s->side);
    if (s->captured[s->side]) {
        Cell to[AGON_CELLS];
        return return_targets(s, (s->captured[s->side] & 1) != 0, to) > 0;
    }
    const uint8_t *pos = s->pos[s->side];
    for (int i = 0; i < AGON_PIECES; i++) {
        int from = pos[i];
        for (int k = 0; k < agon_board.step_count[from]; k++) {
            int to = agon_board.steps[from][k];
            if (!b[to] && (to != AGON_THRONE || i == 0) &&
                !sandwiched(b, agon_board.nb[to], them))
                return true;
        }
    }
    return false;
}

static inline void seen_add(struct agon_state *s, int delta)
{
    s->seen[s->key & (AGON_SEEN_SIZE - 1)] = (uint16_t)(s->seen[s->key & (AGON_SEEN_SIZE - 1)] + delta);
}

static inline void make_move(struct agon_state *s, Move m)
{
    assert(s->ply < AGON_MAX_PLIES);
    struct agon_undo *u = &s->history[s->ply++];
    u->key = s->key;
    u->captures = 0;
    int us = s->side, them = !us;
    int from = AG_MOVE_FROM(m), to = AG_MOVE_TO(m);
    uint8_t *b = s->board;
    unsigned piece = b[from];
    Key key = s->key ^ agon_zobrist_black ^ agon_zobrist[from][ag_kind(piece)];
    if (AG_IS_RETURN(m)) {
        piece &= ~AG_CAPTURED;
        s->captured[us] &= (uint8_t)~(1u << AG_INDEX(piece));
    } else {
        unsigned caps = agon_step_captures(s, from, to);
        u->captures = (uint8_t)caps;
        for (; caps; caps &= caps - 1) {
            int x = agon_board.nb[to][__builtin_ctz(caps)];
            unsigned v = b[x];
            key ^= agon_zobrist[x][ag_kind(v)] ^ agon_zobrist[x][ag_kind(v | AG_CAPTURED)];
            b[x] = (uint8_t)(v | AG_CAPTURED);
            s->captured[them] |= (uint8_t)(1u << AG_INDEX(v));
        }
    }
    b[from] = 0;
    b[to] = (uint8_t)piece;
    s->pos[us][AG_INDEX(piece)] = (uint8_t)to;
    s->key = key ^ agon_zobrist[to][ag_kind(piece)];
    s->side = (enum side)them;
    seen_add(s, 1);
}

static inline void unmake_move(struct agon_state *s, Move m)
{
    assert(s->ply > 0);
    seen_add(s, -1);
    const struct agon_undo *u = &s->history[--s->ply];
    int them = s->side, us = !them;
    int from = AG_MOVE_FROM(m), to = AG_MOVE_TO(m);
    uint8_t *b = s->board;
    unsigned piece = b[to];
    if (AG_IS_RETURN(m)) {
        piece |= AG_CAPTURED;
        s->captured[us] |= (uint8_t)(1u << AG_INDEX(piece));
    } else {
        for (unsigned caps = u->captures; caps; caps &= caps - 1) {
            int x = agon_board.nb[to][__builtin_ctz(caps)];
            b[x] &= (uint8_t)~AG_CAPTURED;
            s->captured[them] &= (uint8_t)~(1u << AG_INDEX(b[x]));
        }
    }
    b[to] = 0;
    b[from] = (uint8_t)piece;
    s->pos[us][AG_INDEX(piece)] = (uint8_t)from;
    s->side = (enum side)us;
    s->key = u->key;
}

void agon_make_move(void *st, Move m)
{
    make_move(st, m);
}

void agon_unmake_move(void *st, Move m)
{
    unmake_move(st, m);
}

static uint64_t perft_rec(struct agon_state *s, int depth, Move *buf)
{
    int n = gen_moves(s, buf);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        make_move(s, buf[i]);
        total += perft_rec(s, depth - 1, buf + n);
        unmake_move(s, buf[i]);
    }
    return total;
}

uint64_t agon_perft(void *st, int depth)
{
    if (depth <= 0)
        return 1;
    Move *buf = malloc(sizeof(Move) * AGON_MAX_MOVES * (size_t)depth);
    if (!buf)
        abort();
    uint64_t n = perft_rec(st, depth, buf);
    free(buf);
    return n;
}
