/* Agon (rules/agon.md): the perft table, the board, and a hand-built position for
 * every rule: captures and returns, the no-sandwich rule, the formation win and loss,
 * no legal move, threefold repetition; malformed position and move texts. */
#include <stdlib.h>

#include "cli/cli.h"
#include "core/perft.h"
#include "games/agon/agon.h"
#include "games/agon/board.h"
#include "games/agon/state.h"
#include "games/registry.h"
#include "harness.h"

#define G (&agon_game)
#define START_TEXT "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w"

/* Position text from a piece list like "Qf6 Ge5 q*f11 g*b7" (letter, optional '*',
 * cell), written independently of the module's writer. */
static void build_text(char *out, size_t size, const char *pieces, char side)
{
    static const char files[] = "abcdefghikl";
    static const int lengths[] = {6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6};
    size_t n = 0;
    for (int x = 0; x < 11; x++) {
        int empty = 0;
        for (int rank = 1; rank <= lengths[x]; rank++) {
            char cell[16];
            snprintf(cell, sizeof cell, "%c%d", files[x], rank);
            const char *found = NULL;
            for (const char *p = pieces; *p;) {
                while (*p == ' ')
                    p++;
                const char *name = p + 1 + (p[1] == '*');
                size_t len = strcspn(name, " ");
                if (len == strlen(cell) && !strncmp(name, cell, len))
                    found = p;
                p = name + len;
            }
            if (!found) {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, size - n, "%d", empty);
            empty = 0;
            out[n++] = found[0];
            if (found[1] == '*')
                out[n++] = '*';
        }
        if (empty)
            n += (size_t)snprintf(out + n, size - n, "%d", empty);
        if (x < 10)
            out[n++] = '/';
    }
    snprintf(out + n, size - n, " %c", side);
}

static void *position(struct test_ctx *t__, const char *pieces, char side)
{
    char text[POSITION_TEXT_MAX], err[ERROR_TEXT_MAX] = "";
    build_text(text, sizeof text, pieces, side);
    void *st = game_state_new(G);
    CHECK_MSG(G->parse_position(st, text, err, sizeof err) == 0, "'%s' does not parse: %s", text,
              err);
    return st;
}

/* Plays a move by its text; a failure names it. */
static Move play(struct test_ctx *t__, void *st, const char *text)
{
    Move m;
    char err[ERROR_TEXT_MAX] = "";
    if (G->parse_move(st, text, &m, err, sizeof err) != 0) {
        CHECK_MSG(0, "move %s refused: %s", text, err);
        return 0;
    }
    G->make_move(st, m);
    CHECK_MSG(G->check(st, err, sizeof err) == 0, "check after %s: %s", text, err);
    return m;
}

/* The move is refused with a message containing `why`. */
static void refused(struct test_ctx *t__, void *st, const char *text, const char *why)
{
    Move m;
    char err[ERROR_TEXT_MAX] = "";
    CHECK_MSG(G->parse_move(st, text, &m, err, sizeof err) != 0, "move %s accepted", text);
    CHECK_MSG(strstr(err, why) != NULL, "move %s: message '%s' lacks '%s'", text, err, why);
}

/* Every legal move's text starts with `prefix` (e.g. "g4@"), and there are `count`. */
static void all_moves_like(struct test_ctx *t__, void *st, const char *prefix, int count)
{
    Move moves[256];
    int n = game_legal_moves(G, st, moves);
    CHECK_EQ_INT(n, count);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        G->move_text(st, moves[i], text, sizeof text);
        CHECK_MSG(!strncmp(text, prefix, strlen(prefix)), "move %s is not %s...", text, prefix);
    }
}

static void status_is(struct test_ctx *t__, void *st, enum result result, int reason)
{
    struct game_status s;
    G->status(st, &s);
    CHECK_MSG(s.result == result && s.reason == reason, "status %s (%s), expected %s (%s)",
              result_name(s.result), reason_name(G, s.reason), result_name(result),
              reason_name(G, reason));
}

static void text_is(struct test_ctx *t__, void *st, const char *pieces, char side)
{
    char want[POSITION_TEXT_MAX], got[POSITION_TEXT_MAX];
    build_text(want, sizeof want, pieces, side);
    G->write_position(st, got, sizeof got);
    CHECK_STR(got, want);
}

