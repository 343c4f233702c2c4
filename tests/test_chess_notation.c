/* Chess move texts and PGN: SAN details, SAN/UCI round-trips over random games, PGN
 * written by agora read back by agora and accepted by pgn-extract, ordinary PGN read
 * (comments, NAGs, variations, several games). */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/record.h"
#include "core/rng.h"
#include "games/chess/chess.h"
#include "games/registry.h"
#include "harness.h"

static const struct game *chess(void)
{
    return game_find("chess");
}

static void san_of(struct test_ctx *t__, const char *fen, const char *uci, const char *want)
{
    void *st = game_state_new(chess());
    char err[ERROR_TEXT_MAX], san[MOVE_TEXT_MAX], back[MOVE_TEXT_MAX];
    CHECK_MSG(chess()->parse_position(st, fen, err, sizeof err) == 0, "%s: %s", fen, err);
    Move m = 0, again = 0;
    CHECK_MSG(chess()->parse_move(st, uci, &m, err, sizeof err) == 0, "%s: %s", uci, err);
    chess()->move_display(st, m, san, sizeof san);
    CHECK_STR(san, want);
    CHECK_MSG(chess()->parse_move(st, want, &again, err, sizeof err) == 0 && again == m,
              "SAN %s does not parse back: %s", want, err);
    chess()->move_text(st, again, back, sizeof back);
    CHECK_STR(back, uci);
    free(st);
}

