/* The review of a game (analysis.h): every position searched once with one engine,
 * each move judged by the drop of its mover's win chance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_internal.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/uci_engine.h"
#include "search/search.h"

static const char *const class_names[ANALYSIS_CLASSES] = {
    "best", "good", "inaccuracy", "mistake", "blunder",
};

const char *analysis_class_name(enum analysis_class c)
{
    return (int)c >= 0 && (int)c < ANALYSIS_CLASSES ? class_names[c] : "?";
}

enum analysis_class analysis_classify(double drop)
{
    return drop >= ANALYSIS_BLUNDER_DROP      ? ANALYSIS_BLUNDER
           : drop >= ANALYSIS_MISTAKE_DROP    ? ANALYSIS_MISTAKE
           : drop >= ANALYSIS_INACCURACY_DROP ? ANALYSIS_INACCURACY
           : drop <= ANALYSIS_BEST_DROP       ? ANALYSIS_BEST
                                              : ANALYSIS_GOOD;
}

double analysis_move_accuracy(double drop)
{
    if (drop < 0)
        drop = 0;
    double a = 103.1668 * exp(-0.04354 * drop) - 3.1669;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

/* A score of the position after a move (its side to move's view), as the mover sees
 * it from the position before: negated when the turn passed, and a proven result one
 * ply further away (so a move that keeps a mate in n scores as mate in n). */
static Score mover_score(Score after, enum side mover, enum side next)
{
    Score s = next == mover ? after : -after;
    if (s >= ENGINE_WIN_BOUND)
        s--;
    else if (s <= -ENGINE_WIN_BOUND)
        s++;
    return s;
}

/* What the search said of one position. */
struct judged {
    Score score; /* side to move's view */
    Move best;
    enum side to_move;
};

/* Check every move against the legal moves and note its texts; st back at the start
 * afterwards.  0, or -1 with err naming the first illegal move. */
static int replay_texts(const struct game *g, void *st, const Move *moves, int n,
                        struct analysis_ply *out, char *err, size_t err_size)
{
    Move *legal = malloc(sizeof(Move) * (size_t)g->max_moves);
    if (!legal)
        return fail(err, err_size, "out of memory");
    int k = 0, bad = 0;
    for (; k < n; k++) {
        int nl = game_legal_moves(g, st, legal), ok = 0;
        for (int i = 0; i < nl && !ok; i++)
            ok = legal[i] == moves[k];
        if (!ok || g->ply(st) >= g->max_plies - 1) {
            bad = 1;
            break;
        }
        struct analysis_ply *p = &out[k];
        memset(p, 0, sizeof *p);
        p->ply = k + 1;
        p->mover = g->side_to_move(st);
        g->move_text(st, moves[k], p->move, sizeof p->move);
        game_move_display(g, st, moves[k], p->move_display, sizeof p->move_display);
        g->make_move(st, moves[k]);
    }
    for (int i = k; i > 0; i--)
        g->unmake_move(st, moves[i - 1]);
    free(legal);
    if (bad)
        return fail(err, err_size, "ply %d: not a legal move there", k + 1);
    return 0;
}

/* The first move of a line (0: none). */
static Move first_line_move(const struct game *g, const void *st, const struct analysis_line *l)
{
    Move m = 0;
    char err[ERROR_TEXT_MAX];
    if (l->pv_len < 1 || g->parse_move(st, l->pv[0], &m, err, sizeof err) != 0)
        return 0;
    return m;
}

/* Who judges a review: agora's engine `e`, or the external engine `ext` (then `err`
 * says why it failed, when it does). */
struct judge_by {
    struct engine *e;
    struct uci_pool *ext;
    int asked; /* positions the external engine was asked so far */
    char err[ERROR_TEXT_MAX];
};

/* Search (or, when the game is over, score by its result) the position st: 0; -1
 * stopped; -2 the external engine failed (by->err). */
static int judge(const struct game *g, void *st, void *view, struct judge_by *by,
                 const struct analysis_review_request *rq, uint64_t nodes, struct judged *out)
{
    struct game_status gs;
    g->status(st, &gs);
    out->to_move = g->side_to_move(st);
    out->best = 0;
    if (gs.result != RESULT_ONGOING) {
        out->score = search_result_score(gs.result, out->to_move, 0);
        return 0;
    }
    struct analysis_line l;
    memcpy(view, st, g->state_size);
    if (by->ext) {
        struct analysis_external_go go = {
            .lines = 1,
            .nodes = nodes,
            .movetime_ms = rq->movetime_ms,
            .new_game = by->asked++ == 0,
            .stop = rq->stop,
        };
        struct analysis_line *lines = malloc(sizeof *lines * ANALYSIS_MAX_LINES);
        int n = lines ? analysis_external(g, st, view, by->ext, &go, lines, &out->best, by->err,
                                          sizeof by->err)
                      : fail(by->err, sizeof by->err, "out of memory");
        if (n > 0)
            l = lines[0];
        free(lines);
        if (rq->stop && atomic_load(rq->stop))
            return -1;
        if (n <= 0)
            return -2;
        if (!out->best)
            out->best = first_line_move(g, view, &l);
    } else {
        struct engine_limits lim = {
            .nodes = nodes,
            .movetime_ms = rq->movetime_ms,
            .stop = rq->stop,
            .contempt = -1,
            .threads = 1,
        };
        out->best = analysis_search(g, st, view, by->e, &lim, &l);
        if (rq->stop && atomic_load(rq->stop))
            return -1;
    }
    out->score = l.score;
    return 0;
}