TEST(agon_perft_start)
{
    static const uint64_t expect[] = {0, 27, 713, 18417, 466557};
    void *st = game_state_new(G);
    G->start(st);
    for (int d = 1; d <= 4; d++)
        CHECK_EQ_U64(perft(G, st, d), expect[d]);
    for (int d = 1; d <= 3; d++)
        CHECK_EQ_U64(perft_generic(G, st, d), expect[d]);
    free(st);
}

TEST_HEAVY(agon_perft_depth5)
{
    void *st = game_state_new(G);
    G->start(st);
    CHECK_EQ_U64(perft(G, st, 5), 11662533);
    CHECK_EQ_U64(perft_generic(G, st, 5), 11662533);
    free(st);
}

TEST(agon_board)
{
    const struct agon_board *b = &agon_board;
    CHECK_EQ_INT(agon_cell_by_name("f6"), AGON_THRONE);
    CHECK_EQ_INT(b->ring[AGON_THRONE], 0);
    int ring_size[6] = {0};
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = b->cells[i];
        ring_size[b->ring[c]]++;
        CHECK_EQ_INT(agon_cell_by_name(b->name[c]), c);
        /* Two sideways and two inward neighbours, a corner one inward. */
        int corner =
            b->ring[c] > 0 && abs(b->q[c]) % b->ring[c] == 0 && abs(b->r[c]) % b->ring[c] == 0;
        CHECK_EQ_INT(b->step_count[c], b->ring[c] == 0 ? 0 : corner ? 3 : 4);
    }
    static const int sizes[6] = {1, 6, 12, 18, 24, 30};
    for (int k = 0; k < 6; k++)
        CHECK_EQ_INT(ring_size[k], sizes[k]);
    static const char *const ring1[] = {"e5", "e6", "f5", "f7", "g5", "g6"};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(b->ring[agon_cell_by_name(ring1[i])], 1);
    static const char outer[] = "f1 g1 h1 i1 k1 l1 l2 l3 l4 l5 l6 k7 i8 h9 g10 f11 e10 d9 c8 b7 "
                                "a6 a5 a4 a3 a2 a1 b1 c1 d1 e1";
    char walk[160] = "";
    for (int i = 0; i < AGON_OUTER_CELLS; i++) {
        strcat(walk, b->name[b->outer[i]]);
        strcat(walk, i < AGON_OUTER_CELLS - 1 ? " " : "");
    }
    CHECK_STR(walk, outer);
    static const char *const bad[] = {"j1", "a7", "f12", "l0", "f01", "m1", "", "f", "F6"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(agon_cell_by_name(bad[i]) < 0, "'%s' named a cell", bad[i]);
    CHECK_EQ_INT(agon_cell_by_name("f11"), agon_cell_at(0, 5));
    CHECK_EQ_INT(agon_cell_by_name("l1"), agon_cell_at(5, -5));
    CHECK_EQ_INT(agon_cell_by_name("a1"), agon_cell_at(-5, 0));
}

TEST(agon_start_position)
{
    void *st = game_state_new(G), *parsed = game_state_new(G);
    G->start(st);
    char text[POSITION_TEXT_MAX], err[ERROR_TEXT_MAX] = "";
    G->write_position(st, text, sizeof text);
    CHECK_STR(text, START_TEXT);
    /* The setup described piece by piece in the rule book. */
    text_is(TEST_CTX, st, "Qf1 Gk1 Gb1 Gh9 Gd9 Gl5 Ga5 qf11 gk7 gb7 gh1 gd1 gl2 ga2", 'w');
    CHECK(G->parse_position(parsed, START_TEXT, err, sizeof err) == 0);
    CHECK(G->key(parsed) == G->key(st));
    CHECK_EQ_INT(G->side_to_move(st), SIDE_WHITE);
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    free(parsed);
    free(st);
}

/* White's e3-f4 captures the Black queen on g4 (flanked by h4) and the guard on e4
 * (flanked by d4).  Black must return the queen first, here onto the throne, then
 * the guard to the outer ring, one a turn; then Black steps again. */
