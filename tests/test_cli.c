/* The command-line contract (design.md): output formats, errors, the terminal game. */
#include <stdlib.h>
#include <unistd.h>

#include "book_file.h"
#include "cli/cli.h"
#include "harness.h"

struct run {
    int code;
    char out[16384];
    char err[4096];
};

/* Run `agora ARGS...` in-process with `input` on stdin. */
static void run_cli(struct run *r, const char *input, int argc, const char **args)
{
    char *argv[16] = {"agora"};
    for (int i = 0; i < argc && i < 15; i++)
        argv[i + 1] = (char *)args[i];
    FILE *in = fmemopen((void *)(input ? input : ""), input ? strlen(input) + 1 : 1, "r");
    FILE *out = tmpfile(), *err = tmpfile();
    struct cli_io io = {in, out, err};
    r->code = cli_main(argc + 1, argv, &io);
    rewind(out);
    rewind(err);
    size_t n = fread(r->out, 1, sizeof r->out - 1, out);
    r->out[n] = 0;
    n = fread(r->err, 1, sizeof r->err - 1, err);
    r->err[n] = 0;
    fclose(in);
    fclose(out);
    fclose(err);
}

#define RUN(r, input, ...)                                                                         \
    do {                                                                                           \
        const char *args__[] = {__VA_ARGS__};                                                      \
        run_cli((r), (input), (int)(sizeof args__ / sizeof args__[0]), args__);                    \
    } while (0)

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

TEST(cli_perft_prints_depth_nodes_seconds)
{
    struct run r;
    RUN(&r, NULL, "perft", "egara", "5");
    CHECK_EQ_INT(r.code, 0);
    CHECK_EQ_INT(count_lines(r.out), 5);
    unsigned long long nodes = 0;
    double secs = -1;
    char *line5 = strstr(r.out, "\n5 ");
    CHECK(line5 && sscanf(line5 + 1, "5 %llu %lf", &nodes, &secs) == 2);
    CHECK_EQ_U64(nodes, 35);
    CHECK(secs >= 0);
}

TEST(cli_perft_divide_and_position)
{
    struct run r;
    RUN(&r, NULL, "perft", "egara-guti", "2", "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 0", "--divide");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "c3-d4 1\n") && strstr(r.out, "2 3 "));
}

TEST(cli_moves_sorted)
{
    struct run r;
    RUN(&r, NULL, "moves", "egara", "5/3/3/B/W1W/3/5 w");
    CHECK_EQ_INT(r.code, 0);
    CHECK_STR(r.out, "c3xe5\ne3xc5\n");
}

/* Bad input: a non-zero exit and exactly one clear line on stderr. */
static void check_refused(struct test_ctx *t__, struct run *r, const char *fragment)
{
    CHECK_EQ_INT(r->code, CLI_BAD_INPUT);
    CHECK_EQ_INT(count_lines(r->err), 1);
    CHECK_MSG(strstr(r->err, fragment) != NULL, "stderr '%s' lacks '%s'", r->err, fragment);
    CHECK_STR(r->out, "");
}

TEST(cli_bad_arguments)
{
    struct run r;
    RUN(&r, NULL, "perft", "go", "3");
    check_refused(TEST_CTX, &r, "unknown game 'go'");
    RUN(&r, NULL, "perft", "egara", "0");
    check_refused(TEST_CTX, &r, "bad depth '0'");
    RUN(&r, NULL, "perft", "egara", "x3");
    check_refused(TEST_CTX, &r, "bad depth 'x3'");
    RUN(&r, NULL, "perft", "egara");
    check_refused(TEST_CTX, &r, "usage");
    RUN(&r, NULL, "moves", "egara", "BBBBB/BBB w");
    check_refused(TEST_CTX, &r, "bad egara-guti position");
    RUN(&r, NULL, "frobnicate");
    check_refused(TEST_CTX, &r, "unknown command");
    RUN(&r, NULL, "bench", "--playouts", "-5");
    check_refused(TEST_CTX, &r, "bad playout count");
    RUN(&r, NULL, "play", "egara", "--as", "red");
    check_refused(TEST_CTX, &r, "bad --as 'red'");
}

TEST(cli_bench_reports_every_game)
{
    struct run r;
    RUN(&r, NULL, "bench", "--playouts", "50");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "egara-guti") && strstr(r.out, "plies/s") && strstr(r.out, "signature"));
    /* Same seed, same signature: egara-guti's playout line alone and among all. */
    struct run again;
    RUN(&again, NULL, "bench", "egara", "--playouts", "50");
    char *line = strstr(r.out, "egara-guti   playouts");
    char *a = line ? strstr(line, "signature") : NULL, *b = strstr(again.out, "signature");
    CHECK(a && b && strtoull(a + 10, NULL, 10) == strtoull(b + 10, NULL, 10));
}

/* A whole terminal game: an illegal and a malformed move are refused with a message
 * and asked again; the end and its reason are announced. */
TEST(cli_play_a_game_to_its_end)
{
    struct run r;
    RUN(&r, "c3-d5\nnonsense\nmoves\nc3xe5\n", "play", "egara", "--as", "white", "--position",
        "5/3/3/B/W1W/3/5 w", "--seed", "1");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "White to move") != NULL);
    CHECK(strstr(r.out, "illegal move 'c3-d5'") != NULL);
    CHECK(strstr(r.out, "malformed move 'nonsense'") != NULL);
    CHECK(strstr(r.out, "legal moves: c3xe5 e3xc5") != NULL);
    CHECK(strstr(r.out, "Game over: white wins (the last piece was captured)") != NULL);
}

