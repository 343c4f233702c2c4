/* Alpha-beta over the game interface: principal variation search with iterative
 * deepening, a transposition table, move ordering (table move, noisy moves by the
 * evaluation after them, killers, history), late move reductions, quiescence on
 * noisy moves, win-distance scores, and the game's own status at every node (so
 * repetitions and move-count rules are seen exactly as the rules define them).
 * With search_params.threads > 1, Lazy SMP: helper threads search the same root on
 * their own copies of the state, odd ones a ply deeper, sharing only the table
 * (tt.h: entries safe for several threads); the calling thread's search alone
 * decides, reports and stops them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_refine.h"
#include "core/rng.h"
#include "search.h"

#define HISTORY_BITS 12
#define HISTORY_SIZE (1 << HISTORY_BITS)
#define HISTORY_MAX 16000
/* Quiescence looks at most this many plies past the horizon. */
#define QS_MAX_PLIES 16

/* Move-ordering keys: the table move, then noisy moves by the static score after
 * them, then the two killers, then quiet moves by history. */
#define ORDER_TT 2000000000
#define ORDER_NOISY 1000000000
#define ORDER_KILLER1 900000000
#define ORDER_KILLER2 899999999
#define ORDER_COUNTER 899999998 /* SEARCH_COUNTER */

struct ab {
    const struct game *g;
    void *st;
    struct search_ctl *ctl;
    struct tt *tt;
    Move *moves;    /* ENGINE_MAX_PLY + 1 lists of max_moves */
    int32_t *order; /* their ordering keys */
    Move killers[ENGINE_MAX_PLY][2];
    int16_t history[2][HISTORY_SIZE];
    unsigned features;               /* SEARCH_* */
    Move played[ENGINE_MAX_PLY + 1]; /* the move made at each ply (SEARCH_COUNTER) */
    Move counter[2][HISTORY_SIZE];   /* the quiet move that refuted a move */
    struct ab_lmr lmr;
    int seldepth;
    int ply_room; /* plies the state's history can still take */
    enum side root_side;
    int contempt;
    const struct search_oracle *oracle; /* search_params.oracle */
};

static unsigned history_slot(Move m)
{
    return (unsigned)((m * 0x9E3779B97F4A7C15ULL) >> (64 - HISTORY_BITS));
}

static Move *moves_at(struct ab *s, int ply)
{
    return s->moves + (size_t)ply * (size_t)s->g->max_moves;
}

static int32_t *order_at(struct ab *s, int ply)
{
    return s->order + (size_t)ply * (size_t)s->g->max_moves;
}

/* The static score after a noisy move, for ordering noisy moves among themselves:
 * a capture that wins more (or a chain that takes more) comes first. */
static int32_t noisy_key(struct ab *s, Move m)
{
    s->g->make_move(s->st, m);
    Score after = -search_evaluate(s->g, s->st);
    s->g->unmake_move(s->st, m);
    return ORDER_NOISY + after;
}

/* The counter move of the move that led to `ply` (0: none). */
static Move counter_of(const struct ab *s, int ply, int side)
{
    if (!(s->features & SEARCH_COUNTER) || ply < 1 || !s->played[ply - 1])
        return 0;
    return s->counter[side][history_slot(s->played[ply - 1])];
}

static void order_moves(struct ab *s, int ply, int n, Move tt_move, int with_noisy_eval)
{
    Move *mv = moves_at(s, ply);
    int32_t *key = order_at(s, ply);
    int side = s->g->side_to_move(s->st);
    Move counter = counter_of(s, ply, side);
    for (int i = 0; i < n; i++) {
        Move m = mv[i];
        if (m == tt_move)
            key[i] = ORDER_TT;
        else if (s->g->is_noisy(s->st, m))
            key[i] = with_noisy_eval ? noisy_key(s, m) : ORDER_NOISY;
        else if (ply < ENGINE_MAX_PLY && m == s->killers[ply][0])
            key[i] = ORDER_KILLER1;
        else if (ply < ENGINE_MAX_PLY && m == s->killers[ply][1])
            key[i] = ORDER_KILLER2;
        else if (counter && m == counter)
            key[i] = ORDER_COUNTER;
        else
            key[i] = s->history[side][history_slot(m)];
    }
}

static Move pick_move(struct ab *s, int ply, int i, int n)
{
    return search_pick(moves_at(s, ply), order_at(s, ply), i, n);
}

