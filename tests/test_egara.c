/* Egara-guti: the rule book's perft table and a hand-built position for every rule. */
#include <stdlib.h>

#include "core/perft.h"
#include "games/egara/board.h"
#include "games/egara/egara.h"
#include "games/registry.h"
#include "harness.h"

static const struct game *egara(void)
{
    return game_find("egara-guti");
}

/* A state at `text` (the test fails if it does not parse). */
static void *at(struct test_ctx *t__, const char *text)
{
    void *st = game_state_new(egara());
    char err[ERROR_TEXT_MAX];
    CHECK_MSG(egara()->parse_position(st, text, err, sizeof err) == 0, "'%s': %s", text, err);
    return st;
}

/* The sorted legal moves, space-separated. */
static void moves_of(const void *st, char *out, size_t size)
{
    const struct game *g = egara();
    Move moves[256];
    char texts[256][MOVE_TEXT_MAX];
    int n = game_legal_moves(g, st, moves);
    for (int i = 0; i < n; i++)
        g->move_text(st, moves[i], texts[i], MOVE_TEXT_MAX);
    qsort(texts, (size_t)n, MOVE_TEXT_MAX, (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strncat(out, " ", size - strlen(out) - 1);
        strncat(out, texts[i], size - strlen(out) - 1);
    }
}

static void play(struct test_ctx *t__, void *st, const char *text)
{
    Move m;
    char err[ERROR_TEXT_MAX];
    if (egara()->parse_move(st, text, &m, err, sizeof err) == 0)
        egara()->make_move(st, m);
    else
        CHECK_MSG(0, "move '%s' refused: %s", text, err);
}

static struct game_status status_of(const void *st)
{
    struct game_status s;
    egara()->status(st, &s);
    return s;
}

TEST(egara_board_data)
{
    CHECK_EQ_INT(egara_board.pairs, 40);
    CHECK_EQ_INT(egara_board.triples, 29);
    int points = 0;
    for (int p = 0; p < EGARA_POINTS; p++)
        points += egara_board.adjacent[p] != 0;
    CHECK_EQ_INT(points, 23);
    /* b6-b2 are adjacent on the joining line, so b6 jumps b2 to b1. */
    CHECK_EQ_INT(egara_board.middle[egara_point_by_name("b6")][egara_point_by_name("b1")],
                 egara_point_by_name("b2"));
    CHECK_EQ_INT(egara_board.middle[egara_point_by_name("b6")][egara_point_by_name("d4")],
                 egara_point_by_name("c5"));
    CHECK_EQ_INT(egara_board.middle[egara_point_by_name("a7")][egara_point_by_name("a1")], -1);
    CHECK_EQ_INT(egara_board.middle[egara_point_by_name("b7")][egara_point_by_name("b2")],
                 egara_point_by_name("b6"));
    CHECK(egara_board.adjacent[egara_point_by_name("b6")] & (1u << egara_point_by_name("b2")));
    const struct board_layout *l = egara()->layout();
    CHECK_EQ_INT(l->shape, BOARD_GRAPH);
    CHECK_EQ_INT(l->cells, 23);
    CHECK_EQ_INT(l->edges, 40);
    CHECK_STR(l->cell[EGARA_CENTRE].name, "d4");
    CHECK(l->cell[EGARA_CENTRE].flags & EGARA_CELL_CENTRE);
}

TEST(egara_perft_table)
{
    static const uint64_t table[] = {3, 3, 3, 9, 35, 71, 257, 796, 3112, 11749};
    void *st = game_state_new(egara());
    egara()->start(st);
    for (int d = 1; d <= 10; d++)
        CHECK_EQ_U64(perft(egara(), st, d), table[d - 1]);
    free(st);
}

TEST(egara_start_position_text)
{
    char text[POSITION_TEXT_MAX], moves[512];
    void *st = game_state_new(egara());
    egara()->start(st);
    egara()->write_position(st, text, sizeof text);
    CHECK_STR(text, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 0");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "c3-d4 d3-d4 e3-d4");
    free(st);
}

TEST(egara_black_may_begin)
{
    char moves[512];
    void *st = at(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW b");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "c5-d4 d5-d4 e5-d4");
    CHECK_EQ_INT(egara()->side_to_move(st), SIDE_BLACK);
    free(st);
}

/* Each first move enters the centre and is captured at once. */
TEST(egara_first_move_is_captured)
{
    char moves[512];
    void *st = game_state_new(egara());
    egara()->start(st);
    play(TEST_CTX, st, "c3-d4");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "e5xc3");
    play(TEST_CTX, st, "e5xc3");
    char text[POSITION_TEXT_MAX];
    egara()->write_position(st, text, sizeof text);
    CHECK_STR(text, "BBBBB/BBB/BB1/1/BWW/WWW/WWWWW w 0");
    free(st);
}

TEST(egara_chain_changes_direction)
{
    char moves[512];
    struct move_desc d;
    void *st = at(TEST_CTX, "1W3/B2/3/1/3/1B1/5 w");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "b7xb2xf2");
    Move m;
    CHECK(egara()->parse_move(st, "b7xb2xf2", &m, NULL, 0) == 0);
    egara()->describe_move(st, m, &d);
    CHECK_STR(d.from, "b7");
    CHECK_STR(d.to, "f2");
    CHECK_EQ_INT(d.path_len, 2);
    CHECK_EQ_INT(d.captured_len, 2);
    CHECK_STR(d.captured[0], "b6");
    CHECK_STR(d.captured[1], "d2");
    CHECK(d.flags & EGARA_MOVE_CHAIN);
    egara()->make_move(st, m);
    CHECK_EQ_INT(status_of(st).result, RESULT_WHITE_WINS);
    CHECK_EQ_INT(status_of(st).reason, EGARA_REASON_ELIMINATION);
    free(st);
}

/* The chain may land where it started, and on points emptied by its own jumps. */
TEST(egara_chain_lands_on_vacated_points)
{
    char moves[512];
    /* White b6 goes round the triangle b6 f6 d4 and back to b6, either way. */
    void *st = at(TEST_CTX, "5/WB1/B1B/1/3/3/5 w");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "b6xd4xf6xb6 b6xf6xd4xb6");
    free(st);
    /* White c5 jumps d5 first and lands on d5 at the end of the chain. */
    st = at(TEST_CTX, "3B1/1BB/WB1/1/3/3/5 w");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "c5xe5xg7xd7xd5");
    play(TEST_CTX, st, "c5xe5xg7xd7xd5");
    char text[POSITION_TEXT_MAX];
    egara()->write_position(st, text, sizeof text);
    CHECK_STR(text, "5/3/1W1/1/3/3/5 b 0");
    free(st);
}

