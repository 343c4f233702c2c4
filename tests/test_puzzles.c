/* The puzzle generator (src/puzzles/) on constructed positions of each game, the
 * puzzle file's reader and `agora puzzles check`, and (heavy) the shipped set. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "engines/engine.h"
#include "games/registry.h"
#include "harness.h"
#include "puzzles/puzzle_file.h"

/* Judge `position` of game `name` at the game's prove budget: the reason, the line
 * as move texts joined by spaces into buf. */
static enum puzzle_reject judge(const char *name, const char *position, char *buf, size_t size,
                                struct puzzle_solution *s)
{
    const struct game *g = game_find(name);
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    buf[0] = 0;
    if (!st || g->parse_position(st, position, err, sizeof err) != 0) {
        free(st);
        return PUZZLE_NO_MEMORY;
    }
    enum puzzle_reject r = puzzle_solve(g, st, engine_profile_of(g)->puzzles->prove_nodes, NULL, s);
    struct puzzle_entry e;
    if (r == PUZZLE_OK) {
        puzzle_entry_make(g, st, s, &e);
        for (int i = 0; i < e.n; i++) {
            if (i)
                strncat(buf, " ", size - strlen(buf) - 1);
            strncat(buf, e.moves[i], size - strlen(buf) - 1);
        }
    }
    free(st);
    return r;
}

static int has_theme(const struct puzzle_solution *s, const char *name)
{
    for (int i = 0; i < s->nthemes; i++)
        if (strcmp(s->themes[i], name) == 0)
            return 1;
    return 0;
}

TEST(puzzles_two_mates_rejected)
{
    /* Ra8# and Rb8#: two mates in one, no puzzle. */
    char line[512];
    struct puzzle_solution s;
    CHECK_EQ_INT(judge("chess", "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1", line, sizeof line, &s),
                 PUZZLE_NOT_UNIQUE);
    /* One rook: Ra8# alone. */
    CHECK_EQ_INT(judge("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", line, sizeof line, &s),
                 PUZZLE_OK);
    CHECK_STR(line, "a1a8");
    CHECK(has_theme(&s, "mate-in-1"));
    /* The start position: nothing wins. */
    CHECK_EQ_INT(judge("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", line,
                       sizeof line, &s),
                 PUZZLE_NO_WIN);
}

TEST(puzzles_promotion_piece_is_part_of_the_solution)
{
    /* a8=Q# and a8=R# both mate: two wins as fast, no puzzle (so in a shipped puzzle
     * another piece than the solution's never wins as fast: the page may call it wrong). */
    char line[512];
    struct puzzle_solution s;
    CHECK_EQ_INT(judge("chess", "7k/P7/6K1/8/8/8/8/8 w - - 0 1", line, sizeof line, &s),
                 PUZZLE_NOT_UNIQUE);
    /* The browser test's puzzle (data/puzzles/chess.jsonl): only b1=Q mates at once. */
    CHECK_EQ_INT(judge("chess", "8/8/2n5/1k6/8/8/Kp6/2q5 b - - 9 90", line, sizeof line, &s),
                 PUZZLE_OK);
    CHECK_STR(line, "b2b1q");
    CHECK(has_theme(&s, "promotion"));
}

TEST(puzzles_mate_in_two_line)
{
    /* 1.g5+ Kg6 (the only square) 2.f5#: the pawn checks, the bishop guards g5 once f4
     * has moved, the rooks hold the e-file, the seventh rank and the fifth. */
    char line[512];
    struct puzzle_solution s;
    CHECK_EQ_INT(
        judge("chess", "8/1R6/1P3k2/4R2p/1P3PP1/2K5/3B4/8 w - - 0 57", line, sizeof line, &s),
        PUZZLE_OK);
    CHECK_STR(line, "g4g5 f6g6 f4f5");
    CHECK(s.proven);
    CHECK(has_theme(&s, "mate-in-2"));
    CHECK(has_theme(&s, "endgame"));
    CHECK(s.rating >= 400 && s.rating <= 2800);
    CHECK_EQ_INT(s.rating, puzzle_first_rating(s.depth_needed, s.tempting, 2));
}