TEST(agon_double_capture_then_returns)
{
    void *st = position(TEST_CTX, "Qf1 Ge3 Gh4 Gd4 Gk1 Gb1 Gl5 qg4 ge4 gk7 gb7 gh1 gd1 gl2", 'w');
    Move m, made[5];
    char err[ERROR_TEXT_MAX];
    CHECK(G->parse_move(st, "e3-f4", &m, err, sizeof err) == 0);
    struct move_desc desc;
    G->describe_move(st, m, &desc);
    CHECK(desc.flags & MOVE_FLAG_CAPTURE);
    CHECK_EQ_INT(desc.captured_len, 2);
    CHECK(desc.captured_len == 2 &&
          ((!strcmp(desc.captured[0], "g4") && !strcmp(desc.captured[1], "e4")) ||
           (!strcmp(desc.captured[0], "e4") && !strcmp(desc.captured[1], "g4"))));
    CHECK(G->is_noisy(st, m));
    made[0] = play(TEST_CTX, st, "e3-f4");
    text_is(TEST_CTX, st, "Qf1 Gf4 Gh4 Gd4 Gk1 Gb1 Gl5 q*g4 g*e4 gk7 gb7 gh1 gd1 gl2", 'b');
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);

    /* The queen first: to every empty cell that is not sandwiched. */
    int expect = 0;
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = agon_board.cells[i];
        char probe[16];
        snprintf(probe, sizeof probe, "g4@%s", agon_board.name[c]);
        expect += G->parse_move(st, probe, &m, err, sizeof err) == 0;
    }
    all_moves_like(TEST_CTX, st, "g4@", expect);
    CHECK_MSG(expect >= 70, "only %d queen returns", expect);
    refused(TEST_CTX, st, "e4@a6", "queen must return first");
    refused(TEST_CTX, st, "gk7-k6", "malformed");
    refused(TEST_CTX, st, "k7-k6", "must return a captured piece");
    refused(TEST_CTX, st, "g4@h4", "not empty");

    /* Onto the throne: allowed for a queen ("any empty cell of the board"). */
    CHECK(G->parse_move(st, "g4@f6", &m, err, sizeof err) == 0);
    G->describe_move(st, m, &desc);
    CHECK(desc.flags & AGON_MOVE_RETURN);
    CHECK_STR(desc.from, "g4");
    CHECK_STR(desc.to, "f6");
    CHECK_EQ_INT(desc.captured_len, 0);
    CHECK(!G->is_noisy(st, m));
    made[1] = play(TEST_CTX, st, "g4@f6");
    text_is(TEST_CTX, st, "Qf1 Gf4 Gh4 Gd4 Gk1 Gb1 Gl5 qf6 g*e4 gk7 gb7 gh1 gd1 gl2", 'w');
    refused(TEST_CTX, st, "f1@e1", "has no captured piece");

    /* White steps; Black's next turn returns the guard to the outer ring. */
    made[2] = play(TEST_CTX, st, "k1-k2");
    char render[RENDER_TEXT_MAX];
    G->render(st, render, sizeof render);
    CHECK_MSG(strstr(render, "[g]e4") &&
                  strstr(render, "Black has 1 captured guard: this turn Black must return one"),
              "render:\n%s", render);
    int outer_free = 0;
    for (int i = 0; i < AGON_OUTER_CELLS; i++) {
        char probe[16];
        snprintf(probe, sizeof probe, "e4@%s", agon_board.name[agon_board.outer[i]]);
        outer_free += G->parse_move(st, probe, &m, err, sizeof err) == 0;
    }
    all_moves_like(TEST_CTX, st, "e4@", outer_free);
    CHECK_EQ_INT(outer_free, 30 - 8); /* eight outer cells are taken, none sandwiched */
    refused(TEST_CTX, st, "e4@e5", "outer ring");
    refused(TEST_CTX, st, "e4@e3", "outer ring");
    made[3] = play(TEST_CTX, st, "e4@a6");
    made[4] = play(TEST_CTX, st, "k2-k3");
    /* Nothing left to return: Black steps again. */
    Move moves[256];
    int n = game_legal_moves(G, st, moves);
    CHECK(n > 0);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        G->move_text(st, moves[i], text, sizeof text);
        CHECK_MSG(strchr(text, '-') != NULL, "%s is not a step", text);
    }
    /* Unmaking everything restores the first position exactly. */
    for (int i = 4; i >= 0; i--)
        G->unmake_move(st, made[i]);
    text_is(TEST_CTX, st, "Qf1 Ge3 Gh4 Gd4 Gk1 Gb1 Gl5 qg4 ge4 gk7 gb7 gh1 gd1 gl2", 'w');
    CHECK(G->check(st, err, sizeof err) == 0);
    CHECK_EQ_INT(G->ply(st), 0);
    free(st);
}

/* A guard may not be returned between two enemy pieces on a line (a3 between a2 and
 * a4), nor a queen (e4 between d4 and f4 ... here between e3 and e5). */
