/* The puzzle judge (puzzle.h): one position, searched step by step at one node budget.
 *
 * Step k (the solver to move): the best move must win and, where there is a choice,
 * the best of the other moves must not (a search restricted to them).  Then the
 * opponent's best defence (a search from its side) is played, and the next step
 * follows, until the win is clear: the game ends in the solver's favour (a proven
 * line), or, for a decisive gain that is no proven win, the static score after the
 * defence is itself decisive and the search still says so (the gain is on the board,
 * not only in the search's horizon). */
#include "puzzle.h"

#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "puzzle_internal.h"

#define PUZZLE_HASH_MB 1
#define TEMPTING_MARGIN 50 /* a first move within this of the solution at one ply tempts */

const char *puzzle_reject_name(enum puzzle_reject r)
{
    static const char *const names[] = {
        "ok", "no-rules", "over", "won-already", "no-win", "not-unique", "unclear", "no-memory",
    };
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

int puzzle_first_rating(int depth_needed, int tempting, int solver_moves)
{
    int r = 600 + 100 * depth_needed + 40 * tempting + 50 * (solver_moves - 1);
    return r < 400 ? 400 : r > 2800 ? 2800 : r;
}

static int wins(const struct puzzle_rules *r, Score s)
{
    return s >= ENGINE_WIN_BOUND || (s < SCORE_INFINITE && s >= r->win);
}

static int does_not_win(const struct puzzle_rules *r, Score s)
{
    return s < ENGINE_WIN_BOUND && s <= r->not_win;
}

/* What one search reports: its last exact score, and the first depth that won. */
struct probe {
    const struct puzzle_rules *rules;
    Score last;
    int have, depth_won;
};

static void on_info(void *ctx, const struct engine_info *info)
{
    struct probe *p = ctx;
    if (info->bound != ENGINE_BOUND_EXACT || info->multipv > 1)
        return;
    p->last = info->score;
    p->have = 1;
    if (!p->depth_won && wins(p->rules, info->score))
        p->depth_won = info->depth;
}

/* A search of `st` from a cleared table: the best move among only[0..nonly) (all
 * when nonly is 0), its score into *score (side to move's view). */
static Move search(const struct game *g, void *st, struct engine *e, uint64_t nodes, int depth,
                   const Move *only, int nonly, struct probe *p, Score *score)
{
    engine_clear(e);
    struct engine_limits lim = {0};
    lim.nodes = nodes;
    lim.depth = depth;
    lim.contempt = -1;
    lim.threads = 1;
    lim.searchmoves = only;
    lim.nsearchmoves = nonly;
    lim.on_info = on_info;
    lim.info_ctx = p;
    struct engine_result r;
    Move m = engine_go(e, g, st, 0, &lim, 0, &r);
    int scored = r.score > -SCORE_INFINITE && r.score < SCORE_INFINITE;
    *score = scored ? r.score : p->have ? p->last : -SCORE_INFINITE;
    return m;
}

static int solver_wins(const struct game *g, const void *st, enum side solver)
{
    struct game_status gs;
    g->status(st, &gs);
    return gs.result == (solver == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS);
}

static int is_over(const struct game *g, const void *st)
{
    struct game_status gs;
    g->status(st, &gs);
    return gs.result != RESULT_ONGOING;
}

/* The first moves other than `best` that score as well as it (within the margin) in a
 * one-ply search: the moves that tempt. */
static int count_tempting(const struct game *g, void *st, struct engine *e, uint64_t nodes,
                          const struct puzzle_rules *rules, Move best, const Move *mv, int n)
{
    struct probe p = {.rules = rules};
    Score sb, s;
    search(g, st, e, nodes, 1, &best, 1, &p, &sb);
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i] == best)
            continue;
        struct probe q = {.rules = rules};
        search(g, st, e, nodes, 1, &mv[i], 1, &q, &s);
        count += s >= sb - TEMPTING_MARGIN;
    }
    return count;
}

struct work {
    void *st;
    Move *mv, *rest;
};

