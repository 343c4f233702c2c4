/* The chess search's driver: iterative deepening with aspiration windows, several
 * principal variations (multipv), time decisions, the `info` reports, and Lazy SMP
 * (helper threads searching the same tree on the shared table; the main thread
 * decides and reports). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess_search.h"
#include "cs.h"

#define ASPIRATION_DEPTH 5
#define ASPIRATION_DELTA 16
#define BOUND_REPORT_MS 1000 /* report fail highs and lows of searches this long */

static uint64_t total_nodes(const struct cs_thread *lead)
{
    return lead->nodes + atomic_load_explicit(&lead->sh->helper_nodes, memory_order_relaxed);
}

/* Stable: moves with equal scores keep the order of the last iteration. */
static void sort_root(struct cs_root_move *rm, int from, int n)
{
    for (int i = from + 1; i < n; i++) {
        struct cs_root_move m = rm[i];
        int j = i;
        for (; j > from && rm[j - 1].score < m.score; j--)
            rm[j] = rm[j - 1];
        rm[j] = m;
    }
}

/* The info of root line `line` after `depth`; a bound reports `bound_score`. */
static void report(struct cs_thread *t, int depth, int line, enum engine_bound bound,
                   Score bound_score)
{
    const struct search_params *p = t->sh->params;
    if (!p->on_info)
        return;
    const struct cs_root_move *rm = &t->root[line];
    struct engine_info info = {
        .depth = depth,
        .seldepth = t->seldepth,
        .score = bound != ENGINE_BOUND_EXACT   ? bound_score
                 : rm->score > -SCORE_INFINITE ? rm->score
                                               : rm->prev_score,
        .nodes = total_nodes(t),
        .time_ms = timeman_elapsed_ms(t->sh->ctl),
        .multipv = line + 1,
        .hashfull = cs_tt_hashfull(&t->sh->tt),
        .bound = bound,
    };
    size_t used = 0;
    int len = rm->pv_len > 0 ? rm->pv_len : 1;
    for (int i = 0; i < len; i++) {
        char text[MOVE_TEXT_MAX];
        chess_uci(i < rm->pv_len ? rm->pv[i] : rm->move, text, sizeof text);
        if (used + strlen(text) + 2 > sizeof info.pv)
            break;
        used +=
            (size_t)snprintf(info.pv + used, sizeof info.pv - used, "%s%s", used ? " " : "", text);
    }
    p->on_info(p->info_ctx, &info);
}

static int is_win(Score s)
{
    return s >= ENGINE_WIN_BOUND || s <= -ENGINE_WIN_BOUND;
}

/* One line of one iteration inside an aspiration window that widens on failure. */
static void search_line(struct cs_thread *t, int depth)
{
    struct cs_root_move *rm = &t->root[t->pv_index];
    Score prev = rm->prev_score, delta = ASPIRATION_DELTA;
    Score alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
    const struct search_params *p = t->sh->params;
    if (p->prove) {
        /* A proof: the null window at the threshold, once; the scores are bounds. */
        for (int i = t->pv_index; i < t->nroot; i++)
            t->root[i].score = -SCORE_INFINITE;
        cs_negamax(t, p->prove_beta - 1, p->prove_beta, depth, 0, 1, 0);
        sort_root(t->root, t->pv_index, t->nroot);
        return;
    }
    if (depth >= ASPIRATION_DEPTH && prev > -SCORE_INFINITE && !is_win(prev)) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        for (int i = t->pv_index; i < t->nroot; i++)
            t->root[i].score = -SCORE_INFINITE;
        Score s = cs_negamax(t, alpha, beta, depth, 0, 1, 0);
        sort_root(t->root, t->pv_index, t->nroot);
        if (cs_stop(t))
            return;
        int fail_low = s <= alpha && alpha > -SCORE_INFINITE;
        int fail_high = !fail_low && s >= beta && beta < SCORE_INFINITE;
        /* A GUI shows a long search's swings as they happen (UCI bounds). */
        if ((fail_low || fail_high) && t->id == 0 &&
            timeman_elapsed_ms(t->sh->ctl) >= BOUND_REPORT_MS)
            report(t, depth, t->pv_index, fail_low ? ENGINE_BOUND_UPPER : ENGINE_BOUND_LOWER, s);
        if (fail_low) {
            beta = (alpha + beta) / 2;
            alpha = s - delta < -SCORE_INFINITE ? -SCORE_INFINITE : s - delta;
        } else if (fail_high) {
            beta = s + delta > SCORE_INFINITE ? SCORE_INFINITE : s + delta;
        } else {
            return;
        }
        delta += delta / 2 + 8;
        if (delta > 600) {
            alpha = -SCORE_INFINITE;
            beta = SCORE_INFINITE;
        }
    }
}