TEST(agon_return_refused_when_sandwiched)
{
    void *st = position(TEST_CTX, "Qf1 Ga2 Ga4 Ge3 Ge5 Gb1 Gl5 qg4 g*h9 gk7 gb7 gh1 gd1 gl2", 'b');
    refused(TEST_CTX, st, "h9@a3", "between two enemy pieces");
    Move m;
    char err[ERROR_TEXT_MAX];
    CHECK(G->parse_move(st, "h9@a1", &m, err, sizeof err) == 0);
    free(st);
    st = position(TEST_CTX, "Qf1 Ga2 Ga4 Ge3 Ge5 Gb1 Gl5 q*g4 gh9 gk7 gb7 gh1 gd1 gl2", 'b');
    refused(TEST_CTX, st, "g4@e4", "between two enemy pieces");
    refused(TEST_CTX, st, "g4@a3", "between two enemy pieces");
    CHECK(G->parse_move(st, "g4@a1", &m, err, sizeof err) == 0);
    CHECK(G->parse_move(st, "g4@f6", &m, err, sizeof err) == 0);
    free(st);
}

/* f3-f4 would capture g4 (flanked by h4), but f4 stands between g4 and e3: refused. */
TEST(agon_step_refused_when_sandwiched_even_if_capturing)
{
    void *st = position(TEST_CTX, "Qa1 Gf3 Gh4 Gk1 Gb1 Gl5 Ga5 qg4 ge3 gk7 gb7 gh1 gd1 gl2", 'w');
    refused(TEST_CTX, st, "f3-f4", "between two enemy pieces");
    free(st);
    /* Without the guard on e3 the same step is legal and captures. */
    st = position(TEST_CTX, "Qa1 Gf3 Gh4 Gk1 Gb1 Gl5 Ga5 qg4 gc3 gk7 gb7 gh1 gd1 gl2", 'w');
    play(TEST_CTX, st, "f3-f4");
    text_is(TEST_CTX, st, "Qa1 Gf4 Gh4 Gk1 Gb1 Gl5 Ga5 q*g4 gc3 gk7 gb7 gh1 gd1 gl2", 'b');
    free(st);
    /* A captured enemy still counts as an enemy for the sandwich. */
    st = position(TEST_CTX, "Qa1 Gf3 Gh4 Gk1 Gb1 Gl5 Ga5 qc8 g*g4 ge3 gk7 gb7 gh1 gd1", 'w');
    refused(TEST_CTX, st, "f3-f4", "between two enemy pieces");
    free(st);
}

/* Steps: only sideways or inward, to an adjacent empty cell; only the queen on the
 * throne; captures in every direction but only by the piece that moved. */
TEST(agon_step_rules)
{
    void *st = position(TEST_CTX, "Qf5 Ge5 Gg6 Gk1 Gb1 Gl5 Ga5 qf11 gk7 gb7 gh1 gd1 gl2 ga2", 'w');
    refused(TEST_CTX, st, "e5-f6", "only the queen");
    refused(TEST_CTX, st, "e5-d5", "never goes outward");
    refused(TEST_CTX, st, "e5-e7", "adjacent");
    refused(TEST_CTX, st, "e5-f5", "not empty");
    refused(TEST_CTX, st, "f11-f10", "no White piece");
    refused(TEST_CTX, st, "e5@e4", "no captured piece");
    play(TEST_CTX, st, "f5-f6");
    /* A queen on the throne cannot step. */
    play(TEST_CTX, st, "f11-f10");
    Move moves[256];
    int n = game_legal_moves(G, st, moves);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        G->move_text(st, moves[i], text, sizeof text);
        CHECK_MSG(strncmp(text, "f6-", 3) != 0, "the throned queen steps: %s", text);
    }
    free(st);
    /* Only the mover flanks: the Black guard on d4 stands between White's e4 and c4,
     * but a White step elsewhere captures nothing. */
    st = position(TEST_CTX, "Qa1 Ge4 Gc4 Gg3 Gb1 Gl5 Ga5 qf11 gd4 gk7 gb7 gh1 gd1 gl2", 'w');
    play(TEST_CTX, st, "g3-g4");
    text_is(TEST_CTX, st, "Qa1 Ge4 Gc4 Gg4 Gb1 Gl5 Ga5 qf11 gd4 gk7 gb7 gh1 gd1 gl2", 'b');
    free(st);
}

/* Black's f4-f5 flanks the White queen on the throne with the guard on f7; the
 * queen must come back, anywhere but between two enemies, capturing nothing. */
