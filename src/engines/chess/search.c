/* The chess search proper: principal variation search with a transposition table,
 * null move, reverse futility, razoring, futility and late-move pruning, SEE
 * pruning, late-move reductions, check extension, and quiescence on captures and
 * promotions with SEE and delta pruning.  Draws by repetition (twofold since the
 * last irreversible move), the fifty-move rule and dead positions end a line. */
#include <string.h>

#include "core/debug_check.h"
#include "cs.h"
#include "games/chess/eval.h"
#include "see.h"

/* 1000 * ln(i): the late-move reduction grows with the log of depth and of the
 * move's number. */
static const int16_t ln1000[64] = {
    0,    0,    693,  1099, 1386, 1609, 1792, 1946, 2079, 2197, 2303, 2398, 2485, 2565, 2639, 2708,
    2773, 2833, 2890, 2944, 2996, 3045, 3091, 3135, 3178, 3219, 3258, 3296, 3332, 3367, 3401, 3434,
    3466, 3497, 3526, 3555, 3584, 3611, 3638, 3664, 3689, 3714, 3738, 3761, 3784, 3807, 3829, 3850,
    3871, 3892, 3912, 3932, 3951, 3970, 3989, 4007, 4025, 4043, 4060, 4078, 4094, 4111, 4127, 4143};

static int lmr_base(int depth, int count)
{
    int d = depth < 63 ? depth : 63, c = count < 63 ? count : 63;
    return (750 + ln1000[d] * ln1000[c] / 2250) / 1000;
}

/* Quiet moves tried before the rest are skipped at shallow depth. */
static int lmp_limit(int depth, int improving)
{
    return improving ? 3 + depth * depth : (3 + depth * depth) / 2;
}

/* Count a node; the main thread also polls the limits.  Non-zero: unwind. */
static int count_node(struct cs_thread *t)
{
    struct cs_shared *sh = t->sh;
    if (cs_stop(t))
        return 1;
    t->nodes++;
    if (t->id == 0) {
        if (sh->node_limit &&
            t->nodes + atomic_load_explicit(&sh->helper_nodes, memory_order_relaxed) >=
                sh->node_limit)
            atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
        if ((t->nodes & 511) == 0) {
            struct search_ctl *ctl = sh->ctl;
            if ((ctl->stop && atomic_load_explicit(ctl->stop, memory_order_relaxed)) ||
                (ctl->hard_ms != TIMEMAN_NONE && timeman_clock_ms(ctl) >= ctl->hard_ms &&
                 !timeman_pondering(ctl)))
                atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
        }
    } else if (t->nodes - t->published >= 1024) {
        atomic_fetch_add_explicit(&sh->helper_nodes, t->nodes - t->published, memory_order_relaxed);
        t->published = t->nodes;
    }
    return cs_stop(t);
}

static Score draw_score(const struct cs_thread *t)
{
    return t->pos.side == t->sh->root_side ? -t->sh->contempt : t->sh->contempt;
}

static Score evaluate(struct cs_thread *t)
{
    return search_clamp_static(chess_eval_cached(&t->pos, &t->pawns));
}

Score cs_static_score(struct cs_thread *t)
{
    return evaluate(t);
}

/* The correction history's entry for the position. */
static int16_t *correction_at(struct cs_thread *t)
{
    Key k = chess_pawn_key(&t->pos);
    return &t->correction[t->pos.side][k & (CS_CORRECTION_SIZE - 1)];
}

/* The static evaluation moved by what searches of positions with these pawns found. */
static Score corrected(struct cs_thread *t, Score raw)
{
    return search_clamp_static(raw + *correction_at(t) / CS_CORRECTION_GRAIN);
}

/* A search found `best` where the evaluation said `raw`: move the entry toward the
 * difference, the more the deeper the search. */
static void learn_correction(struct cs_thread *t, Score raw, Score best, int depth)
{
    int diff = best - raw;
    diff = diff > CS_CORRECTION_LIMIT    ? CS_CORRECTION_LIMIT
           : diff < -CS_CORRECTION_LIMIT ? -CS_CORRECTION_LIMIT
                                         : diff;
    int16_t *c = correction_at(t);
    int weight = depth < 15 ? depth + 1 : 16;
    *c = (int16_t)(*c + (diff * CS_CORRECTION_GRAIN - *c) * weight / 256);
}

