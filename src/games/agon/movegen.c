/* Agon moves: steps and returns, the no-sandwich rule, captures, make/unmake, and a
 * bulk-counting perft that calls them directly. */
#include <assert.h>
#include <stdlib.h>

#include "agon.h"
#include "core/debug_check.h"
#include "state.h"

/* Would a piece put on the cell with neighbours `nb` stand between two enemy pieces
 * (captured or not) on one straight line?  `them` is the enemy's owner bits; the
 * sentinel's bits (3) never match, so edges need no test. */
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
    /* Six pieces of the mover on the six ring-1 cells, the queen not among them:
     * its six guards, captured or not. */
    const Cells ring1 = agon_board.ring1_mask;
    return (s->occupied[mover] & ring1) == ring1 && !(ring1 & AG_BIT(s->pos[mover][0]));
}

bool agon_formation(const struct agon_state *s)
{
    return formation(s, !s->side);
}

unsigned agon_step_captures(const struct agon_state *s, int from, int to)
{
    (void)from; /* `from` is adjacent to `to`, so never two cells away from it */
    if (!(agon_board.adjacent[to] & s->occupied[!s->side]))
        return 0; /* no enemy next to the cell: the common case */
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

/* Empty cells where a piece of the side to move may be put: not sandwiched. */
static inline Cells allowed_cells(const struct agon_state *s)
{
    Cells them = s->occupied[!s->side];
    Cells empty = agon_board.all & ~(them | s->occupied[s->side]);
    return empty & ~ag_sandwich_cells(them, agon_board.has_nb);
}

static inline int emit(Move *moves, int n, Move base, Cells targets)
{
    for (uint64_t lo = (uint64_t)targets; lo; lo &= lo - 1)
        moves[n++] = base | ((Move)__builtin_ctzll(lo) << 7);
    for (uint64_t hi = (uint64_t)(targets >> 64); hi; hi &= hi - 1)
        moves[n++] = base | ((Move)(64 + __builtin_ctzll(hi)) << 7);
    return n;
}

/* The steps from `from` to the set bits of `window`, a window starting at `base`. */
static inline int emit_window(Move *moves, int n, int from, int base, uint64_t window)
{
    Move start = ag_step(from, base);
    for (; window; window &= window - 1)
        moves[n++] = start + ((Move)__builtin_ctzll(window) << 7);
    return n;
}

/* Returns: the captured queen first, to any allowed cell (the throne included);
 * otherwise any captured guard, to an allowed cell of the outer ring. */
static int gen_returns(const struct agon_state *s, Cells allowed, Move *moves)
{
    unsigned caps = s->captured[s->side];
    const uint8_t *pos = s->pos[s->side];
    if (caps & 1)
        return emit(moves, 0, ag_return(pos[0], 0), allowed);
    allowed &= agon_board.outer_mask;
    int n = 0;
    for (unsigned bits = caps; bits; bits &= bits - 1)
        n = emit(moves, n, ag_return(pos[__builtin_ctz(bits)], 0), allowed);
    return n;
}

static inline int gen_moves(const struct agon_state *s, Move *moves)
{
    if (formation(s, !s->side))
        return 0; /* the last move ended the game */
    Cells allowed = allowed_cells(s);
    if (s->captured[s->side])
        return gen_returns(s, allowed, moves);
    /* The allowed cells seen through the three windows. */
    const uint64_t win[AGON_WINDOWS] = {(uint64_t)allowed, (uint64_t)(allowed >> 32),
                                        (uint64_t)(allowed >> 57)};
    const struct agon_board *b = &agon_board;
    const uint8_t *pos = s->pos[s->side];
    int w = b->step_window[pos[0]];
    int n = emit_window(moves, 0, pos[0], agon_window_base[w], b->queen_steps[pos[0]] & win[w]);
    for (int i = 1; i < AGON_PIECES; i++) {
        w = b->step_window[pos[i]];
        n = emit_window(moves, n, pos[i], agon_window_base[w], b->guard_steps[pos[i]] & win[w]);
    }
    return n;
}

/* The number of legal moves, without listing them (perft's last ply, status). */
static inline int count_moves(const struct agon_state *s)
{
    if (formation(s, !s->side))
        return 0;
    Cells allowed = allowed_cells(s);
    unsigned caps = s->captured[s->side];
    if (caps & 1)
        return ag_popcount(allowed);
    if (caps)
        return __builtin_popcount(caps) * ag_popcount(allowed & agon_board.outer_mask);
    const uint8_t *pos = s->pos[s->side];
    Cells guard_allowed = allowed & ~AG_BIT(AGON_THRONE);
    Cells reach = agon_board.step_mask[pos[0]] & allowed;
    int n = ag_popcount(reach);
    for (int i = 1; i < AGON_PIECES; i++)
        n += ag_popcount(agon_board.step_mask[pos[i]] & guard_allowed);
    return n;
}

int agon_gen_moves(const void *st, Move *moves)
{
    return gen_moves(st, moves);
}

/* Any legal move for the side to move, the formation rule aside (status checks it
 * first).  Steps are tried piece by piece and cell by cell with the mailbox sandwich
 * test, which usually succeeds at the first empty cell within reach. */
bool agon_has_move(const struct agon_state *s)
{
    Cells them = s->occupied[!s->side];
    Cells empty = agon_board.all & ~(them | s->occupied[s->side]);
    unsigned caps = s->captured[s->side];
    if (caps) {
        Cells reach = empty & ((caps & 1) ? agon_board.all : agon_board.outer_mask);
        return (reach & ~ag_sandwich_cells(them, agon_board.has_nb)) != 0;
    }
    const struct agon_board *b = &agon_board;
    const uint64_t win[AGON_WINDOWS] = {(uint64_t)empty, (uint64_t)(empty >> 32),
                                        (uint64_t)(empty >> 57)};
    const uint8_t *pos = s->pos[s->side];
    unsigned enemy = AG_CODE(!s->side);
    for (int i = 0; i < AGON_PIECES; i++) {
        int w = b->step_window[pos[i]];
        uint64_t t = (i ? b->guard_steps : b->queen_steps)[pos[i]] & win[w];
        for (; t; t &= t - 1)
            if (!sandwiched(s->board, b->nb[agon_window_base[w] + __builtin_ctzll(t)], enemy))
                return true;
    }
    return false;
}

static inline void seen_add(struct agon_state *s, int delta)
{
    s->seen[s->key & (AGON_SEEN_SIZE - 1)] =
        (uint16_t)(s->seen[s->key & (AGON_SEEN_SIZE - 1)] + delta);
}

static inline void make_move(struct agon_state *s, Move m)
{
    assert(s->ply < AGON_MAX_PLIES);
    struct agon_undo *u = &s->history[s->ply++];
    u->key = s->key;
    u->move = (uint16_t)m;
    u->captures = 0;
    int us = s->side, them = !us;
    int from = AG_MOVE_FROM(m), to = AG_MOVE_TO(m);
    uint8_t *b = s->board;
    unsigned piece = b[from];
    Key key = s->key ^ agon_zobrist_black ^ agon_zobrist[from][ag_kind(piece)];
    if (AG_IS_RETURN(m)) {
        piece &= ~AG_CAPTURED;
        s->captured[us] &= (uint8_t) ~(1u << AG_INDEX(piece));
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
    s->occupied[us] ^= AG_BIT(from) | AG_BIT(to);
    s->key = key ^ agon_zobrist[to][ag_kind(piece)];
    s->side = (enum side)them;
    seen_add(s, 1);
    DEBUG_CHECK_STATE(&agon_game, s, "make", m);
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
            s->captured[them] &= (uint8_t) ~(1u << AG_INDEX(b[x]));
        }
    }
    b[to] = 0;
    b[from] = (uint8_t)piece;
    s->pos[us][AG_INDEX(piece)] = (uint8_t)from;
    s->occupied[us] ^= AG_BIT(from) | AG_BIT(to);
    s->side = (enum side)us;
    s->key = u->key;
    DEBUG_CHECK_STATE(&agon_game, s, "unmake", m);
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
    if (depth == 1)
        return (uint64_t)count_moves(s);
    int n = gen_moves(s, buf);
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
