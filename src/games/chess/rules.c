/* The state (a position plus its history) and the rules that need the history: game
 * status, repetitions, the move-count rules, dead positions, draw claims. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess.h"
#include "core/error.h"
#include "eval.h"
#include "state.h"

void chess_start(void *st)
{
    struct chess_state *s = st;
    char err[ERROR_TEXT_MAX];
    s->ply = 0;
    if (chess_parse_fen(&s->pos, CHESS_START_FEN, err, sizeof err))
        abort(); /* the start position is ours: it always parses */
}

int chess_parse_position(void *st, const char *text, char *err, size_t err_size)
{
    struct chess_state *s = st;
    struct chess_pos p;
    if (chess_parse_fen(&p, text, err, err_size))
        return -1;
    s->pos = p;
    s->ply = 0;
    return 0;
}

void chess_write_position(const void *st, char *buf, size_t size)
{
    chess_write_fen(&((const struct chess_state *)st)->pos, buf, size);
}

enum side chess_side_to_move(const void *st)
{
    return (enum side)((const struct chess_state *)st)->pos.side;
}

int chess_ply(const void *st)
{
    return ((const struct chess_state *)st)->ply;
}

Key chess_key(const void *st)
{
    return ((const struct chess_state *)st)->pos.key;
}

int chess_gen_moves(const void *st, Move *moves)
{
    return chess_gen_legal(&((const struct chess_state *)st)->pos, moves);
}

void chess_make_move(void *st, Move m)
{
    struct chess_state *s = st;
    if (s->ply >= CHESS_MAX_PLIES)
        abort(); /* see CHESS_MAX_PLIES: only a caller ignoring status gets here */
    chess_pos_make(&s->pos, m, &s->hist[s->ply++]); /* and its debug check */
}

void chess_unmake_move(void *st, Move m)
{
    struct chess_state *s = st;
    chess_pos_unmake(&s->pos, m, &s->hist[--s->ply]);
}

uint64_t chess_perft(void *st, int depth)
{
    struct chess_pos p = ((struct chess_state *)st)->pos;
    return chess_perft_pos(&p, depth);
}

int chess_repetitions(const struct chess_state *s)
{
    /* Only positions since the last irreversible move can repeat, and only those with
     * the same side to move: every second one going back over the halfmove clock. */
    int count = 1;
    int reach = s->pos.halfmove < s->ply ? s->pos.halfmove : s->ply;
    for (int back = 4; back <= reach; back += 2)
        if (s->hist[s->ply - back].key == s->pos.key)
            count++;
    return count;
}

bool chess_dead_position(const struct chess_pos *p)
{
    /* Neither side can mate by any series of legal moves: the rule book's cases, K v K,
     * K+B v K, K+N v K, and kings with any bishops all on squares of one colour. */
    Bitboard kings = p->by_type[KING];
    Bitboard rest = p->by_type[0] & ~kings;
    if (!rest)
        return true;
    if (!(rest & (rest - 1)) && (rest & (p->by_type[BISHOP] | p->by_type[KNIGHT])))
        return true;
    if (rest == p->by_type[BISHOP] && (!(rest & LIGHT_SQUARES) || !(rest & ~LIGHT_SQUARES)))
        return true;
    return false;
}

int chess_can_win(const void *st, enum side side)
{
    /* A side with its king alone cannot mate; nor can anyone in a dead position (the
     * rule book's cases above).  Otherwise some series of legal moves mates (FIDE 6.9:
     * the flag's fall then loses). */
    const struct chess_pos *p = &((const struct chess_state *)st)->pos;
    if (!(p->by_color[side] & ~p->by_type[KING]))
        return false;
    return !chess_dead_position(p);
}

void chess_status(const void *st, struct game_status *out)
{
    const struct chess_state *s = st;
    const struct chess_pos *p = &s->pos;
    *out = (struct game_status){RESULT_ONGOING, REASON_NONE, 0};
    /* Mate and stalemate come first: a mating move ends the game even as it reaches
     * the 75th move or the fifth repetition (FIDE 9.6.2). */
    if (!chess_has_legal_move(p)) {
        if (chess_in_check(p)) {
            out->result = p->side == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            out->reason = CHESS_REASON_CHECKMATE;
        } else {
            out->result = RESULT_DRAW;
            out->reason = CHESS_REASON_STALEMATE;
        }
        return;
    }
    if (chess_dead_position(p)) {
        out->result = RESULT_DRAW;
        out->reason = CHESS_REASON_DEAD_POSITION;
        return;
    }
    if (p->halfmove >= 150) {
        out->result = RESULT_DRAW;
        out->reason = CHESS_REASON_SEVENTY_FIVE;
        return;
    }
    int reps = chess_repetitions(s);
    if (reps >= 5) {
        out->result = RESULT_DRAW;
        out->reason = CHESS_REASON_FIVEFOLD;
        return;
    }
    if (reps >= 3)
        out->claims |= CHESS_CLAIM_THREEFOLD;
    if (p->halfmove >= 100)
        out->claims |= CHESS_CLAIM_FIFTY_MOVES;
}

int chess_claim(const void *st, unsigned which, struct game_status *out)
{
    struct game_status now;
    chess_status(st, &now);
    unsigned open = now.claims & (which ? which : now.claims);
    if (now.result != RESULT_ONGOING || !open)
        return -1;
    out->result = RESULT_DRAW;
    out->reason =
        open & CHESS_CLAIM_THREEFOLD ? CHESS_REASON_CLAIM_THREEFOLD : CHESS_REASON_CLAIM_FIFTY;
    out->claims = 0;
    return 0;
}