TEST(agon_queen_captured_on_throne)
{
    void *st = position(TEST_CTX, "Qf6 Gk1 Gb1 Gh9 Ge1 Gl5 Ga5 qf11 gf4 gf7 gb7 gh1 gd1 gl2", 'b');
    play(TEST_CTX, st, "f4-f5");
    text_is(TEST_CTX, st, "Q*f6 Gk1 Gb1 Gh9 Ge1 Gl5 Ga5 qf11 gf5 gf7 gb7 gh1 gd1 gl2", 'w');
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    Move m;
    char err[ERROR_TEXT_MAX];
    refused(TEST_CTX, st, "f6@f6", "not empty");
    CHECK(G->parse_move(st, "f6@a1", &m, err, sizeof err) == 0);
    char render[RENDER_TEXT_MAX];
    G->render(st, render, sizeof render);
    CHECK_MSG(strstr(render, "[Q]f6") &&
                  strstr(render, "queen is captured: this turn White must return it"),
              "render:\n%s", render);
    /* A return never captures: the queen put on c1 would flank d1 with e1. */
    Move ret = play(TEST_CTX, st, "f6@c1");
    text_is(TEST_CTX, st, "Qc1 Gk1 Gb1 Gh9 Ge1 Gl5 Ga5 qf11 gf5 gf7 gb7 gh1 gd1 gl2", 'b');
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    G->unmake_move(st, ret);
    text_is(TEST_CTX, st, "Q*f6 Gk1 Gb1 Gh9 Ge1 Gl5 Ga5 qf11 gf5 gf7 gb7 gh1 gd1 gl2", 'w');
    free(st);
}

/* White's h6-g6 completes the ring of guards around its queen on the throne. */
TEST(agon_formation_win)
{
    void *st = position(TEST_CTX, "Qf6 Ge5 Ge6 Gf5 Gf7 Gg5 Gh6 qf11 gk7 gb7 gh1 gd1 gl2 ga2", 'w');
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    uint64_t leaves = perft(G, st, 2);
    CHECK_EQ_U64(leaves, perft_generic(G, st, 2));
    play(TEST_CTX, st, "h6-g6");
    status_is(TEST_CTX, st, RESULT_WHITE_WINS, AGON_REASON_FORMATION);
    Move moves[256];
    CHECK_EQ_INT(G->gen_moves(st, moves), 0);
    CHECK_EQ_INT(game_legal_moves(G, st, moves), 0);
    refused(TEST_CTX, st, "f11-f10", "game is over");
    /* perft: the formation move is a leaf with no children. */
    CHECK_EQ_U64(perft(G, st, 1), 0);
    char render[RENDER_TEXT_MAX];
    G->render(st, render, sizeof render);
    CHECK_MSG(strstr(render, "<Q>f6") && strstr(render, "Game over: white wins"), "render:\n%s",
              render);
    free(st);
}

/* The same ring of guards with the queen off the throne loses at once. */
TEST(agon_formation_loss)
{
    void *st = position(TEST_CTX, "Qf4 Ge5 Ge6 Gf5 Gf7 Gg5 Gh6 qf11 gk7 gb7 gh1 gd1 gl2 ga2", 'w');
    play(TEST_CTX, st, "h6-g6");
    status_is(TEST_CTX, st, RESULT_BLACK_WINS, AGON_REASON_FORMATION_LOSS);
    Move moves[256];
    CHECK_EQ_INT(G->gen_moves(st, moves), 0);
    free(st);
    /* Black's formation, checked after Black's move: a win for Black. */
    st = position(TEST_CTX, "Qf1 Gk1 Gb1 Gh9 Gd9 Gl5 Ga5 qf6 ge5 ge6 gf5 gf7 gg5 gh6", 'b');
    play(TEST_CTX, st, "h6-g6");
    status_is(TEST_CTX, st, RESULT_BLACK_WINS, AGON_REASON_FORMATION);
    free(st);
}

/* Black's pieces are packed into the f11 corner and every free inward cell is held
 * by White: Black, to move, has no legal move and loses. */
TEST(agon_no_legal_move)
{
    void *st =
        position(TEST_CTX, "Qc8 Gf9 Gg9 Gd8 Gh8 Gi8 Ge8 qf11 ge10 gg10 gf10 gd9 gh9 ge9", 'b');
    status_is(TEST_CTX, st, RESULT_WHITE_WINS, REASON_BLOCKED);
    Move moves[256];
    CHECK_EQ_INT(G->gen_moves(st, moves), 0);
    CHECK_EQ_INT(game_legal_moves(G, st, moves), 0);
    free(st);
    /* With White to move instead, the game goes on. */
    st = position(TEST_CTX, "Qc8 Gf9 Gg9 Gd8 Gh8 Gi8 Ge8 qf11 ge10 gg10 gf10 gd9 gh9 ge9", 'w');
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    free(st);
}

