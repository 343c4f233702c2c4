/* Egara-guti state: start, keys, the end of the game, evaluation, self-check. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "state.h"

Key egara_zobrist_piece[2][EGARA_POINTS];
Key egara_zobrist_black;
Key egara_zobrist_quiet[EGARA_QUIET_LIMIT + 1];

void egara_init(void)
{
    egara_board_init();
    egara_layout_init();
    struct rng r;
    rng_seed(&r, 0x45474152412d4755ULL); /* "EGARA-GU" */
    for (int side = 0; side < 2; side++)
        for (int p = 0; p < EGARA_POINTS; p++)
            egara_zobrist_piece[side][p] = rng_next(&r);
    egara_zobrist_black = rng_next(&r);
    for (int q = 0; q <= EGARA_QUIET_LIMIT; q++)
        egara_zobrist_quiet[q] = rng_next(&r);
}

Key egara_compute_key(const struct egara_state *s)
{
    Key k = s->side == SIDE_BLACK ? egara_zobrist_black : 0;
    for (int side = 0; side < 2; side++)
        for (uint32_t bits = s->pieces[side]; bits; bits &= bits - 1)
            k ^= egara_zobrist_piece[side][__builtin_ctz(bits)];
    return k;
}

void egara_start(void *st)
{
    struct egara_state *s = st;
    memset(s, 0, offsetof(struct egara_state, history));
    s->pieces[SIDE_WHITE] = (1u << 11) - 1;                       /* ranks 1-3 */
    s->pieces[SIDE_BLACK] = EGARA_ALL_POINTS & ~((1u << 12) - 1); /* ranks 5-7 */
    s->side = SIDE_WHITE;
    s->key = egara_compute_key(s);
}

enum side egara_side_to_move(const void *st)
{
    return ((const struct egara_state *)st)->side;
}

int egara_ply(const void *st)
{
    return ((const struct egara_state *)st)->ply;
}

Move egara_history_move(const void *st, int i)
{
    return ((const struct egara_state *)st)->history[i].move;
}

/* The search's key: the position's (which repetition compares) and the quiet count,
 * since the same points 30 quiet plies later are 30 plies nearer the count's verdict. */
Key egara_key(const void *st)
{
    const struct egara_state *s = st;
    int quiet = s->quiet < EGARA_QUIET_LIMIT ? s->quiet : EGARA_QUIET_LIMIT;
    return s->key ^ egara_zobrist_quiet[quiet];
}

/* Times the current position has occurred since the last capture, itself included. */
static int occurrences(const struct egara_state *s)
{
    int count = 1;
    int oldest = s->ply - s->quiet;
    for (int i = s->ply - 2; i >= 0 && i >= oldest; i -= 2)
        if (s->history[i].key == s->key)
            count++;
    return count;
}

/* When neither side can capture any more, the side with more pieces wins. */
static enum result by_piece_count(const struct egara_state *s)
{
    int white = __builtin_popcount(s->pieces[SIDE_WHITE]);
    int black = __builtin_popcount(s->pieces[SIDE_BLACK]);
    return white > black ? RESULT_WHITE_WINS : black > white ? RESULT_BLACK_WINS : RESULT_DRAW;
}

/* The 40-ply and repetition ends are reached "at that moment", right after the ply
 * that completes them, so they come before the next player's blocked test. */
void egara_status(const void *st, struct game_status *out)
{
    const struct egara_state *s = st;
    enum result other_wins = s->side == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    enum result mover_wins = s->side == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    if (!s->pieces[s->side])
        *out = (struct game_status){other_wins, EGARA_REASON_ELIMINATION, 0};
    else if (!s->pieces[!s->side])
        *out = (struct game_status){mover_wins, EGARA_REASON_ELIMINATION, 0};
    else if (s->quiet >= EGARA_QUIET_LIMIT)
        *out = (struct game_status){by_piece_count(s), EGARA_REASON_QUIET_LIMIT, 0};
    else if (occurrences(s) >= 3)
        *out = (struct game_status){by_piece_count(s), REASON_REPETITION, 0};
    else if (!egara_has_move(s))
        *out = (struct game_status){other_wins, REASON_BLOCKED, 0};
    else
        *out = (struct game_status){RESULT_ONGOING, REASON_NONE, 0};
}

