/* The analysis module (src/analysis/): the win-chance curve, the classes, the lines of
 * a position (MultiPV, mates), the review of records with known mistakes in each game,
 * a clean engine game, and `agora analyse`.  Small node budgets keep it quick: every
 * point made here is tactical (a mate, a formation, a capture chain, a queen). */
#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "cli_run.h"
#include "core/record.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "harness.h"

#define TEST_NODES 30000

/* The moves of `record` (game `name`) reviewed at `nodes` a position: the plies into
 * out (room for 64), their count, or -1 when the record does not read. */
static int review_record(const char *name, const char *record, uint64_t nodes,
                         struct analysis_ply *out, struct analysis_summary *sum)
{
    const struct game *g = game_find(name);
    void *st = game_state_new(g);
    struct record_header h;
    char result[16], err[ERROR_TEXT_MAX];
    Move moves[64];
    int n = -1;
    if (st && g->read_record(record, st, &h, result, sizeof result, err, sizeof err) > 0) {
        n = g->ply(st);
        for (int i = 0; i < n; i++)
            moves[i] = g->history_move(st, i);
        for (int i = n; i > 0; i--)
            g->unmake_move(st, moves[i - 1]);
        struct analysis_review_request rq = {.nodes = nodes};
        n = analysis_review(g, st, moves, n, &rq, out, sum, err, sizeof err);
    }
    free(st);
    return n;
}

TEST(analysis_win_chance)
{
    for (int i = 0; engine_profiles[i]; i++) {
        const struct engine_profile *p = engine_profiles[i];
        CHECK(p->win_k > 0);
        CHECK(p->review_nodes > 0);
        CHECK(fabs(engine_win_chance(p, 0) - 0.5) < 1e-12);
        CHECK_EQ_INT(engine_win_chance(p, ENGINE_WIN_BOUND) == 1.0, 1);
        CHECK_EQ_INT(engine_win_chance(p, SCORE_WIN - 1) == 1.0, 1);
        CHECK_EQ_INT(engine_win_chance(p, -ENGINE_WIN_BOUND) == 0.0, 1);
        CHECK_EQ_INT(engine_win_chance(p, -(SCORE_WIN - 2)) == 0.0, 1);
        double last = 0;
        for (Score s = -3000; s <= 3000; s += 50) {
            double w = engine_win_chance(p, s);
            CHECK(w > 0 && w < 1);
            CHECK(fabs(w + engine_win_chance(p, (Score)-s) - 1) < 1e-12);
            CHECK(s == -3000 || w > last);
            last = w;
        }
    }
    /* Chess: the chess sites' logistic, win% = 50 + 50 * (2 / (1 + exp(-0.00368208 cp)) - 1). */
    const struct engine_profile *chess = engine_profile_of(game_find("chess"));
    double site = (50 + 50 * (2 / (1 + exp(-0.00368208 * 100)) - 1)) / 100;
    CHECK(fabs(engine_win_chance(chess, 100) - site) < 1e-9);
}

TEST(analysis_classes_and_accuracy)
{
    CHECK_STR(analysis_class_name(ANALYSIS_BEST), "best");
    CHECK_STR(analysis_class_name(ANALYSIS_GOOD), "good");
    CHECK_STR(analysis_class_name(ANALYSIS_INACCURACY), "inaccuracy");
    CHECK_STR(analysis_class_name(ANALYSIS_MISTAKE), "mistake");
    CHECK_STR(analysis_class_name(ANALYSIS_BLUNDER), "blunder");
    CHECK_STR(analysis_class_name((enum analysis_class)9), "?");
    CHECK_EQ_INT(analysis_classify(0), ANALYSIS_BEST);
    CHECK_EQ_INT(analysis_classify(5), ANALYSIS_GOOD);
    CHECK_EQ_INT(analysis_classify(9.9), ANALYSIS_GOOD);
    CHECK_EQ_INT(analysis_classify(10), ANALYSIS_INACCURACY);
    CHECK_EQ_INT(analysis_classify(19.9), ANALYSIS_INACCURACY);
    CHECK_EQ_INT(analysis_classify(20), ANALYSIS_MISTAKE);
    CHECK_EQ_INT(analysis_classify(30), ANALYSIS_BLUNDER);
    CHECK_EQ_INT(analysis_classify(100), ANALYSIS_BLUNDER);
    CHECK(fabs(analysis_move_accuracy(0) - 100) < 0.01);
    CHECK(analysis_move_accuracy(-5) == analysis_move_accuracy(0));
    CHECK(analysis_move_accuracy(100) == 0);
    double last = 101;
    for (double d = 0; d <= 80; d += 5) {
        double a = analysis_move_accuracy(d);
        CHECK(a >= 0 && a <= 100 && a < last);
        last = a;
    }
}

