/* Agon state: start, keys, the end of the game, evaluation, self-check. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "state.h"

Key agon_zobrist[AGON_SLOTS][8];
Key agon_zobrist_black;

void agon_init(void)
{
    agon_board_init();
    agon_layout_init();
    struct rng r;
    rng_seed(&r, 0x41474f4e2d313834ULL); /* "AGON-184" */
    for (int i = 0; i < AGON_CELLS; i++)
        for (int k = 0; k < 8; k++)
            agon_zobrist[agon_board.cells[i]][k] = rng_next(&r);
    agon_zobrist_black = rng_next(&r);
}

Key agon_compute_key(const struct agon_state *s)
{
    Key k = s->side == SIDE_BLACK ? agon_zobrist_black : 0;
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = agon_board.cells[i];
        if (s->board[c])
            k ^= agon_zobrist[c][ag_kind(s->board[c])];
    }
    return k;
}

void agon_reset_seen(struct agon_state *s)
{
    memset(s->seen, 0, sizeof s->seen);
    s->seen[s->key & (AGON_SEEN_SIZE - 1)] = 1;
}

/* The setup of the rule book: queens on opposite corners, guards at 4 cells from
 * their own queen and at 2 and 6 from the enemy queen along the outer ring. */
static const char *const start_cells[2][AGON_PIECES] = {
    {"f1", "k1", "b1", "h9", "d9", "l5", "a5"},
    {"f11", "k7", "b7", "h1", "d1", "l2", "a2"},
};

void agon_start(void *st)
{
    struct agon_state *s = st;
    memset(s, 0, offsetof(struct agon_state, history));
    s->board[AGON_OFF] = AG_OFFBOARD;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < AGON_PIECES; i++) {
            int c = agon_cell_by_name(start_cells[side][i]);
            s->board[c] = AG_PIECE(side, i);
            s->pos[side][i] = (uint8_t)c;
            s->occupied[side] |= AG_BIT(c);
        }
    s->side = SIDE_WHITE;
    s->key = agon_compute_key(s);
    agon_reset_seen(s);
}

enum side agon_side_to_move(const void *st)
{
    return ((const struct agon_state *)st)->side;
}

int agon_ply(const void *st)
{
    return ((const struct agon_state *)st)->ply;
}

Move agon_history_move(const void *st, int i)
{
    return ((const struct agon_state *)st)->history[i].move;
}

Key agon_key(const void *st)
{
    return ((const struct agon_state *)st)->key;
}

/* Times the current position has occurred in the game, itself included. */
static int occurrences(const struct agon_state *s)
{
    if (s->seen[s->key & (AGON_SEEN_SIZE - 1)] < 3)
        return 1; /* fewer than three keys share its bucket: not threefold */
    int count = 1;
    for (int i = s->ply - 2; i >= 0; i -= 2) /* same side to move: every other ply */
        if (s->history[i].key == s->key)
            count++;
    return count;
}

void agon_status(const void *st, struct game_status *out)
{
    const struct agon_state *s = st;
    enum side mover = !s->side;
    enum result mover_wins = mover == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    enum result mover_loses = mover == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    if (agon_formation(s)) {
        bool throned = AG_OWNER(s->board[AGON_THRONE]) == AG_CODE(mover) &&
                       AG_INDEX(s->board[AGON_THRONE]) == 0;
        *out = throned ? (struct game_status){mover_wins, AGON_REASON_FORMATION, 0}
                       : (struct game_status){mover_loses, AGON_REASON_FORMATION_LOSS, 0};
    } else if (occurrences(s) >= 3) {
        *out = (struct game_status){RESULT_DRAW, REASON_REPETITION, 0};
    } else if (!agon_has_move(s)) {
        *out = (struct game_status){mover_wins, REASON_BLOCKED, 0};
    } else if (s->ply >= AGON_MAX_PLIES) {
        *out = (struct game_status){RESULT_DRAW, REASON_ADJUDICATION, 0};
    } else {
        *out = (struct game_status){RESULT_ONGOING, REASON_NONE, 0};
    }
}

/* A blockade coming: a side with no legal move loses, and pieces only ever move sideways
 * or inward, so the steps a side has left (the sandwich rule included; a captured piece
 * has none until it returns) shrink as the board fills and do not come back.  Below
 * AGON_BLOCK_STEPS steps a side pays BLOCK_WEIGHT times the square of the shortfall,
 * and every piece outside its goal (a guard off ring 1, the queen off the throne) that
 * cannot step at all pays BLOCK_STUCK. */
#define AGON_BLOCK_STEPS 7
#define BLOCK_WEIGHT 4
#define BLOCK_STUCK 8