TEST(puzzles_chess_fork)
{
    /* Ne7+ forks the king on g8 and the rook on c8; the knight gets out after Nxc8. */
    char line[512];
    struct puzzle_solution s;
    enum puzzle_reject r =
        judge("chess", "2r3k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 1", line, sizeof line, &s);
    CHECK_EQ_INT(r, PUZZLE_OK);
    CHECK(strncmp(line, "d5e7", 4) == 0);
    CHECK(has_theme(&s, "fork"));
    CHECK(has_theme(&s, "advantage"));
}

TEST(puzzles_agon_formation_in_two)
{
    /* Black: the queen is on the throne and five guards on ring 1; the sixth needs two
     * steps (f9-f8-f7), and White cannot stop it. */
    char line[512];
    struct puzzle_solution s;
    CHECK_EQ_INT(
        judge("agon", "6/1G3G1/3QG3/1GGG5/4gg4/4gq2g2/4gg4/9/8/7/6 b", line, sizeof line, &s),
        PUZZLE_OK);
    CHECK_EQ_INT(s.n, 3);
    CHECK(strncmp(line, "f9-f8 ", 6) == 0);
    CHECK(strcmp(line + strlen(line) - 5, "f8-f7") == 0);
    CHECK(has_theme(&s, "formation-in-2"));
}

TEST(puzzles_egara_chain)
{
    /* Black must capture, and only the chain d5xd3xd1 takes two. */
    char line[512];
    struct puzzle_solution s;
    CHECK_EQ_INT(judge("egara", "B2BB/B1B/BB1/W/3/1WW/WW1WW b 1", line, sizeof line, &s),
                 PUZZLE_OK);
    CHECK_STR(line, "d5xd3xd1");
    CHECK(has_theme(&s, "chain-capture"));
}

TEST(puzzles_file_lines)
{
    struct puzzle_entry e;
    char err[ERROR_TEXT_MAX];
    const char *good = "{\"id\":\"chess-x\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/"
                       "8/R5K1 w - - 0 1\",\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],"
                       "\"rating\":700}";
    CHECK_EQ_INT(puzzle_entry_parse(good, &e, err, sizeof err), 0);
    CHECK_STR(e.moves[0], "a1a8");
    CHECK(puzzle_entry_has_theme(&e, "mate-in-1"));
    char *again = puzzle_entry_json(&e);
    CHECK_STR(again, good);
    free(again);
    CHECK_EQ_INT(puzzle_entry_check(&e, 0, NULL, err, sizeof err), 0);
    /* Bad lines: each names its problem. */
    CHECK_EQ_INT(puzzle_entry_parse("[1]", &e, err, sizeof err), -1);
    CHECK_EQ_INT(puzzle_entry_parse("{\"id\":\"x\",\"game\":\"go\",\"position\":\"p\"}", &e, err,
                                    sizeof err),
                 -1);
    CHECK(strstr(err, "unknown game") != NULL);
    const char *illegal = "{\"id\":\"c\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/"
                          "R5K1 w - - 0 1\",\"moves\":[\"a1a9\"],\"themes\":[],\"rating\":1}";
    CHECK_EQ_INT(puzzle_entry_parse(illegal, &e, err, sizeof err), -1);
    CHECK(strstr(err, "move 1") != NULL);
    const char *even = "{\"id\":\"c\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/"
                       "R5K1 w - - 0 1\",\"moves\":[\"a1a8\",\"g8h8\"],\"themes\":[],\"rating\":1}";
    CHECK_EQ_INT(puzzle_entry_parse(even, &e, err, sizeof err), -1);
}

