/* The Egara-guti tables inside the search (search/oracle.h, engines/egara_tablebase.c):
 * the search's values agree with the tables', level 8 wins soonest and defends longest
 * (the game ends at the tables' distance, the 40-ply count included), and a search
 * without levels (bench, analysis) is the same with and without tables. */
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "engines/egara_tablebase.h"
#include "engines/engine.h"
#include "games/egara/board.h"
#include "games/registry.h"
#include "harness.h"
#include "puzzles/puzzle.h"
#include "puzzles/puzzle_file.h"
#include "tablebase/tablebase.h"
#include "tb_fixture.h"

static const struct game *egara(void)
{
    return game_find("egara-guti");
}

static int wdl_of(enum tb_outcome o)
{
    return o == TB_OUTCOME_WIN ? 1 : o == TB_OUTCOME_LOSS ? -1 : 0;
}

static int score_wdl(Score s)
{
    Score floor = ENGINE_WIN_BOUND - SEARCH_ORACLE_BAND;
    return s >= floor ? 1 : s <= -floor ? -1 : 0;
}

/* Random positions of five pieces where every move captures, so every child is in the
 * tables of four: a one-ply search's value is exactly the best of the tables' values
 * of the children, and without tables it is a static score. */
TEST(tablebase_search_probes_inside_the_tree)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    struct tb_tables *tb = tb_open(dir);
    struct rng r;
    rng_seed(&r, 5);
    void *st = game_state_new(g);
    int checked = 0, decided = 0;
    for (int i = 0; i < 20000 && checked < 60; i++) {
        int own = 1 + (int)rng_below(&r, 4);
        uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, 5 - own, a);
        char text[POSITION_TEXT_MAX], err[512];
        tbf_text_of(a, b, 0, (int)rng_below(&r, 40), text, sizeof text);
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct game_status gs;
        g->status(st, &gs);
        Move moves[256];
        int n = gs.result == RESULT_ONGOING ? g->gen_moves(st, moves) : 0, captures = 0;
        for (int k = 0; k < n; k++)
            captures += g->is_noisy(st, moves[k]);
        if (n == 0 || captures < n)
            continue;
        /* the best child by the tables, at ply 1 */
        Score want = -SCORE_INFINITE;
        for (int k = 0; k < n; k++) {
            struct tb_answer c;
            g->make_move(st, moves[k]);
            CHECK(tb_probe(tb, g, st, 0, &c, err, sizeof err) == 0);
            g->unmake_move(st, moves[k]);
            Score s = (Score)-search_oracle_score(
                wdl_of(c.outcome), c.plies >= 0 ? c.plies : c.estimate, c.plies >= 0, 1);
            if (s > want)
                want = s;
        }
        struct engine_limits lim = {.depth = 1, .contempt = -1};
        struct engine_result with, without;
        egara_tablebase_dir(dir);
        engine_think(g, st, 8, &lim, 1, &with);
        egara_tablebase_dir(NULL);
        engine_think(g, st, 8, &lim, 1, &without);
        CHECK_MSG(with.score == want, "%s: search %d, tables %d", text, with.score, want);
        CHECK_MSG(score_wdl(without.score) == 0 || without.score >= ENGINE_WIN_BOUND ||
                      without.score <= -ENGINE_WIN_BOUND,
                  "%s: a band score without tables: %d", text, without.score);
        decided += score_wdl(want) != 0;
        checked++;
    }
    CHECK(checked == 60);
    CHECK(decided > 10);
    free(st);
    tb_close(tb);
}

/* Play level 8 against itself from st: the result and the plies to the end (a game
 * longer than 300 plies: -1).  *repeated: some position came a third time. */
static int play_out(const struct game *g, void *st, enum result *res, int *repeated)
{
    Key seen[320];
    int plies = 0;
    *repeated = 0;
    for (;;) {
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING) {
            *res = gs.result;
            *repeated = *repeated || gs.reason == REASON_REPETITION;
            return plies;
        }
        if (plies >= 300)
            return -1;
        seen[plies] = g->key(st);
        for (int k = 0, same = 0; k < plies; k++)
            if (seen[k] == seen[plies] && ++same >= 2)
                *repeated = 1;
        struct engine_result er;
        Move m = engine_think(g, st, 8, NULL, 1, &er);
        g->make_move(st, m);
        plies++;
    }
}