/* Should the main thread start no further iteration? */
static int done_after(struct cs_thread *t, int depth, int lines, Move prev_best, int *stable)
{
    struct cs_shared *sh = t->sh;
    const struct search_params *p = sh->params;
    struct search_ctl *ctl = sh->ctl;
    Score best = t->root[0].score;
    if (p->mate > 0 && best >= SCORE_WIN - (2 * p->mate - 1))
        return 1; /* the mate asked for */
    if (p->prove && best >= p->prove_beta)
        return 1; /* a move reached the proof's threshold */
    if (p->infinite || timeman_pondering(ctl))
        return 0;
    if (t->nroot == 1 && ctl->soft_ms != TIMEMAN_NONE)
        return 1; /* a forced move on the clock */
    if (is_win(best) && lines == 1 && !p->prove &&
        depth >= 2 * (SCORE_WIN - (best < 0 ? -best : best)) + 4)
        return 1; /* a proven result, seen with room to spare */
    *stable = t->root[0].move == prev_best ? *stable + 1 : 0;
    /* A clock: the next iteration takes about twice this one; an unstable best move
     * earns more of the budget.  A bare movetime (soft = hard) is used in full. */
    if (ctl->soft_ms != TIMEMAN_NONE && ctl->soft_ms < ctl->hard_ms)
        return timeman_past_soft(ctl, *stable >= 3 ? 3 : *stable >= 1 ? 4 : 6, 6);
    return 0;
}

static void iterate(struct cs_thread *t, int max_depth, int lines, int *finished)
{
    int stable = 0;
    for (int depth = 1 + (t->id & 1); depth <= max_depth; depth++) {
        Move prev_best = t->root[0].move;
        t->root_depth = depth;
        for (int i = 0; i < t->nroot; i++)
            t->root[i].prev_score = t->root[i].score;
        for (t->pv_index = 0; t->pv_index < lines; t->pv_index++) {
            search_line(t, depth);
            if (cs_stop(t))
                break;
        }
        t->pv_index = 0;
        if (cs_stop(t))
            break;
        if (t->id == 0 && t->sh->params->prove) {
            Score s = t->root[0].score;
            report(t, depth, 0,
                   s >= t->sh->params->prove_beta ? ENGINE_BOUND_LOWER : ENGINE_BOUND_UPPER, s);
        } else if (t->id == 0) {
            for (int l = 0; l < lines; l++)
                report(t, depth, l, ENGINE_BOUND_EXACT, 0);
        }
        if (finished)
            *finished = depth;
        if (t->id == 0 && done_after(t, depth, lines, prev_best, &stable))
            break;
    }
}

struct helper {
    struct cs_thread *t;
    int max_depth;
    pthread_t tid;
};

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    iterate(h->t, h->max_depth, 1, NULL);
    return NULL;
}

static void thread_free(struct cs_thread *t)
{
    if (t) {
        free(t->root);
        free(t->cont_hist);
    }
    free(t);
}