TEST(cli_play_stops_at_end_of_input)
{
    struct run r;
    RUN(&r, "", "play", "egara");
    CHECK_EQ_INT(r.code, 0);
    RUN(&r, "quit\n", "play", "egara", "--as", "both");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "You play both sides") != NULL);
}

TEST(cli_play_random_opponents_finish)
{
    struct run r;
    RUN(&r, NULL, "play", "egara", "--as", "none", "--seed", "5");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "Game over:") != NULL);
}

/* 'draw' offers the computer a draw: it declines when it stands well (here two queens
 * up), accepts when it stands badly; 'resign' ends the game for the side to move. */
TEST(cli_play_draw_offer_and_resignation)
{
    struct run r;
    RUN(&r, "draw\nquit\n", "play", "chess", "--level", "1", "--as", "black", "--position",
        "7k/8/8/8/8/8/8/1QQ1K3 b - - 0 1");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "The computer declines the draw.") != NULL);
    CHECK(strstr(r.out, "Game over") == NULL);
    RUN(&r, "draw\n", "play", "chess", "--level", "1", "--as", "white", "--position",
        "7k/8/8/8/8/8/8/1QQ1K3 w - - 0 1");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "The computer accepts. Game over: draw (draw agreed).") != NULL);
    RUN(&r, "resign\n", "play", "egara", "--level", "1", "--as", "white");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "Game over: black wins (resignation).") != NULL);
}

/* --book: the chess levels open from the given book; a book that does not open is
 * an error before the game starts; --book none and other games play without one. */
TEST(cli_play_book)
{
    const struct test_book_entry only[] = {{TEST_BOOK_START_KEY, test_book_move("h2", "h3", 0), 1}};
    char path[64];
    test_book_write(path, only, 1, 0);
    struct run r;
    RUN(&r, "quit\n", "play", "chess", "--level", "4", "--as", "black", "--book", path, "--seed",
        "3");
    CHECK_EQ_INT(r.code, 0);
    CHECK_MSG(strstr(r.out, "(computer) plays h3") != NULL, "%s", r.out);
    RUN(&r, "quit\n", "play", "chess", "--level", "4", "--as", "black", "--book", "none", "--seed",
        "3");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "plays h3") == NULL);
    RUN(&r, "quit\n", "play", "egara", "--level", "4", "--book", path);
    CHECK_EQ_INT(r.code, 0);
    RUN(&r, "quit\n", "play", "chess", "--level", "4", "--book", "/nonexistent/book.bin");
    CHECK_EQ_INT(r.code, 2);
    CHECK_MSG(strstr(r.err, "book:") != NULL, "%s", r.err);
    unlink(path);
}

TEST(cli_serve_people_times_refuse_bad_values)
{
    static const char *const bad[][2] = {
        {"--abandon-ms", "abc"},
        {"--abandon-ms", "-5"},
        {"--abandon-ms", "999"},
        {"--challenge-ms", "0"},
        {"--challenge-ms", "99999999999999"},
        {"--challenge-ms", ""},
        {"--seek-ms", "1e3"},
        {"--seek-ms", "86400001"},
        {"--seek-ms", "99999999999999999999999"},
    };
    struct run r;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        RUN(&r, NULL, "serve", "--db", ":memory:", bad[i][0], bad[i][1]);
        CHECK_MSG(r.code == 2, "%s '%s': exit %d", bad[i][0], bad[i][1], r.code);
        CHECK_MSG(strstr(r.err, bad[i][0] + 2) && strstr(r.err, "expected a whole number"),
                  "%s '%s': %s", bad[i][0], bad[i][1], r.err);
    }
    RUN(&r, NULL, "serve", "--seek-ms");
    CHECK_EQ_INT(r.code, 2);
    CHECK(strstr(r.err, "needs a value") != NULL);
    RUN(&r, NULL, "serve", "--help");
    CHECK_EQ_INT(r.code, 0);
    CHECK(strstr(r.out, "--abandon-ms N") && strstr(r.out, "--challenge-ms N") &&
          strstr(r.out, "--seek-ms N") && strstr(r.out, "--streams-per-address N"));
    RUN(&r, NULL, "help");
    CHECK(strstr(r.out, "--challenge-ms") != NULL);
}

/* `agora puzzles generate` names an unknown option as unknown, with or without a
 * value after it, and a known one left without its value as such (exit 2). */
TEST(cli_puzzles_bad_options)
{
    struct run r;
    RUN(&r, NULL, "puzzles", "generate", "chess", "--bogus");
    CHECK_EQ_INT(r.code, 2);
    CHECK(strstr(r.err, "unknown option '--bogus'") != NULL);
    RUN(&r, NULL, "puzzles", "generate", "chess", "--bogus", "5");
    CHECK_EQ_INT(r.code, 2);
    CHECK(strstr(r.err, "unknown option '--bogus'") != NULL);
    RUN(&r, NULL, "puzzles", "generate", "chess", "--selfplay");
    CHECK_EQ_INT(r.code, 2);
    CHECK(strstr(r.err, "--selfplay needs a value") != NULL);
    RUN(&r, NULL, "puzzles", "generate", "chess", "--seed", "x");
    CHECK_EQ_INT(r.code, 2);
    CHECK(strstr(r.err, "bad --seed 'x'") != NULL);
    CHECK_EQ_INT(r.out[0], 0);
}
