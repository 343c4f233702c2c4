/* Chess rules, one hand-built position per rule of rules/chess.md: piece moves,
 * castling conditions, en passant (pinned, discovered check, next move only),
 * promotion, check, mate, stalemate, claims, automatic ends, dead positions,
 * agreement; FEN validation and round-trips. */
#include <stdlib.h>

#include "cli/cli.h"
#include "games/chess/chess.h"
#include "games/registry.h"
#include "harness.h"

static const struct game *chess(void)
{
    return game_find("chess");
}

/* A chess state at `fen` (the test fails on a bad FEN). */
static void *at(struct test_ctx *t__, const char *fen)
{
    void *st = game_state_new(chess());
    char err[ERROR_TEXT_MAX];
    if (chess()->parse_position(st, fen, err, sizeof err)) {
        CHECK_MSG(0, "FEN '%s' rejected: %s", fen, err);
        chess()->start(st);
    }
    return st;
}

/* Is the UCI move `uci` legal in `st`? */
static int legal(const void *st, const char *uci)
{
    Move moves[256];
    int n = chess()->gen_moves(st, moves);
    char text[MOVE_TEXT_MAX];
    for (int i = 0; i < n; i++) {
        chess()->move_text(st, moves[i], text, sizeof text);
        if (!strcmp(text, uci))
            return 1;
    }
    return 0;
}

/* Play moves given as text (UCI or SAN), space separated. */
static void play(struct test_ctx *t__, void *st, const char *line)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", line);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m;
        char err[ERROR_TEXT_MAX];
        if (chess()->parse_move(st, tok, &m, err, sizeof err)) {
            CHECK_MSG(0, "move %s: %s", tok, err);
            return;
        }
        chess()->make_move(st, m);
    }
}

static int count_moves(const void *st)
{
    Move moves[256];
    return chess()->gen_moves(st, moves);
}

