/* Move ordering: the table move, winning and even captures by victim then attacker
 * (MVV-LVA, checked by SEE), the killers and the countermove, quiet moves by their
 * history, losing captures last.  History uses gravity: a bonus shrinks as the entry
 * nears its bound, so the table keeps adapting without ever being rescaled. */
#include <string.h>

#include "cs.h"
#include "see.h"

int cs_is_quiet(const struct chess_pos *p, Move m)
{
    int kind = MV_KIND(m);
    return kind != MK_EN_PASSANT && kind != MK_PROMOTION &&
           (kind == MK_CASTLING || p->board[MV_TO(m)] == EMPTY);
}

/* The continuation entries of a quiet move by `piece` to `to` at `ply`: after the
 * move one and two plies back (NULL where there is none, e.g. a null move). */
static void cont_entries(const struct cs_thread *t, int ply, int piece, int to, int16_t *out[2])
{
    for (int k = 1; k <= 2; k++) {
        const struct cs_frame *f = ply >= k ? &t->frame[ply - k] : NULL;
        out[k - 1] =
            f && f->move && f->moved_piece
                ? &t->cont_hist[((f->moved_piece * 64 + MV_TO(f->move)) * 16 + piece) * 64 + to]
                : NULL;
    }
}

int cs_quiet_history(const struct cs_thread *t, int ply, Move m)
{
    int16_t *c[2];
    cont_entries(t, ply, t->pos.board[MV_FROM(m)], MV_TO(m), c);
    return t->history[t->pos.side][MV_FROM(m)][MV_TO(m)] + (c[0] ? *c[0] : 0) + (c[1] ? *c[1] : 0);
}

static int capture_key(const struct chess_pos *p, Move m)
{
    int victim = MV_KIND(m) == MK_EN_PASSANT ? PAWN : PIECE_TYPE(p->board[MV_TO(m)]);
    int attacker = PIECE_TYPE(p->board[MV_FROM(m)]);
    int promo = MV_KIND(m) == MK_PROMOTION ? MV_PROMO(m) : 0;
    return cs_see_value[victim] * 8 + (promo == QUEEN ? 8000 : 0) - attacker;
}

void cs_order_moves(struct cs_thread *t, int ply, int from, int n, Move tt_move)
{
    const struct chess_pos *p = &t->pos;
    Move *mv = t->moves[ply];
    int32_t *key = t->order[ply];
    const struct cs_frame *f = &t->frame[ply];
    Move counter = 0;
    if (ply > 0 && t->frame[ply - 1].move)
        counter = t->countermove[t->frame[ply - 1].moved_piece][MV_TO(t->frame[ply - 1].move)];
    for (int i = from; i < n; i++) {
        Move m = mv[i];
        if (m == tt_move) {
            key[i] = CS_ORDER_TT;
        } else if (!cs_is_quiet(p, m)) {
            int under = MV_KIND(m) == MK_PROMOTION && MV_PROMO(m) != QUEEN;
            int k = capture_key(p, m);
            /* Taking a piece worth at least the taker cannot lose by SEE. */
            int good = !under && (cs_see_value[PIECE_TYPE(p->board[MV_FROM(m)])] <=
                                      cs_see_value[PIECE_TYPE(p->board[MV_TO(m)])] ||
                                  cs_see_ge(p, m, 0));
            key[i] = (good ? CS_ORDER_GOOD_CAPTURE : CS_ORDER_BAD_CAPTURE) + k;
        } else if (m == f->killers[0]) {
            key[i] = CS_ORDER_KILLER1;
        } else if (m == f->killers[1]) {
            key[i] = CS_ORDER_KILLER2;
        } else if (m == counter) {
            key[i] = CS_ORDER_COUNTER;
        } else {
            key[i] = cs_quiet_history(t, ply, m);
        }
    }
}

void cs_order_noisy(struct cs_thread *t, int ply, int n)
{
    for (int i = 0; i < n; i++)
        t->order[ply][i] = capture_key(&t->pos, t->moves[ply][i]);
}

Move cs_pick(struct cs_thread *t, int ply, int i, int n, int *key_out)
{
    Move m = search_pick(t->moves[ply], t->order[ply], i, n);
    if (key_out)
        *key_out = t->order[ply][i];
    return m;
}

static void history_add(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * (bonus < 0 ? -bonus : bonus) / CS_HISTORY_MAX;
    *h = (int16_t)(v > CS_HISTORY_MAX ? CS_HISTORY_MAX : v < -CS_HISTORY_MAX ? -CS_HISTORY_MAX : v);
}

static void history_reward(struct cs_thread *t, int ply, Move m, int bonus)
{
    int16_t *c[2];
    cont_entries(t, ply, t->pos.board[MV_FROM(m)], MV_TO(m), c);
    history_add(&t->history[t->pos.side][MV_FROM(m)][MV_TO(m)], bonus);
    for (int k = 0; k < 2; k++)
        if (c[k])
            history_add(c[k], bonus);
}

void cs_reward_quiet(struct cs_thread *t, int ply, Move best, int depth, const Move *tried,
                     int ntried)
{
    struct cs_frame *f = &t->frame[ply];
    if (f->killers[0] != best) {
        f->killers[1] = f->killers[0];
        f->killers[0] = best;
    }
    if (ply > 0 && t->frame[ply - 1].move)
        t->countermove[t->frame[ply - 1].moved_piece][MV_TO(t->frame[ply - 1].move)] = best;
    int bonus = depth > 13 ? 1600 : depth * depth * 8 + 16 * depth;
    history_reward(t, ply, best, bonus);
    for (int i = 0; i < ntried; i++)
        if (tried[i] != best)
            history_reward(t, ply, tried[i], -bonus);
}
