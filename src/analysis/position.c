/* The lines of one position (analysis.h): one search for one line, and for several a
 * search per line and depth, each excluding the first moves of the lines above it, so
 * every search (alpha-beta, a game's own) gives MultiPV without knowing of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "analysis_internal.h"
#include "engines/engine.h"
#include "engines/uci_engine.h"

int analysis_mate(Score s)
{
    if (s >= ENGINE_WIN_BOUND)
        return (SCORE_WIN - s + 1) / 2;
    if (s <= -ENGINE_WIN_BOUND)
        return -((SCORE_WIN + s + 1) / 2);
    return 0;
}

int64_t analysis_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void analysis_line_pv(const struct game *g, void *st, const char *pv, Move first,
                      struct analysis_line *l)
{
    Move played[ANALYSIS_PV_MAX];
    int n = 0;
    char tok[MOVE_TEXT_MAX], err[ERROR_TEXT_MAX];
    const char *p = pv ? pv : "";
    while (n < ANALYSIS_PV_MAX) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (!len || len >= sizeof tok)
            break;
        memcpy(tok, p, len);
        tok[len] = 0;
        p += len;
        Move m;
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING || g->parse_move(st, tok, &m, err, sizeof err) != 0)
            break;
        if (n == 0 && first && m != first)
            break; /* a line that is not the search's answer: the answer alone */
        g->move_text(st, m, l->pv[n], MOVE_TEXT_MAX);
        game_move_display(g, st, m, l->pv_display[n], MOVE_TEXT_MAX);
        g->make_move(st, m);
        played[n++] = m;
    }
    for (int i = n; i > 0; i--)
        g->unmake_move(st, played[i - 1]);
    if (n == 0 && first) {
        g->move_text(st, first, l->pv[0], MOVE_TEXT_MAX);
        game_move_display(g, st, first, l->pv_display[0], MOVE_TEXT_MAX);
        n = 1;
    }
    l->pv_len = n;
}

void analysis_line_score(const struct engine_profile *prof, Score s, struct analysis_line *l)
{
    l->score = s;
    l->mate = analysis_mate(s);
    l->win = engine_win_chance(prof, s);
}

/* One search's progress: the last exact report of its best line. */
struct watch {
    struct engine_info last;
    int have;
    /* Streaming one line: the line as reported so far, shown at once. */
    const struct game *g;
    void *view; /* a copy of the position for replaying the pv */
    const struct analysis_request *rq;
    struct analysis_line *line;
};

static void on_info(void *ctx, const struct engine_info *info)
{
    struct watch *w = ctx;
    if (info->bound != ENGINE_BOUND_EXACT || info->multipv > 1)
        return;
    w->last = *info;
    w->have = 1;
    if (!w->line || !w->rq->on_lines)
        return;
    struct analysis_line *l = w->line;
    l->multipv = 1;
    l->depth = info->depth;
    l->seldepth = info->seldepth;
    analysis_line_score(engine_profile_of(w->g), info->score, l);
    l->nodes = info->nodes;
    l->time_ms = info->time_ms;
    analysis_line_pv(w->g, w->view, info->pv, 0, l);
    w->rq->on_lines(w->rq->ctx, l, 1);
}

/* The first move of a line, or 0. */
static Move first_move(const struct game *g, void *view, const struct analysis_line *l)
{
    Move m = 0;
    char err[ERROR_TEXT_MAX];
    if (l->pv_len < 1 || g->parse_move(view, l->pv[0], &m, err, sizeof err) != 0)
        return 0;
    return m;
}

/* The line a search gave: its answer, with its last report's pv when that leads with
 * the answer.  A search cut short before any root move got a score this iteration may
 * answer without a score (a chess search's out->score is then -SCORE_INFINITE): its
 * last finished iteration's line stands instead. */
