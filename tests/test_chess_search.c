/* The dedicated chess search (src/engines/chess): mates at their exact distance (by an
 * independent brute-force judge), stalemate and repetition and the fifty-move rule
 * seen as draws, SEE on hand-built positions, every engine limit (depth, nodes,
 * movetime, clock, stop, ponder, mate, multipv, threads), and never an illegal move. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "core/rng.h"
#include "engines/chess/see.h"
#include "engines/engine.h"
#include "games/chess/chess.h"
#include "games/chess/state.h"
#include "games/registry.h"
#include "harness.h"

static struct chess_state *chess_at(const char *fen)
{
    struct chess_state *s = malloc(sizeof *s);
    char err[ERROR_TEXT_MAX];
    if (s && chess_game.parse_position(s, fen, err, sizeof err) != 0) {
        fprintf(stdout, "  cannot parse '%s': %s\n", fen, err);
        free(s);
        return NULL;
    }
    return s;
}

static int legal_in(const struct chess_pos *p, Move m)
{
    Move mv[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == m)
            return 1;
    return 0;
}

/* The judge: plain minimax on the position, no pruning.  mates(): the side to move
 * mates within `plies` plies; mated(): every move of the side to move allows that. */
static int mated(struct chess_pos *p, int plies);

static int mates(struct chess_pos *p, int plies)
{
    Move mv[CHESS_MAX_MOVES];
    int n = plies > 0 ? chess_gen_legal(p, mv) : 0, found = 0;
    for (int i = 0; i < n && !found; i++) {
        struct chess_undo u;
        chess_pos_make(p, mv[i], &u);
        found = mated(p, plies - 1);
        chess_pos_unmake(p, mv[i], &u);
    }
    return found;
}

static int mated(struct chess_pos *p, int plies)
{
    Move mv[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, mv), lost = 1;
    if (n == 0)
        return chess_in_check(p);
    if (plies <= 0)
        return 0;
    for (int i = 0; i < n && lost; i++) {
        struct chess_undo u;
        chess_pos_make(p, mv[i], &u);
        lost = mates(p, plies - 1);
        chess_pos_unmake(p, mv[i], &u);
    }
    return lost;
}

TEST(chess_search_mates_at_their_distance)
{
    static const struct {
        const char *fen;
        int plies;
    } mates_in[] = {
        {"k7/8/1K6/8/8/8/8/7R w - - 0 1", 1},     {"5k2/8/6R1/5K2/3N4/8/8/8 w - - 0 1", 3},
        {"2K3n1/8/8/1k6/8/8/8/3r4 b - - 0 1", 3}, {"8/8/B7/7k/4K3/8/4R3/8 w - - 0 1", 5},
        {"8/8/8/8/1n6/6r1/4K1k1/8 b - - 0 1", 5},
    };
    for (size_t i = 0; i < sizeof mates_in / sizeof mates_in[0]; i++) {
        struct chess_state *s = chess_at(mates_in[i].fen);
        CHECK(s != NULL);
        if (!s)
            continue;
        int plies = mates_in[i].plies;
        CHECK_MSG(mates(&s->pos, plies), "judge: no mate in %d plies at %s", plies,
                  mates_in[i].fen);
        CHECK_MSG(plies < 3 || !mates(&s->pos, plies - 2), "judge: a shorter mate at %s",
                  mates_in[i].fen);
        struct engine_limits lim = {.depth = 20}; /* a proven mate ends the search early */
        struct engine_result r;
        Move m = engine_think(&chess_game, s, 0, &lim, 1, &r);
        CHECK(legal_in(&s->pos, m));
        CHECK_MSG(r.score == SCORE_WIN - plies, "%s: score %d, expected %d", mates_in[i].fen,
                  r.score, SCORE_WIN - plies);
        struct chess_undo u;
        chess_pos_make(&s->pos, m, &u);
        CHECK_MSG(mated(&s->pos, plies - 1), "%s: not a mating move", mates_in[i].fen);
        chess_pos_unmake(&s->pos, m, &u);
        /* `go mate N` stops as soon as the mate is found, long before the time. */
        struct engine_limits mate = {.mate = (plies + 1) / 2, .movetime_ms = 20000};
        engine_think(&chess_game, s, 0, &mate, 1, &r);
        CHECK_MSG(r.score == SCORE_WIN - plies, "%s: go mate gave %d", mates_in[i].fen, r.score);
        CHECK_MSG(r.time_ms < 5000, "%s: go mate took %lld ms", mates_in[i].fen,
                  (long long)r.time_ms);
        free(s);
    }
}

