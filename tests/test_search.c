/* The engine (src/search) over the game interface: forced wins found by both
 * searches, never an illegal move, the state given back unchanged, limits and the
 * stop flag honoured, reproducible low levels. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "core/rng.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "harness.h"

/* An independent judge: plain minimax over the game's own status, no pruning, no
 * table.  wins(): the side to move can force a win within `plies` plies. */
static int brute_loses(const struct game *g, void *st, int plies);

static int brute_wins(const struct game *g, void *st, int plies)
{
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING || plies <= 0)
        return 0;
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = g->gen_moves(st, mv), win = 0;
    for (int i = 0; i < n && !win; i++) {
        g->make_move(st, mv[i]);
        win = brute_loses(g, st, plies - 1);
        g->unmake_move(st, mv[i]);
    }
    free(mv);
    return win;
}

static int brute_loses(const struct game *g, void *st, int plies)
{
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING) {
        enum result mine =
            g->side_to_move(st) == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        return gs.result != RESULT_DRAW && gs.result != mine;
    }
    if (plies <= 0)
        return 0;
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = g->gen_moves(st, mv), lost = 1;
    for (int i = 0; i < n && lost; i++) {
        g->make_move(st, mv[i]);
        lost = brute_wins(g, st, plies - 1);
        g->unmake_move(st, mv[i]);
    }
    free(mv);
    return lost;
}

static void *parsed(const struct game *g, const char *text)
{
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    if (g->parse_position(st, text, err, sizeof err) != 0) {
        fprintf(stdout, "  cannot parse '%s': %s\n", text, err);
        free(st);
        return NULL;
    }
    return st;
}

static int is_legal(const struct game *g, const void *st, Move m)
{
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = game_legal_moves(g, st, mv), found = 0;
    for (int i = 0; i < n && !found; i++)
        found = mv[i] == m;
    free(mv);
    return found;
}

/* Egara-guti positions with a forced win in `plies` plies and one winning first
 * move (or few), found by the brute-force judge and checked by it again here.
 * The first is hand-built: the chain d1xd3xd5 takes both black pieces, the other
 * capture e3xc5 takes one. */
static const struct {
    const char *text;
    int plies;
} egara_wins[] = {
    {"5/3/3/B/2W/1B1/2W2 w 0", 1},     {"2W2/3/3/1/3/B1W/3WW w 7", 3}, /* f2-d2 b2xf2 f1xf6 */
    {"5/B2/3/1/W2/1W1/WWW1W w 4", 3},                                  /* b1-b2, then a chain */
    {"B1BBB/1B1/3/B/3/W2/5 b 11", 3},                                  /* black to move */
    {"3B1/3/3/B/3/2W/W1W2 w 2", 5},    {"5/B2/3/W/3/2W/3W1 w 5", 5},
    {"BB1B1/BBB/3/B/3/W2/1W3 b 5", 5},
};

static void check_finds_wins(struct test_ctx *t__, enum engine_algo algo, int threads)
{
    const struct game *g = game_find("egara-guti");
    for (size_t i = 0; i < sizeof egara_wins / sizeof egara_wins[0]; i++) {
        void *st = parsed(g, egara_wins[i].text);
        CHECK(st != NULL);
        if (!st)
            continue;
        int plies = egara_wins[i].plies;
        CHECK_MSG(brute_wins(g, st, plies), "judge: no win in %d at %s", plies, egara_wins[i].text);
        CHECK_MSG(plies < 3 || !brute_wins(g, st, plies - 2), "judge: a shorter win at %s",
                  egara_wins[i].text);
        struct engine_limits lim = {.algo = algo, .threads = threads};
        if (algo == ENGINE_ALGO_MCTS)
            lim.nodes = 20000;
        else
            lim.depth = plies + 2;
        struct engine_result r;
        Move m = engine_think(g, st, 0, &lim, 1, &r);
        CHECK(is_legal(g, st, m));
        g->make_move(st, m);
        char text[MOVE_TEXT_MAX] = "?";
        CHECK_MSG(brute_loses(g, st, plies - 1), "%s at %s: not a winning move (score %d)",
                  engine_algo_name(engine_profile_of(g), algo), egara_wins[i].text, r.score);
        g->unmake_move(st, m);
        g->move_text(st, m, text, sizeof text);
        if (algo == ENGINE_ALGO_ALPHABETA)
            CHECK_MSG(r.score == SCORE_WIN - plies, "%s: score %d for a win in %d plies (%s)",
                      egara_wins[i].text, r.score, plies, text);
        else
            CHECK_MSG(r.score >= ENGINE_WIN_BOUND, "%s: mcts did not prove the win (%d, %s)",
                      egara_wins[i].text, r.score, text);
        free(st);
    }
}