/* A thread ready to search the root: the position, the root moves ordered. */
static struct cs_thread *thread_new(struct cs_shared *sh, int id, const struct chess_pos *root)
{
    struct cs_thread *t = calloc(1, sizeof *t);
    if (t) {
        t->root = calloc(CHESS_MAX_MOVES, sizeof *t->root);
        t->cont_hist = calloc(CS_CONT_ENTRIES, sizeof *t->cont_hist);
    }
    if (!t || !t->root || !t->cont_hist) {
        thread_free(t);
        return NULL;
    }
    t->sh = sh;
    t->id = id;
    t->pos = *root;
    memcpy(t->keys, sh->root_keys, sizeof(Key) * (size_t)sh->nroot_keys);
    for (int i = 0; i < CS_MAX_PLY + 2; i++)
        t->frame[i].eval = CS_NO_EVAL;
    t->frame[0].move = 1; /* not a null move: the root may be answered by one */
    struct cs_tt_hit h;
    Move tt_move = cs_tt_probe(&sh->tt, root->key, &h) ? h.move : 0;
    int n = chess_gen_legal(&t->pos, t->moves[1]);
    n = search_restrict_root(t->moves[1], n, sh->params->searchmoves, sh->params->nsearchmoves);
    memcpy(t->moves[0], t->moves[1], sizeof(Move) * (size_t)n);
    cs_order_moves(t, 0, 0, n, tt_move);
    for (int i = 0; i < n; i++) {
        t->root[i].move = cs_pick(t, 0, i, n, NULL);
        t->root[i].score = t->root[i].prev_score = -SCORE_INFINITE;
    }
    t->nroot = n;
    return t;
}

Move chess_search(void *state, const struct search_params *p, struct search_ctl *ctl,
                  struct tt *mem, struct engine_result *out)
{
    const struct chess_pos *root = chess_state_pos(state);
    memset(out, 0, sizeof *out);
    struct cs_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return 0;
    tt_new_search(mem);
    cs_tt_view(&sh->tt, mem);
    sh->ctl = ctl;
    sh->params = p;
    sh->node_limit = ctl->node_limit;
    sh->root_side = root->side;
    sh->contempt = p->contempt;
    sh->nroot_keys = chess_state_recent_keys(state, sh->root_keys, CS_ROOT_HISTORY);

    int nthreads = p->threads < 1 ? 1 : p->threads > CS_MAX_THREADS ? CS_MAX_THREADS : p->threads;
    struct cs_thread *lead = thread_new(sh, 0, root);
    struct helper helpers[CS_MAX_THREADS];
    int nhelpers = 0;
    Move best = 0;
    if (!lead || lead->nroot == 0) {
        thread_free(lead);
        free(sh);
        return 0;
    }
    int max_depth = p->depth > 0 && p->depth < CS_MAX_PLY - 1 ? p->depth : CS_MAX_PLY - 1;
    /* Root noise needs every root move's exact score: one line per move. */
    int lines = p->noise > 0 ? lead->nroot : p->multipv > 1 ? p->multipv : 1;
    if (lines > lead->nroot)
        lines = lead->nroot;
    for (int i = 1; i < nthreads; i++) {
        struct helper *h = &helpers[nhelpers];
        h->t = thread_new(sh, i, root);
        h->max_depth = max_depth;
        if (!h->t)
            break;
        if (pthread_create(&h->tid, NULL, helper_main, h) != 0) {
            thread_free(h->t);
            break;
        }
        nhelpers++;
    }
    int finished = 0;
    iterate(lead, max_depth, lines, &finished);
    atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
    for (int i = 0; i < nhelpers; i++) {
        pthread_join(helpers[i].tid, NULL);
        atomic_fetch_add_explicit(&sh->helper_nodes, helpers[i].t->nodes - helpers[i].t->published,
                                  memory_order_relaxed);
        thread_free(helpers[i].t);
    }

    best = lead->root[0].move;
    out->score =
        lead->root[0].score > -SCORE_INFINITE ? lead->root[0].score : lead->root[0].prev_score;
    /* Stopped before any iteration scored the move it gives: its score is the static
     * evaluation, not the "no score" marker. */
    if (out->score <= -SCORE_INFINITE)
        out->score = cs_static_score(lead);
    if (p->noise > 0 && finished > 0) {
        Move mv[CHESS_MAX_MOVES];
        Score sc[CHESS_MAX_MOVES];
        for (int i = 0; i < lead->nroot; i++) {
            mv[i] = lead->root[i].move;
            sc[i] = lead->root[i].score > -SCORE_INFINITE ? lead->root[i].score
                                                          : lead->root[i].prev_score;
        }
        best = search_noisy_choice(mv, sc, lead->nroot, p->noise, p->seed ^ root->key);
    }
    out->best = best;
    out->depth = finished;
    out->nodes = total_nodes(lead);
    out->time_ms = timeman_elapsed_ms(ctl);
    ctl->nodes = out->nodes;
    thread_free(lead);
    free(sh);
    return best;
}