/* Two guards shuffle back and forth: the start position occurs for the third time
 * after eight plies, a draw; gen_moves ignores it, game_legal_moves does not. */
TEST(agon_threefold_repetition)
{
    void *st = game_state_new(G);
    G->start(st);
    static const char *const line[] = {"a5-a4", "l2-l1", "a4-a5", "l1-l2"};
    Move last = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
            last = play(TEST_CTX, st, line[i]);
        }
    status_is(TEST_CTX, st, RESULT_DRAW, REASON_REPETITION);
    Move moves[256];
    CHECK_EQ_INT(G->gen_moves(st, moves), 27);
    CHECK_EQ_INT(game_legal_moves(G, st, moves), 0);
    refused(TEST_CTX, st, "a5-a4", "game is over");
    /* One ply back, the game goes on again; the same position with the other side
     * to move is a different position. */
    G->unmake_move(st, last);
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    play(TEST_CTX, st, "l1-l2");
    status_is(TEST_CTX, st, RESULT_DRAW, REASON_REPETITION);
    free(st);
    /* Captured marks and the side to move are part of the position (and its key). */
    char err[ERROR_TEXT_MAX];
    void *a = game_state_new(G), *b = game_state_new(G);
    CHECK(G->parse_position(a, "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", err, sizeof err) ==
          0);
    CHECK(G->parse_position(b, "1g2G1/G5g/8/g7G/10/Q9q*/10/g7G/8/G5g/1g2G1 w", err, sizeof err) ==
          0);
    CHECK(G->key(a) != G->key(b));
    CHECK(G->parse_position(b, "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 b", err, sizeof err) ==
          0);
    CHECK(G->key(a) != G->key(b));
    free(a);
    free(b);
}

/* Each kind of malformed position text the rule book lists, with its message. */
TEST(agon_bad_position_texts)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"", "empty"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1", "missing side"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 x", "unknown side"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 white", "unknown side"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w w", "unexpected text"},
        {"1g2G/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", "file a has 5 cells, expected 6"},
        {"1g2G1/G5g/8/g7G/10/Q9q1/10/g7G/8/G5g/1g2G1 w", "file f has more than 11"},
        {"1g2G11/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", "file a has more than 6"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g w", "10 files"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1/6 w", "too many files"},
        {"1g2K1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", "unknown letter 'K'"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2x1 w", "unknown letter 'x'"},
        {"1g2G1/G5g/8/g7G/10/Q9Q/10/g7G/8/G5g/1g2G1 w", "White has 2 queens"},
        {"1g2G1/G5g/8/g7G/10/G9q/10/g7G/8/G5g/1g2G1 w", "White has 0 queens and 7 guards"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2g1 w", "White has 1 queen and 5 guards"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/4G1 w", "Black has 1 queen and 5 guards"},
        {"1g4/G5g/8/g7G/10/Q4G4q/10/g7G/8/G5g/1g2G1 w", "guard stands on the throne"},
        {"1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", NULL},
        {"1g2G1/G5g/8/g7G/10/Q*9q*/10/g7G/8/G5g/1g2G1 w", "both sides"},
        {"*1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w", "'*' must follow a piece"},
        {"1g2G1/G5g/8/g7G/10/Q9q**/10/g7G/8/G5g/1g2G1 w", "'*' must follow a piece"},
        {"1g2G1/G5g/8/g7G/10/Q09q/10/g7G/8/G5g/1g2G1 w", "bad empty run '09'"},
        {"1g2G1/G5g/8/g7G/10/Q0/10/g7G/8/G5g/1g2G1 w", "bad empty run"},
        {"1g2G1/G5g/8/g7G/10/Q99999999999999999999q/10/g7G/8/G5g/1g2G1 w", "more than 11"},
        {"1g2G1/G5g/8/g7G/10/Q9q\t/10/g7G/8/G5g/1g2G1 w", "unexpected byte"},
    };
    void *st = game_state_new(G);
    G->start(st);
    Key before = G->key(st);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[ERROR_TEXT_MAX] = "";
        int rc = G->parse_position(st, cases[i].text, err, sizeof err);
        if (!cases[i].why) {
            CHECK_MSG(rc == 0, "'%s' refused: %s", cases[i].text, err);
            continue;
        }
        CHECK_MSG(rc != 0, "'%s' accepted", cases[i].text);
        CHECK_MSG(strstr(err, cases[i].why) != NULL, "'%s': message '%s' lacks '%s'", cases[i].text,
                  err, cases[i].why);
        CHECK(G->key(st) == before);
    }
    free(st);
}