TEST(search_alphabeta_finds_egara_wins)
{
    check_finds_wins(TEST_CTX, ENGINE_ALGO_ALPHABETA, 1);
}

/* Lazy SMP (alphabeta.c): helper threads share the table with the main search, which
 * alone decides: the same exact win, the soonest, with 2 and with 4 threads. */
TEST(search_alphabeta_threads_find_the_same_wins)
{
    check_finds_wins(TEST_CTX, ENGINE_ALGO_ALPHABETA, 2);
    check_finds_wins(TEST_CTX, ENGINE_ALGO_ALPHABETA, 4);
}

TEST(search_mcts_solver_finds_egara_wins)
{
    check_finds_wins(TEST_CTX, ENGINE_ALGO_MCTS, 1);
}

/* The same points 38 quiet plies on are another state: White wins in 3 from quiet 0
 * (a step, Black's forced reply, a chain taking both), but from 38 the 40-ply limit
 * comes first and the equal counts draw.  An engine that has searched the first must
 * not carry its verdict over to the second through its table. */
TEST(search_egara_table_knows_the_quiet_count)
{
    const struct game *g = game_find("egara-guti");
    const char *fresh_text = "5/3/3/1/3/2W/2BBW w 0", *late_text = "5/3/3/1/3/2W/2BBW w 38";
    void *fresh = parsed(g, fresh_text), *late = parsed(g, late_text);
    CHECK(fresh && late);
    if (!fresh || !late) {
        free(fresh);
        free(late);
        return;
    }
    CHECK_MSG(brute_wins(g, fresh, 3) && !brute_wins(g, late, 7), "judge disagrees");
    CHECK(g->key(fresh) != g->key(late));
    struct engine *e = engine_new(1);
    CHECK(e != NULL);
    if (e) {
        struct engine_limits lim = {.algo = ENGINE_ALGO_ALPHABETA, .depth = 7};
        struct engine_result r;
        engine_go(e, g, fresh, 0, &lim, 1, &r);
        CHECK_MSG(r.score == SCORE_WIN - 3, "%s: score %d, not a win in 3", fresh_text, r.score);
        engine_go(e, g, late, 0, &lim, 1, &r);
        CHECK_MSG(r.score < ENGINE_WIN_BOUND, "%s: score %d, a win carried over", late_text,
                  r.score);
        engine_free(e);
    }
    free(fresh);
    free(late);
}

/* Random positions of every game (1000 each), cheap searches of every kind: always a legal move,
 * the state given back exactly, no move once the game is over. */
TEST(search_never_illegal_on_random_positions)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
        struct rng r;
        rng_seed(&r, 4242);
        int positions = 0, over = 0;
        for (int game = 0; positions < 1000 && game < 400; game++) {
            g->start(st);
            for (int ply = 0; ply < 300 && positions < 1000; ply++) {
                char before[POSITION_TEXT_MAX], after[POSITION_TEXT_MAX];
                g->write_position(st, before, sizeof before);
                Key key = g->key(st);
                int depth = g->ply(st);
                int kind = positions % 4;
                struct engine_limits lim = {0};
                int level = 0;
                if (kind == 0)
                    lim.nodes = 60, lim.algo = ENGINE_ALGO_ALPHABETA;
                else if (kind == 1)
                    lim.nodes = 40, lim.algo = ENGINE_ALGO_MCTS;
                else if (kind == 2)
                    level = 1 + positions % 3, lim.nodes = 80;
                else
                    lim.depth = 1 + positions % 3, lim.nodes = 300;
                Move m = engine_think(g, st, level, &lim, (uint64_t)positions, NULL);
                positions++;
                g->write_position(st, after, sizeof after);
                CHECK_STR(after, before);
                CHECK(g->key(st) == key && g->ply(st) == depth);
                int n = game_legal_moves(g, st, mv);
                if (n == 0) {
                    CHECK_MSG(m == 0, "%s: a move after the end at %s", g->name, before);
                    over++;
                    break;
                }
                CHECK_MSG(is_legal(g, st, m), "%s: illegal move at %s", g->name, before);
                if (t__->failures)
                    break;
                g->make_move(st, mv[rng_below(&r, (uint32_t)n)]);
            }
        }
        CHECK(positions >= 1000);
        CHECK(over > 0);
        free(mv);
        free(st);
    }
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct stopper {
    atomic_int flag;
    int delay_ms;
    int64_t set_at;
};