TEST(analysis_chess_missed_mate)
{
    /* 3...Nf6?? allows Qxf7#, and 4.d3?? misses it. */
    struct analysis_ply p[64];
    struct analysis_summary sum;
    int n = review_record("chess", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. d3 *\n", TEST_NODES, p, &sum);
    CHECK_EQ_INT(n, 7);
    if (n != 7)
        return;
    for (int k = 0; k < 5; k++)
        CHECK_MSG(p[k].cls < ANALYSIS_MISTAKE, "ply %d %s: %s", p[k].ply, p[k].move_display,
                  analysis_class_name(p[k].cls));
    CHECK_EQ_INT(p[5].cls, ANALYSIS_BLUNDER); /* Nf6 walks into the mate */
    CHECK_EQ_INT(p[5].mate_after, -1);
    CHECK_STR(p[6].move_display, "d3");
    CHECK(p[6].cls >= ANALYSIS_MISTAKE);
    CHECK_STR(p[6].best_display, "Qxf7#");
    CHECK_STR(p[6].best, "h5f7");
    CHECK_EQ_INT(p[6].mate_before, 1);
    CHECK_EQ_INT(p[6].mover, SIDE_WHITE);
    CHECK(p[6].win_before == 1.0);
    CHECK_EQ_INT(sum.moves[SIDE_WHITE], 4);
    CHECK_EQ_INT(sum.moves[SIDE_BLACK], 3);
    CHECK(sum.count[SIDE_WHITE][ANALYSIS_MISTAKE] + sum.count[SIDE_WHITE][ANALYSIS_BLUNDER] == 1);
    CHECK(sum.accuracy[SIDE_WHITE] > 0 && sum.accuracy[SIDE_WHITE] < 90);
}

TEST(analysis_chess_hung_queen)
{
    struct analysis_ply p[64];
    int n = review_record("chess", "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *\n", TEST_NODES, p, NULL);
    CHECK_EQ_INT(n, 6);
    if (n != 6)
        return;
    CHECK_STR(p[4].move_display, "Qxe5+");
    CHECK_EQ_INT(p[4].cls, ANALYSIS_BLUNDER);
    CHECK(p[4].best_display[0] && strcmp(p[4].best_display, "Qxe5+") != 0);
    CHECK(p[4].drop >= ANALYSIS_BLUNDER_DROP);
    CHECK(p[4].score_after < -500); /* a queen for a pawn */
    CHECK_EQ_INT(p[5].cls, ANALYSIS_BEST);
    CHECK_STR(p[5].best_display, "Nxe5");
    /* One search a position: the score after a ply is the next one's before. */
    for (int k = 0; k + 1 < n; k++)
        CHECK_EQ_INT(p[k].score_after, -p[k + 1].score_before);
}

/* Agon: the queen on the throne and five guards on ring 1; g7-g6 completes the
 * formation.  g7-f8 lets Black's h5 guard into g6, capturing g5 (flanked with g4). */
TEST(analysis_agon_missed_formation)
{
    const char *record = "[Variant \"agon\"]\n[SetUp \"1\"]\n"
                         "[FEN \"1g4/6g/8/g8/4GG4/4GQG3q/3gG1G3/4g4/8/7/1g4 w\"]\n\n"
                         "1. g7-f8 h5-g6 *\n";
    struct analysis_ply p[64];
    int n = review_record("agon", record, TEST_NODES, p, NULL);
    CHECK_EQ_INT(n, 2);
    if (n != 2)
        return;
    CHECK_STR(p[0].move, "g7-f8");
    CHECK_STR(p[0].best, "g7-g6");
    CHECK_EQ_INT(p[0].mate_before, 1);
    CHECK(p[0].mate_after <= 0);
    /* A proven win let go: at least an inaccuracy, whatever the curve (its k is fitted
     * elsewhere). */
    CHECK(p[0].cls >= ANALYSIS_INACCURACY);
    CHECK(p[0].win_before == 1.0 && p[0].win_after < 1.0);
}

/* Egara-guti: White's d4-e5 walks into f6xd4xd2, which takes both white pieces. */
TEST(analysis_egara_capture_chain)
{
    const char *record = "[Variant \"egara-guti\"]\n[SetUp \"1\"]\n"
                         "[FEN \"4B/2B/3/W/1W1/3/5 w 0\"]\n\n"
                         "1. d4-e5 f6xd4xd2 0-1\n";
    struct analysis_ply p[64];
    int n = review_record("egara-guti", record, TEST_NODES, p, NULL);
    CHECK_EQ_INT(n, 2);
    if (n != 2)
        return;
    CHECK_STR(p[0].move, "d4-e5");
    CHECK(strcmp(p[0].best, "d4-e5") != 0);
    CHECK_EQ_INT(p[0].mate_after, -1);
    CHECK(p[0].win_after == 0.0);
    /* Level before (no side is winning) and lost after: a drop of at least 50 points on
     * any curve. */
    CHECK(p[0].score_before >= 0);
    CHECK_EQ_INT(p[0].cls, ANALYSIS_BLUNDER);
    CHECK_STR(p[1].move, "f6xd4xd2");
    CHECK_EQ_INT(p[1].cls, ANALYSIS_BEST);
    CHECK_EQ_INT(p[1].mate_before, 1);
    CHECK_EQ_INT(p[1].mate_after, 1); /* the game's result, counted from before the move */
}

/* Two full-strength engines (different budgets, no noise) make no blunder. */
TEST(analysis_engine_game_clean)
{
    const char *games[] = {"chess", "egara-guti", "agon"};
    for (int gi = 0; gi < 3; gi++) {
        const struct game *g = game_find(games[gi]);
        void *st = game_state_new(g);
        void *start = game_state_new(g);
        g->start(st);
        g->start(start);
        Move moves[24];
        int n = 0;
        for (; n < 24; n++) {
            struct game_status gs;
            g->status(st, &gs);
            if (gs.result != RESULT_ONGOING)
                break;
            struct engine_limits lim = {.nodes = n % 2 ? 6000 : 12000};
            moves[n] = engine_think(g, st, 0, &lim, 1, NULL);
            g->make_move(st, moves[n]);
        }
        struct analysis_ply p[24];
        struct analysis_summary sum;
        char err[ERROR_TEXT_MAX];
        struct analysis_review_request rq = {.nodes = 12000};
        int got = analysis_review(g, start, moves, n, &rq, p, &sum, err, sizeof err);
        CHECK_EQ_INT(got, n);
        for (int k = 0; k < got; k++)
            CHECK_MSG(p[k].cls != ANALYSIS_BLUNDER, "%s ply %d %s: blunder (drop %.1f)", g->name,
                      p[k].ply, p[k].move_display, p[k].drop);
        CHECK(sum.accuracy[SIDE_WHITE] > 50 && sum.accuracy[SIDE_BLACK] > 50);
        free(st);
        free(start);
    }
}

struct streamed {
    int calls, last_depth, monotone, n;
};

static void on_lines(void *ctx, const struct analysis_line *l, int n)
{
    struct streamed *s = ctx;
    s->calls++;
    s->monotone &= l[0].depth >= s->last_depth;
    s->last_depth = l[0].depth;
    s->n = n;
}

TEST(analysis_multipv_lines)
{
    const char *names[] = {"chess", "agon", "egara-guti"};
    for (int gi = 0; gi < 3; gi++) {
        const struct game *g = game_find(names[gi]);
        void *st = game_state_new(g);
        g->start(st);
        struct streamed s = {.monotone = 1};
        struct analysis_request rq = {
            .multipv = 3, .nodes = 60000, .on_lines = on_lines, .ctx = &s};
        struct analysis_line l[ANALYSIS_MAX_LINES];
        int n = analysis_position(g, st, &rq, NULL, l);
        CHECK_EQ_INT(n, 3);
        CHECK(s.calls >= 1 && s.monotone && s.n == 3);
        for (int i = 0; i < n; i++) {
            CHECK_EQ_INT(l[i].multipv, i + 1);
            CHECK(l[i].pv_len >= 1);
            CHECK(i == 0 || l[i].score <= l[i - 1].score);
            for (int k = 0; k < i; k++)
                CHECK_MSG(strcmp(l[i].pv[0], l[k].pv[0]) != 0, "%s: line %d repeats %s", g->name,
                          i + 1, l[i].pv[0]);
            Move m;
            char err[ERROR_TEXT_MAX];
            CHECK(g->parse_move(st, l[i].pv[0], &m, err, sizeof err) == 0);
        }
        free(st);
    }
}

TEST(analysis_mate_in_one_lines)
{
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    CHECK(g->parse_position(st, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", err, sizeof err) == 0);
    struct analysis_line l[ANALYSIS_MAX_LINES];
    struct analysis_request rq = {.multipv = 2, .nodes = 20000};
    int n = analysis_position(g, st, &rq, NULL, l);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(l[0].mate, 1);
    CHECK(l[0].win == 1.0);
    CHECK_STR(l[0].pv_display[0], "Ra8#");
    CHECK_STR(l[0].pv[0], "a1a8");
    CHECK_EQ_INT(l[1].mate, 0);
    /* One line: streamed as it deepens, the same mate. */
    struct streamed s = {.monotone = 1};
    struct analysis_request one = {.multipv = 1, .nodes = 20000, .on_lines = on_lines, .ctx = &s};
    n = analysis_position(g, st, &one, NULL, l);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(l[0].mate, 1);
    CHECK(s.calls >= 1 && s.n == 1);
    /* Over: no lines. */
    CHECK(g->parse_position(st, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", err, sizeof err) == 0);
    CHECK_EQ_INT(analysis_position(g, st, &rq, NULL, l), 0);
    free(st);
}

TEST(analysis_review_stops_and_rejects)
{
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    g->start(st);
    Move moves[2];
    char err[ERROR_TEXT_MAX];
    CHECK(g->parse_move(st, "e2e4", &moves[0], err, sizeof err) == 0);
    moves[1] = moves[0]; /* e2e4 again: not legal for Black */
    struct analysis_ply p[2];
    struct analysis_review_request rq = {.nodes = 1000};
    CHECK_EQ_INT(analysis_review(g, st, moves, 2, &rq, p, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "ply 2") != NULL);
    atomic_int stop = 1;
    rq.stop = &stop;
    CHECK_EQ_INT(analysis_review(g, st, moves, 1, &rq, p, NULL, err, sizeof err), 0);
    free(st);
}

/* `agora analyse` with its stderr kept. */
static int run_analyse(const char *input, char **out, char **err, int argc, char **argv)
{
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    size_t out_len = 0, err_len = 0;
    FILE *o = open_memstream(out, &out_len), *e = open_memstream(err, &err_len);
    struct cli_io io = {in, o, e};
    int rc = cli_main(argc, argv, &io);
    fclose(in);
    fclose(o);
    fclose(e);
    return rc;
}

TEST(analysis_cli_review)
{
    char *argv[] = {"agora", "analyse", "chess", "--nodes", "20000", NULL};
    char *out = NULL, *err = NULL;
    CHECK_EQ_INT(run_analyse("1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *\n", &out, &err, 5, argv), 0);
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    CHECK_EQ_INT(lines, 7);
    CHECK(strstr(out, "{\"ply\":1,\"move\":\"e4\",\"best\":") == out);
    CHECK(strstr(out, "\"move\":\"Qxe5+\"") != NULL);
    CHECK(strstr(out, "\"class\":\"blunder\"") != NULL);
    CHECK(strstr(out, "\"score_before\":") && strstr(out, "\"win_after\":"));
    CHECK(strstr(out, "{\"accuracy\":{\"white\":") != NULL);
    CHECK_STR(err, "");
    free(out);
    free(err);

    char *pos[] = {
        "agora",     "analyse", "chess",   "--position", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "--multipv", "2",       "--nodes", "20000",      NULL};
    CHECK_EQ_INT(run_analyse("", &out, &err, 9, pos), 0);
    CHECK(strstr(out, "{\"multipv\":1,\"score\":29999,\"mate\":1,\"win\":1") == out);
    CHECK(strstr(out, "\"pv\":[\"Ra8#\"]") != NULL);
    CHECK(strstr(out, "{\"multipv\":2,") != NULL);
    free(out);
    free(err);
}

TEST(analysis_cli_bad_input)
{
    char *argv[] = {"agora", "analyse", "chess", "--nodes", "1000", NULL};
    char *out = NULL, *err = NULL;
    CHECK_EQ_INT(run_analyse("1. e4 e5 2. Ke3 Nc6 *\n", &out, &err, 5, argv), CLI_BAD_INPUT);
    CHECK(strstr(err, "Ke3") != NULL);
    CHECK_EQ_INT(strchr(err, '\n') - err + 1, (long)strlen(err)); /* one line */
    CHECK_STR(out, "");
    free(out);
    free(err);

    char *agon[] = {"agora", "analyse", "agon", NULL};
    CHECK_EQ_INT(run_analyse("[Variant \"agon\"]\n\n1. a5-a4 zz-top *\n", &out, &err, 3, agon),
                 CLI_BAD_INPUT);
    CHECK(strstr(err, "zz-top") != NULL);
    free(out);
    free(err);

    char *bad[][7] = {
        {"agora", "analyse", "chess", "--nodes", "0", NULL},
        {"agora", "analyse", "chess", "--multipv", "3", NULL},
        {"agora", "analyse", "chess", "--position", "x", "--multipv", "9"},
        {"agora", "analyse", "chess", "--frobnicate", NULL},
        {"agora", "analyse", "nosuchgame", NULL},
        {"agora", "analyse", "chess", "--position", "not a fen", NULL},
        {"agora", "analyse", "chess", "/nonexistent/file.pgn", NULL},
    };
    int argcs[] = {5, 5, 7, 4, 3, 5, 4};
    for (int i = 0; i < 7; i++) {
        CHECK_EQ_INT(run_analyse("", &out, &err, argcs[i], bad[i]), CLI_BAD_INPUT);
        CHECK_MSG(strchr(err, '\n') && strchr(err, '\n')[1] == 0, "case %d: '%s'", i, err);
        free(out);
        free(err);
    }
}

/* A finished game: its last position is scored by its result, not searched. */
TEST(analysis_review_to_the_mate)
{
    struct analysis_ply p[64];
    struct analysis_summary sum;
    int n = review_record("chess", "1. f3 e5 2. g4 Qh4# 0-1\n", TEST_NODES, p, &sum);
    CHECK_EQ_INT(n, 4);
    if (n != 4)
        return;
    CHECK_EQ_INT(p[2].cls, ANALYSIS_BLUNDER); /* g4 allows the mate */
    CHECK_EQ_INT(p[2].mate_after, -1);
    CHECK_STR(p[3].move_display, "Qh4#");
    CHECK_EQ_INT(p[3].cls, ANALYSIS_BEST);
    CHECK_EQ_INT(p[3].mate_before, 1);
    CHECK_EQ_INT(p[3].score_after, SCORE_WIN - 1);
    CHECK_EQ_INT(p[3].mover, SIDE_BLACK);
    CHECK(sum.accuracy[SIDE_BLACK] > sum.accuracy[SIDE_WHITE]);
}