TEST(chess_piece_moves)
{
    void *st = at(TEST_CTX, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    CHECK_EQ_INT(count_moves(st), 8 + 5); /* knight 8, king 5 */
    CHECK(legal(st, "d4e6") && legal(st, "d4b3") && !legal(st, "d4d5"));
    free(st);
    st = at(TEST_CTX, "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1");
    CHECK_EQ_INT(count_moves(st), 27 + 5);
    free(st);
    /* the knight jumps over pieces; the rook does not */
    st = at(TEST_CTX, "4k3/8/8/8/8/8/PPPPPPPP/RN2K3 w - - 0 1");
    CHECK(legal(st, "b1c3") && legal(st, "b1a3") && !legal(st, "a1a3"));
    free(st);
    /* pawns: one or two from the start, blocked by any piece, capture diagonally */
    st = at(TEST_CTX, "4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1");
    CHECK(legal(st, "e2e3") && legal(st, "e2e4") && legal(st, "e2d3") && !legal(st, "e2f3"));
    free(st);
    st = at(TEST_CTX, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    CHECK(!legal(st, "e2e3") && !legal(st, "e2e4"));
    free(st);
    st = at(TEST_CTX, "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1");
    CHECK(legal(st, "e2e3") && !legal(st, "e2e4"));
    free(st);
}

TEST(chess_king_never_into_check)
{
    /* the king may not step onto an attacked square, nor along the checking ray */
    void *st = at(TEST_CTX, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    CHECK(!legal(st, "e1d1") && !legal(st, "e1f1") && legal(st, "e1e2") && legal(st, "e1d2"));
    free(st);
    /* a pinned piece may not leave the line */
    st = at(TEST_CTX, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    CHECK(!legal(st, "e2c3") && !legal(st, "e2g3"));
    free(st);
    st = at(TEST_CTX, "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    CHECK(legal(st, "e2e7") && legal(st, "e2e5") && !legal(st, "e2d2"));
    free(st);
}

TEST(chess_castling)
{
    const char *base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    void *st = at(TEST_CTX, base);
    CHECK(legal(st, "e1g1") && legal(st, "e1c1"));
    Move m;
    char err[ERROR_TEXT_MAX];
    struct move_desc d;
    CHECK(chess()->parse_move(st, "O-O-O", &m, err, sizeof err) == 0);
    chess()->describe_move(st, m, &d);
    CHECK((d.flags & CHESS_MOVE_CASTLE) && !strcmp(d.from, "e1") && !strcmp(d.to, "c1"));
    CHECK_STR(d.also_from, "a1");
    CHECK_STR(d.also_to, "d1");
    play(TEST_CTX, st, "O-O");
    char fen[POSITION_TEXT_MAX];
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK(legal(st, "e8c8"));
    play(TEST_CTX, st, "0-0-0");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    free(st);
    /* not out of check, not through or into an attacked square */
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
    CHECK(!legal(st, "e1g1") && !legal(st, "e1c1"));
    free(st);
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
    CHECK(!legal(st, "e1g1") && legal(st, "e1c1"));
    free(st);
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/2r5/R3K2R w KQkq - 0 1");
    CHECK(legal(st, "e1g1") && !legal(st, "e1c1"));
    free(st);
    /* the rook may pass an attacked square (b1), but the path must be empty */
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1");
    CHECK(legal(st, "e1c1"));
    free(st);
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1");
    CHECK(!legal(st, "e1g1") && !legal(st, "e1c1"));
    free(st);
    /* a king or rook that moved loses the right, also by moving back */
    st = at(TEST_CTX, base);
    play(TEST_CTX, st, "h1h2 a8a7 h2h1 a7a8");
    CHECK(!legal(st, "e1g1") && legal(st, "e1c1"));
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    free(st);
    /* capturing a rook on its square takes the right away */
    st = at(TEST_CTX, "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1");
    play(TEST_CTX, st, "Bxa8");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "B3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1");
    free(st);
}

TEST(chess_en_passant)
{
    char fen[POSITION_TEXT_MAX];
    void *st = at(TEST_CTX, "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    play(TEST_CTX, st, "e5");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2");
    CHECK(legal(st, "d5e6"));
    struct move_desc d;
    Move m;
    char err[ERROR_TEXT_MAX];
    CHECK(chess()->parse_move(st, "dxe6", &m, err, sizeof err) == 0);
    chess()->describe_move(st, m, &d);
    CHECK(d.flags & CHESS_MOVE_EN_PASSANT);
    CHECK_STR(d.captured[0], "e5");
    /* only on the very next move */
    play(TEST_CTX, st, "Kd2 Kd8");
    CHECK(!legal(st, "d5e6"));
    free(st);
    /* a single step gives no right */
    st = at(TEST_CTX, "4k3/8/4p3/3P4/8/8/8/4K3 b - - 0 1");
    play(TEST_CTX, st, "e5");
    CHECK(!legal(st, "d5e6"));
    free(st);
    /* both pawns leave the fifth rank: the king is then open to the rook */
    st = at(TEST_CTX, "8/8/8/r2Pp2K/8/8/8/4k3 w - e6 0 1");
    CHECK(!legal(st, "d5e6"));
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "8/8/8/r2Pp2K/8/8/8/4k3 w - - 0 1"); /* no legal capture: no e.p. square */
    free(st);
    /* the capturing pawn is pinned diagonally */
    st = at(TEST_CTX, "b3k3/8/8/3Pp3/8/8/8/7K w - e6 0 1");
    CHECK(legal(st, "d5e6") == 0);
    free(st);
    st = at(TEST_CTX, "4k1b1/8/8/3Pp3/8/1K6/8/8 w - e6 0 1");
    CHECK(legal(st, "d5e6")); /* pinned along the diagonal it captures on */
    free(st);
    /* the double step gave check: en passant removes the checker */
    st = at(TEST_CTX, "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    CHECK(legal(st, "e4d3"));
    free(st);
    /* a discovered check by the double step: capturing does not help */
    st = at(TEST_CTX, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    CHECK(!legal(st, "e4d3"));
    free(st);
}

TEST(chess_promotion)
{
    void *st = at(TEST_CTX, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(legal(st, "a7a8q") && legal(st, "a7a8r") && legal(st, "a7a8b") && legal(st, "a7a8n"));
    CHECK(legal(st, "a7b8q") && !legal(st, "a7a8"));
    Move m;
    char err[ERROR_TEXT_MAX], text[MOVE_TEXT_MAX];
    CHECK(chess()->parse_move(st, "axb8=N", &m, err, sizeof err) == 0);
    chess()->move_text(st, m, text, sizeof text);
    CHECK_STR(text, "a7b8n");
    struct move_desc d;
    chess()->describe_move(st, m, &d);
    CHECK(d.flags == (MOVE_FLAG_CAPTURE | CHESS_MOVE_PROMOTION) && d.promotion == 'n');
    CHECK(d.captured_len == 1 && !strcmp(d.captured[0], "b8"));
    CHECK(chess()->parse_move(st, "a8", &m, err, sizeof err) != 0);
    CHECK(strstr(err, "promotion") != NULL);
    play(TEST_CTX, st, "a8=Q+");
    char fen[POSITION_TEXT_MAX];
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "Qn2k3/8/8/8/8/8/8/4K3 b - - 0 1");
    free(st);
    /* several queens are allowed */
    st = at(TEST_CTX, "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1");
    play(TEST_CTX, st, "a8=Q");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "Q3k3/8/8/8/8/8/8/Q3K3 b - - 0 1");
    free(st);
}

static void expect_status(struct test_ctx *t__, const void *st, enum result r, int why,
                          unsigned claims)
{
    struct game_status s;
    chess()->status(st, &s);
    CHECK_MSG(s.result == r && s.reason == why && s.claims == claims,
              "status %s/%s/%u, expected %s/%s/%u", result_name(s.result),
              reason_name(chess(), s.reason), s.claims, result_name(r), reason_name(chess(), why),
              claims);
}

TEST(chess_check_mate_stalemate)
{
    void *st = game_state_new(chess());
    chess()->start(st);
    play(TEST_CTX, st, "f3 e5 g4");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
    Move m;
    char err[ERROR_TEXT_MAX], san[MOVE_TEXT_MAX];
    CHECK(chess()->parse_move(st, "d8h4", &m, err, sizeof err) == 0);
    chess()->move_display(st, m, san, sizeof san);
    CHECK_STR(san, "Qh4#");
    chess()->make_move(st, m);
    expect_status(TEST_CTX, st, RESULT_BLACK_WINS, CHESS_REASON_CHECKMATE, 0);
    CHECK_EQ_INT(count_moves(st), 0);
    CHECK(chess()->parse_move(st, "e2e3", &m, err, sizeof err) != 0);
    free(st);
    st = at(TEST_CTX, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    expect_status(TEST_CTX, st, RESULT_DRAW, CHESS_REASON_STALEMATE, 0);
    free(st);
    /* check: only moves that answer it */
    st = at(TEST_CTX, "4k3/8/8/8/8/1N6/3PPP2/r3K3 w - - 0 1");
    CHECK(count_moves(st) == 2 && legal(st, "b3a1") && legal(st, "b3c1") && !legal(st, "d2d3"));
    free(st);
}

TEST(chess_repetition_claim_and_fivefold)
{
    void *st = game_state_new(chess());
    chess()->start(st);
    const char *cycle = "Nf3 Nf6 Ng1 Ng8";
    play(TEST_CTX, st, cycle);
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0); /* twice */
    struct game_status end;
    char err[ERROR_TEXT_MAX];
    CHECK(chess_claim_draw(st, CHESS_CLAIM_THREEFOLD, &end, err, sizeof err) != 0);
    CHECK(strstr(err, "2 times") != NULL);
    play(TEST_CTX, st, "Nf3 Nf6 Ng1");
    /* Black announces Ng8, which repeats the start position a third time */
    Move ng8;
    CHECK(chess()->parse_move(st, "Ng8", &ng8, err, sizeof err) == 0);
    CHECK(chess_claim_draw(st, 0, &end, err, sizeof err) != 0);
    CHECK(chess_claim_draw_with_move(st, 0, ng8, &end, err, sizeof err) == 0);
    CHECK(end.result == RESULT_DRAW && end.reason == CHESS_REASON_CLAIM_THREEFOLD);
    Move nh6;
    CHECK(chess()->parse_move(st, "Nc6", &nh6, err, sizeof err) == 0);
    CHECK(chess_claim_draw_with_move(st, 0, nh6, &end, err, sizeof err) != 0);
    CHECK(strstr(err, "occurs 1 time") != NULL);
    play(TEST_CTX, st, "Ng8");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_THREEFOLD);
    CHECK(chess_claim_draw(st, 0, &end, err, sizeof err) == 0);
    CHECK(end.result == RESULT_DRAW && end.reason == CHESS_REASON_CLAIM_THREEFOLD);
    CHECK(chess_claim_draw(st, CHESS_CLAIM_FIFTY_MOVES, &end, err, sizeof err) != 0);
    CHECK(chess()->claim_draw(st, 0, &end) == 0 && end.reason == CHESS_REASON_CLAIM_THREEFOLD);
    /* not claimed: play goes on; the claim lapses when the position changes */
    Move m;
    CHECK(chess()->parse_move(st, "Nc3", &m, err, sizeof err) == 0);
    chess()->make_move(st, m);
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
    CHECK(chess()->claim_draw(st, 0, &end) != 0);
    chess()->unmake_move(st, m);
    play(TEST_CTX, st, "Nf3"); /* the third time for this position too */
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_THREEFOLD);
    play(TEST_CTX, st, "Nf6 Ng1 Ng8");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_THREEFOLD); /* 4th */
    play(TEST_CTX, st, cycle);
    expect_status(TEST_CTX, st, RESULT_DRAW, CHESS_REASON_FIVEFOLD, 0); /* 5th: automatic */
    CHECK_EQ_INT(game_legal_moves(chess(), st, (Move[256]){0}), 0);
    free(st);
    /* same placement but different castling rights is not a repetition */
    st = at(TEST_CTX, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    play(TEST_CTX, st, "Rh2 Ra7 Rh1 Ra8 Rh2 Ra7 Rh1 Ra8");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
    play(TEST_CTX, st, "Rh2 Ra7 Rh1 Ra8");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_THREEFOLD);
    free(st);
}

TEST(chess_fifty_and_seventy_five_moves)
{
    void *st = at(TEST_CTX, "4k3/8/8/8/8/8/R7/4K3 w - - 98 80");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
    struct game_status end;
    char err[ERROR_TEXT_MAX];
    Move ra3;
    CHECK(chess()->parse_move(st, "Ra3", &ra3, err, sizeof err) == 0);
    CHECK(chess_claim_draw_with_move(st, CHESS_CLAIM_FIFTY_MOVES, ra3, &end, err, sizeof err) != 0);
    play(TEST_CTX, st, "Ra3");
    Move kd8;
    CHECK(chess()->parse_move(st, "Kd8", &kd8, err, sizeof err) == 0);
    CHECK(chess_claim_draw_with_move(st, CHESS_CLAIM_FIFTY_MOVES, kd8, &end, err, sizeof err) == 0);
    CHECK(end.reason == CHESS_REASON_CLAIM_FIFTY);
    play(TEST_CTX, st, "Kd8");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_FIFTY_MOVES);
    CHECK(chess_claim_draw(st, CHESS_CLAIM_FIFTY_MOVES, &end, err, sizeof err) == 0);
    CHECK(end.reason == CHESS_REASON_CLAIM_FIFTY);
    free(st);
    st = at(TEST_CTX, "4k3/8/8/8/8/8/R7/4K3 w - - 148 80");
    play(TEST_CTX, st, "Ra3");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, CHESS_CLAIM_FIFTY_MOVES);
    play(TEST_CTX, st, "Kd8");
    expect_status(TEST_CTX, st, RESULT_DRAW, CHESS_REASON_SEVENTY_FIVE, 0);
    free(st);
    /* a pawn move or capture resets the count */
    st = at(TEST_CTX, "4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    play(TEST_CTX, st, "a3");
    expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
    free(st);
    /* mate on the 75th move stands */
    st = at(TEST_CTX, "k7/8/1K6/8/8/8/8/7R w - - 149 80");
    play(TEST_CTX, st, "Rh8#");
    expect_status(TEST_CTX, st, RESULT_WHITE_WINS, CHESS_REASON_CHECKMATE, 0);
    free(st);
}