/* Taking the rook stalemates; the search keeps the win instead. */
TEST(chess_search_avoids_stalemate)
{
    static const char *traps[] = {
        "8/8/8/5r2/7k/4P3/2Q4K/8 w - - 0 1",
        "4k3/8/3bK3/8/1P6/8/3Q4/8 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof traps / sizeof traps[0]; i++) {
        struct chess_state *s = chess_at(traps[i]);
        if (!s)
            continue;
        struct engine_limits lim = {.depth = 6};
        struct engine_result r;
        Move m = engine_think(&chess_game, s, 0, &lim, 1, &r);
        CHECK(legal_in(&s->pos, m));
        struct chess_undo u;
        chess_pos_make(&s->pos, m, &u);
        CHECK_MSG(chess_has_legal_move(&s->pos) || chess_in_check(&s->pos), "%s: stalemated",
                  traps[i]);
        chess_pos_unmake(&s->pos, m, &u);
        CHECK_MSG(r.score > 300, "%s: score %d", traps[i], r.score);
        free(s);
    }
}

/* Two rooks down, White checks for ever (Qf2+ Kh1 Qf1+ Kh2): a draw, worth the
 * contempt to the root side.  Then the fifty-move rule: a queen up, but the next
 * quiet move completes fifty moves without a mate. */
TEST(chess_search_draws_by_repetition_and_fifty_moves)
{
    struct chess_state *s = chess_at("6r1/6p1/8/8/4K3/3p3r/7k/4Q3 w - - 0 1");
    if (s) {
        struct engine_limits lim = {.depth = 10};
        struct engine_result r;
        Move m = engine_think(&chess_game, s, 0, &lim, 1, &r);
        char text[MOVE_TEXT_MAX];
        chess_uci(m, text, sizeof text);
        CHECK_MSG(r.score >= -30 && r.score <= 30, "perpetual: score %d (%s)", r.score, text);
        free(s);
    }
    s = chess_at("7k/8/8/8/8/8/8/K5Q1 w - - 99 80");
    if (s) {
        struct engine_limits lim = {.depth = 6, .contempt = -1};
        struct engine_result r;
        engine_think(&chess_game, s, 0, &lim, 1, &r);
        CHECK_MSG(r.score == 0, "fifty moves: score %d", r.score);
        free(s);
    }
    /* The same position with the clock at zero is simply won. */
    s = chess_at("7k/8/8/8/8/8/8/K5Q1 w - - 0 80");
    if (s) {
        struct engine_limits lim = {.depth = 6};
        struct engine_result r;
        engine_think(&chess_game, s, 0, &lim, 1, &r);
        CHECK_MSG(r.score > 500, "queen up: score %d", r.score);
        free(s);
    }
}

/* A repetition in the game's own history counts: after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1,
 * Black's Ng8 would bring back the start position.  With a contempt of 100 that draw
 * is worth exactly -100 to Black, the side at the root. */
struct line_scores {
    int depth;
    char move[MOVE_TEXT_MAX];
    Score score;
    int seen;
};

static void score_of_line(void *ctx, const struct engine_info *info)
{
    struct line_scores *l = ctx;
    size_t len = strlen(l->move);
    if (info->depth == l->depth && !strncmp(info->pv, l->move, len) &&
        (info->pv[len] == ' ' || !info->pv[len])) {
        l->score = info->score;
        l->seen = 1;
    }
}

