/* The engine's commands run in-process: uci for a non-chess game, match between
 * levels, and the match statistics. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli_run.h"
#include "games/registry.h"
#include "harness.h"
#include "match/openings.h"
#include "match/stats.h"

TEST(search_uci_egara_session)
{
    char *argv[] = {"agora", "uci", "--game", "egara", NULL};
    const char *input = "uci\n"
                        "isready\n"
                        "setoption name Level value 3\n"
                        "position startpos moves c3-d4\n"
                        "go depth 3\n"
                        "position text 5/3/3/B/2W/1B1/2W2 w 0\n"
                        "setoption name Level value 0\n"
                        "go depth 4\n"
                        "position fen 2W2/3/3/1/3/B1W/3WW w 7 moves f2-d2\n"
                        "go nodes 500\n"
                        "position text nonsense\n"
                        "position startpos moves c3-d4 c3-d4\n"
                        "setoption name Level value 99\n"
                        "quit\n";
    char *out = NULL;
    CHECK_EQ_INT(cli_run(input, &out, 4, argv), 0);
    CHECK(strstr(out, "id name agora egara-guti\n") != NULL);
    CHECK(strstr(out, "option name Level type spin") != NULL);
    CHECK(strstr(out, "uciok\nreadyok\n") != NULL);
    /* After c3-d4 black's only move is the capture e5xc3. */
    CHECK(strstr(out, "bestmove e5xc3\n") != NULL);
    /* The winning chain, with a win score. */
    CHECK(strstr(out, "score mate 1") != NULL);
    CHECK(strstr(out, "bestmove d1xd3xd5\n") != NULL);
    /* b2 must take f2-d2's piece. */
    CHECK(strstr(out, "bestmove b2xf2") != NULL);
    CHECK(strstr(out, "info string error: bad position") != NULL);
    CHECK(strstr(out, "info string error: illegal move 'c3-d4'") != NULL);
    CHECK(strstr(out, "info string error: Level is a whole number from 0 to 8") != NULL);
    free(out);
}

TEST(search_uci_needs_a_game)
{
    char *argv[] = {"agora", "uci", "--game", "nosuchgame", NULL};
    char *out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 2);
    free(out);
}

TEST(search_match_levels)
{
    char path[] = "/tmp/agora-match-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    char *argv[] = {"agora",         "match", "egara",   "level:2", "random", "--games", "4",
                    "--concurrency", "2",     "--quiet", "--out",   path,     NULL};
    char *out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 12, argv), 0);
    CHECK(strstr(out, "games 4/4") != NULL);
    CHECK(strstr(out, "level:2: illegal moves 0, crashes 0, time losses 0") != NULL);
    free(out);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    int games = 0;
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        games += !strncmp(line, "[Result ", 8);
    CHECK_EQ_INT(games, 4);
    if (f)
        fclose(f);
    unlink(path);
}

/* search= picks alpha-beta's refinements for one player: a short match with each. */
TEST(search_match_search_features)
{
    char *argv[] = {
        "agora", "match",   "egara", "nodes:300,search=all", "nodes:300,search=plain", "--games",
        "2",     "--quiet", NULL};
    char *out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 8, argv), 0);
    CHECK(out && strstr(out, "games 2/2") != NULL);
    CHECK(out && strstr(out, "illegal moves 0, crashes 0, time losses 0") != NULL);
    free(out);
}

/* The SPRT counts pairs of games from one start: four games, two pairs. */
TEST(search_match_sprt_pairs)
{
    char *argv[] = {"agora", "match",  "egara", "random",  "random", "--games",
                    "4",     "--sprt", "0,10",  "--quiet", NULL};
    char *out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 10, argv), 0);
    CHECK_MSG(out && strstr(out, "(pentanomial, 2 pairs; trinomial over games ") != NULL, "%s",
              out ? out : "");
    free(out);
}