static void reward_quiet(struct ab *s, int ply, Move m, int depth)
{
    if (ply < ENGINE_MAX_PLY && s->killers[ply][0] != m) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = m;
    }
    int side = s->g->side_to_move(s->st);
    if ((s->features & SEARCH_COUNTER) && ply >= 1 && s->played[ply - 1])
        s->counter[side][history_slot(s->played[ply - 1])] = m;
    int16_t *h = &s->history[side][history_slot(m)];
    int v = *h + depth * depth;
    if (v > HISTORY_MAX) {
        /* Age every entry rather than saturate, so the order keeps adapting. */
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < HISTORY_SIZE; i++)
                s->history[c][i] /= 2;
        v = *h + depth * depth;
    }
    *h = (int16_t)v;
}

/* The game's verdict at a node: 1 and the score when the game is over. */
static int terminal(struct ab *s, int ply, Score *score)
{
    struct game_status gs;
    s->g->status(s->st, &gs);
    if (gs.result == RESULT_ONGOING)
        return 0;
    enum side to_move = s->g->side_to_move(s->st);
    *score = search_result_score(gs.result, to_move, ply);
    if (gs.result == RESULT_DRAW)
        *score = to_move == s->root_side ? -s->contempt : s->contempt;
    return 1;
}

/* The oracle's value of a node (oracle.h): 1 with the score when it knows the position. */
static int oracle_value(struct ab *s, int ply, Score *score)
{
    int wdl, plies, exact;
    if (!s->oracle || !s->oracle->probe(s->oracle->ctx, s->st, &wdl, &plies, &exact))
        return 0;
    if (wdl)
        *score = search_oracle_score(wdl, plies, exact, ply);
    else
        *score = s->g->side_to_move(s->st) == s->root_side ? -s->contempt : s->contempt;
    return 1;
}

/* Quiescence: only noisy moves, with the static score as a floor (stand pat) --
 * except where every legal move is noisy (a compulsory capture, say): there the
 * side to move cannot stand still, so it gets no floor. */