/* Has the position occurred before, since the last irreversible move? */
static int is_repetition(const struct cs_thread *t, int ply)
{
    int idx = t->sh->nroot_keys + ply, seen = 0;
    int reach = t->pos.halfmove < idx ? t->pos.halfmove : idx;
    for (int back = 4; back <= reach; back += 2)
        if (t->keys[idx - back] == t->pos.key) {
            /* A proof draws a line back to the root (or before it) only at the third
             * time, as the rules do: a side may come back to the root and win from it
             * (Stockfish scores such a line a win too). */
            if (!t->sh->params->prove || idx - back > t->sh->nroot_keys || ++seen >= 2)
                return 1;
        }
    return 0;
}

static int has_pieces(const struct chess_pos *p, int side)
{
    return (p->by_color[side] & ~(p->by_type[PAWN] | p->by_type[KING])) != 0;
}

/* A null move: the side to move passes.  No en-passant right survives it, and the
 * halfmove clock restarts so no repetition is seen across it. */
/* The debug consistency check (core/debug_check.h) after a null move and its undo:
 * the only changes of the position the chess module's make and unmake do not see. */
#ifdef AGORA_DEBUG_CHECK
static void check_null(const struct chess_pos *p, const char *op)
{
    char err[ERROR_TEXT_MAX];
    if (chess_pos_check(p, err, sizeof err) != 0)
        debug_check_failed("chess", op, "null move", 0, err);
}
#else
#define check_null(p, op) ((void)0)
#endif

static void make_null(struct chess_pos *p, struct chess_undo *u)
{
    u->key = p->key;
    u->halfmove = p->halfmove;
    u->ep = p->ep;
    if (p->ep != SQ_NONE)
        p->key ^= chess_zobrist[ZOBRIST_EP + SQ_FILE(p->ep)];
    p->ep = SQ_NONE;
    p->key ^= chess_zobrist[ZOBRIST_TURN];
    p->side ^= 1;
    p->halfmove = 0;
    check_null(p, "make");
}

static void unmake_null(struct chess_pos *p, const struct chess_undo *u)
{
    p->side ^= 1;
    p->key = u->key;
    p->halfmove = u->halfmove;
    p->ep = u->ep;
    check_null(p, "unmake");
}

static void make(struct cs_thread *t, int ply, Move m)
{
    struct cs_frame *f = &t->frame[ply];
    f->move = m;
    f->moved_piece = t->pos.board[MV_FROM(m)];
    chess_pos_make(&t->pos, m, &t->undo[ply]);
    cs_tt_prefetch(&t->sh->tt, t->pos.key);
}

static void unmake(struct cs_thread *t, int ply, Move m)
{
    chess_pos_unmake(&t->pos, m, &t->undo[ply]);
}

static void update_pv(struct cs_thread *t, int ply, Move m)
{
    struct cs_frame *f = &t->frame[ply];
    const struct cs_frame *child = &t->frame[ply + 1];
    f->pv[0] = m;
    memcpy(f->pv + 1, child->pv, sizeof(Move) * (size_t)child->pv_len);
    f->pv_len = child->pv_len + 1;
}