TEST(egara_choice_between_two_capturers)
{
    char moves[512];
    void *st = at(TEST_CTX, "5/3/3/B/W1W/3/5 w");
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "c3xe5 e3xc5");
    free(st);
}

TEST(egara_capture_is_compulsory)
{
    char err[ERROR_TEXT_MAX] = "";
    Move m;
    void *st = at(TEST_CTX, "5/3/3/B/W1W/3/5 w");
    /* c3-d3 would be a legal step without the capture. */
    CHECK(egara()->parse_move(st, "c3-d3", &m, err, sizeof err) != 0);
    CHECK_MSG(strstr(err, "compulsory") != NULL, "message: %s", err);
    free(st);
}

TEST(egara_chain_must_go_on)
{
    char err[ERROR_TEXT_MAX] = "";
    Move m;
    void *st = at(TEST_CTX, "1W3/B2/3/1/3/1B1/5 w");
    CHECK(egara()->parse_move(st, "b7xb2", &m, err, sizeof err) != 0);
    CHECK_MSG(strstr(err, "must go on") != NULL, "message: %s", err);
    free(st);
}

TEST(egara_blocked_side_loses)
{
    void *st = at(TEST_CTX, "5/3/3/1/B2/B2/WBB2 w");
    char moves[512];
    moves_of(st, moves, sizeof moves);
    CHECK_STR(moves, "");
    struct game_status s = status_of(st);
    CHECK_EQ_INT(s.result, RESULT_BLACK_WINS);
    CHECK_EQ_INT(s.reason, REASON_BLOCKED);
    free(st);
}