static Score qsearch(struct ab *s, Score alpha, Score beta, int ply, int qply)
{
    s->ctl->nodes++;
    if (search_poll(s->ctl))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    Score score;
    if (terminal(s, ply, &score) || oracle_value(s, ply, &score))
        return score;
    if (ply >= ENGINE_MAX_PLY - 1 || ply >= s->ply_room || qply >= QS_MAX_PLIES)
        return search_evaluate(s->g, s->st);

    Move *mv = moves_at(s, ply);
    int n = s->g->gen_moves(s->st, mv), noisy = 0;
    for (int i = 0; i < n; i++)
        if (s->g->is_noisy(s->st, mv[i]))
            mv[noisy++] = mv[i];
    if (noisy == 0)
        return search_evaluate(s->g, s->st);
    Score best = -SCORE_INFINITE;
    if (noisy < n) {
        best = search_evaluate(s->g, s->st);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    order_moves(s, ply, noisy, 0, 1);
    for (int i = 0; i < noisy; i++) {
        Move m = pick_move(s, ply, i, noisy);
        s->g->make_move(s->st, m);
        score = -qsearch(s, -beta, -alpha, ply + 1, qply + 1);
        s->g->unmake_move(s->st, m);
        if (s->ctl->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

static Score negamax(struct ab *s, int depth, Score alpha, Score beta, int ply, int pv)
{
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 0);
    s->ctl->nodes++;
    if (search_poll(s->ctl))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    Score score;
    if (terminal(s, ply, &score) || oracle_value(s, ply, &score))
        return score;
    if (ply >= ENGINE_MAX_PLY - 1 || ply >= s->ply_room)
        return search_evaluate(s->g, s->st);

    /* Step 1. Win-distance pruning: no line here can beat a win already found
     * closer to the root. */
    if (alpha < -(SCORE_WIN - ply))
        alpha = -(SCORE_WIN - ply);
    if (beta > SCORE_WIN - ply - 1)
        beta = SCORE_WIN - ply - 1;
    if (alpha >= beta)
        return alpha;

    /* Step 2. Transposition table: a deep enough bound ends the node (not on the
     * principal variation, whose exact line we want to keep searching). */
    Key key = s->g->key(s->st);
    struct tt_hit e;
    Move tt_move = 0;
    if (tt_probe(s->tt, key, &e)) {
        tt_move = e.move;
        Score ts = tt_score_from(e.score, ply);
        int bound = e.bound;
        if (!pv && e.depth >= depth &&
            (bound == TT_EXACT || (bound == TT_LOWER && ts >= beta) ||
             (bound == TT_UPPER && ts <= alpha)))
            return ts;
    }

    Move *mv = moves_at(s, ply);
    int n = s->g->gen_moves(s->st, mv);
    if (n == 0) /* status said ongoing; a game that disagrees gets a static score */
        return search_evaluate(s->g, s->st);
    /* Reverse futility (SEARCH_RFP): off the principal variation, near the horizon, with
     * no noisy move pending (a compulsory capture, say), a static score that beats beta
     * by a margin a ply is taken as the node's. */
    if ((s->features & SEARCH_RFP) && !pv && depth <= AB_RFP_DEPTH && beta < ENGINE_WIN_BOUND &&
        beta > -ENGINE_WIN_BOUND) {
        Score eval = search_evaluate(s->g, s->st);
        int noisy = 0;
        if (eval - ab_rfp_margin(depth) >= beta)
            for (int i = 0; i < n && !noisy; i++)
                noisy = s->g->is_noisy(s->st, mv[i]);
        if (eval - ab_rfp_margin(depth) >= beta && !noisy)
            return eval - ab_rfp_margin(depth);
    }
    order_moves(s, ply, n, tt_move, depth >= 2);

    /* Step 3. The moves: the first with the full window, the rest with a null window
     * (re-searched when they surprise), late quiet moves reduced. */
    Score best = -SCORE_INFINITE, orig_alpha = alpha;
    Move best_move = 0;
    for (int i = 0; i < n; i++) {
        Move m = pick_move(s, ply, i, n);
        int32_t order_key = order_at(s, ply)[i];
        int quiet = order_key < ORDER_COUNTER;
        s->played[ply] = m;
        s->g->make_move(s->st, m);
        if (i == 0) {
            score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, pv);
        } else {
            int r = 0;
            if (s->features & SEARCH_LMR_TABLE) {
                if (depth >= 3 && i >= 2 && quiet)
                    r = ab_lmr_reduction(&s->lmr, depth, i, pv, order_key > HISTORY_MAX / 2);
            } else if (depth >= 3 && i >= 3 && quiet) {
                r = i >= 8 && depth >= 5 ? 2 : 1;
            }
            score = -negamax(s, depth - 1 - r, -alpha - 1, -alpha, ply + 1, 0);
            if (score > alpha && r)
                score = -negamax(s, depth - 1, -alpha - 1, -alpha, ply + 1, 0);
            if (score > alpha && score < beta && pv)
                score = -negamax(s, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        s->g->unmake_move(s->st, m);
        if (s->ctl->stopped)
            return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (quiet)
                        reward_quiet(s, ply, m, depth);
                    break;
                }
            }
        }
    }
    enum tt_bound bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(s->tt, key, best_move, tt_score_to(best, ply), depth, bound);
    return best;
}

void search_pv_text(const struct game *g, void *st, const struct tt *tt, Move first, int max_len,
                    char *buf, size_t size)
{
    enum { PV_MAX = 32 };
    Move line[PV_MAX];
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int len = 0;
    size_t used = 0;
    buf[0] = 0;
    Move m = first;
    while (mv && m && len < PV_MAX && len < max_len && g->ply(st) < g->max_plies - 1) {
        int n = game_legal_moves(g, st, mv), legal = 0;
        for (int i = 0; i < n && !legal; i++)
            legal = mv[i] == m;
        if (!legal)
            break;
        char text[MOVE_TEXT_MAX];
        g->move_text(st, m, text, sizeof text);
        size_t need = strlen(text) + (used ? 1 : 0);
        if (used + need + 1 > size)
            break;
        used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "", text);
        g->make_move(st, m);
        line[len++] = m;
        struct tt_hit e;
        m = tt_probe(tt, g->key(st), &e) ? e.move : 0;
    }
    while (len > 0)
        g->unmake_move(st, line[--len]);
    free(mv);
}

static void report(struct ab *s, const struct search_params *p, int depth, Score score, Move best)
{
    if (!p->on_info)
        return;
    struct engine_info info = {
        .depth = depth,
        .seldepth = s->seldepth,
        .score = score,
        .nodes = s->ctl->nodes,
        .time_ms = timeman_elapsed_ms(s->ctl),
        /* A proof's null window gives bounds only. */
        .bound = !p->prove                ? ENGINE_BOUND_EXACT
                 : score >= p->prove_beta ? ENGINE_BOUND_LOWER
                                          : ENGINE_BOUND_UPPER,
    };
    search_pv_text(s->g, s->st, s->tt, best, depth, info.pv, sizeof info.pv);
    p->on_info(p->info_ctx, &info);
}