/* Won and lost positions of three and four pieces at every quiet count: level 8 on both
 * sides ends the game with the tables' result in exactly the tables' distance (the
 * winner soonest, the loser latest), or sooner only by a repetition, which the tables
 * leave out (NOTES.md). */
TEST(tablebase_level8_wins_soonest_defends_longest)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    egara_tablebase_dir(dir);
    struct tb_tables *tb = tb_open(dir);
    struct rng r;
    rng_seed(&r, 17);
    void *st = game_state_new(g);
    int played = 0, exact = 0;
    const char *fixed[] = {"5/3/3/B/B2/3/WW3 w 36", "5/3/3/1/3/1B1/W2W1 w 0",
                           "B4/3/3/1/3/3/WW3 b 30"};
    for (int i = 0; i < 2000 && played < 24; i++) {
        char text[POSITION_TEXT_MAX], err[512];
        if (i < 3) {
            snprintf(text, sizeof text, "%s", fixed[i]);
        } else {
            int pieces = 3 + (int)rng_below(&r, 2), own = 1 + (int)rng_below(&r, 3);
            if (own >= pieces)
                own = pieces - 1;
            uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, pieces - own, a);
            tbf_text_of(a, b, (int)rng_below(&r, 2), (int)rng_below(&r, 40), text, sizeof text);
        }
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct tb_answer want;
        if (tb_probe(tb, g, st, 1, &want, err, sizeof err) != 0 ||
            want.outcome == TB_OUTCOME_DRAW || want.plies < 3)
            continue;
        enum side mover = g->side_to_move(st);
        enum result res = RESULT_ONGOING;
        int repeated, plies = play_out(g, st, &res, &repeated);
        enum result win = mover == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        int got = res == RESULT_DRAW ? 0 : res == win ? 1 : -1;
        CHECK_MSG(got == wdl_of(want.outcome), "%s: played %d, tables %d", text, got,
                  wdl_of(want.outcome));
        if (repeated)
            CHECK_MSG(plies <= want.plies, "%s: %d plies, tables %d", text, plies, want.plies);
        else
            CHECK_MSG(plies == want.plies, "%s: %d plies, tables %d", text, plies, want.plies);
        exact += !repeated;
        played++;
    }
    CHECK(played == 24);
    CHECK(exact >= 12);
    egara_tablebase_dir(NULL);
    free(st);
    tb_close(tb);
}

/* A search without a level (bench, analysis) never asks the tables: the same nodes and
 * score with and without them. */
TEST(tablebase_level0_search_is_unchanged)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    void *st = game_state_new(g);
    char err[512];
    CHECK(g->parse_position(st, "5/3/3/B/B2/3/WW3 w 20", err, sizeof err) == 0);
    struct engine_limits lim = {.depth = 6};
    struct engine_result with, without;
    egara_tablebase_dir(dir);
    engine_think(g, st, 0, &lim, 1, &with);
    egara_tablebase_dir(NULL);
    engine_think(g, st, 0, &lim, 1, &without);
    CHECK(with.nodes == without.nodes && with.score == without.score && with.best == without.best);
    free(st);
}

/* The puzzle judge inside the tables (src/puzzles/puzzle_tables.c), under the puzzles'
 * one rule (data/puzzles/README.md): a puzzle is proven exactly when one move wins by
 * the tables (a slower win is a win too) or, at the last step, every winning move ends
 * the game at once (the others are its alternatives); the defences the longest, the
 * line ending the game for the solver; a position with another win is not unique. */