/* Evaluation terms, in hundredths of a piece.  Captures are compulsory, so the
 * search's quiescence settles every exchange; the static terms judge quiet
 * positions only. */
#define EVAL_PIECE 100
#define EVAL_EXPOSED 12 /* a piece the opponent could jump if it were to move */
#define EVAL_STEP 3     /* each step a side could make: room to wait, not be blocked */
#define EVAL_CRAMPED 25 /* two steps or fewer: close to losing by being blocked */
#define EVAL_CENTRE 5   /* a piece on c3 d3 e3 d4 c5 d5 e5, where the lines cross */
#define EVAL_TRADE 4    /* per piece ahead and per piece already off the board: */
                        /* ahead, trade down (the counts decide a quiet game) */
/* Bits of c3 d3 e3 d4 c5 d5 e5 (points 8..14). */
#define EGARA_CENTRE_POINTS (0x7fu << 8)

Score egara_evaluate(const void *st)
{
    const struct egara_state *s = st;
    int us = s->side, them = !us;
    uint32_t empty = EGARA_ALL_POINTS & ~(s->pieces[0] | s->pieces[1]);
    int count[2], exposed[2] = {0, 0}, steps[2] = {0, 0}, centre[2];
    for (int side = 0; side < 2; side++) {
        count[side] = __builtin_popcount(s->pieces[side]);
        centre[side] = __builtin_popcount(s->pieces[side] & EGARA_CENTRE_POINTS);
        for (uint32_t bits = s->pieces[side]; bits; bits &= bits - 1) {
            int p = __builtin_ctz(bits);
            steps[side] += __builtin_popcount(egara_board.adjacent[p] & empty);
            for (int j = 0; j < egara_board.jump_count[p]; j++) {
                const struct egara_jump *jp = &egara_board.jumps[p][j];
                if (((s->pieces[!side] >> jp->over) & 1) && ((empty >> jp->to) & 1))
                    exposed[!side]++;
            }
        }
    }
    int diff = count[us] - count[them];
    int off = 2 * EGARA_PIECES - count[us] - count[them];
    Score score = EVAL_PIECE * diff + EVAL_TRADE * diff * off;
    score += EVAL_EXPOSED * (exposed[them] - exposed[us]);
    score += EVAL_STEP * (steps[us] - steps[them]);
    score += EVAL_CENTRE * (centre[us] - centre[them]);
    score -= (steps[us] <= 2 ? EVAL_CRAMPED : 0) - (steps[them] <= 2 ? EVAL_CRAMPED : 0);
    return score;
}

int egara_is_noisy(const void *st, Move m)
{
    (void)st;
    return EG_MOVE_JUMPS(m) > 0;
}

int egara_check(const void *st, char *err, size_t err_size)
{
    const struct egara_state *s = st;
    if (s->side != SIDE_WHITE && s->side != SIDE_BLACK)
        return fail(err, err_size, "bad side to move %d", (int)s->side);
    if (s->pieces[0] & s->pieces[1])
        return fail(err, err_size, "a point holds pieces of both sides");
    for (int side = 0; side < 2; side++) {
        if (s->pieces[side] & ~EGARA_ALL_POINTS)
            return fail(err, err_size, "a piece stands off the board");
        if (__builtin_popcount(s->pieces[side]) > EGARA_PIECES)
            return fail(err, err_size, "more than %d pieces a side", EGARA_PIECES);
    }
    if (s->ply < 0 || s->ply > EGARA_MAX_PLIES)
        return fail(err, err_size, "history depth %d out of range", s->ply);
    if (s->quiet < 0)
        return fail(err, err_size, "negative quiet count");
    if (s->key != egara_compute_key(s))
        return fail(err, err_size, "incremental key differs from the recomputed key");
    return 0;
}
