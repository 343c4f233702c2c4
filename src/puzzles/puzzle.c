/* The puzzle judge (puzzle.h): one position, searched step by step at one node budget.
 *
 * Step k (the solver to move): the best move (a full search) must win, and no other
 * move may: the other moves are searched together with a null window just above the
 * rules' not_win (search_types.h, engine_limits.prove) at PROOF_FACTOR times the budget,
 * then each forcing one (a capture, a promotion, a check: few replies) on its own at
 * PROOF_FORCING_FACTOR times the budget; each search must prove that no move reaches the window: no
 * other proven win of any length (a slower mate, formation or elimination), no decisive gain, not
 * even a doubtful one, whether the solution is a proven win or a decisive gain.  At the
 * last step of a proven
 * line (the solution's move ends the game) the other moves that end it with the
 * solver's win at once, by the game's own status, are accepted beside it (written as
 * the puzzle's alternatives) and left out of the proof.  Then the opponent's best
 * defence (a search from its side) is played, and the next step follows, until the win
 * is clear: the game ends in the solver's favour (a proven line), or, for a decisive
 * gain that is no proven win, the static score after the defence is itself decisive
 * and the search still says so (the gain is on the board, not only in the search's
 * horizon). */
#include "puzzle.h"

#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "puzzle_internal.h"

#define PUZZLE_HASH_MB 1
#define TEMPTING_MARGIN 50 /* a first move within this of the solution at one ply tempts */
/* The proof that no other move wins runs at this many times the step's budget: that
 * nothing else wins is the harder question (a slower mate hides deeper than the
 * fastest), and the one a solver meets when a real win is called wrong. */
#define PROOF_FACTOR 4
/* A move after which the opponent has at most this many legal moves is forcing (a
 * check, mostly): it gets a proof of its own too. */
#define PROOF_FORCING_REPLIES 6
#define PROOF_FORCING_FACTOR 2 /* its budget: this many times the step's */