TEST(egara_quiet_limit_counts_pieces)
{
    /* 2 against 1: after the 40th quiet ply the larger side wins. */
    void *st = at(TEST_CTX, "WW3/3/3/1/3/3/4B w 39");
    CHECK_EQ_INT(status_of(st).result, RESULT_ONGOING);
    play(TEST_CTX, st, "b7-d7");
    CHECK_EQ_INT(status_of(st).result, RESULT_WHITE_WINS);
    CHECK_EQ_INT(status_of(st).reason, EGARA_REASON_QUIET_LIMIT);
    free(st);
    /* 1 against 1: a draw. */
    st = at(TEST_CTX, "W4/3/3/1/3/3/4B w 39");
    play(TEST_CTX, st, "a7-b7");
    CHECK_EQ_INT(status_of(st).result, RESULT_DRAW);
    CHECK_EQ_INT(status_of(st).reason, EGARA_REASON_QUIET_LIMIT);
    free(st);
    /* The 40th quiet ply ends the game at once, before the next side is found blocked. */
    st = at(TEST_CTX, "4W/3/3/1/W2/W2/BWW2 w 39");
    play(TEST_CTX, st, "g7-f7");
    CHECK_EQ_INT(status_of(st).result, RESULT_WHITE_WINS);
    CHECK_EQ_INT(status_of(st).reason, EGARA_REASON_QUIET_LIMIT);
    free(st);
    st = at(TEST_CTX, "4W/3/3/1/W2/W2/BWW2 w 10");
    play(TEST_CTX, st, "g7-f7");
    CHECK_EQ_INT(status_of(st).reason, REASON_BLOCKED);
    free(st);
    /* A capture resets the count. */
    st = at(TEST_CTX, "5/3/3/B/W2/3/4B w 39");
    play(TEST_CTX, st, "c3xe5");
    char text[POSITION_TEXT_MAX];
    egara()->write_position(st, text, sizeof text);
    CHECK_STR(text, "5/3/2W/1/3/3/4B b 0");
    CHECK_EQ_INT(status_of(st).result, RESULT_ONGOING);
    free(st);
}

TEST(egara_threefold_repetition)
{
    static const char *const shuffle[] = {"a7-b7", "g1-f1", "b7-a7", "f1-g1"};
    void *st = at(TEST_CTX, "W4/3/3/1/3/3/4B w");
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            CHECK_EQ_INT(status_of(st).result, RESULT_ONGOING);
            play(TEST_CTX, st, shuffle[i]);
        }
    }
    /* The start position stands for the third time: equal counts, a draw. */
    CHECK_EQ_INT(status_of(st).result, RESULT_DRAW);
    CHECK_EQ_INT(status_of(st).reason, REASON_REPETITION);
    free(st);
    /* Unequal counts: the larger side wins by repetition. */
    st = at(TEST_CTX, "W4/3/3/1/3/3/W3B w");
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++)
            play(TEST_CTX, st, shuffle[i]);
    CHECK_EQ_INT(status_of(st).result, RESULT_WHITE_WINS);
    CHECK_EQ_INT(status_of(st).reason, REASON_REPETITION);
    free(st);
}

TEST(egara_elimination_wins)
{
    void *st = at(TEST_CTX, "5/3/3/B/W2/3/5 w");
    play(TEST_CTX, st, "c3xe5");
    struct game_status s = status_of(st);
    CHECK_EQ_INT(s.result, RESULT_WHITE_WINS);
    CHECK_EQ_INT(s.reason, EGARA_REASON_ELIMINATION);
    free(st);
}

static void check_rejected(struct test_ctx *t__, const char *text, const char *fragment)
{
    void *st = game_state_new(egara());
    egara()->start(st);
    char before[POSITION_TEXT_MAX], after[POSITION_TEXT_MAX], err[ERROR_TEXT_MAX] = "";
    egara()->write_position(st, before, sizeof before);
    CHECK_MSG(egara()->parse_position(st, text, err, sizeof err) != 0, "accepted '%s'", text);
    CHECK_MSG(strstr(err, fragment) != NULL, "'%s': message '%s' lacks '%s'", text, err, fragment);
    egara()->write_position(st, after, sizeof after);
    CHECK_STR(after, before);
    free(st);
}