Score cs_qsearch(struct cs_thread *t, Score alpha, Score beta, int ply, int pv)
{
    struct chess_pos *p = &t->pos;
    t->frame[ply].pv_len = 0;
    if (count_node(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (chess_dead_position(p))
        return draw_score(t);
    if (ply >= CS_MAX_PLY - 1)
        return chess_in_check(p) ? 0 : evaluate(t);

    struct cs_tt_hit h;
    int hit = cs_tt_probe(&t->sh->tt, p->key, &h);
    Score ts = hit ? tt_score_from(h.score, ply) : 0;
    if (hit && !pv &&
        (h.bound == TT_EXACT || (h.bound == TT_LOWER && ts >= beta) ||
         (h.bound == TT_UPPER && ts <= alpha)))
        return ts;

    int in_check = chess_in_check(p);
    Score best, raw = CS_NO_EVAL, stand = CS_NO_EVAL, orig_alpha = alpha;
    int n;
    if (in_check) {
        best = -SCORE_INFINITE;
        n = chess_gen_legal(p, t->moves[ply]);
        if (n == 0)
            return -(SCORE_WIN - ply);
        cs_order_moves(t, ply, 0, n, hit ? h.move : 0);
    } else {
        raw = hit && h.eval > CS_NO_EVAL + 1 ? h.eval : evaluate(t);
        stand = corrected(t, raw);
        best = stand;
        if (hit && (h.bound == TT_EXACT || (h.bound == TT_LOWER && ts > stand) ||
                    (h.bound == TT_UPPER && ts < stand)))
            best = ts;
        if (best >= beta) {
            if (!hit)
                cs_tt_store(&t->sh->tt, p->key, 0, tt_score_to(best, ply), raw, 0, TT_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
        n = chess_gen_noisy(p, t->moves[ply]);
        cs_order_noisy(t, ply, n);
    }

    Move best_move = 0;
    for (int i = 0; i < n; i++) {
        Move m = cs_pick(t, ply, i, n, NULL);
        if (!in_check) {
            int promo = MV_KIND(m) == MK_PROMOTION;
            if (promo && MV_PROMO(m) != QUEEN)
                continue;
            /* Delta pruning: even the whole victim would not lift the score to alpha. */
            int victim = MV_KIND(m) == MK_EN_PASSANT ? PAWN : PIECE_TYPE(p->board[MV_TO(m)]);
            if (!promo && stand + cs_see_value[victim] + 200 <= alpha)
                continue;
            if (!cs_see_ge(p, m, 0))
                continue;
        }
        make(t, ply, m);
        Score s = -cs_qsearch(t, -beta, -alpha, ply + 1, pv);
        unmake(t, ply, m);
        if (cs_stop(t))
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                best_move = m;
                if (pv)
                    update_pv(t, ply, m);
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (in_check && best == -SCORE_INFINITE)
        best = -(SCORE_WIN - ply);
    enum tt_bound bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    cs_tt_store(&t->sh->tt, p->key, best_move, tt_score_to(best, ply), raw, 0, bound);
    return best;
}

/* The moves of a node: at the root the root moves still to search (multipv skips
 * the lines already reported), in their order; elsewhere all legal moves, the table
 * move first.  *ordered says whether the others have their keys yet: a node that
 * the table move refutes never pays for ordering the rest. */
static int node_moves(struct cs_thread *t, int ply, Move tt_move, int *ordered)
{
    *ordered = 1;
    if (ply == 0) {
        int n = 0;
        for (int i = t->pv_index; i < t->nroot; i++) {
            t->moves[0][n] = t->root[i].move;
            t->order[0][n] = t->nroot - i;
            n++;
        }
        return n;
    }
    Move *mv = t->moves[ply];
    int n = chess_gen_legal(&t->pos, mv);
    const Move excluded = t->frame[ply].excluded;
    for (int i = 0; excluded && i < n; i++)
        if (mv[i] == excluded) {
            mv[i] = mv[--n];
            break;
        }
    for (int i = 0; tt_move && i < n; i++)
        if (mv[i] == tt_move) {
            mv[i] = mv[0];
            mv[0] = tt_move;
            t->order[ply][0] = CS_ORDER_TT;
            *ordered = 0;
            return n;
        }
    cs_order_moves(t, ply, 0, n, 0);
    return n;
}

static struct cs_root_move *root_move(struct cs_thread *t, Move m)
{
    for (int i = t->pv_index; i < t->nroot; i++)
        if (t->root[i].move == m)
            return &t->root[i];
    return NULL;
}

Score cs_negamax(struct cs_thread *t, Score alpha, Score beta, int depth, int ply, int pv, int cut)
{
    struct chess_pos *p = &t->pos;
    struct cs_frame *f = &t->frame[ply];
    if (depth <= 0)
        return cs_qsearch(t, alpha, beta, ply, pv);
    f->pv_len = 0;
    if (count_node(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    const int root = ply == 0;
    t->keys[t->sh->nroot_keys + ply] = p->key;
    t->frame[ply + 1].killers[0] = t->frame[ply + 1].killers[1] = 0;

    if (!root) {
        /* Step 1. Draws, the ply limit, and win-distance pruning. */
        if (is_repetition(t, ply) || chess_dead_position(p) ||
            (p->halfmove >= 100 && (!chess_in_check(p) || chess_has_legal_move(p))))
            return draw_score(t);
        if (ply >= CS_MAX_PLY - 1)
            return chess_in_check(p) ? 0 : evaluate(t);
        if (alpha < -(SCORE_WIN - ply))
            alpha = -(SCORE_WIN - ply);
        if (beta > SCORE_WIN - ply - 1)
            beta = SCORE_WIN - ply - 1;
        if (alpha >= beta)
            return alpha;
    }

    /* Step 2. The table: a deep enough bound ends a node off the principal variation. */
    const Move excluded = f->excluded; /* a singular-extension search without it */
    struct cs_tt_hit h;
    int hit = cs_tt_probe(&t->sh->tt, p->key, &h);
    Score ts = hit ? tt_score_from(h.score, ply) : 0;
    Move tt_move = hit && !excluded ? h.move : 0;
    if (hit && !pv && !excluded && h.depth >= depth &&
        (h.bound == TT_EXACT || (h.bound == TT_LOWER && ts >= beta) ||
         (h.bound == TT_UPPER && ts <= alpha)))
        return ts;

    /* Step 3. The static evaluation, sharpened by the table's score. */
    const int in_check = chess_in_check(p);
    Score eval = CS_NO_EVAL, raw = CS_NO_EVAL;
    f->eval = CS_NO_EVAL;
    if (!in_check) {
        raw = hit && h.eval > CS_NO_EVAL + 1 ? h.eval : evaluate(t);
        f->eval = eval = corrected(t, raw);
        if (hit && ts > -ENGINE_WIN_BOUND && ts < ENGINE_WIN_BOUND &&
            (h.bound == TT_EXACT || (h.bound == TT_LOWER && ts > eval) ||
             (h.bound == TT_UPPER && ts < eval)))
            eval = ts;
    }
    const int improving = !in_check && (ply < 2 || t->frame[ply - 2].eval == CS_NO_EVAL ||
                                        f->eval > t->frame[ply - 2].eval);

    if (!pv && !in_check && !root && !excluded) {
        /* Step 4. Reverse futility: far enough above beta that a shallow search will
         * not come back below it. */
        if (depth <= 8 && eval - 85 * (depth - improving) >= beta && eval < ENGINE_WIN_BOUND)
            return eval;
        /* Step 5. Razoring: far below alpha, ask quiescence whether anything helps. */
        if (depth <= 3 && eval + 200 * depth + 100 <= alpha && alpha > -ENGINE_WIN_BOUND) {
            Score s = cs_qsearch(t, alpha, alpha + 1, ply, 0);
            if (cs_stop(t))
                return 0;
            if (s <= alpha)
                return s;
        }
        /* Step 6. Null move: if passing still holds beta, a real move will.  Not with
         * only king and pawns (zugzwang), not twice in a row. */
        if (depth >= 3 && eval >= beta && t->frame[ply - 1].move && has_pieces(p, p->side) &&
            beta > -ENGINE_WIN_BOUND && beta < ENGINE_WIN_BOUND) {
            int r = 3 + depth / 4 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            f->move = 0;
            f->moved_piece = 0;
            make_null(p, &t->undo[ply]);
            Score s = -cs_negamax(t, -beta, -beta + 1, depth - r, ply + 1, 0, !cut);
            unmake_null(p, &t->undo[ply]);
            if (cs_stop(t))
                return 0;
            if (s >= beta)
                return s >= ENGINE_WIN_BOUND ? beta : s;
        }
    }

    /* Step 7. Internal iterative reduction: no table move, a shallower look first. */
    if (depth >= 4 && !tt_move && (pv || cut) && !root && !excluded)
        depth--;

    /* Step 7b. Singular extension: when every other move falls well short of the
     * table move's score, the table move is searched a ply deeper; when even without
     * it the node holds beta, it is cut at once (multi-cut). */
    int singular = 0;
    if (!root && !excluded && depth >= 8 && tt_move && h.depth >= depth - 3 &&
        (h.bound & TT_LOWER) && ts > -ENGINE_WIN_BOUND && ts < ENGINE_WIN_BOUND) {
        Score sbeta = ts - 2 * depth;
        f->excluded = tt_move;
        Score s = cs_negamax(t, sbeta - 1, sbeta, (depth - 1) / 2, ply, 0, cut);
        f->excluded = 0;
        if (cs_stop(t))
            return 0;
        if (s < sbeta)
            singular = 1;
        else if (sbeta >= beta)
            return sbeta;
    }

    int ordered;
    int n = node_moves(t, ply, tt_move, &ordered);
    if (n == 0 && excluded)
        return alpha;
    if (n == 0)
        return in_check ? -(SCORE_WIN - ply) : draw_score(t);

    /* Step 8. The moves. */
    Score best = -SCORE_INFINITE, orig_alpha = alpha;
    Move best_move = 0, quiets[64];
    int searched = 0, nquiets = 0;
    for (int i = 0; i < n; i++) {
        if (i == 1 && !ordered)
            cs_order_moves(t, ply, 1, n, 0);
        int key;
        Move m = i == 0 && !ordered ? t->moves[ply][0] : cs_pick(t, ply, i, n, &key);
        if (i == 0 && !ordered)
            key = CS_ORDER_TT;
        const int quiet = cs_is_quiet(p, m);
        /* Step 8a. SEE pruning: a move that loses material by exchange at low depth. */
        const int prunable = !root && best > -ENGINE_WIN_BOUND && has_pieces(p, p->side);
        if (prunable && depth <= 8 && !cs_see_ge(p, m, quiet ? -60 * depth : -100 * depth))
            continue;
        make(t, ply, m);
        const int gives_check = chess_in_check(p);
        /* Step 8b. Late-move pruning: enough quiet moves tried; and futility: a quiet
         * move this far below alpha will not reach it.  Never a check. */
        if (prunable && quiet && !in_check && !gives_check &&
            ((depth <= 7 && nquiets >= lmp_limit(depth, improving)) ||
             (depth <= 8 && eval + 100 + 90 * depth <= alpha))) {
            unmake(t, ply, m);
            if (nquiets < 64)
                quiets[nquiets++] = m;
            continue;
        }
        /* Step 8c. Check extension. */
        int new_depth =
            depth - 1 + ((gives_check || (singular && m == tt_move)) && ply < 2 * t->root_depth);
        Score s;
        if (searched == 0) {
            s = -cs_negamax(t, -beta, -alpha, new_depth, ply + 1, pv, !pv && !cut);
        } else {
            /* Step 8d. Late-move reductions for quiet and losing moves. */
            /* Not at the root of a proof: every root move there is searched in full. */
            int r = 0;
            if (depth >= 3 && searched >= 1 + 2 * pv && (quiet || key < 0) &&
                !(root && t->sh->params->prove)) {
                /* key is the quiet move's history unless it is a killer or counter */
                int hist = quiet && key < CS_ORDER_COUNTER ? key : 0;
                r = lmr_base(depth, searched + 1);
                r += !pv + !improving;
                r -= key >= CS_ORDER_COUNTER && key < CS_ORDER_GOOD_CAPTURE;
                r -= gives_check;
                if (quiet)
                    r -= hist > 16000 ? 2 : hist < -16000 ? -2 : hist / 8000;
                r = r < 0 ? 0 : r > new_depth - 1 ? new_depth - 1 : r;
            }
            s = -cs_negamax(t, -alpha - 1, -alpha, new_depth - r, ply + 1, 0, 1);
            if (s > alpha && r > 0)
                s = -cs_negamax(t, -alpha - 1, -alpha, new_depth, ply + 1, 0, !cut);
            if (s > alpha && s < beta && pv)
                s = -cs_negamax(t, -beta, -alpha, new_depth, ply + 1, 1, 0);
        }
        unmake(t, ply, m);
        if (cs_stop(t))
            return 0;
        searched++;
        if (root) {
            struct cs_root_move *rm = root_move(t, m);
            if (rm && (searched == 1 || s > alpha)) {
                rm->score = s;
                rm->pv[0] = m;
                memcpy(rm->pv + 1, t->frame[1].pv, sizeof(Move) * (size_t)t->frame[1].pv_len);
                rm->pv_len = t->frame[1].pv_len + 1;
            } else if (rm) {
                rm->score = -SCORE_INFINITE;
            }
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                best_move = m;
                if (pv)
                    update_pv(t, ply, m);
                if (alpha >= beta) {
                    if (quiet)
                        cs_reward_quiet(t, ply, m, depth, quiets, nquiets);
                    break;
                }
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
    }
    if (searched == 0) /* everything pruned: the best bound known */
        return alpha;
    /* Not a root restricted to some of its moves (searchmoves, a proof): its bound is
     * not the position's, and the position may come again inside the tree. */
    if (!excluded && (!root || (t->pv_index == 0 && !t->sh->params->nsearchmoves))) {
        enum tt_bound bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
        cs_tt_store(&t->sh->tt, p->key, best_move, tt_score_to(best, ply), raw, depth, bound);
        /* A quiet verdict the bound does not leave open teaches the correction. */
        if (!in_check && (!best_move || cs_is_quiet(p, best_move)) && best > -ENGINE_WIN_BOUND &&
            best < ENGINE_WIN_BOUND && !(bound == TT_LOWER && best <= f->eval) &&
            !(bound == TT_UPPER && best >= f->eval))
            learn_correction(t, raw, best, depth);
    }
    return best;
}