/* Root moves and their scores of the last finished iteration, best first. */
static void sort_root(Move *mv, Score *sc, int n)
{
    for (int i = 1; i < n; i++) {
        Move m = mv[i];
        Score v = sc[i];
        int j = i;
        for (; j > 0 && sc[j - 1] < v; j--) {
            mv[j] = mv[j - 1];
            sc[j] = sc[j - 1];
        }
        mv[j] = m;
        sc[j] = v;
    }
}

/* The low levels' mistakes (search.h).  Wins and losses stay what they are
 * (the offset is far smaller than a win score), so noise blurs judgement, not
 * tactics the level can see. */
Move search_noisy_choice(const Move *mv, const Score *sc, int n, int noise, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    int best = 0;
    int64_t best_v = INT64_MIN;
    for (int i = 0; i < n; i++) {
        int64_t v = sc[i] + (int64_t)rng_below(&r, 2u * (uint32_t)noise + 1) - noise;
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return mv[best];
}

/* ---- Lazy SMP ------------------------------------------------------------------ */

/* Helper threads at most (search_params.threads - 1 of them). */
#define AB_HELPERS_MAX 63

/* The moves and ordering lists of a search of g; 0, or -1 without memory. */
static int ab_alloc(struct ab *s, const struct game *g)
{
    size_t lists = (size_t)(ENGINE_MAX_PLY + 1) * (size_t)g->max_moves;
    s->moves = malloc(sizeof(Move) * lists);
    s->order = malloc(sizeof(int32_t) * lists);
    return s->moves && s->order ? 0 : -1;
}

struct ab_helper {
    pthread_t thread;
    struct ab s;
    struct search_ctl ctl; /* its own nodes; stopped through `halt` */
    void *st;              /* its own copy of the root's state */
    Move *root;
    int n, id, max_depth, started;
};

/* A helper's iterative deepening: every root move with the full window for the first
 * and a null window for the rest, as the main search does, until halted.  Its results
 * reach the main search only through the table. */
static void *ab_helper_main(void *arg)
{
    struct ab_helper *h = arg;
    struct ab *s = &h->s;
    for (int depth = 1 + (h->id & 1); depth <= h->max_depth && !h->ctl.stopped; depth++) {
        Score alpha = -SCORE_INFINITE;
        for (int i = 0; i < h->n && !h->ctl.stopped; i++) {
            Move m = h->root[(i + (i > 0 ? h->id : 0)) % h->n];
            s->played[0] = m;
            s->g->make_move(h->st, m);
            Score score;
            if (i == 0) {
                score = -negamax(s, depth - 1, -SCORE_INFINITE, -alpha, 1, 1);
            } else {
                score = -negamax(s, depth - 1, -alpha - 1, -alpha, 1, 0);
                if (score > alpha && !h->ctl.stopped)
                    score = -negamax(s, depth - 1, -SCORE_INFINITE, -alpha, 1, 1);
            }
            s->g->unmake_move(h->st, m);
            if (!h->ctl.stopped && score > alpha)
                alpha = score;
        }
    }
    return NULL;
}

/* Start up to threads - 1 helpers on the root moves root[0..n) of st (in the main
 * search's first order); those that could not start are left out.  `halt` stops them. */
static int ab_helpers_start(struct ab_helper *hs, int threads, const struct ab *main_s,
                            const struct search_ctl *ctl, const Move *root, int n, int max_depth,
                            atomic_int *halt)
{
    const struct game *g = main_s->g;
    int count = 0;
    for (int i = 0; i < threads - 1 && i < AB_HELPERS_MAX; i++) {
        struct ab_helper *h = &hs[count];
        memset(h, 0, sizeof *h);
        h->s = *main_s;
        h->s.moves = NULL;
        h->s.order = NULL;
        h->st = malloc(g->state_size);
        h->root = malloc(sizeof(Move) * (size_t)n);
        if (ab_alloc(&h->s, g) != 0 || !h->st || !h->root) {
            free(h->s.moves);
            free(h->s.order);
            free(h->st);
            free(h->root);
            break;
        }
        memcpy(h->st, main_s->st, g->state_size); /* states are flat blocks (game.h) */
        memcpy(h->root, root, sizeof(Move) * (size_t)n);
        h->s.st = h->st;
        h->ctl = *ctl;
        h->ctl.nodes = 0;
        h->ctl.node_limit = 0;
        h->ctl.hard_ms = TIMEMAN_NONE;
        h->ctl.ponder = NULL;
        h->ctl.stop = halt;
        h->ctl.stopped = 0;
        h->s.ctl = &h->ctl;
        h->n = n;
        h->id = i + 1;
        h->max_depth = max_depth;
        if (pthread_create(&h->thread, NULL, ab_helper_main, h) != 0) {
            free(h->s.moves);
            free(h->s.order);
            free(h->st);
            free(h->root);
            break;
        }
        count++;
    }
    return count;
}

/* Halt and join the helpers; their nodes are added to ctl's. */
static void ab_helpers_stop(struct ab_helper *hs, int count, struct search_ctl *ctl,
                            atomic_int *halt)
{
    atomic_store(halt, 1);
    for (int i = 0; i < count; i++) {
        pthread_join(hs[i].thread, NULL);
        ctl->nodes += hs[i].ctl.nodes;
        free(hs[i].s.moves);
        free(hs[i].s.order);
        free(hs[i].st);
        free(hs[i].root);
    }
}

Move ab_search(const struct game *g, void *st, const struct search_params *p,
               struct search_ctl *ctl, struct tt *tt, struct engine_result *out)
{
    struct ab *s = calloc(1, sizeof *s);
    size_t lists = (size_t)(ENGINE_MAX_PLY + 1) * (size_t)g->max_moves;
    Move *root = malloc(sizeof(Move) * (size_t)g->max_moves);
    Score *root_score = malloc(sizeof(Score) * (size_t)g->max_moves);
    Score *iter_score = malloc(sizeof(Score) * (size_t)g->max_moves);
    if (s) {
        s->moves = malloc(sizeof(Move) * lists);
        s->order = malloc(sizeof(int32_t) * lists);
    }
    Move best = 0;
    int n = root ? game_legal_moves(g, st, root) : 0;
    n = search_restrict_root(root, n, p->searchmoves, p->nsearchmoves);
    memset(out, 0, sizeof *out);
    if (n > 0)
        best = root[0];
    if (!s || !s->moves || !s->order || !root_score || !iter_score || n == 0)
        goto done;
    s->g = g;
    s->st = st;
    s->ctl = ctl;
    s->tt = tt;
    s->ply_room = g->max_plies - g->ply(st) - 1;
    s->root_side = g->side_to_move(st);
    s->contempt = p->contempt;
    s->oracle = p->oracle;
    s->features = p->features;
    if (s->features & SEARCH_LMR_TABLE)
        ab_lmr_init(&s->lmr);
    tt_new_search(tt);

    /* The root's first order: the table move, noisy moves by their static score. */
    struct tt_hit e;
    Move tt_move = tt_probe(tt, g->key(st), &e) ? e.move : 0;
    memcpy(moves_at(s, 0), root, sizeof(Move) * (size_t)n);
    order_moves(s, 0, n, tt_move, 1);
    for (int i = 0; i < n; i++)
        root[i] = pick_move(s, 0, i, n);
    for (int i = 0; i < n; i++)
        root_score[i] = 0;

    Score best_score = 0;
    int finished = 0, max_depth = p->depth > 0 ? p->depth : ENGINE_MAX_PLY - 1;
    if (max_depth > ENGINE_MAX_PLY - 1)
        max_depth = ENGINE_MAX_PLY - 1;
    /* Lazy SMP: helpers only where one answer is searched for the whole root (no noise,
     * no proof, no restricted root) and there is more than one move. */
    struct ab_helper *helpers = NULL;
    int nhelpers = 0;
    atomic_int halt = 0;
    if (p->threads > 1 && p->noise == 0 && !p->prove && !p->nsearchmoves && n > 1 &&
        (helpers = calloc(p->threads - 1 < AB_HELPERS_MAX ? (size_t)p->threads - 1 : AB_HELPERS_MAX,
                          sizeof *helpers)))
        nhelpers = ab_helpers_start(helpers, p->threads, s, ctl, root, n, max_depth, &halt);
    for (int depth = 1; depth <= max_depth; depth++) {
        /* SEARCH_ASPIRATION: a window around the last score, widened on failure; a
         * proof: every root move with the null window at the threshold. */
        Score lo = -SCORE_INFINITE, hi = SCORE_INFINITE, delta = AB_ASP_DELTA;
        if (p->prove) {
            lo = p->prove_beta - 1;
            hi = p->prove_beta;
        } else if ((s->features & SEARCH_ASPIRATION) && p->noise == 0 && depth >= AB_ASP_DEPTH &&
                   best_score > -ENGINE_WIN_BOUND && best_score < ENGINE_WIN_BOUND) {
            lo = best_score - delta;
            hi = best_score + delta;
        }
    retry:;
        Score alpha = lo, beta = hi;
        int done_moves = 0, reached = 0;
        Move iter_best = 0;
        for (int i = 0; i < n; i++) {
            Move m = root[i];
            Score score;
            s->played[0] = m;
            g->make_move(st, m);
            if (p->prove) {
                score = -negamax(s, depth - 1, -beta, -alpha, 1, 0);
            } else if (p->noise > 0 || i == 0) {
                /* Exact scores for every move when noise will choose among them. */
                score = -negamax(s, depth - 1, p->noise > 0 ? -SCORE_INFINITE : -beta,
                                 p->noise > 0 ? SCORE_INFINITE : -alpha, 1, 1);
            } else {
                score = -negamax(s, depth - 1, -alpha - 1, -alpha, 1, 0);
                if (score > alpha && !ctl->stopped)
                    score = -negamax(s, depth - 1, -beta, -alpha, 1, 1);
            }
            g->unmake_move(st, m);
            if (ctl->stopped)
                break;
            iter_score[i] = score;
            done_moves++;
            if (p->prove && score >= beta) {
                /* A move reaches the threshold: the proof's answer, at this depth. */
                best = m;
                best_score = score;
                finished = depth;
                reached = 1;
                break;
            }
            if (score > alpha && !p->prove) {
                alpha = score;
                iter_best = m;
            }
            if (alpha >= beta) { /* failed high: this move first, a wider window */
                memmove(root + 1, root, sizeof(Move) * (size_t)i);
                root[0] = m;
                break;
            }
        }
        if (!ctl->stopped && !p->prove && (alpha >= beta || (!iter_best && lo > -SCORE_INFINITE))) {
            delta *= 4;
            if (alpha >= beta)
                hi = delta > AB_ASP_MAX ? SCORE_INFINITE : alpha + delta;
            else
                lo = delta > AB_ASP_MAX ? -SCORE_INFINITE : lo - delta;
            goto retry;
        }
        if (reached) {
            report(s, p, depth, best_score, best);
            break;
        }
        if (ctl->stopped) {
            /* A move that beat the whole of an unfinished iteration's first move is
             * still better than the last finished iteration's choice. */
            if (iter_best && done_moves > 0 && p->noise == 0) {
                best = iter_best;
                best_score = alpha;
            }
            break;
        }
        /* Non-best moves of a null-window iteration have only upper bounds; keep
         * them below the best so the order stays right. */
        for (int i = 0; i < n; i++)
            root_score[i] = iter_score[i];
        sort_root(root, root_score, n);
        best = root[0];
        best_score = root_score[0];
        finished = depth;
        /* Not a restricted root (searchmoves, a proof): its score is not the position's. */
        if (!p->prove && !p->nsearchmoves)
            tt_store(tt, g->key(st), best, best_score, depth, TT_EXACT);
        report(s, p, depth, best_score, best);
        if (n == 1 && !p->infinite && ctl->soft_ms != TIMEMAN_NONE)
            break; /* a forced move on the clock: no time to spend */
        if (!p->infinite && !p->prove &&
            (best_score >= ENGINE_WIN_BOUND || best_score <= -ENGINE_WIN_BOUND) &&
            depth >= SCORE_WIN - (best_score < 0 ? -best_score : best_score) + 2 && p->noise == 0)
            break; /* a proven result, seen with room to spare */
        if (!p->infinite && timeman_past_soft(ctl, 1, 2))
            break; /* the next iteration would not finish in time */
    }
    ab_helpers_stop(helpers, nhelpers, ctl, &halt);
    free(helpers);
    if (p->noise > 0 && finished > 0)
        best = search_noisy_choice(root, root_score, n, p->noise, p->seed ^ g->key(st));
    out->score = best_score;
    out->depth = finished;
done:
    out->best = best;
    out->nodes = ctl->nodes;
    out->time_ms = timeman_elapsed_ms(ctl);
    if (s) {
        free(s->moves);
        free(s->order);
    }
    free(s);
    free(root);
    free(root_score);
    free(iter_score);
    return best;
}