TEST(egara_malformed_positions)
{
    check_rejected(TEST_CTX, "BBBB/BBB/BBB/1/WWW/WWW/WWWWW w", "rank 7 has 4 points");
    check_rejected(TEST_CTX, "BBBBBB/BBB/BBB/1/WWW/WWW/WWWWW w", "rank 7 has more than 5");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/2/WWW/WWW/WWWWW w", "rank 4: '2' empty points");
    /* A digit run is one number: "32" is thirty-two, not 3 + 2 (the rule book). */
    check_rejected(TEST_CTX, "32/BBB/BBB/1/WWW/WWW/WWWWW w", "rank 7: '32' empty points");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/W13 w", "rank 1: '13' empty points");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/W99999999999999999999999 w",
                   "rank 1: '99999999999999999999' empty points");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/W04 w", "'04' is not a count");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/0/WWW/WWW/WWWWW w", "'0' is not a count");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW w", "6 ranks");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW/1 w", "too many ranks");
    check_rejected(TEST_CTX, "BBBBB/BBX/BBB/1/WWW/WWW/WWWWW w", "unknown letter 'X'");
    check_rejected(TEST_CTX, "bbbbb/bbb/bbb/1/www/www/wwwww w", "unknown letter 'b'");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/W/WWW/WWW/WWWWW b", "White has 12 pieces");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW", "missing side");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW x", "unknown side");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW white", "unknown side");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 41", "quiet count");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w -1", "quiet count");
    check_rejected(TEST_CTX, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 0 extra", "unexpected text");
    check_rejected(TEST_CTX, "5/3/3/1/3/3/5 w", "no pieces");
    check_rejected(TEST_CTX, "", "empty");
}

static void check_bad_move(struct test_ctx *t__, const char *position, const char *text,
                           const char *fragment)
{
    void *st = at(t__, position);
    Key k = egara()->key(st);
    Move m;
    char err[ERROR_TEXT_MAX] = "";
    CHECK_MSG(egara()->parse_move(st, text, &m, err, sizeof err) != 0, "accepted '%s'", text);
    CHECK_MSG(strstr(err, fragment) != NULL, "'%s': message '%s' lacks '%s'", text, err, fragment);
    CHECK(egara()->key(st) == k);
    free(st);
}

TEST(egara_malformed_moves)
{
    const char *start = "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w";
    check_bad_move(TEST_CTX, start, "", "empty");
    check_bad_move(TEST_CTX, start, "c3", "malformed");
    check_bad_move(TEST_CTX, start, "c3-", "unknown point");
    check_bad_move(TEST_CTX, start, "c3d4", "malformed");
    check_bad_move(TEST_CTX, start, "z9-d4", "unknown point 'z9'");
    check_bad_move(TEST_CTX, start, "c3-d4-d5", "malformed");
    check_bad_move(TEST_CTX, start, "c3xd4-d5", "malformed");
    check_bad_move(TEST_CTX, start, "c3-c4", "unknown point 'c4'");
    check_bad_move(TEST_CTX, start, "c2-d4", "unknown point 'c2'");
    check_bad_move(TEST_CTX, start, "a1-b2", "illegal move");
    check_bad_move(TEST_CTX, start, "c5-d4", "illegal move");
    check_bad_move(TEST_CTX, start, "c3xe5", "illegal move");
    check_bad_move(TEST_CTX, "W4/3/3/1/3/3/4B w 40", "a7-b7", "game is over");
}

TEST(egara_move_text_is_case_insensitive)
{
    void *st = game_state_new(egara());
    egara()->start(st);
    Move m;
    CHECK(egara()->parse_move(st, "C3-D4", &m, NULL, 0) == 0);
    char text[MOVE_TEXT_MAX];
    egara()->move_text(st, m, text, sizeof text);
    CHECK_STR(text, "c3-d4");
    free(st);
}

TEST(egara_render_draws_the_diagram)
{
    char board[RENDER_TEXT_MAX];
    void *st = game_state_new(egara());
    egara()->start(st);
    egara()->render(st, board, sizeof board);
    CHECK(strstr(board, "  7  B---B-------B-------B---B\n") != NULL);
    CHECK(strstr(board, "  4      |       .       |") != NULL);
    CHECK(strstr(board, "     a   b   c   d   e   f   g") != NULL);
    free(st);
}