static void *stop_later(void *arg)
{
    struct stopper *s = arg;
    struct timespec ts = {s->delay_ms / 1000, (long)(s->delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    s->set_at = now_ms();
    atomic_store(&s->flag, 1);
    return NULL;
}

/* How long an infinite search takes to return once another thread sets the flag. */
static int64_t stop_latency(const struct game *g, int algo, int *legal)
{
    void *st = game_state_new(g);
    g->start(st);
    struct stopper s = {.delay_ms = 150};
    atomic_init(&s.flag, 0);
    struct engine_limits lim = {.infinite = 1, .stop = &s.flag, .algo = algo};
    pthread_t th;
    if (pthread_create(&th, NULL, stop_later, &s) != 0) {
        free(st);
        return -1;
    }
    Move m = engine_think(g, st, 0, &lim, 1, NULL);
    int64_t returned = now_ms();
    pthread_join(th, NULL);
    *legal = is_legal(g, st, m);
    free(st);
    return returned - s.set_at;
}

/* An infinite search returns within 50 ms of another thread setting the flag.  The
 * machine is shared and the test may run sanitized, so the best of three tries
 * counts: one slow try is the scheduler's, not the search's. */
TEST(search_stop_flag_honoured)
{
    const struct game *g = game_find("egara-guti");
    for (int algo = ENGINE_ALGO_ALPHABETA; algo <= ENGINE_ALGO_MCTS; algo++) {
        int64_t best = INT64_MAX;
        for (int attempt = 0; attempt < 3 && best > 50; attempt++) {
            int legal = 0;
            int64_t late = stop_latency(g, algo, &legal);
            CHECK(legal && late >= 0);
            if (late >= 0 && late < best)
                best = late;
        }
        CHECK_MSG(best <= 50, "%s: returned %lld ms after stop",
                  engine_algo_name(engine_profile_of(g), algo), (long long)best);
    }
}

TEST(search_limits_honoured)
{
    const struct game *g = game_find("egara-guti");
    void *st = parsed(g, "BBB1B/1BB/B1B/1/WW1/1WW/WW1WW w 0");
    CHECK(st != NULL);
    if (!st)
        return;
    struct engine_result r;
    /* Nodes: never more than asked. */
    for (int algo = ENGINE_ALGO_ALPHABETA; algo <= ENGINE_ALGO_MCTS; algo++) {
        struct engine_limits lim = {.nodes = 1500, .algo = algo};
        Move m = engine_think(g, st, 0, &lim, 1, &r);
        CHECK(is_legal(g, st, m));
        CHECK_MSG(r.nodes <= 1500, "%s: %llu nodes", engine_algo_name(engine_profile_of(g), algo),
                  (unsigned long long)r.nodes);
    }
    /* Depth: the last finished iteration is the limit. */
    struct engine_limits depth = {.depth = 4, .algo = ENGINE_ALGO_ALPHABETA};
    engine_think(g, st, 0, &depth, 1, &r);
    CHECK_EQ_INT(r.depth, 4);
    /* Move time: a hard cap (with room for a loaded, sanitized machine: best of 3). */
    struct engine_limits mt = {.movetime_ms = 100};
    int64_t took = INT64_MAX, t0;
    for (int attempt = 0; attempt < 3 && took > 160; attempt++) {
        t0 = now_ms();
        engine_think(g, st, 0, &mt, 1, &r);
        if (now_ms() - t0 < took)
            took = now_ms() - t0;
    }
    CHECK_MSG(took <= 160, "movetime 100 took %lld ms", (long long)took);
    /* A clock: 3 s left and no increment is a small share, far below a third. */
    struct engine_limits clock = {.time_ms = {3000, 3000}};
    t0 = now_ms();
    engine_think(g, st, 0, &clock, 1, &r);
    CHECK_MSG(now_ms() - t0 <= 1000, "clock 3+0 took %lld ms", (long long)(now_ms() - t0));
    free(st);
}

/* The same seed gives the same move at the noisy levels; other seeds differ
 * somewhere, or the noise would be no noise. */
TEST(search_levels_reproducible)
{
    const struct game *g = game_find("egara-guti");
    void *st = game_state_new(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct rng r;
    rng_seed(&r, 5);
    int differ = 0;
    for (int pos = 0; pos < 30; pos++) {
        g->start(st);
        for (int k = 0; k < 6 + pos % 7; k++) {
            int n = game_legal_moves(g, st, mv);
            if (!n)
                break;
            g->make_move(st, mv[rng_below(&r, (uint32_t)n)]);
        }
        if (!game_legal_moves(g, st, mv))
            continue;
        for (int level = 1; level <= 3; level++) {
            Move a = engine_think(g, st, level, NULL, 77, NULL);
            Move b = engine_think(g, st, level, NULL, 77, NULL);
            CHECK(a == b);
            for (uint64_t seed = 1; seed < 4; seed++)
                differ += engine_think(g, st, level, NULL, seed, NULL) != a;
        }
    }
    CHECK(differ > 0);
    free(mv);
    free(st);
}

/* A persistent engine (UCI, match) gives moves as good as a fresh one, and two
 * threads can think at once on their own states. */
struct thinker {
    const struct game *g;
    int ok;
};

static void *think_some(void *arg)
{
    struct thinker *t = arg;
    void *st = game_state_new(t->g);
    t->g->start(st);
    struct engine *e = engine_new(1);
    t->ok = e != NULL;
    for (int i = 0; i < 20 && t->ok; i++) {
        struct engine_limits lim = {.nodes = 2000};
        Move m = engine_go(e, t->g, st, 0, &lim, (uint64_t)i, NULL);
        if (!m)
            break;
        t->ok = is_legal(t->g, st, m);
        t->g->make_move(st, m);
    }
    engine_free(e);
    free(st);
    return NULL;
}

TEST(search_threads_and_persistent_engine)
{
    struct thinker a = {game_find("egara-guti"), 0}, b = a;
    pthread_t ta, tb;
    CHECK(pthread_create(&ta, NULL, think_some, &a) == 0);
    CHECK(pthread_create(&tb, NULL, think_some, &b) == 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(a.ok && b.ok);
}

/* Levels are search limits: a higher level searches at least as much. */
TEST(search_levels_grow)
{
    const struct game *g = game_find("egara-guti");
    void *st = parsed(g, "BBB1B/1BB/B1B/1/WW1/1WW/WW1WW w 0");
    if (!st)
        return;
    uint64_t last = 0;
    for (int level = 4; level <= 6; level++) {
        struct engine_result r;
        engine_think(g, st, level, NULL, 1, &r);
        CHECK_MSG(r.nodes >= last, "level %d searched %llu nodes, below %llu", level,
                  (unsigned long long)r.nodes, (unsigned long long)last);
        last = r.nodes;
    }
    free(st);
}

/* Found by the fuzz smoke run on this branch: text after a seventh '/' read past the
 * table of rank sizes.  It is an error now, with a message. */
TEST(search_egara_text_after_last_rank)
{
    const struct game *g = game_find("egara-guti");
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX] = "";
    CHECK(g->parse_position(st, "BBBB1/BBB/BBB/W/W1W/WWW/WWWWW/WWW w 0", err, sizeof err) != 0);
    CHECK(strstr(err, "too many ranks") != NULL);
    free(st);
}

struct forced_win {
    const char *text;
    int plies;
};

/* Each position is a forced win in exactly `plies` plies by the judge; alpha-beta
 * must play a winning move and score it at that distance, MCTS must prove it. */
static void check_forced_wins(struct test_ctx *t__, const struct game *g,
                              const struct forced_win *wins, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *st = parsed(g, wins[i].text);
        CHECK(st != NULL);
        if (!st)
            continue;
        int plies = wins[i].plies;
        CHECK_MSG(brute_wins(g, st, plies), "judge: no win in %d plies at %s", plies, wins[i].text);
        CHECK_MSG(plies < 3 || !brute_wins(g, st, plies - 2), "judge: a shorter win at %s",
                  wins[i].text);
        for (int algo = ENGINE_ALGO_ALPHABETA; algo <= ENGINE_ALGO_MCTS; algo++) {
            struct engine_limits lim = {.depth = plies + 2, .nodes = 20000, .algo = algo};
            struct engine_result r;
            Move m = engine_think(g, st, 0, &lim, 1, &r);
            CHECK(is_legal(g, st, m));
            if (algo == ENGINE_ALGO_ALPHABETA)
                CHECK_MSG(r.score == SCORE_WIN - plies, "%s: score %d", wins[i].text, r.score);
            else
                CHECK_MSG(r.score >= ENGINE_WIN_BOUND, "%s: mcts score %d", wins[i].text, r.score);
            g->make_move(st, m);
            CHECK_MSG(brute_loses(g, st, plies - 1), "%s: %s did not play a winning move",
                      wins[i].text, engine_algo_name(engine_profile_of(g), algo));
            g->unmake_move(st, m);
        }
        free(st);
    }
}

/* Chess (when registered): mate in 1 and in 2. */
TEST(search_chess_mates)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered in this build");
    static const struct forced_win mates[] = {
        {"k7/8/1K6/8/8/8/8/7R w - - 0 1", 1}, /* Rh8# */
        {"k7/8/2K5/8/8/8/8/7R w - - 0 1", 3}, /* Kb6 Kb8 Rh8# */
    };
    check_forced_wins(TEST_CTX, g, mates, sizeof mates / sizeof mates[0]);
}

/* Agon (when registered): the formation in 1 (h6-g6 fills ring 1 round the queen on
 * the throne) and in 3 (i6-h6, any reply, h6-g6); the black pieces are far away. */
TEST(search_agon_formation_wins)
{
    const struct game *g = game_find("agon");
    if (!g)
        SKIP("agon is not registered in this build");
    static const struct forced_win wins[] = {
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/5G3/8/7/6 w", 1},
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", 3},
    };
    check_forced_wins(TEST_CTX, g, wins, sizeof wins / sizeof wins[0]);
}