static void judge_ply(const struct game *g, void *st, const struct engine_profile *prof,
                      const struct judged *before, const struct judged *after, Move played,
                      struct analysis_ply *p)
{
    p->score_before = before->score;
    p->score_after = mover_score(after->score, p->mover, after->to_move);
    p->mate_before = analysis_mate(p->score_before);
    p->mate_after = analysis_mate(p->score_after);
    p->win_before = engine_win_chance(prof, p->score_before);
    p->win_after = engine_win_chance(prof, p->score_after);
    double drop = 100.0 * (p->win_before - p->win_after);
    p->drop = drop > 0 ? drop : 0;
    Move best = before->best ? before->best : played;
    g->move_text(st, best, p->best, sizeof p->best);
    game_move_display(g, st, best, p->best_display, sizeof p->best_display);
    p->cls = best == played ? ANALYSIS_BEST : analysis_classify(p->drop);
    /* A proven win let go, or a proven loss walked into, is a mistake of some size
     * however the curve weighs what is left. */
    int win_lost = p->mate_before > 0 && p->mate_after <= 0;
    int loss_made = p->mate_before >= 0 && p->mate_after < 0;
    if (best != played && (win_lost || loss_made) && p->cls < ANALYSIS_INACCURACY)
        p->cls = ANALYSIS_INACCURACY;
}

static void summarise(const struct analysis_ply *plies, int n, struct analysis_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    double total[2] = {0, 0};
    for (int k = 0; k < n; k++) {
        int s = plies[k].mover == SIDE_BLACK;
        sum->moves[s]++;
        sum->count[s][plies[k].cls]++;
        total[s] += analysis_move_accuracy(plies[k].drop);
    }
    for (int s = 0; s < 2; s++)
        sum->accuracy[s] = sum->moves[s] ? total[s] / sum->moves[s] : 0;
}

int analysis_review(const struct game *g, const void *start, const Move *moves, int n,
                    const struct analysis_review_request *rq, struct analysis_ply *out,
                    struct analysis_summary *sum, char *err, size_t err_size)
{
    static const struct analysis_review_request none = {0};
    if (!rq)
        rq = &none;
    const struct engine_profile *prof = engine_profile_of(g);
    uint64_t nodes = rq->nodes            ? rq->nodes
                     : rq->movetime_ms    ? 0
                     : prof->review_nodes ? prof->review_nodes
                                          : ANALYSIS_DEFAULT_NODES;
    void *st = malloc(g->state_size), *view = malloc(g->state_size);
    struct judged *j = malloc(sizeof *j * (size_t)(n + 1));
    struct engine *e = engine_new(ANALYSIS_HASH_MB);
    if (!st || !view || !j || !e) {
        free(st);
        free(view);
        free(j);
        engine_free(e);
        return fail(err, err_size, "out of memory");
    }
    memcpy(st, start, g->state_size); /* states are flat blocks (game.h) */
    int reviewed = -1;
    struct judge_by by = {.e = e, .ext = rq->external};
    if (rq->report) {
        memset(rq->report, 0, sizeof *rq->report);
        if (by.ext)
            snprintf(rq->report->name, sizeof rq->report->name, "%s", uci_pool_name(by.ext));
        else
            analysis_own_engine_name(g, rq->report->name, sizeof rq->report->name);
    }
    if (replay_texts(g, st, moves, n, out, err, err_size) == 0) {
        /* Position k is the one before ply k+1 and after ply k. */
        int k = 0;
        for (; k <= n; k++) {
            int r = judge(g, st, view, &by, rq, nodes, &j[k]);
            if (r == -2) {
                /* The external engine failed: agora's own judges the whole game, so
                 * one engine's scale measures every move. */
                if (rq->report) {
                    snprintf(rq->report->error, sizeof rq->report->error, "%s", by.err);
                    analysis_own_engine_name(g, rq->report->name, sizeof rq->report->name);
                }
                by.ext = NULL;
                for (int i = k; i > 0; i--)
                    g->unmake_move(st, moves[i - 1]);
                k = -1;
                continue;
            }
            if (r != 0)
                break;
            if (rq->on_progress)
                rq->on_progress(rq->ctx, k + 1, n + 1);
            if (k < n)
                g->make_move(st, moves[k]);
        }
        reviewed = k > 0 ? k - 1 : 0;
        /* Back to each ply's position, judging it on the way. */
        for (int i = (k <= n ? k : n); i > 0; i--) {
            g->unmake_move(st, moves[i - 1]);
            if (i - 1 < reviewed)
                judge_ply(g, st, prof, &j[i - 1], &j[i], moves[i - 1], &out[i - 1]);
        }
        if (sum)
            summarise(out, reviewed, sum);
    }
    free(st);
    free(view);
    free(j);
    engine_free(e);
    return reviewed;
}