TEST(chess_search_sees_history_repetition)
{
    struct chess_state *s = chess_at(CHESS_START_FEN);
    if (!s)
        return;
    static const char *line[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"};
    for (size_t i = 0; i < sizeof line / sizeof line[0]; i++) {
        Move m = 0;
        char err[ERROR_TEXT_MAX];
        CHECK(chess_game.parse_move(s, line[i], &m, err, sizeof err) == 0);
        chess_game.make_move(s, m);
    }
    struct line_scores l = {.depth = 4, .move = "f6g8"};
    struct engine_limits lim = {
        .depth = 4, .contempt = 100, .multipv = 30, .on_info = score_of_line, .info_ctx = &l};
    struct engine_result r;
    Move m = engine_think(&chess_game, s, 0, &lim, 1, &r);
    char text[MOVE_TEXT_MAX];
    chess_uci(m, text, sizeof text);
    CHECK(l.seen);
    CHECK_MSG(l.score == -100, "Ng8 scored %d", l.score);
    CHECK_MSG(strcmp(text, "f6g8") != 0, "repeated with contempt 100 (score %d)", r.score);
    free(s);
}

TEST(chess_search_see_values)
{
    static const struct {
        const char *fen, *move;
        int value;
    } cases[] = {
        {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},            /* a free pawn */
        {"4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},            /* pawn for pawn */
        {"4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", -800},          /* queen for pawn */
        {"4k3/8/8/2p5/8/8/2N5/4K3 w - - 0 1", "c2b4", -320},           /* onto a pawn's square */
        {"3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},          /* x-ray support */
        {"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -400},       /* outnumbered */
        {"4k3/8/2p5/3b4/8/4N3/8/4K3 w - - 0 1", "e3d5", 10},           /* knight for bishop */
        {"7k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q", 800},               /* a queen is born */
        {"3r3k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7d8q", 500 + 800},       /* with a capture */
        {"3rk3/4P3/8/8/8/8/8/K7 w - - 0 1", "e7d8q", 500 + 800 - 900}, /* and taken */
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},            /* en passant */
        {"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", 0},               /* castling */
        {"4k3/8/8/3q4/4K3/8/8/8 w - - 0 1", "e4d5", 900},              /* king takes a lone queen */
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a5", 0},                 /* a quiet move */
        {"4k3/2b5/8/4p3/3P4/8/8/4K3 w - - 0 1", "d4e5", 0},            /* Bxe5 recaptures */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct chess_state *s = chess_at(cases[i].fen);
        if (!s)
            continue;
        Move m = 0;
        char err[ERROR_TEXT_MAX];
        CHECK(chess_game.parse_move(s, cases[i].move, &m, err, sizeof err) == 0);
        int v = cs_see(&s->pos, m);
        CHECK_MSG(v == cases[i].value, "%s %s: SEE %d, expected %d", cases[i].fen, cases[i].move, v,
                  cases[i].value);
        CHECK(cs_see_ge(&s->pos, m, cases[i].value) && !cs_see_ge(&s->pos, m, cases[i].value + 1));
        free(s);
    }
}

/* The noisy generator gives exactly the legal captures and promotions. */
TEST(chess_search_noisy_moves_are_the_legal_captures)
{
    struct chess_state *s = chess_at(CHESS_START_FEN);
    struct rng r;
    rng_seed(&r, 99);
    int checked = 0;
    for (int game = 0; s && game < 20; game++) {
        chess_game.start(s);
        for (int ply = 0; ply < 120; ply++) {
            Move all[CHESS_MAX_MOVES], noisy[CHESS_MAX_MOVES];
            int n = chess_gen_legal(&s->pos, all), k = chess_gen_noisy(&s->pos, noisy), want = 0;
            if (n == 0)
                break;
            for (int i = 0; i < n; i++) {
                int kind = MV_KIND(all[i]);
                int is_noisy = kind == MK_PROMOTION || kind == MK_EN_PASSANT ||
                               (kind != MK_CASTLING && s->pos.board[MV_TO(all[i])] != EMPTY);
                if (!is_noisy)
                    continue;
                want++;
                int found = 0;
                for (int j = 0; j < k && !found; j++)
                    found = noisy[j] == all[i];
                CHECK(found);
            }
            CHECK_EQ_INT(k, want);
            checked++;
            if (TEST_CTX->failures)
                break;
            chess_game.make_move(s, all[rng_below(&r, (uint32_t)n)]);
        }
    }
    CHECK(checked > 500);
    free(s);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define MIDDLEGAME "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"

TEST(chess_search_limits_honoured)
{
    struct chess_state *s = chess_at(MIDDLEGAME);
    if (!s)
        return;
    struct engine_result r;
    /* Nodes: never more than asked, and the same search twice is the same search. */
    struct engine_limits nodes = {.nodes = 3000};
    Move a = engine_think(&chess_game, s, 0, &nodes, 1, &r);
    CHECK(legal_in(&s->pos, a));
    CHECK_MSG(r.nodes <= 3000, "%llu nodes", (unsigned long long)r.nodes);
    uint64_t first = r.nodes;
    Move b = engine_think(&chess_game, s, 0, &nodes, 1, &r);
    CHECK(a == b && r.nodes == first);
    /* Depth: the last finished iteration is the limit. */
    struct engine_limits depth = {.depth = 5};
    engine_think(&chess_game, s, 0, &depth, 1, &r);
    CHECK_EQ_INT(r.depth, 5);
    /* Move time: a hard cap (best of 3 on a loaded, sanitized machine). */
    struct engine_limits mt = {.movetime_ms = 100};
    int64_t took = INT64_MAX;
    for (int attempt = 0; attempt < 3 && took > 160; attempt++) {
        int64_t t0 = now_ms();
        CHECK(legal_in(&s->pos, engine_think(&chess_game, s, 0, &mt, 1, &r)));
        if (now_ms() - t0 < took)
            took = now_ms() - t0;
    }
    CHECK_MSG(took <= 160, "movetime 100 took %lld ms", (long long)took);
    /* A clock of 1 s + 10 ms: a small share, never the flag. */
    struct engine_limits clock = {.time_ms = {1000, 1000}, .inc_ms = {10, 10}};
    int64_t t0 = now_ms();
    engine_think(&chess_game, s, 0, &clock, 1, &r);
    CHECK_MSG(now_ms() - t0 <= 300, "clock 1+0.01 took %lld ms", (long long)(now_ms() - t0));
    free(s);
}

struct flag_later {
    atomic_int flag;
    int delay_ms;
    int64_t set_at;
};

static void *set_later(void *arg)
{
    struct flag_later *f = arg;
    struct timespec ts = {f->delay_ms / 1000, (long)(f->delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    f->set_at = now_ms();
    atomic_store(&f->flag, 1);
    return NULL;
}

static void *clear_later(void *arg)
{
    struct flag_later *f = arg;
    struct timespec ts = {f->delay_ms / 1000, (long)(f->delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    f->set_at = now_ms();
    atomic_store(&f->flag, 0);
    return NULL;
}

/* An infinite search (two threads) returns within 50 ms of the stop flag. */
TEST(chess_search_stop_flag_honoured)
{
    int64_t best = INT64_MAX;
    for (int attempt = 0; attempt < 3 && best > 50; attempt++) {
        struct chess_state *s = chess_at(MIDDLEGAME);
        if (!s)
            return;
        struct flag_later f = {.delay_ms = 150};
        atomic_init(&f.flag, 0);
        struct engine_limits lim = {.infinite = 1, .stop = &f.flag, .threads = 2};
        pthread_t th;
        if (pthread_create(&th, NULL, set_later, &f) != 0) {
            free(s);
            return;
        }
        Move m = engine_think(&chess_game, s, 0, &lim, 1, NULL);
        int64_t late = now_ms() - f.set_at;
        pthread_join(th, NULL);
        CHECK(legal_in(&s->pos, m));
        if (late < best)
            best = late;
        free(s);
    }
    CHECK_MSG(best <= 50, "returned %lld ms after stop", (long long)best);
}

/* While pondering the clock does not stop the search; after ponderhit it does, on
 * the clock counted from the ponderhit. */
TEST(chess_search_ponder)
{
    struct chess_state *s = chess_at(MIDDLEGAME);
    if (!s)
        return;
    struct flag_later f = {.delay_ms = 400};
    atomic_init(&f.flag, 1);
    struct engine_limits lim = {.time_ms = {600, 600}, .ponder = &f.flag};
    pthread_t th;
    if (pthread_create(&th, NULL, clear_later, &f) != 0) {
        free(s);
        return;
    }
    int64_t t0 = now_ms();
    Move m = engine_think(&chess_game, s, 0, &lim, 1, NULL);
    int64_t end = now_ms();
    pthread_join(th, NULL);
    CHECK(legal_in(&s->pos, m));
    CHECK_MSG(end - t0 >= 400, "returned after %lld ms while pondering", (long long)(end - t0));
    CHECK_MSG(end - f.set_at <= 300, "%lld ms after ponderhit", (long long)(end - f.set_at));
    free(s);
}

struct lines {
    int depth, count;
    int multipv[8];
    char first[8][MOVE_TEXT_MAX];
    int bad_info;
};

static void collect(void *ctx, const struct engine_info *info)
{
    struct lines *l = ctx;
    if (info->depth != l->depth) {
        l->depth = info->depth;
        l->count = 0;
    }
    if (info->seldepth < info->depth || info->hashfull < 0 || info->hashfull > 1000 || !info->pv[0])
        l->bad_info = 1;
    if (l->count < 8) {
        l->multipv[l->count] = info->multipv;
        sscanf(info->pv, "%63s", l->first[l->count]);
        l->count++;
    }
}

TEST(chess_search_multipv_lines)
{
    struct chess_state *s = chess_at(MIDDLEGAME);
    if (!s)
        return;
    struct lines l = {0};
    struct engine_limits lim = {.depth = 6, .multipv = 3, .on_info = collect, .info_ctx = &l};
    struct engine_result r;
    Move m = engine_think(&chess_game, s, 0, &lim, 1, &r);
    CHECK(legal_in(&s->pos, m));
    CHECK_EQ_INT(l.depth, 6);
    CHECK_EQ_INT(l.count, 3);
    CHECK(!l.bad_info);
    for (int i = 0; i < 3 && i < l.count; i++) {
        CHECK_EQ_INT(l.multipv[i], i + 1);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(l.first[i], l.first[j]) != 0, "line %d repeats %s", i + 1, l.first[i]);
    }
    char text[MOVE_TEXT_MAX];
    chess_uci(m, text, sizeof text);
    CHECK_STR(l.first[0], text);
    free(s);
}

TEST(chess_search_threads)
{
    struct chess_state *s = chess_at(MIDDLEGAME);
    if (!s)
        return;
    struct engine *e = engine_new(8);
    CHECK(e != NULL);
    for (int i = 0; e && i < 6; i++) {
        struct engine_limits lim = {.depth = 6, .threads = 2};
        struct engine_result r;
        Move m = engine_go(e, &chess_game, s, 0, &lim, 1, &r);
        CHECK(legal_in(&s->pos, m));
        CHECK(r.depth == 6 && r.nodes > 0);
        chess_game.make_move(s, m);
    }
    engine_free(e);
    free(s);
}

/* A few hundred random positions, cheap searches of every kind: always a legal move
 * (none once the game is over), the state given back exactly. */
TEST(chess_search_never_illegal)
{
    struct chess_state *s = chess_at(CHESS_START_FEN);
    struct rng r;
    rng_seed(&r, 2026);
    int positions = 0;
    for (int game = 0; s && positions < 300 && game < 100; game++) {
        chess_game.start(s);
        for (int ply = 0; ply < 200 && positions < 300; ply++) {
            Move mv[CHESS_MAX_MOVES];
            int n = chess_gen_legal(&s->pos, mv);
            char before[POSITION_TEXT_MAX], after[POSITION_TEXT_MAX];
            chess_game.write_position(s, before, sizeof before);
            Key key = s->pos.key;
            int kind = positions % 5;
            struct engine_limits lim = {.nodes = 400};
            int level = 0;
            if (kind == 1)
                lim.depth = 1 + positions % 3;
            else if (kind == 2)
                level = 1 + positions % 4;
            else if (kind == 3)
                lim.multipv = 3;
            else if (kind == 4)
                lim.threads = 2, lim.depth = 3;
            Move m = engine_think(&chess_game, s, level, &lim, (uint64_t)positions, NULL);
            positions++;
            chess_game.write_position(s, after, sizeof after);
            CHECK_STR(after, before);
            CHECK(s->pos.key == key);
            struct game_status gs;
            chess_game.status(s, &gs);
            if (gs.result != RESULT_ONGOING || n == 0)
                break;
            CHECK_MSG(legal_in(&s->pos, m), "illegal move at position %d", positions);
            if (TEST_CTX->failures)
                break;
            chess_game.make_move(s, mv[rng_below(&r, (uint32_t)n)]);
        }
    }
    CHECK(positions >= 300);
    free(s);
}

/* A search stopped before it scored any root move (a tiny node budget, a warm table)
 * still answers a score: the static evaluation, never the "no score" marker. */
TEST(chess_search_stopped_at_once_still_scores)
{
    struct chess_state *s = chess_at(CHESS_START_FEN);
    struct engine *e = engine_new(1);
    CHECK(s && e);
    if (!s || !e) {
        free(s);
        engine_free(e);
        return;
    }
    struct rng r;
    rng_seed(&r, 11);
    Move mv[CHESS_MAX_MOVES];
    for (int ply = 0; ply < 40; ply++) {
        for (uint64_t nodes = 1; nodes <= 40; nodes += 3) {
            struct engine_limits lim = {.nodes = nodes};
            struct engine_result res;
            Move m = engine_go(e, &chess_game, s, 0, &lim, 1, &res);
            CHECK_MSG(m != 0, "no move at ply %d", ply);
            CHECK_MSG(res.score > -SCORE_INFINITE && res.score < SCORE_INFINITE,
                      "ply %d, %llu nodes: score %d", ply, (unsigned long long)nodes, res.score);
        }
        int n = game_legal_moves(&chess_game, s, mv);
        if (n == 0)
            break;
        chess_game.make_move(s, mv[rng_below(&r, (uint32_t)n)]);
    }
    engine_free(e);
    free(s);
}