static Move line_of(const struct game *g, void *view, const struct watch *w,
                    const struct engine_result *r, struct analysis_line *l)
{
    memset(l, 0, sizeof *l);
    l->multipv = 1;
    l->nodes = r->nodes;
    l->time_ms = r->time_ms;
    const struct engine_profile *prof = engine_profile_of(g);
    int scored = r->score > -SCORE_INFINITE && r->score < SCORE_INFINITE;
    if (!scored && w->have) {
        l->depth = w->last.depth;
        l->seldepth = w->last.seldepth;
        analysis_line_score(prof, w->last.score, l);
        analysis_line_pv(g, view, w->last.pv, 0, l);
        Move m = first_move(g, view, l);
        if (m)
            return m;
    }
    l->depth = r->depth;
    l->seldepth = w->have ? w->last.seldepth : r->depth;
    analysis_line_score(prof, scored ? r->score : 0, l);
    analysis_line_pv(g, view, w->have ? w->last.pv : "", r->best, l);
    return r->best;
}

Move analysis_search(const struct game *g, void *st, void *view, struct engine *e,
                     const struct engine_limits *limits, struct analysis_line *out)
{
    struct engine_limits lim = *limits;
    struct watch w = {.g = g};
    lim.on_info = on_info;
    lim.info_ctx = &w;
    struct engine_result r;
    engine_go(e, g, st, 0, &lim, 0, &r);
    if (!r.best)
        return 0;
    return line_of(g, view, &w, &r, out);
}

static void sort_lines(struct analysis_line *l, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && l[j - 1].score < l[j].score; j--) {
            struct analysis_line t = l[j];
            l[j] = l[j - 1];
            l[j - 1] = t;
        }
    for (int i = 0; i < n; i++)
        l[i].multipv = i + 1;
}

/* The budget left of a whole analysis. */
struct budget {
    uint64_t nodes, used;
    int64_t movetime_ms, start_ms;
    const atomic_int *stop;
};

static int budget_spent(const struct budget *b)
{
    return (b->stop && atomic_load(b->stop)) || (b->nodes && b->used >= b->nodes) ||
           (b->movetime_ms && analysis_now_ms() - b->start_ms >= b->movetime_ms);
}

static void budget_limits(const struct budget *b, struct engine_limits *lim)
{
    *lim = (struct engine_limits){0};
    lim->nodes = b->nodes ? b->nodes - b->used : 0;
    if (b->movetime_ms) {
        int64_t left = b->movetime_ms - (analysis_now_ms() - b->start_ms);
        lim->movetime_ms = left > 1 ? left : 1;
    }
    lim->stop = b->stop;
    lim->contempt = -1; /* a draw is worth 0: a judgement, not a preference */
    lim->threads = 1;
}

/* Several lines: depth by depth, line k searched without the first moves of lines
 * 1..k-1.  The lines of the last depth that every line finished are the answer. */
static int several_lines(const struct game *g, void *st, void *view, struct engine *e,
                         const struct analysis_request *rq, int lines, struct budget *b,
                         struct analysis_line *out)
{
    Move *all = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move *allowed = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct analysis_line *cur = malloc(sizeof *cur * ANALYSIS_MAX_LINES);
    if (!all || !allowed || !cur) {
        free(all);
        free(allowed);
        free(cur);
        return -1;
    }
    Move first[ANALYSIS_MAX_LINES] = {0}; /* the first move of each line of this depth */
    int nroot = game_legal_moves(g, st, all), found = 0;
    if (lines > nroot)
        lines = nroot;
    for (int depth = 1; depth < ENGINE_MAX_PLY && lines > 0; depth++) {
        int done = 0, deeper = 0;
        for (; done < lines; done++) {
            int nallowed = 0;
            for (int i = 0; i < nroot; i++) {
                int taken = 0;
                for (int k = 0; k < done && !taken; k++)
                    taken = all[i] == first[k];
                if (!taken)
                    allowed[nallowed++] = all[i];
            }
            struct engine_limits lim;
            budget_limits(b, &lim);
            lim.depth = depth;
            lim.searchmoves = allowed;
            lim.nsearchmoves = nallowed;
            struct analysis_line l;
            Move m = analysis_search(g, st, view, e, &lim, &l);
            b->used += m ? l.nodes : 0;
            if (budget_spent(b) || !m)
                break;
            cur[done] = l;
            first[done] = m;
            deeper |= l.depth >= depth;
        }
        if (done < lines) {
            /* Cut short: the last full set stands; without one, the lines finished. */
            if (!found) {
                memcpy(out, cur, sizeof *cur * (size_t)done);
                sort_lines(out, done);
                found = done;
            }
            break;
        }
        for (int k = 0; k < lines; k++) {
            cur[k].nodes = b->used;
            cur[k].time_ms = analysis_now_ms() - b->start_ms;
        }
        memcpy(out, cur, sizeof *cur * (size_t)lines);
        sort_lines(out, lines);
        found = lines;
        if (rq->on_lines)
            rq->on_lines(rq->ctx, out, found);
        if (!deeper)
            break; /* every line proven: no depth says more */
    }
    free(all);
    free(allowed);
    free(cur);
    return found;
}