TEST(puzzles_check_command)
{
    char path[] = "/tmp/agora-puzzles-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    /* A true puzzle, and one whose "solution" is not the winning move. */
    fputs("{\"id\":\"chess-good\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 w - "
          "- 0 1\",\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":700}\n",
          f);
    fputs("{\"id\":\"chess-wrong\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 w - "
          "- 0 1\",\"moves\":[\"a1a7\"],\"themes\":[],\"rating\":700}\n",
          f);
    fclose(f);
    char *out = NULL;
    char *argv[] = {"agora", "puzzles", "check", path};
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 1);
    CHECK(out && strstr(out, "chess-wrong (line 2)") != NULL);
    CHECK(out && strstr(out, "chess-good") == NULL);
    CHECK(out && strstr(out, "2 puzzles, 1 failed") != NULL);
    free(out);
    char *bad[] = {"agora", "puzzles", "check"};
    out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 3, bad), 2);
    free(out);
    unlink(path);
}

/* A puzzle whose line does not replay (an illegal move, a tampered position) is named
 * by its id, as a failing one is; a line without an id by its number. */
TEST(puzzles_check_names_an_unreadable_puzzle)
{
    char path[] = "/tmp/agora-puzzles-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"id\":\"chess-good\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 w - "
          "- 0 1\",\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":700}\n",
          f);
    fputs(
        "{\"id\":\"chess-tampered\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 b - "
        "- 0 1\",\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":700}\n",
        f);
    fputs("{\"game\":\"chess\"}\n", f);
    fclose(f);
    char *out = NULL;
    char *argv[] = {"agora", "puzzles", "check", path};
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 2);
    CHECK(out && strstr(out, "chess-tampered (line 2): ") != NULL);
    CHECK(out && strstr(out, "line 3: ") != NULL);
    CHECK(out && strstr(out, "chess-good") == NULL);
    CHECK(out && strstr(out, "3 puzzles, 0 failed, 2 unreadable") != NULL);
    free(out);
    unlink(path);
}

TEST(puzzles_generate_records)
{
    /* A record whose last position holds the one-rook mate: found from --from, written
     * once (a second run appends nothing). */
    char rec[] = "/tmp/agora-puzzle-rec-XXXXXX", out_path[] = "/tmp/agora-puzzle-out-XXXXXX";
    int fd = mkstemp(rec), fd2 = mkstemp(out_path);
    CHECK(fd >= 0 && fd2 >= 0);
    close(fd2);
    FILE *f = fdopen(fd, "w");
    fputs("[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... Kh8 *\n", f);
    fclose(f);
    for (int run = 0; run < 2; run++) {
        char *out = NULL;
        char *argv[] = {"agora", "puzzles", "generate", "chess", "--from", rec, "--out", out_path};
        CHECK_EQ_INT(cli_run("", &out, 8, argv), 0);
        free(out);
    }
    f = fopen(out_path, "r");
    char buf[4096] = {0};
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 0);
    CHECK(strstr(buf, "\"moves\":[\"a1a8\"]") != NULL);
    CHECK(strchr(buf, '\n') == strrchr(buf, '\n')); /* one line */
    unlink(rec);
    unlink(out_path);
}

/* The shipped set, proven again at the stated budgets (data/puzzles/README.md). */
TEST_HEAVY(puzzles_shipped_set)
{
    static const char *const files[] = {"data/puzzles/chess.jsonl", "data/puzzles/agon.jsonl",
                                        "data/puzzles/egara-guti.jsonl"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (access(files[i], R_OK) != 0) {
            CHECK_MSG(0, "%s is missing", files[i]);
            continue;
        }
        char *out = NULL;
        char *argv[] = {"agora", "puzzles", "check", (char *)files[i]};
        int code = cli_run("", &out, 4, argv);
        CHECK_MSG(code == 0, "%s: %s", files[i], out ? out : "");
        free(out);
    }
}