TEST(tablebase_puzzles_are_proven_by_the_tables)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    egara_tablebase_dir(dir);
    struct tb_tables *tb = tb_open(dir);
    struct rng r;
    rng_seed(&r, 23);
    void *st = game_state_new(g);
    int ok = 0, not_unique = 0;
    for (int i = 0; i < 3000 && (ok < 12 || not_unique < 5); i++) {
        int pieces = 3 + (int)rng_below(&r, 2), own = 1 + (int)rng_below(&r, (uint32_t)pieces - 1);
        uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, pieces - own, a);
        char text[POSITION_TEXT_MAX], err[512];
        tbf_text_of(a, b, 0, (int)rng_below(&r, 40), text, sizeof text);
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct tb_answer root;
        if (tb_probe(tb, g, st, 1, &root, err, sizeof err) != 0 || root.outcome != TB_OUTCOME_WIN)
            continue;
        /* the moves of the fastest win, by the tables directly */
        Move mv[256];
        int n = g->gen_moves(st, mv), fastest = 1 << 20, winners = 0, at_once = 0;
        int dist[256];
        for (int k = 0; k < n; k++) {
            struct tb_answer c;
            struct game_status gs;
            g->make_move(st, mv[k]);
            g->status(st, &gs);
            dist[k] =
                gs.result == RESULT_WHITE_WINS ? 0
                : tb_probe(tb, g, st, 1, &c, err, sizeof err) == 0 && c.outcome == TB_OUTCOME_LOSS
                    ? c.plies
                    : -1;
            g->unmake_move(st, mv[k]);
            if (dist[k] >= 0 && dist[k] < fastest)
                fastest = dist[k];
        }
        for (int k = 0; k < n; k++) {
            winners += dist[k] >= 0;
            at_once += dist[k] == 0;
        }
        struct puzzle_solution s;
        enum puzzle_reject why = puzzle_solve(g, st, 1000, NULL, &s);
        if (winners > 1 && (at_once < winners || at_once > PUZZLE_ALT_MAX + 1)) {
            CHECK_MSG(why == PUZZLE_NOT_UNIQUE, "%s: %d moves win, judged %s", text, winners,
                      puzzle_reject_name(why));
            not_unique++;
            continue;
        }
        if (why != PUZZLE_OK)
            continue; /* too long for a puzzle, or a later step not unique */
        CHECK_MSG(s.proven && s.n == root.plies, "%s: line of %d plies, tables %d", text, s.n,
                  root.plies);
        for (int k = 0; k < n; k++)
            if (dist[k] == fastest && at_once == 0)
                CHECK_MSG(s.line[0] == mv[k], "%s: not the winning first move", text);
        CHECK_MSG(s.nalt == (at_once > 0 ? at_once - 1 : 0), "%s: %d alternatives, %d wins at once",
                  text, s.nalt, at_once);
        for (int k = 0; k < s.n; k++)
            g->make_move(st, s.line[k]);
        struct game_status gs;
        g->status(st, &gs);
        CHECK_MSG(gs.result == RESULT_WHITE_WINS, "%s: the line does not win", text);
        /* The line says the tables proved it, and `check` proves it again by them alone:
         * with the tables gone it cannot, and says why (a puzzle never passes by a judge
         * other than its own). */
        CHECK_MSG(s.by == PUZZLE_BY_TABLES && s.nodes == 0, "%s: judged by %s", text,
                  puzzle_judge_name(s.by));
        if (ok == 0) {
            g->parse_position(st, text, err, sizeof err);
            struct puzzle_entry e, back;
            puzzle_entry_make(g, st, &s, &e);
            char *json = puzzle_entry_json(&e);
            CHECK(json &&
                  strstr(json, "\"judge\":{\"engine\":\"agora egara-guti\",\"by\":\"tables\"}"));
            CHECK_EQ_INT(json ? puzzle_entry_parse(json, &back, err, sizeof err) : -1, 0);
            CHECK_EQ_INT(back.by, PUZZLE_BY_TABLES);
            CHECK_EQ_INT(puzzle_entry_check(&back, 0, NULL, err, sizeof err), 0);
            egara_tablebase_dir(NULL);
            CHECK_EQ_INT(puzzle_entry_check(&back, 0, NULL, err, sizeof err), -1);
            CHECK(strstr(err, "proven by the endgame tables") != NULL);
            egara_tablebase_dir(dir);
            free(json);
        }
        ok++;
    }
    CHECK(ok >= 12 && not_unique >= 5);
    egara_tablebase_dir(NULL);
    free(st);
    tb_close(tb);
}