static enum puzzle_reject walk(const struct game *g, struct work *w, struct engine *e,
                               uint64_t nodes, const struct puzzle_rules *rules,
                               struct puzzle_solution *out)
{
    void *st = w->st;
    enum side solver = g->side_to_move(st);
    for (int step = 0; step < rules->max_steps; step++) {
        int n = game_legal_moves(g, st, w->mv);
        if (n == 0)
            return PUZZLE_NO_WIN;
        struct probe p = {.rules = rules};
        Score s1, s2, sr;
        Move m1 = search(g, st, e, nodes, 0, NULL, 0, &p, &s1);
        if (!m1 || !wins(rules, s1))
            return PUZZLE_NO_WIN;
        int proven = s1 >= ENGINE_WIN_BOUND;
        /* A decisive gain must be the move's own: not a position won already. */
        if (step == 0 && !proven && search_evaluate(g, st) >= rules->win)
            return PUZZLE_WON_ALREADY;
        if (step == 0)
            out->depth_needed = p.depth_won ? p.depth_won : 1;
        if (n > 1) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if (w->mv[i] != m1)
                    w->rest[k++] = w->mv[i];
            struct probe q = {.rules = rules};
            search(g, st, e, nodes, 0, w->rest, k, &q, &s2);
            /* A proven win is the puzzle's when every other move proves none, or only
             * a slower one (a move later at least: the puzzle is the fastest win); a
             * decisive gain when every other move stays clearly below it. */
            if (proven ? s2 > s1 - 2 : wins(rules, s2))
                return PUZZLE_NOT_UNIQUE;
            if (!proven && !does_not_win(rules, s2))
                return PUZZLE_UNCLEAR;
        }
        out->line[out->n++] = m1;
        g->make_move(st, m1);
        if (is_over(g, st)) {
            out->proven = solver_wins(g, st, solver);
            return out->proven ? PUZZLE_OK : PUZZLE_NO_WIN;
        }
        if (out->n + 2 > PUZZLE_LINE_MAX)
            return PUZZLE_UNCLEAR;
        struct probe d = {.rules = rules};
        Move r = search(g, st, e, nodes, 0, NULL, 0, &d, &sr);
        if (!r)
            return PUZZLE_UNCLEAR;
        g->make_move(st, r);
        if (is_over(g, st))
            return PUZZLE_UNCLEAR; /* the defence ends the game: no win to show */
        if (!proven && search_evaluate(g, st) >= rules->win && wins(rules, (Score)-sr))
            return PUZZLE_OK; /* the line ends with the solver's move */
        out->line[out->n++] = r;
    }
    return PUZZLE_UNCLEAR;
}

enum puzzle_reject puzzle_solve(const struct game *g, const void *st0, uint64_t nodes,
                                struct engine *e, struct puzzle_solution *out)
{
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    memset(out, 0, sizeof *out);
    if (!rules)
        return PUZZLE_NO_RULES;
    struct work w = {
        .st = malloc(g->state_size),
        .mv = malloc(sizeof(Move) * (size_t)g->max_moves),
        .rest = malloc(sizeof(Move) * (size_t)g->max_moves),
    };
    struct engine *own = e ? NULL : engine_new(PUZZLE_HASH_MB);
    enum puzzle_reject r = PUZZLE_NO_MEMORY;
    if (!w.st || !w.mv || !w.rest || (!e && !own))
        goto done;
    if (!e)
        e = own;
    memcpy(w.st, st0, g->state_size); /* states are flat blocks (game.h) */
    if (game_legal_moves(g, w.st, w.mv) < 2) {
        r = PUZZLE_OVER;
        goto done;
    }
    /* Inside a game's endgame tables the tables prove it, exactly; else the search. */
    if (!puzzle_solve_by_tables(g, w.st, w.mv, out, &r))
        r = walk(g, &w, e, nodes, rules, out);
    if (r != PUZZLE_OK) {
        out->n = 0;
        goto done;
    }
    memcpy(w.st, st0, g->state_size);
    int n = game_legal_moves(g, w.st, w.mv);
    out->tempting = count_tempting(g, w.st, e, nodes, rules, out->line[0], w.mv, n);
    out->rating = puzzle_first_rating(out->depth_needed, out->tempting, (out->n + 1) / 2);
    if (rules->themes)
        out->nthemes = rules->themes(w.st, out->line, out->n, out->themes, PUZZLE_THEMES_MAX);
done:
    free(w.st);
    free(w.mv);
    free(w.rest);
    engine_free(own);
    return r;
}