int chess_claim_draw(const void *st, unsigned which, struct game_status *out, char *err,
                     size_t err_size)
{
    struct game_status now;
    chess_status(st, &now);
    if (now.result != RESULT_ONGOING)
        return fail(err, err_size, "the game is already over (%s)",
                    reason_text(&chess_game, now.reason));
    unsigned want = which ? which : now.claims;
    if (!want)
        return fail(err, err_size,
                    "no draw claim is possible: the position has not occurred "
                    "three times and the fifty-move count is not reached");
    if ((want & CHESS_CLAIM_THREEFOLD) && (now.claims & CHESS_CLAIM_THREEFOLD)) {
        *out = (struct game_status){RESULT_DRAW, CHESS_REASON_CLAIM_THREEFOLD, 0};
        return 0;
    }
    if ((want & CHESS_CLAIM_FIFTY_MOVES) && (now.claims & CHESS_CLAIM_FIFTY_MOVES)) {
        *out = (struct game_status){RESULT_DRAW, CHESS_REASON_CLAIM_FIFTY, 0};
        return 0;
    }
    if (want & CHESS_CLAIM_THREEFOLD)
        return fail(err, err_size, "no threefold repetition: this position occurred %d time%s",
                    chess_repetitions(st), chess_repetitions(st) == 1 ? "" : "s");
    return fail(err, err_size,
                "no fifty-move claim: %d moves each without a capture or pawn "
                "move so far",
                ((const struct chess_state *)st)->pos.halfmove / 2);
}

int chess_claim_draw_with_move(const void *st, unsigned which, Move m, struct game_status *out,
                               char *err, size_t err_size)
{
    const struct chess_state *s = st;
    struct game_status now;
    chess_status(st, &now);
    if (now.result != RESULT_ONGOING)
        return fail(err, err_size, "the game is already over (%s)",
                    reason_text(&chess_game, now.reason));
    Move moves[CHESS_MAX_MOVES];
    int n = chess_gen_legal(&s->pos, moves), legal = 0;
    for (int i = 0; i < n; i++)
        legal |= moves[i] == m;
    if (!legal)
        return fail(err, err_size, "the announced move is not legal here");
    struct chess_pos after = s->pos;
    struct chess_undo u;
    chess_pos_make(&after, m, &u);
    /* The position after the move stands at ply + 1; earlier positions with the same
     * side to move are at ply - 1, ply - 3, ... back to the last irreversible move. */
    int reps = 1, reach = after.halfmove < s->ply + 1 ? after.halfmove : s->ply + 1;
    for (int back = 2; back <= reach; back += 2)
        if (s->hist[s->ply + 1 - back].key == after.key)
            reps++;
    unsigned claims = (reps >= 3 ? CHESS_CLAIM_THREEFOLD : 0) |
                      (after.halfmove >= 100 ? CHESS_CLAIM_FIFTY_MOVES : 0);
    unsigned want = which ? which : claims;
    if (want & claims & CHESS_CLAIM_THREEFOLD) {
        *out = (struct game_status){RESULT_DRAW, CHESS_REASON_CLAIM_THREEFOLD, 0};
        return 0;
    }
    if (want & claims & CHESS_CLAIM_FIFTY_MOVES) {
        *out = (struct game_status){RESULT_DRAW, CHESS_REASON_CLAIM_FIFTY, 0};
        return 0;
    }
    if (want & CHESS_CLAIM_THREEFOLD || !want)
        return fail(err, err_size,
                    "no threefold repetition: after that move the position occurs %d time%s", reps,
                    reps == 1 ? "" : "s");
    return fail(err, err_size,
                "no fifty-move claim: after that move %d moves each without a "
                "capture or pawn move",
                after.halfmove / 2);
}

int chess_agree_draw(const void *st, struct game_status *out, char *err, size_t err_size)
{
    struct game_status now;
    chess_status(st, &now);
    if (now.result != RESULT_ONGOING)
        return fail(err, err_size, "the game is already over (%s)",
                    reason_text(&chess_game, now.reason));
    *out = (struct game_status){RESULT_DRAW, REASON_AGREEMENT, 0};
    return 0;
}

int chess_check(const void *st, char *err, size_t err_size)
{
    const struct chess_state *s = st;
    if (s->ply < 0 || s->ply > CHESS_MAX_PLIES)
        return fail(err, err_size, "bad ply count %d", s->ply);
    return chess_pos_check(&s->pos, err, err_size);
}

Score chess_evaluate(const void *st)
{
    const struct chess_state *s = st;
    return (Score)chess_eval(&s->pos);
}

int chess_is_noisy(const void *st, Move m)
{
    const struct chess_pos *p = &((const struct chess_state *)st)->pos;
    return p->board[MV_TO(m)] != EMPTY || MV_KIND(m) == MK_EN_PASSANT || MV_KIND(m) == MK_PROMOTION;
}

const struct chess_pos *chess_state_pos(const void *st)
{
    return &((const struct chess_state *)st)->pos;
}

int chess_state_recent_keys(const void *st, Key *out, int max)
{
    const struct chess_state *s = st;
    int reach = s->pos.halfmove < s->ply ? s->pos.halfmove : s->ply;
    if (reach > max)
        reach = max;
    for (int i = 0; i < reach; i++)
        out[i] = s->hist[s->ply - reach + i].key;
    return reach;
}