TEST(chess_san_forms)
{
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    san_of(TEST_CTX, start, "g1f3", "Nf3");
    san_of(TEST_CTX, start, "e2e4", "e4");
    /* disambiguation by file, by rank, by both */
    san_of(TEST_CTX, "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1", "Rad1");
    san_of(TEST_CTX, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Nbd2");
    san_of(TEST_CTX, "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3");
    san_of(TEST_CTX, "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "a4b3", "Qa4b3");
    /* a pinned piece does not count for disambiguation */
    san_of(TEST_CTX, "7k/8/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", "Nbc3");
    san_of(TEST_CTX, "7k/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", "Nc3");
    san_of(TEST_CTX, "4k3/8/8/8/1b6/8/3N4/1N2K3 w - - 0 1", "b1c3", "Nc3");
    /* captures, en passant, promotion, castling, check and mate */
    san_of(TEST_CTX, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5");
    san_of(TEST_CTX, "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6", "dxe6");
    san_of(TEST_CTX, "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8q", "cxd8=Q+");
    san_of(TEST_CTX, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "a8=N");
    san_of(TEST_CTX, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
    san_of(TEST_CTX, "r3k2r/8/8/8/8/8/3K4/8 b kq - 0 1", "e8c8", "O-O-O+");
    san_of(TEST_CTX, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8#");
}

TEST(chess_move_parse_forms_and_errors)
{
    void *st = game_state_new(chess());
    chess()->start(st);
    Move m;
    char err[ERROR_TEXT_MAX], uci[MOVE_TEXT_MAX];
    static const struct {
        const char *in, *uci;
    } ok[] = {{"Nf3", "g1f3"},  {"Ng1f3", "g1f3"}, {"Ng1-f3", "g1f3"}, {"e4", "e2e4"},
              {"e2e4", "e2e4"}, {"e2-e4", "e2e4"}, {"Nf3!?", "g1f3"},  {"Nc3+", "b1c3"}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_MSG(chess()->parse_move(st, ok[i].in, &m, err, sizeof err) == 0, "%s: %s", ok[i].in,
                  err);
        chess()->move_text(st, m, uci, sizeof uci);
        CHECK_STR(uci, ok[i].uci);
    }
    static const struct {
        const char *in, *words;
    } bad[] = {{"", "empty"},         {"Nf4", "illegal"},  {"e2e5", "illegal"},
               {"O-O", "castling"},   {"hello", "cannot"}, {"Kxe2", "illegal"},
               {"e4=Q", "promotion"}, {"z9", "cannot"},    {"Qd1d2d3d4d5d6d7d8x", "too long"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK_MSG(chess()->parse_move(st, bad[i].in, &m, err, sizeof err) != 0, "accepted %s",
                  bad[i].in);
        CHECK_MSG(strstr(err, bad[i].words) != NULL, "'%s': '%s' lacks '%s'", bad[i].in, err,
                  bad[i].words);
    }
    /* ambiguity is reported with the candidates */
    char e2[ERROR_TEXT_MAX];
    CHECK(chess()->parse_position(st, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", e2, sizeof e2) == 0);
    CHECK(chess()->parse_move(st, "Nd2", &m, err, sizeof err) != 0);
    CHECK(strstr(err, "ambiguous") && strstr(err, "Nbd2") && strstr(err, "Nfd2"));
    free(st);
}

/* Random games: every legal move's SAN and UCI parse back to it, and SAN is unique. */
TEST(chess_san_uci_round_trip_random_games)
{
    void *st = game_state_new(chess());
    Move moves[256];
    struct rng r;
    rng_seed(&r, 42);
    for (int game = 0; game < 30; game++) {
        chess()->start(st);
        for (int ply = 0; ply < 300; ply++) {
            int n = game_legal_moves(chess(), st, moves);
            if (!n)
                break;
            char san[256][MOVE_TEXT_MAX];
            for (int i = 0; i < n; i++) {
                char err[ERROR_TEXT_MAX];
                Move back = 0;
                chess()->move_display(st, moves[i], san[i], MOVE_TEXT_MAX);
                CHECK_MSG(chess()->parse_move(st, san[i], &back, err, sizeof err) == 0 &&
                              back == moves[i],
                          "SAN '%s' does not parse back: %s", san[i], err);
                for (int j = 0; j < i; j++)
                    CHECK_MSG(strcmp(san[i], san[j]), "two moves written %s", san[i]);
            }
            chess()->make_move(st, moves[rng_below(&r, (uint32_t)n)]);
        }
    }
    free(st);
}

/* A random game (seeded), played to its end or to `max_plies`. */
static void random_game(void *st, uint64_t seed, int max_plies)
{
    Move moves[256];
    struct rng r;
    rng_seed(&r, seed);
    chess()->start(st);
    for (int ply = 0; ply < max_plies; ply++) {
        int n = game_legal_moves(chess(), st, moves);
        if (!n)
            break;
        chess()->make_move(st, moves[rng_below(&r, (uint32_t)n)]);
    }
}

TEST(chess_pgn_write_read_back)
{
    void *st = game_state_new(chess()), *back = game_state_new(chess());
    size_t size = 1 << 20;
    char *pgn = malloc(size);
    struct record_header info = {0}, got;
    record_set_tag(&info, "Event", "agora \"test\" game");
    record_set_tag(&info, "White", "Random, A.");
    record_set_tag(&info, "Annotator", "agora");
    for (int game = 0; game < 20; game++) {
        random_game(st, (uint64_t)game + 1, 2000);
        int len = chess_pgn_write(st, &info, NULL, pgn, size);
        CHECK(len > 0);
        char result[16], err[ERROR_TEXT_MAX];
        long used = chess_pgn_read(pgn, back, &got, result, sizeof result, err, sizeof err);
        CHECK_MSG(used > 0, "game %d does not read back: %s", game, err);
        CHECK(chess()->key(back) == chess()->key(st) && chess()->ply(back) == chess()->ply(st));
        CHECK_STR(record_tag(&got, "Event"), "agora \"test\" game");
        CHECK_STR(record_tag(&got, "Date"), "????.??.??");
        CHECK_STR(record_tag(&got, "Result"), result);
        struct game_status s;
        chess()->status(st, &s);
        CHECK_STR(record_tag(&got, "Termination"),
                  s.result == RESULT_ONGOING ? "unterminated" : "normal");
    }
    /* from a set-up position, Black to move: SetUp/FEN and "1..." numbering */
    char err[ERROR_TEXT_MAX];
    CHECK(chess()->parse_position(st, "4k3/8/8/8/8/8/4p3/4K3 b - - 0 40", err, sizeof err) == 0);
    Move m;
    CHECK(chess()->parse_move(st, "Kd7", &m, err, sizeof err) == 0);
    chess()->make_move(st, m);
    struct game_status agreed = {RESULT_DRAW, REASON_AGREEMENT, 0};
    CHECK(chess_pgn_write(st, NULL, &agreed, pgn, size) > 0);
    CHECK(strstr(pgn, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4p3/4K3 b - - 0 40\"]") != NULL);
    CHECK(strstr(pgn, "40... Kd7") != NULL && strstr(pgn, "1/2-1/2\n") != NULL);
    /* too small a buffer is reported */
    CHECK(chess_pgn_write(st, NULL, NULL, pgn, 20) == -1);
    free(pgn);
    free(back);
    free(st);
}

TEST(chess_pgn_read_ordinary_files)
{
    const char *text =
        "% an escape line\n"
        "[Event \"F/S Return Match\"]\n[Site \"Belgrade\"]\n[Date \"1992.11.04\"]\n"
        "[Round \"29\"]\n[White \"Fischer, Robert J.\"]\n[Black \"Spassky, Boris V.\"]\n"
        "[Result \"1/2-1/2\"]\n\n"
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 {This opening is called the Ruy Lopez.} 3... a6\n"
        "4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7\n"
        "11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5\n"
        "Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6\n"
        "23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5\n"
        "hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5\n"
        "35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6\n"
        "Nf2 42. g4 Bd3 43. Re6 1/2-1/2\n\n"
        "[Event \"second\"]\n[FEN \"4k3/5p2/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n"
        "1.e4 $1 Ke7 (1...Kd7 2.e5 {nested (parens) in a comment} (2.Kd2 Ke6)) ; rest\n"
        "2.e5!? f5 3.exf6 e.p. Kxf6 *\n"
        "[Event \"third, no result token\"]\n1. d4 0-0-0\n";
    void *st = game_state_new(chess());
    struct record_header info;
    char result[16], err[ERROR_TEXT_MAX], fen[POSITION_TEXT_MAX];
    long used = chess_pgn_read(text, st, &info, result, sizeof result, err, sizeof err);
    CHECK_MSG(used > 0, "first game: %s", err);
    CHECK_EQ_INT(chess()->ply(st), 85);
    CHECK_STR(result, "1/2-1/2");
    CHECK_STR(record_tag(&info, "White"), "Fischer, Robert J.");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43");
    text += used;
    used = chess_pgn_read(text, st, &info, result, sizeof result, err, sizeof err);
    CHECK_MSG(used > 0, "second game: %s", err);
    CHECK_STR(result, "*");
    chess()->write_position(st, fen, sizeof fen);
    CHECK_STR(fen, "8/8/5k2/8/8/8/8/4K3 w - - 0 4");
    text += used;
    used = chess_pgn_read(text, st, &info, result, sizeof result, err, sizeof err);
    CHECK(used < 0 && strstr(err, "0-0-0") != NULL); /* White cannot castle there */
    CHECK_EQ_INT(chess()->ply(st), 1);
    CHECK_EQ_INT(chess_pgn_read("  \n", st, &info, result, sizeof result, err, sizeof err), 0);
    CHECK(chess_pgn_read("[Event \"x\"]\n1. e4 e5 2. Ke3 *", st, &info, result, sizeof result, err,
                         sizeof err) < 0);
    CHECK(strstr(err, "move 2. Ke3") != NULL);
    CHECK(chess_pgn_read("[Event x]", st, &info, result, sizeof result, err, sizeof err) < 0);
    free(st);
}

/* pgn-extract (Debian package pgn-extract, installed by scripts/setup) reads agora's PGN
 * without a single warning. */
TEST(chess_pgn_accepted_by_pgn_extract)
{
    const char *tool = "/usr/games/pgn-extract";
    if (access(tool, X_OK) != 0)
        SKIP("pgn-extract is not installed (scripts/setup installs it)");
    char dir[] = "/tmp/agora-pgn-XXXXXX";
    if (!mkdtemp(dir))
        SKIP("no temporary directory");
    char path[128], log[128], out[128], cmd[512];
    snprintf(path, sizeof path, "%s/games.pgn", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    snprintf(out, sizeof out, "%s/out.pgn", dir);
    FILE *f = fopen(path, "w");
    void *st = game_state_new(chess());
    size_t size = 1 << 20;
    char *pgn = malloc(size);
    struct record_header info = {0};
    record_set_tag(&info, "Event", "agora pgn-extract check");
    int games = 0;
    for (int game = 0; game < 12; game++) {
        random_game(st, 1000 + (uint64_t)game, game % 3 ? 2000 : 40);
        CHECK(chess_pgn_write(st, &info, NULL, pgn, size) > 0);
        fputs(pgn, f);
        games++;
    }
    char err[ERROR_TEXT_MAX];
    CHECK(chess()->parse_position(st, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 17", err, sizeof err) ==
          0);
    Move m;
    CHECK(chess()->parse_move(st, "O-O-O", &m, err, sizeof err) == 0);
    chess()->make_move(st, m);
    CHECK(chess_pgn_write(st, &info, NULL, pgn, size) > 0);
    fputs(pgn, f);
    games++;
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -s -o %s %s > %s 2>&1", tool, out, path, log);
    CHECK(system(cmd) == 0);
    f = fopen(log, "r");
    char line[512];
    int lines = 0;
    while (f && fgets(line, sizeof line, f)) {
        CHECK_MSG(0, "pgn-extract says: %s", line);
        lines++;
    }
    if (f)
        fclose(f);
    /* every game came through */
    snprintf(cmd, sizeof cmd, "grep -c '^\\[Event ' %s > %s", out, log);
    CHECK(system(cmd) == 0);
    f = fopen(log, "r");
    int count = 0;
    CHECK(f && fscanf(f, "%d", &count) == 1);
    if (f)
        fclose(f);
    CHECK_EQ_INT(count, games);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    free(pgn);
    free(st);
}

TEST(chess_cli_pgn)
{
    const char *input = "[Event \"a\"]\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
                        "[Event \"b\"]\n1. e4 e5 2. Ke3 *\n\n"
                        "[Event \"c\"]\n1.d4 {comment} d5 (1...Nf6) 2.c4 $2 *\n";
    char *outbuf = NULL, *errbuf = NULL;
    size_t outlen = 0, errlen = 0;
    struct cli_io io = {fmemopen((void *)input, strlen(input), "r"),
                        open_memstream(&outbuf, &outlen), open_memstream(&errbuf, &errlen)};
    char *argv[] = {"agora", "pgn", NULL};
    CHECK_EQ_INT(cli_main(2, argv, &io), 2); /* game b is bad */
    fflush(io.out);
    fflush(io.err);
    CHECK(strstr(outbuf, "1. f3 e5 2. g4 Qh4# {checkmate} 0-1") != NULL);
    CHECK(strstr(outbuf, "1. d4 d5 2. c4 *") != NULL);
    CHECK(strstr(errbuf, "game 2: move 2. Ke3") != NULL);
    CHECK(strstr(outbuf, "[Event \"b\"]") == NULL);
    fclose(io.in);
    fclose(io.out);
    fclose(io.err);
    free(outbuf);
    free(errbuf);
}

/* Damaged PGN (bytes changed, cut, inserted) never crashes the reader: each game reads
 * or gets one message. */
TEST(chess_pgn_read_damaged_text)
{
    const char *good = "[Event \"x\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n"
                       "1. O-O {c} O-O-O (1... Kd7 $2 (1... Rb8)) 2. Rfe1 ; line\n Rde8 1-0\n"
                       "[Event \"y\"]\n1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 *\n";
    static const char alphabet[] = "[]{}();$%\"\\\n .0123456789-+#=!?KQRBNOabcdefgh/x*";
    size_t len = strlen(good);
    char *text = malloc(len + 64);
    void *st = game_state_new(chess());
    struct record_header info;
    struct rng r;
    rng_seed(&r, 99);
    for (int round = 0; round < 3000; round++) {
        memcpy(text, good, len + 1);
        size_t n = len;
        for (int k = 0, edits = 1 + (int)rng_below(&r, 4); k < edits; k++) {
            size_t at = rng_below(&r, (uint32_t)n);
            char c = alphabet[rng_below(&r, sizeof alphabet - 1)];
            switch (rng_below(&r, 3)) {
            case 0: text[at] = c; break;
            case 1:
                text[at] = 0;
                n = at;
                break; /* cut */
            default:
                memmove(text + at + 1, text + at, n - at + 1);
                text[at] = c;
                n++;
            }
        }
        const char *p = text;
        for (int games = 0; games < 10; games++) {
            char result[16], err[ERROR_TEXT_MAX] = "";
            long used = chess_pgn_read(p, st, &info, result, sizeof result, err, sizeof err);
            if (used <= 0) {
                CHECK_MSG(used == 0 || err[0], "no message for a bad game");
                break;
            }
            CHECK(chess()->check(st, err, sizeof err) == 0);
            p += used;
        }
    }
    free(st);
    free(text);
}