static Score blockade(const struct agon_state *s, int side)
{
    const struct agon_board *b = &agon_board;
    Cells them = s->occupied[!side];
    Cells open = b->all & ~(them | s->occupied[side]) & ~ag_sandwich_cells(them, b->has_nb);
    int steps = 0, stuck = 0;
    for (int i = 0; i < AGON_PIECES; i++) {
        if ((s->captured[side] >> i) & 1)
            continue;
        int c = s->pos[side][i];
        Cells t = b->step_mask[c] & open & (i ? ~AG_BIT(AGON_THRONE) : ~(Cells)0);
        int n = ag_popcount(t);
        steps += n;
        int home = i ? b->ring[c] == 1 : c == AGON_THRONE;
        stuck += n == 0 && !home;
    }
    int short_by = steps < AGON_BLOCK_STEPS ? AGON_BLOCK_STEPS - steps : 0;
    return (Score)(BLOCK_WEIGHT * short_by * short_by + BLOCK_STUCK * stuck);
}

/* Progress towards the formation: pieces further in, the queen nearest the throne,
 * guards on ring 1; a captured piece costs a turn and its place; a blockade coming
 * costs (blockade). */
static Score side_score(const struct agon_state *s, int side)
{
    Score score = -blockade(s, side);
    for (int i = 0; i < AGON_PIECES; i++) {
        int c = s->pos[side][i];
        int in = 5 - agon_board.ring[c];
        if (i == 0)
            score += (Score)(in * 16 + (c == AGON_THRONE ? 40 : 0));
        else
            score += (Score)(in * 10 + (agon_board.ring[c] == 1 ? 20 : 0));
        if ((s->captured[side] >> i) & 1)
            score -= i == 0 ? 120 : 60;
    }
    return score;
}

Score agon_evaluate(const void *st)
{
    const struct agon_state *s = st;
    return side_score(s, s->side) - side_score(s, !s->side);
}

int agon_is_noisy(const void *st, Move m)
{
    const struct agon_state *s = st;
    return !AG_IS_RETURN(m) && agon_step_captures(s, AG_MOVE_FROM(m), AG_MOVE_TO(m)) != 0;
}

int agon_check(const void *st, char *err, size_t err_size)
{
    const struct agon_state *s = st;
    if (s->side != SIDE_WHITE && s->side != SIDE_BLACK)
        return fail(err, err_size, "bad side to move %d", (int)s->side);
    if (s->board[AGON_OFF] != AG_OFFBOARD)
        return fail(err, err_size, "the off-board sentinel was overwritten");
    int pieces = 0;
    Cells occupied[2] = {0, 0};
    for (int c = 0; c < AGON_SLOTS; c++) {
        unsigned v = s->board[c];
        if (!v)
            continue;
        if (!(agon_board.all & AG_BIT(c)))
            return fail(err, err_size, "a piece stands on off-board slot %d", c);
        if (AG_OWNER(v) == AG_OFFBOARD || (v & ~(AG_CAPTURED | 0x1fu)) ||
            AG_INDEX(v) >= AGON_PIECES)
            return fail(err, err_size, "bad board byte 0x%02x on %s", v, agon_board.name[c]);
        int side = (int)AG_OWNER(v) - 1, i = (int)AG_INDEX(v);
        if (s->pos[side][i] != c)
            return fail(err, err_size, "piece list and board disagree on %s", agon_board.name[c]);
        if (((v & AG_CAPTURED) != 0) != (((s->captured[side] >> i) & 1) != 0))
            return fail(err, err_size, "captured mark and list disagree on %s", agon_board.name[c]);
        if (c == AGON_THRONE && i != 0)
            return fail(err, err_size, "a guard stands on the throne");
        occupied[side] |= AG_BIT(c);
        pieces++;
    }
    if (occupied[0] != s->occupied[0] || occupied[1] != s->occupied[1])
        return fail(err, err_size, "occupancy sets and board disagree");
    if (pieces != 2 * AGON_PIECES)
        return fail(err, err_size, "%d pieces on the board, expected 14", pieces);
    if (s->captured[SIDE_WHITE] && s->captured[SIDE_BLACK])
        return fail(err, err_size, "both sides have captured pieces");
    if (s->ply < 0 || s->ply > AGON_MAX_PLIES)
        return fail(err, err_size, "history depth %d out of range", s->ply);
    if (s->key != agon_compute_key(s))
        return fail(err, err_size, "incremental key differs from the recomputed key");
    /* The bucket of the current key counts it and every history key that falls in it. */
    unsigned bucket = (unsigned)(s->key & (AGON_SEEN_SIZE - 1)), expect = 1;
    for (int i = 0; i < s->ply; i++)
        expect += (s->history[i].key & (AGON_SEEN_SIZE - 1)) == bucket;
    if (s->seen[bucket] != expect)
        return fail(err, err_size, "repetition count %u, expected %u", s->seen[bucket], expect);
    return 0;
}