TEST(search_match_bad_input)
{
    static const char *const bad[][3] = {
        {"level:9", "random", NULL},           {"levle:2", "random", NULL},
        {"level:2,tc=x", "random", NULL},      {"level:2", NULL, NULL},
        {"level:2", "random", "--option"},     {"nodes:100,search=lmr+nmp", "random", NULL},
        {"nodes:100,search=", "random", NULL}, {"nodes:100,search=+", "random", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[8] = {"agora", "match", "egara"};
        int argc = 3;
        for (int k = 0; k < 3 && bad[i][k]; k++)
            argv[argc++] = (char *)bad[i][k];
        if (argc == 6)
            argv[argc++] = "X=1";
        char *out = NULL;
        CHECK_MSG(cli_run("", &out, argc, argv) == 2, "accepted case %zu", i);
        free(out);
    }
}

TEST(search_match_stats)
{
    double elo, err;
    struct match_score s = {30, 20, 10};
    match_elo(&s, &elo, &err);
    /* 70/120... score (30 + 10) / 60 = 2/3: +120 Elo. */
    CHECK_MSG(fabs(elo - 120.4) < 0.5, "elo %f", elo);
    CHECK_MSG(err > 50 && err < 120, "error %f", err);
    struct match_score sweep = {10, 0, 0};
    match_elo(&sweep, &elo, &err);
    CHECK(isinf(elo) && elo > 0);
    double lo, hi;
    match_sprt_bounds(0.05, 0.05, &lo, &hi);
    CHECK(fabs(hi - 2.944) < 0.01 && fabs(lo + 2.944) < 0.01);
    struct match_score strong = {600, 200, 200};
    CHECK(match_sprt_llr(&strong, 0, 10) > hi);
    struct match_score weak = {200, 200, 600};
    CHECK(match_sprt_llr(&weak, 0, 10) < lo);
}

/* The SPRT's log-likelihood ratio against numbers worked by hand from the formula
 * LLR = n (s1 - s0) (2m - s0 - s1) / (2 var), s(elo) = 1 / (1 + 10^(-elo/400)). */
TEST(search_match_sprt_llr_values)
{
    /* +55 =30 -15: n 100, m = (55 + 15) / 100 = 0.7, var = (55 x 0.09 + 30 x 0.04 + 15 x 0.49)
     * / 100 = 0.135; s0 = 0.5, s1 = 1 / (1 + 10^-0.025) = 0.5143871; LLR = 100 x 0.0143871 x
     * 0.3856129 / 0.27 = 2.0548. */
    struct match_score a = {55, 30, 15};
    CHECK_MSG(fabs(match_sprt_llr(&a, 0, 10) - 2.0548) < 0.001, "llr %f",
              match_sprt_llr(&a, 0, 10));
    /* +100 =260 -120 at [-5, 5]: n 480, m = 230 / 480 = 0.4791667, var = (100 x 0.2712674 +
     * 260 x 0.0004340 + 120 x 0.2296007) / 480 = 0.1141493; s(+-5) = 0.5 +- 0.0071951;
     * LLR = 480 x 0.0143902 x (0.9583333 - 1) / 0.2282986 = -1.2606. */
    struct match_score b = {100, 260, 120};
    CHECK_MSG(fabs(match_sprt_llr(&b, -5, 5) + 1.2606) < 0.001, "llr %f",
              match_sprt_llr(&b, -5, 5));
    /* Pentanomial, pairs scoring 0, 1/4, 1/2, 3/4, 1: counts 2, 10, 60, 20, 8 (n 100).
     * m = (10 x 0.25 + 60 x 0.5 + 20 x 0.75 + 8) / 100 = 0.555; var = (2 x 0.308025 + 10 x
     * 0.093025 + 60 x 0.003025 + 20 x 0.038025 + 8 x 0.198025) / 100 = 0.040725; LLR at [0, 10]
     * = 100 x 0.0143871 x (1.11 - 1.0143871) / 0.08145 = 1.6889. */
    int pairs[5] = {2, 10, 60, 20, 8};
    CHECK_MSG(fabs(match_sprt_llr_pairs(pairs, 0, 10) - 1.6889) < 0.001, "llr %f",
              match_sprt_llr_pairs(pairs, 0, 10));
    int even[5] = {0, 0, 40, 0, 0}, no_pairs[5] = {0};
    CHECK(match_sprt_llr_pairs(even, 0, 10) == 0);
    CHECK(match_sprt_llr_pairs(no_pairs, 0, 10) == 0);
    /* No games, or no spread (all draws): no evidence either way. */
    struct match_score none = {0, 0, 0}, draws = {0, 50, 0};
    CHECK(match_sprt_llr(&none, 0, 10) == 0);
    CHECK(match_sprt_llr(&draws, 0, 10) == 0);
}

TEST(search_match_openings_files)
{
    const struct game *g = game_find("egara-guti");
    char lines[] = "/tmp/agora-open-XXXXXX", pgn[] = "/tmp/agora-open-XXXXXX.pgn";
    int fd1 = mkstemp(lines), fd2 = mkstemps(pgn, 4);
    CHECK(fd1 >= 0 && fd2 >= 0);
    if (fd1 < 0 || fd2 < 0)
        return;
    const char *a = "# two positions\nBBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 0\n"
                    "5/B2/3/1/W2/1W1/WWW1W w 4\n";
    const char *b = "[Event \"x\"]\n\n1. c3-d4 e5xc3 2. b2xd4 *\n\n"
                    "[FEN \"5/B2/3/1/W2/1W1/WWW1W w 4\"]\n1. b1-b2 {a comment} 1-0\n";
    CHECK(write(fd1, a, strlen(a)) == (ssize_t)strlen(a));
    CHECK(write(fd2, b, strlen(b)) == (ssize_t)strlen(b));
    close(fd1);
    close(fd2);
    char **texts = NULL, err[ERROR_TEXT_MAX];
    int n = 0;
    CHECK(match_load_openings(g, lines, &texts, &n, err, sizeof err) == 0);
    CHECK_EQ_INT(n, 2);
    if (n == 2)
        CHECK_STR(texts[1], "5/B2/3/1/W2/1W1/WWW1W w 4");
    for (int i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    CHECK(match_load_openings(g, pgn, &texts, &n, err, sizeof err) == 0);
    CHECK_EQ_INT(n, 2);
    if (n == 2) {
        CHECK_STR(texts[0], "BBBBB/BBB/BB1/W/1WW/1WW/WWWWW b 0");
        CHECK_STR(texts[1], "5/B2/3/1/W2/WW1/W1W1W b 5");
    }
    for (int i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    /* A bad move names itself and loads nothing. */
    FILE *f = fopen(pgn, "w");
    if (f) {
        fputs("1. c3-d5 *\n", f);
        fclose(f);
    }
    CHECK(match_load_openings(g, pgn, &texts, &n, err, sizeof err) != 0);
    CHECK(strstr(err, "c3-d5") != NULL && n == 0 && texts == NULL);
    unlink(lines);
    unlink(pgn);
}

/* Chess plays its own search by default; algo=alphabeta and algo=chess pick one. */
TEST(search_match_chess_algorithms)
{
    char *argv[] = {
        "agora", "match",   "chess", "depth:3,algo=chess", "depth:2,algo=alphabeta", "--games",
        "2",     "--quiet", NULL};
    char *out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 8, argv), 0);
    CHECK(out && strstr(out, "games 2/2") != NULL);
    CHECK(out && strstr(out, "depth:3,algo=chess: illegal moves 0, crashes 0, time losses 0"));
    free(out);
    char *bad[] = {"agora", "match", "chess", "depth:2,algo=fast", "random", NULL};
    out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 5, bad), 2);
    free(out);
}
