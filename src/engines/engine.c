/* The engine front: levels and caller limits merged into one plan, the search run,
 * and the answer checked against the legal moves before it leaves. */
#include <stdlib.h>

#include "core/rng.h"
#include "engine.h"
#include "search/proof.h"

/* A search with nothing to stop it (no limit, not infinite) runs as level 8. */
#define ENGINE_DEFAULT_LEVEL ENGINE_LEVEL_MAX
/* MCTS given only a depth (which it has no use for) gets this many iterations. */
#define ENGINE_MCTS_DEFAULT_NODES 100000
/* A draw is worth this much less than an even position to the engine by default:
 * enough to avoid repeating in an even position, far less than a piece. */
#define ENGINE_CONTEMPT 15
/* A guess of the node rate, for sizing a table by time (the real rate varies by
 * game and machine; a factor of two either way matters little). */
#define ENGINE_GUESS_NPS 1000000
#define ENGINE_MIN_HASH (64u << 10)
#define ENGINE_MAX_HASH (32u << 20)

/* The table's memory serves whichever of alpha-beta and the game's own search runs; it is
 * cleared when the search using it changes (their entries differ). */
struct engine {
    struct tt tt;
    enum engine_algo table_user;
};

struct engine *engine_new(size_t hash_mb)
{
    struct engine *e = calloc(1, sizeof *e);
    size_t bytes = hash_mb ? hash_mb << 20 : ENGINE_MIN_HASH;
    if (e && tt_init(&e->tt, bytes) != 0) {
        free(e);
        return NULL;
    }
    return e;
}

static struct engine *engine_new_bytes(size_t bytes)
{
    struct engine *e = calloc(1, sizeof *e);
    if (e && tt_init(&e->tt, bytes) != 0) {
        free(e);
        return NULL;
    }
    return e;
}

void engine_free(struct engine *e)
{
    if (!e)
        return;
    tt_free(&e->tt);
    free(e);
}

void engine_clear(struct engine *e)
{
    tt_clear(&e->tt);
}