TEST(chess_dead_positions)
{
    static const char *const dead[] = {
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",   /* K v K */
        "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",  /* K+B v K */
        "8/8/4kn2/8/8/3K4/8/8 w - - 0 1",  /* K v K+N */
        "8/8/3bk3/8/8/3KB3/8/8 w - - 0 1", /* K+B v K+B, one colour */
    };
    for (size_t i = 0; i < sizeof dead / sizeof dead[0]; i++) {
        void *st = at(TEST_CTX, dead[i]);
        expect_status(TEST_CTX, st, RESULT_DRAW, CHESS_REASON_DEAD_POSITION, 0);
        free(st);
    }
    static const char *const alive[] = {
        "8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1", /* bishops on both colours */
        "8/8/4kn2/8/8/3KN3/8/8 w - - 0 1",  /* K+N v K+N */
        "8/8/4k3/8/8/3KP3/8/8 w - - 0 1",   /* a pawn */
    };
    for (size_t i = 0; i < sizeof alive / sizeof alive[0]; i++) {
        void *st = at(TEST_CTX, alive[i]);
        expect_status(TEST_CTX, st, RESULT_ONGOING, REASON_NONE, 0);
        free(st);
    }
    /* capturing the last rook leaves K+N v K: the game ends at once */
    void *st = at(TEST_CTX, "8/8/4k3/8/8/3KN3/8/r7 w - - 0 1");
    play(TEST_CTX, st, "Nc2 Ra2 Kc3 Rxc2+ Kxc2");
    expect_status(TEST_CTX, st, RESULT_DRAW, CHESS_REASON_DEAD_POSITION, 0);
    free(st);
}