/* Move text: the two shapes, cell names, and the rule a refused move breaks. */
TEST(agon_bad_move_texts)
{
    void *st = game_state_new(G);
    G->start(st);
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"", "empty"},
        {"k1", "malformed"},
        {"k1-", "malformed"},
        {"-k2", "malformed"},
        {"k1k2", "malformed"},
        {"k1-k2-k3", "malformed"},
        {"k1@k2@k3", "malformed"},
        {"k1xk2", "malformed"},
        {"j1-k2", "unknown cell 'j1'"},
        {"k1-k9", "unknown cell 'k9'"},
        {"k1-l0", "unknown cell 'l0'"},
        {"k1 -k2", "unknown cell"},
        {"k1-k3", "adjacent"},
        {"k1-l1x", "unknown cell"},
        {"f11-f10", "no White piece on f11"},
        {"e5-e6", "no White piece on e5"},
        {"k1@k2", "no captured piece"},
        {"a5-b5", NULL},
        {"K1-K2", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Move m;
        char err[ERROR_TEXT_MAX] = "";
        int rc = G->parse_move(st, cases[i].text, &m, err, sizeof err);
        if (!cases[i].why) {
            CHECK_MSG(rc == 0, "'%s' refused: %s", cases[i].text, err);
            continue;
        }
        CHECK_MSG(rc != 0, "'%s' accepted", cases[i].text);
        CHECK_MSG(strstr(err, cases[i].why) != NULL, "'%s': message '%s' lacks '%s'", cases[i].text,
                  err, cases[i].why);
    }
    char long_text[200];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    refused(TEST_CTX, st, long_text, "too long");
    free(st);
}

/* The commands over Agon, in-process: moves, perft, and a short game in `play`. */
static char *run_cli(struct test_ctx *t__, const char *input, int argc, char **argv, int *rc)
{
    char *out = NULL, *err = NULL;
    size_t out_len = 0, err_len = 0;
    struct cli_io io = {fmemopen((void *)input, strlen(input) + 1, "r"),
                        open_memstream(&out, &out_len), open_memstream(&err, &err_len)};
    *rc = cli_main(argc, argv, &io);
    fclose(io.in);
    fclose(io.out);
    fclose(io.err);
    CHECK(out != NULL);
    free(err);
    return out;
}

TEST(agon_cli)
{
    int rc;
    char *moves_argv[] = {"agora", "moves", "agon", NULL};
    char *out = run_cli(TEST_CTX, "", 3, moves_argv, &rc);
    CHECK_EQ_INT(rc, 0);
    CHECK_MSG(out && !strncmp(out, "a5-a4\na5-a6\na5-b5\na5-b6\nb1-a1\n", 30), "moves: %s", out);
    free(out);
    char *perft_argv[] = {"agora", "perft", "agon", "3", NULL};
    out = run_cli(TEST_CTX, "", 4, perft_argv, &rc);
    CHECK_EQ_INT(rc, 0);
    CHECK_MSG(out && strstr(out, "1 27 ") && strstr(out, "2 713 ") && strstr(out, "3 18417 "),
              "perft: %s", out);
    free(out);
    char *bad_argv[] = {"agora", "moves", "agon", "1g2G1 w", NULL};
    out = run_cli(TEST_CTX, "", 4, bad_argv, &rc);
    CHECK_EQ_INT(rc, CLI_BAD_INPUT);
    free(out);
    char *play_argv[] = {"agora", "play", "agon", "--as", "both", NULL};
    out = run_cli(TEST_CTX, "k1-k3\nk1-k2\nquit\n", 5, play_argv, &rc);
    CHECK_EQ_INT(rc, 0);
    CHECK_MSG(out && strstr(out, "<.>f6") && strstr(out, "adjacent") &&
                  strstr(out, "Black to move"),
              "play: %s", out);
    free(out);
}

/* At the history's capacity (AGON_MAX_PLIES) the game is adjudicated a draw: random
 * play reaches it about once in 70 000 games, so the state is forged here. */