const char *puzzle_reject_name(enum puzzle_reject r)
{
    static const char *const names[] = {
        "ok",         "no-rules", "over",      "won-already", "no-win",
        "not-unique", "unclear",  "no-memory", "no-tables",
    };
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

const char *puzzle_judge_name(enum puzzle_judge by)
{
    return by == PUZZLE_BY_TABLES ? "tables" : by == PUZZLE_BY_SEARCH ? "search" : "any";
}

int puzzle_first_rating(int easy, int depth_needed, int tempting, int solver_moves)
{
    int low = easy ? PUZZLE_EASY_LOW : PUZZLE_HARD_LOW;
    int high = easy ? PUZZLE_EASY_HIGH : PUZZLE_HARD_HIGH;
    int r =
        (easy ? 500 : 1300) + 150 * (solver_moves - 1) + 40 * tempting + 30 * (depth_needed - 1);
    return r < low ? low : r > high ? high : r;
}

static int wins(const struct puzzle_rules *r, Score s)
{
    return s >= ENGINE_WIN_BOUND || (s < SCORE_INFINITE && s >= r->win);
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

/* The proof that no move of only[0..nonly) reaches `beta` (puzzle.c's head): a search
 * with the null window at `beta` from a cleared table.  1 when none does at the depth
 * the budget allowed, 0 when one does, -1 when no iteration finished. */
static int none_reaches(const struct game *g, void *st, struct engine *e, uint64_t nodes,
                        const Move *only, int nonly, Score beta)
{
    engine_clear(e);
    struct engine_limits lim = {0};
    lim.nodes = nodes;
    lim.contempt = -1;
    lim.threads = 1;
    lim.searchmoves = only;
    lim.nsearchmoves = nonly;
    lim.prove = 1;
    lim.prove_beta = beta;
    struct engine_result r;
    engine_go(e, g, st, 0, &lim, 0, &r);
    if (r.score >= beta)
        return 0;
    return r.depth > 0 ? 1 : -1;
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
    Move *mv, *rest, *now, *replies;
};

/* Is move m of `st` forcing: noisy (a capture, a promotion), or leaving the opponent
 * at most PROOF_FORCING_REPLIES legal moves (a check)? */
static int forcing(const struct game *g, struct work *w, Move m)
{
    if (g->is_noisy(w->st, m))
        return 1;
    g->make_move(w->st, m);
    int n = game_legal_moves(g, w->st, w->replies);
    g->unmake_move(w->st, m);
    return n <= PROOF_FORCING_REPLIES;
}

/* The proof that none of the other moves rest[0..k) wins (the head of this file):
 * PUZZLE_OK, or why not. */
static enum puzzle_reject prove_others(const struct game *g, struct work *w, struct engine *e,
                                       uint64_t nodes, const struct puzzle_rules *rules, int k)
{
    Score beta = rules->not_win + 1;
    int none = none_reaches(g, w->st, e, nodes * PROOF_FACTOR, w->rest, k, beta);
    /* Then each forcing move on its own: a check's mate or a sacrifice's attack is
     * where the search of all the moves together looks least deep. */
    for (int i = 0; i < k && none > 0; i++)
        if (forcing(g, w, w->rest[i]))
            none = none_reaches(g, w->st, e, nodes * PROOF_FORCING_FACTOR, &w->rest[i], 1, beta);
    return none < 0 ? PUZZLE_UNCLEAR : none ? PUZZLE_OK : PUZZLE_NOT_UNIQUE;
}

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
        Score s1, sr;
        Move m1 = search(g, st, e, nodes, 0, NULL, 0, &p, &s1);
        if (!m1 || !wins(rules, s1))
            return PUZZLE_NO_WIN;
        int proven = s1 >= ENGINE_WIN_BOUND;
        /* A decisive gain must be the move's own: not a position won already. */
        if (step == 0 && !proven && search_evaluate(g, st) >= rules->win)
            return PUZZLE_WON_ALREADY;
        if (step == 0)
            out->depth_needed = p.depth_won ? p.depth_won : 1;
        /* The moves that end the game with the solver's win at once, by the game's own
         * status; the others are left to the proof. */
        int k = 0, nnow = 0, m1_ends = 0;
        for (int i = 0; i < n; i++) {
            g->make_move(st, w->mv[i]);
            int ends = solver_wins(g, st, solver);
            g->unmake_move(st, w->mv[i]);
            if (w->mv[i] == m1)
                m1_ends = ends;
            else if (ends)
                w->now[nnow++] = w->mv[i];
            else
                w->rest[k++] = w->mv[i];
        }
        /* Another move wins at once: the solution's own move must be such a last move
         * (then the others are its alternatives), and not too many of them. */
        if (nnow > 0 && (!m1_ends || nnow > PUZZLE_ALT_MAX))
            return PUZZLE_NOT_UNIQUE;
        if (k > 0) {
            enum puzzle_reject why = prove_others(g, w, e, nodes, rules, k);
            if (why != PUZZLE_OK)
                return why;
        }
        out->line[out->n++] = m1;
        g->make_move(st, m1);
        if (is_over(g, st)) {
            out->proven = solver_wins(g, st, solver);
            if (!out->proven)
                return PUZZLE_NO_WIN;
            out->nalt = nnow;
            memcpy(out->alt, w->now, sizeof(Move) * (size_t)nnow);
            return PUZZLE_OK;
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
    return puzzle_solve_by(g, st0, nodes, e, PUZZLE_BY_ANY, out);
}

enum puzzle_reject puzzle_solve_by(const struct game *g, const void *st0, uint64_t nodes,
                                   struct engine *e, enum puzzle_judge by,
                                   struct puzzle_solution *out)
{
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    memset(out, 0, sizeof *out);
    if (!rules)
        return PUZZLE_NO_RULES;
    struct work w = {
        .st = malloc(g->state_size),
        .mv = malloc(sizeof(Move) * (size_t)g->max_moves),
        .rest = malloc(sizeof(Move) * (size_t)g->max_moves),
        .now = malloc(sizeof(Move) * (size_t)g->max_moves),
        .replies = malloc(sizeof(Move) * (size_t)g->max_moves),
    };
    struct engine *own = e ? NULL : engine_new(PUZZLE_HASH_MB);
    enum puzzle_reject r = PUZZLE_NO_MEMORY;
    if (!w.st || !w.mv || !w.rest || !w.now || !w.replies || (!e && !own))
        goto done;
    if (!e)
        e = own;
    memcpy(w.st, st0, g->state_size); /* states are flat blocks (game.h) */
    if (game_legal_moves(g, w.st, w.mv) < 2) {
        r = PUZZLE_OVER;
        goto done;
    }
    /* Inside a game's endgame tables the tables prove it, exactly; else the search. */
    if (by != PUZZLE_BY_SEARCH && puzzle_solve_by_tables(g, w.st, w.mv, out, &r)) {
        out->by = PUZZLE_BY_TABLES;
    } else if (by == PUZZLE_BY_TABLES) {
        r = PUZZLE_NO_TABLES;
    } else {
        out->by = PUZZLE_BY_SEARCH;
        out->nodes = nodes;
        r = walk(g, &w, e, nodes, rules, out);
    }
    if (r != PUZZLE_OK) {
        out->n = 0;
        out->nalt = 0;
        goto done;
    }
    memcpy(w.st, st0, g->state_size);
    int n = game_legal_moves(g, w.st, w.mv);
    out->tempting = count_tempting(g, w.st, e, nodes, rules, out->line[0], w.mv, n);
    if (rules->themes)
        out->nthemes = rules->themes(w.st, out->line, out->n, out->themes, PUZZLE_THEMES_MAX);
    for (int i = 0; i < out->nthemes && !out->easy; i++)
        for (int t = 0; rules->easy_themes && rules->easy_themes[t]; t++)
            out->easy |= strcmp(out->themes[i], rules->easy_themes[t]) == 0;
    out->rating =
        puzzle_first_rating(out->easy, out->depth_needed, out->tempting, (out->n + 1) / 2);
done:
    free(w.st);
    free(w.mv);
    free(w.rest);
    free(w.now);
    free(w.replies);
    engine_free(own);
    return r;
}