static uint64_t min_nonzero(uint64_t a, uint64_t b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

/* The limits a search runs under: the caller's, tightened by the level's. */
static void merge_plan(const struct game *g, int level, const struct engine_limits *given,
                       struct engine_limits *lim, enum engine_algo *algo, int *book_plies)
{
    *lim = given ? *given : (struct engine_limits){0};
    *book_plies = 0;
    int has_clock =
        lim->time_ms[0] > 0 || lim->time_ms[1] > 0 || lim->inc_ms[0] > 0 || lim->inc_ms[1] > 0;
    int bounded = lim->depth > 0 || lim->nodes > 0 || lim->movetime_ms > 0 || has_clock;
    if (level <= 0 && !bounded && !lim->infinite)
        level = ENGINE_DEFAULT_LEVEL;
    *algo = lim->algo;
    const struct engine_profile *prof = engine_profile_of(g);
    int plain = 0;
    if (level > 0 && !lim->infinite) {
        struct level_plan plan;
        engine_level_plan(prof, level, &plan);
        lim->depth = (int)min_nonzero((uint64_t)lim->depth, (uint64_t)plan.depth);
        lim->nodes = min_nonzero(lim->nodes, plan.nodes);
        lim->movetime_ms =
            (int64_t)min_nonzero((uint64_t)lim->movetime_ms, (uint64_t)plan.movetime_ms);
        if (plan.noise > lim->noise)
            lim->noise = plan.noise;
        if (plan.blunder > lim->blunder)
            lim->blunder = plan.blunder;

        if (*algo == ENGINE_ALGO_AUTO)
            *algo = plan.algo;
        *book_plies = plan.book_plies;
        plain = plan.plain;
    }
    /* The search's refinements: the caller's choice, else the profile's (none at a plain
     * level). */
    if (!(lim->features & SEARCH_FEATURES_SET))
        lim->features = plain ? 0 : prof->search_features;
    lim->features &= SEARCH_FEATURES_ALL;
    if (*algo == ENGINE_ALGO_AUTO)
        *algo = prof->algo;
    if (*algo == ENGINE_ALGO_OWN && !prof->own_search)
        *algo = ENGINE_ALGO_ALPHABETA;
    if (*algo == ENGINE_ALGO_MCTS && !lim->nodes && !lim->movetime_ms && !has_clock &&
        !lim->infinite)
        lim->nodes = ENGINE_MCTS_DEFAULT_NODES;
}

static int is_legal(const struct game *g, const void *st, Move m)
{
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = mv ? game_legal_moves(g, st, mv) : 0, found = 0;
    for (int i = 0; i < n && !found; i++)
        found = mv[i] == m;
    free(mv);
    return found;
}

static Move first_legal(const struct game *g, const void *st)
{
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move m = mv && game_legal_moves(g, st, mv) > 0 ? mv[0] : 0;
    free(mv);
    return m;
}

/* Does the side to move lose at once after m, or after some reply to it? */
static int loses_at_once(const struct game *g, void *st, Move m, Move *mv)
{
    enum side us = g->side_to_move(st);
    enum result lost = us == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    struct game_status gs;
    g->make_move(st, m);
    g->status(st, &gs);
    int loses = gs.result == lost;
    int n = gs.result == RESULT_ONGOING ? g->gen_moves(st, mv) : 0;
    for (int i = 0; i < n && !loses; i++) {
        g->make_move(st, mv[i]);
        g->status(st, &gs);
        loses = gs.result == lost;
        g->unmake_move(st, mv[i]);
    }
    g->unmake_move(st, m);
    return loses;
}

/* A level's deliberate blunder: now and then (seeded) a random move instead of the
 * search's, though never one that loses on the spot. */
static Move maybe_blunder(const struct game *g, void *st, Move best, int per_mille, uint64_t seed)
{
    if (per_mille <= 0 || !best)
        return best;
    struct rng r;
    rng_seed(&r, seed ^ g->key(st) ^ 0xb1u);
    if ((int)rng_below(&r, 1000) >= per_mille)
        return best;
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move *scratch = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move pick = best;
    if (mv && scratch) {
        int n = game_legal_moves(g, st, mv);
        /* Try the moves from a random starting point; keep the first safe one. */
        int start = n ? (int)rng_below(&r, (uint32_t)n) : 0;
        for (int k = 0; k < n; k++) {
            Move m = mv[(start + k) % n];
            if (!loses_at_once(g, st, m, scratch)) {
                pick = m;
                break;
            }
        }
    }
    free(mv);
    free(scratch);
    return pick;
}

/* A level's book move (engine_limits.book): 1 with *out filled, else 0. */
static int book_move(const struct game *g, const void *st, const struct engine_limits *lim,
                     int book_plies, uint64_t seed, struct engine_result *out)
{
    if (!lim->book || g->ply(st) >= book_plies || lim->nsearchmoves)
        return 0;
    struct rng r;
    rng_seed(&r, seed ^ g->key(st) ^ 0xb00cu);
    Move m = 0;
    char err[ERROR_TEXT_MAX];
    /* A book that cannot be read now costs the variety, not the move. */
    if (engine_book_pick(lim->book, g, st, &r, &m, err, sizeof err) != 1 || !m)
        return 0;
    *out = (struct engine_result){.best = m};
    return 1;
}

Move engine_go(struct engine *e, const struct game *g, void *st, int level,
               const struct engine_limits *limits, uint64_t seed, struct engine_result *out)
{
    struct engine_result local;
    if (!out)
        out = &local;
    struct engine_limits lim;
    enum engine_algo algo;
    int book_plies;
    merge_plan(g, level, limits, &lim, &algo, &book_plies);
    if (book_move(g, st, &lim, book_plies, seed, out))
        return out->best;
    /* Endgame tables, at the levels that make no deliberate mistakes (never at level 0:
     * bench, analysis): the search chooses among the moves that keep the tables' result,
     * so no win is thrown away, the 40-ply count included. */
    Move kept[256];
    const struct engine_profile *prof = engine_profile_of(g);
    int tables = level > 0 && !lim.noise && !lim.blunder;
    if (prof->tablebase_moves && tables && !lim.nsearchmoves && lim.multipv <= 1) {
        Score exact;
        int n = prof->tablebase_moves(st, kept, 256, &exact);
        if (n == 1) {
            *out = (struct engine_result){.best = kept[0], .score = exact};
            return kept[0];
        }
        if (n > 1) {
            lim.searchmoves = kept;
            lim.nsearchmoves = n;
        }
    }
    /* A forced win the proof search finds is played at once, the shortest first. */
    if (prof->proof_plies && tables && !lim.nsearchmoves && lim.multipv <= 1) {
        struct proof_result pr;
        if (proof_search(g, st, prof->proof_plies, prof->proof_nodes, &pr) == 0 && pr.proven) {
            *out = (struct engine_result){.best = pr.first,
                                          .score = SCORE_WIN - pr.plies,
                                          .depth = pr.plies,
                                          .nodes = pr.nodes};
            return pr.first;
        }
    }
    struct search_ctl ctl;
    timeman_init(&ctl, &lim, g->side_to_move(st));
    struct search_params p = {
        .depth = lim.depth,
        .noise = lim.noise,
        .seed = seed,
        .infinite = lim.infinite,
        .contempt = lim.contempt > 0   ? lim.contempt
                    : lim.contempt < 0 ? 0
                                       : ENGINE_CONTEMPT,
        .multipv = lim.multipv,
        .threads = lim.threads,
        .mate = lim.mate,
        .features = lim.features,
        .searchmoves = lim.searchmoves,
        .nsearchmoves = lim.nsearchmoves,
        .prove = lim.prove,
        .prove_beta = lim.prove_beta,
        .on_info = lim.on_info,
        .info_ctx = lim.info_ctx,
        /* the same levels probe the tables inside the tree too */
        .oracle = tables && prof->tablebase_oracle ? prof->tablebase_oracle() : NULL,
    };
    if (algo != ENGINE_ALGO_MCTS && algo != e->table_user) {
        if (e->table_user != ENGINE_ALGO_AUTO)
            tt_clear(&e->tt);
        e->table_user = algo;
    }
    Move m = algo == ENGINE_ALGO_MCTS  ? mcts_search(g, st, &p, &ctl, out)
             : algo == ENGINE_ALGO_OWN ? engine_profile_of(g)->own_search(st, &p, &ctl, &e->tt, out)
                                       : ab_search(g, st, &p, &ctl, &e->tt, out);
    if (!lim.nsearchmoves)
        m = maybe_blunder(g, st, m, lim.blunder, seed);
    /* The last guard of "never an illegal move": a bug above costs strength only. */
    if (m && !is_legal(g, st, m))
        m = 0;
    if (!m)
        m = first_legal(g, st);
    out->best = m;
    return m;
}

Move engine_think(const struct game *g, void *st, int level, const struct engine_limits *limits,
                  uint64_t seed, struct engine_result *out)
{
    /* A table sized to the work, about two entries a node: every page a search
     * touches for the first time costs a page fault, so a short search gets a
     * small table.  Without a node limit the work is guessed from the time it may
     * take at ENGINE_GUESS_NPS. */
    struct engine_limits lim;
    enum engine_algo algo;
    int book_plies;
    merge_plan(g, level, limits, &lim, &algo, &book_plies);
    struct engine_result booked;
    if (book_move(g, st, &lim, book_plies, seed, &booked)) {
        if (out)
            *out = booked;
        return booked.best;
    }
    uint64_t work = lim.nodes;
    if (!work && !lim.infinite) {
        struct search_ctl probe;
        timeman_init(&probe, &lim, g->side_to_move(st));
        if (probe.hard_ms != TIMEMAN_NONE)
            work = (uint64_t)probe.hard_ms * ENGINE_GUESS_NPS / 1000;
        /* A shallow depth limit bounds the work too: about 8 nodes a ply deeper. */
        if (lim.depth > 0 && lim.depth <= 7 && (!work || work > (1ull << (3 * lim.depth))))
            work = 1ull << (3 * lim.depth);
    }
    size_t bytes = ENGINE_MAX_HASH;
    if (algo == ENGINE_ALGO_MCTS) {
        bytes = ENGINE_MIN_HASH;
    } else if (work) {
        uint64_t want = work * 2 * sizeof(struct tt_entry);
        bytes = want < ENGINE_MIN_HASH   ? ENGINE_MIN_HASH
                : want > ENGINE_MAX_HASH ? ENGINE_MAX_HASH
                                         : (size_t)want;
    }
    struct engine *e = engine_new_bytes(bytes);
    if (!e) {
        struct engine_result r = {0};
        r.best = first_legal(g, st);
        if (out)
            *out = r;
        return r.best;
    }
    /* The book was probed above: engine_go need not read it again. */
    struct engine_limits searched = limits ? *limits : (struct engine_limits){0};
    searched.book = NULL;
    Move m = engine_go(e, g, st, level, &searched, seed, out);
    engine_free(e);
    return m;
}