int analysis_position(const struct game *g, const void *st, const struct analysis_request *rq,
                      struct engine *e, struct analysis_line *out)
{
    const struct engine_profile *prof = engine_profile_of(g);
    int lines = rq->multipv < 1                    ? 1
                : rq->multipv > ANALYSIS_MAX_LINES ? ANALYSIS_MAX_LINES
                                                   : rq->multipv;
    struct budget b = {
        .nodes = rq->nodes,
        .movetime_ms = rq->movetime_ms,
        .start_ms = analysis_now_ms(),
        .stop = rq->stop,
    };
    if (!b.nodes && !b.movetime_ms)
        b.nodes =
            (prof->review_nodes ? prof->review_nodes : ANALYSIS_DEFAULT_NODES) * (uint64_t)lines;
    void *work = malloc(g->state_size), *view = malloc(g->state_size);
    struct engine *own = e ? NULL : engine_new(ANALYSIS_HASH_MB);
    if (!work || !view || (!e && !own)) {
        free(work);
        free(view);
        engine_free(own);
        return -1;
    }
    memcpy(work, st, g->state_size); /* states are flat blocks (game.h) */
    memcpy(view, st, g->state_size);
    if (!e)
        e = own;
    int found = 0, judged = 0;
    struct game_status gs;
    g->status(work, &gs);
    if (rq->report)
        memset(rq->report, 0, sizeof *rq->report);
    if (gs.result == RESULT_ONGOING && rq->external) {
        if (rq->report)
            snprintf(rq->report->name, sizeof rq->report->name, "%s", uci_pool_name(rq->external));
        struct analysis_external_go go = {
            .lines = lines,
            .nodes = b.nodes,
            .movetime_ms = b.movetime_ms,
            .new_game = 1,
            .stop = rq->stop,
            .on_lines = rq->on_lines,
            .ctx = rq->ctx,
        };
        char err[ERROR_TEXT_MAX];
        Move best;
        found = analysis_external(g, work, view, rq->external, &go, out, &best, err, sizeof err);
        judged = found >= 0 || (rq->stop && atomic_load(rq->stop));
        if (found < 0 && rq->report)
            snprintf(rq->report->error, sizeof rq->report->error, "%s", err);
        if (found < 0)
            found = 0;
    }
    if (!judged && rq->report)
        analysis_own_engine_name(g, rq->report->name, sizeof rq->report->name);
    if (gs.result != RESULT_ONGOING || judged) {
        /* found stands */
    } else if (lines == 1) {
        struct engine_limits lim;
        budget_limits(&b, &lim);
        struct analysis_line streamed;
        struct watch w = {.g = g, .view = view, .rq = rq, .line = &streamed};
        lim.on_info = on_info;
        lim.info_ctx = &w;
        struct engine_result r;
        engine_go(e, g, work, 0, &lim, 0, &r);
        found = r.best && line_of(g, view, &w, &r, &out[0]) ? 1 : 0;
    } else {
        found = several_lines(g, work, view, e, rq, lines, &b, out);
    }
    free(work);
    free(view);
    engine_free(own);
    return found;
}