TEST(agon_history_full_is_adjudicated)
{
    struct agon_state *st = game_state_new(G);
    G->start(st);
    status_is(TEST_CTX, st, RESULT_ONGOING, REASON_NONE);
    st->ply = AGON_MAX_PLIES;
    for (int i = 0; i < AGON_MAX_PLIES; i++)
        st->history[i].key = (Key)i * 0x9e3779b97f4a7c15ULL + 1;
    status_is(TEST_CTX, st, RESULT_DRAW, REASON_ADJUDICATION);
    Move moves[256];
    CHECK_EQ_INT(game_legal_moves(G, st, moves), 0);
    CHECK_EQ_INT(G->gen_moves(st, moves), 27);
    free(st);
}

/* The layout: flat-topped hexagons, so the six neighbours of a cell are all sqrt(3)/2
 * cell widths away and every other cell further; piece_at shows captured marks. */
TEST(agon_layout_and_piece_at)
{
    const struct board_layout *l = G->layout();
    CHECK_EQ_INT(l->shape, BOARD_HEX);
    CHECK_EQ_INT(l->cells, 91);
    int neighbours = 0, thrones = 0;
    for (int i = 0; i < l->cells; i++) {
        thrones += (l->cell[i].flags & AGON_CELL_THRONE) != 0;
        int a = agon_cell_by_name(l->cell[i].name);
        CHECK(a >= 0 && agon_board.ring[a] == l->cell[i].ring);
        for (int j = 0; j < i; j++) {
            float dx = l->cell[i].x - l->cell[j].x, dy = l->cell[i].y - l->cell[j].y;
            float d2 = dx * dx + dy * dy;
            int b = agon_cell_by_name(l->cell[j].name), adjacent = 0;
            for (int d = 0; d < AGON_DIRS; d++)
                adjacent |= agon_board.nb[a][d] == b;
            neighbours += adjacent;
            if (adjacent)
                CHECK_MSG(d2 > 0.749f && d2 < 0.751f, "%s-%s at %f", l->cell[i].name,
                          l->cell[j].name, (double)d2);
            else
                CHECK_MSG(d2 > 0.99f, "%s-%s at %f", l->cell[i].name, l->cell[j].name, (double)d2);
        }
    }
    CHECK_EQ_INT(neighbours, 240); /* the edges of a side-6 hexagonal board */
    CHECK_EQ_INT(thrones, 1);
    CHECK_STR(l->cell[0].name, "a1");
    CHECK_STR(l->cell[45].name, "f6");
    void *st = position(TEST_CTX, "Q*f6 Gk1 Gb1 Gh9 Gd9 Gl5 Ga5 qf11 gf5 gf7 gb7 gh1 gd1 gl2", 'w');
    unsigned marks = 99;
    CHECK_EQ_INT(G->piece_at(st, 45, &marks), 'Q');
    CHECK_EQ_INT(marks, PIECE_CAPTURED);
    CHECK_EQ_INT(G->piece_at(st, 0, &marks), 0);
    CHECK_EQ_INT(marks, 0);
    CHECK_EQ_INT(G->piece_at(st, 1, &marks), 0);
    CHECK_EQ_INT(G->piece_at(st, 90, &marks), 0);
    CHECK_EQ_INT(G->piece_at(st, 89, &marks), 'G'); /* l5 */
    CHECK_EQ_INT(G->piece_at(st, 91, NULL), 0);
    free(st);
}

/* One step captures in every direction where an enemy is flanked by the mover: here
 * three at once (g4, e4, f3 against h4, d4, f2).  The Black guard on c5 between
 * White's c4 and c6 is not taken: only the piece that moved flanks. */
TEST(agon_triple_capture_by_the_mover_only)
{
    void *st = position(TEST_CTX, "Qa1 Ge3 Gh4 Gd4 Gf2 Gc4 Gc6 qg4 ge4 gf3 gc5 gb7 gh1 gl2", 'w');
    Move m;
    char err[ERROR_TEXT_MAX];
    CHECK(G->parse_move(st, "e3-f4", &m, err, sizeof err) == 0);
    struct move_desc desc;
    G->describe_move(st, m, &desc);
    CHECK_EQ_INT(desc.captured_len, 3);
    play(TEST_CTX, st, "e3-f4");
    text_is(TEST_CTX, st, "Qa1 Gf4 Gh4 Gd4 Gf2 Gc4 Gc6 q*g4 g*e4 g*f3 gc5 gb7 gh1 gl2", 'b');
    all_moves_like(TEST_CTX, st, "g4@", G->gen_moves(st, (Move[256]){0}));
    free(st);
}