TEST(chess_draw_by_agreement)
{
    void *st = game_state_new(chess());
    chess()->start(st);
    struct game_status end;
    char err[ERROR_TEXT_MAX];
    CHECK(chess_agree_draw(st, &end, err, sizeof err) == 0);
    CHECK(end.result == RESULT_DRAW && end.reason == REASON_AGREEMENT);
    play(TEST_CTX, st, "f3 e5 g4 Qh4#");
    CHECK(chess_agree_draw(st, &end, err, sizeof err) != 0);
    free(st);
}

TEST(chess_fen_errors)
{
    static const struct {
        const char *fen, *words;
    } bad[] = {
        {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7"},
        {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8"},
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
        {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "two digits"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "2 kings"},
        {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has 0 kings"},
        {"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rook on h1"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1", "order"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling"},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "rank 3"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "no white pawn"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "move number"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "six fields"},
        {"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "not to move"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", "'Z'"},
    };
    void *st = game_state_new(chess());
    chess()->start(st);
    Key k = chess()->key(st);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[ERROR_TEXT_MAX] = "";
        CHECK_MSG(chess()->parse_position(st, bad[i].fen, err, sizeof err) != 0, "accepted %s",
                  bad[i].fen);
        CHECK_MSG(strstr(err, bad[i].words) != NULL, "'%s': message '%s' lacks '%s'", bad[i].fen,
                  err, bad[i].words);
    }
    CHECK(chess()->key(st) == k);
    free(st);
}

TEST(chess_fen_round_trips)
{
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 57 123",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        void *st = at(TEST_CTX, fens[i]);
        char out[POSITION_TEXT_MAX];
        chess()->write_position(st, out, sizeof out);
        CHECK_STR(out, fens[i]);
        free(st);
    }
    /* four fields (EPD style) are accepted with counters 0 and 1 */
    void *st = at(TEST_CTX, "4k3/8/8/8/8/8/8/4K3 w - -");
    char out[POSITION_TEXT_MAX];
    chess()->write_position(st, out, sizeof out);
    CHECK_STR(out, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    free(st);
}

TEST(chess_render_board)
{
    void *st = at(TEST_CTX, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    char board[RENDER_TEXT_MAX];
    chess()->render(st, board, sizeof board);
    CHECK(strstr(board, "\u265C") && strstr(board, "\u2654") && strstr(board, "a b c d e f g h"));
    CHECK(strstr(board, "White to move") && strstr(board, "check"));
    free(st);
}

TEST(chess_cli_moves_and_play)
{
    char *outbuf = NULL, *errbuf = NULL;
    size_t outlen = 0, errlen = 0;
    struct cli_io io = {NULL, open_memstream(&outbuf, &outlen), open_memstream(&errbuf, &errlen)};
    char *argv[] = {"agora", "moves", "chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", NULL};
    CHECK_EQ_INT(cli_main(4, argv, &io), 0);
    fflush(io.out);
    CHECK(strstr(outbuf, "e1g1\n") != NULL && strstr(outbuf, "h1h8\n") != NULL);
    /* a threefold repetition is offered and claimed in `agora play` */
    const char *input = "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nclaim\n";
    io.in = fmemopen((void *)input, strlen(input), "r");
    char *argv2[] = {"agora", "play", "chess", "--as", "both", NULL};
    CHECK_EQ_INT(cli_main(5, argv2, &io), 0);
    fflush(io.out);
    CHECK(strstr(outbuf, "You may claim a draw") != NULL);
    CHECK(strstr(outbuf, "draw claimed: threefold repetition") != NULL);
    fclose(io.in);
    fclose(io.out);
    fclose(io.err);
    free(outbuf);
    free(errbuf);
}

/* Keys are Polyglot book keys: the test positions of the Polyglot book format, both
 * parsed from FEN and reached by moves (incremental keys). */
TEST(chess_polyglot_keys)
{
    static const struct {
        const char *moves, *fen;
        uint64_t key;
    } cases[] = {
        {"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
        {"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         0x823c9b50fd114196ULL},
        {"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
         0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
         0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
         0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
         0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7",
         "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4",
         "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3",
         "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *st = at(TEST_CTX, cases[i].fen);
        CHECK_MSG(chess()->key(st) == cases[i].key, "FEN %s: key %016llx, expected %016llx",
                  cases[i].fen, (unsigned long long)chess()->key(st),
                  (unsigned long long)cases[i].key);
        chess()->start(st);
        if (*cases[i].moves)
            play(TEST_CTX, st, cases[i].moves);
        CHECK_MSG(chess()->key(st) == cases[i].key, "after %s: key %016llx", cases[i].moves,
                  (unsigned long long)chess()->key(st));
        free(st);
    }
}

/* A fallen flag is a draw when the other side cannot mate (struct game can_win). */
TEST(chess_can_win_after_a_flag)
{
    const struct game *g = &chess_game;
    void *st = game_state_new(g);
    char err[128];
    CHECK_EQ_INT(g->parse_position(st, "k7/8/8/8/8/8/7Q/K7 w - - 0 1", err, sizeof err), 0);
    CHECK_EQ_INT(g->can_win(st, SIDE_WHITE), 1);
    CHECK_EQ_INT(g->can_win(st, SIDE_BLACK), 0);
    CHECK_EQ_INT(g->parse_position(st, "k7/8/8/8/8/8/8/K5nN w - - 0 1", err, sizeof err), 0);
    CHECK_EQ_INT(g->can_win(st, SIDE_WHITE), 1); /* K+N v K+N: a mate exists */
    CHECK_EQ_INT(g->parse_position(st, "k7/8/8/8/8/8/7B/K7 w - - 0 1", err, sizeof err), 0);
    CHECK_EQ_INT(g->can_win(st, SIDE_WHITE), 0); /* dead */
    free(st);
}
