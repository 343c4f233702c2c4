/* agora match's adjudication: the rules on score sequences, the UCI score reader,
 * and whole matches that end by them. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "harness.h"
#include "match/adjudicate.h"
#include "match/uci_client.h"

/* Feed alternating scores (White first, each the mover's own view); the verdict
 * after the last, and the index (or -1) at which one came. */
static enum match_verdict feed(const struct match_adjudication *rules, const int *scores, int n,
                               int first_move, int *at)
{
    struct match_adjudicator a = {{0, 0}, {0, 0}, 0};
    *at = -1;
    for (int i = 0; i < n; i++) {
        int known = scores[i] != 99999;
        enum match_verdict v =
            match_adjudicate(&a, rules, i % 2, known, scores[i], first_move + i / 2);
        if (v != MATCH_VERDICT_NONE) {
            *at = i;
            return v;
        }
    }
    return MATCH_VERDICT_NONE;
}

TEST(match_adjudicate_resign_needs_both_sides)
{
    struct match_adjudication r = {.resign_moves = 3, .resign_score = 600};
    int at;
    /* White sure of winning, Black agreeing: after each side's third such score. */
    int agree[] = {700, -650, 800, -900, 750, -700, 10, 10};
    CHECK_EQ_INT(feed(&r, agree, 8, 1, &at), MATCH_VERDICT_WHITE_WINS);
    CHECK_EQ_INT(at, 5);
    /* Black winning, seen from both sides. */
    int black[] = {-600, 600, -700, 900, -2000, 29990};
    CHECK_EQ_INT(feed(&r, black, 6, 1, &at), MATCH_VERDICT_BLACK_WINS);
    /* Only one side believes it: nothing. */
    int alone[] = {700, -100, 800, -200, 750, -300, 900, -400, 999, -500};
    CHECK_EQ_INT(feed(&r, alone, 10, 1, &at), MATCH_VERDICT_NONE);
    /* A dip below the threshold restarts the count. */
    int dip[] = {700, -700, 700, -500, 700, -700, 700, -700};
    CHECK_EQ_INT(feed(&r, dip, 8, 1, &at), MATCH_VERDICT_NONE);
    /* A move without a score breaks the run too. */
    int unknown[] = {700, -700, 700, 99999, 700, -700, 700, -700};
    CHECK_EQ_INT(feed(&r, unknown, 8, 1, &at), MATCH_VERDICT_NONE);
    /* Off: never. */
    struct match_adjudication off = {0};
    CHECK_EQ_INT(feed(&off, agree, 8, 1, &at), MATCH_VERDICT_NONE);
}

TEST(match_adjudicate_draw_from_a_move_on)
{
    struct match_adjudication r = {.draw_from_move = 40, .draw_moves = 2, .draw_score = 10};
    int at;
    int level[] = {5, -3, 0, 10, 0, 0};
    /* Four level plies, but before move 40: nothing. */
    CHECK_EQ_INT(feed(&r, level, 6, 30, &at), MATCH_VERDICT_NONE);
    /* From move 39 on, the fourth level ply falls on move 40. */
    CHECK_EQ_INT(feed(&r, level, 6, 39, &at), MATCH_VERDICT_DRAW);
    CHECK_EQ_INT(at, 3);
    int broken[] = {5, -3, 11, 10, 0, 0};
    CHECK_EQ_INT(feed(&r, broken, 6, 50, &at), MATCH_VERDICT_NONE);
}

TEST(match_adjudicate_parse)
{
    struct match_adjudication r = {0};
    CHECK_EQ_INT(match_adjudication_parse_resign(&r, "3,600"), 0);
    CHECK(r.resign_moves == 3 && r.resign_score == 600);
    CHECK_EQ_INT(match_adjudication_parse_draw(&r, "34,8,20"), 0);
    CHECK(r.draw_from_move == 34 && r.draw_moves == 8 && r.draw_score == 20);
    static const char *const bad_resign[] = {"",     "3",     "3,",     ",600",  "3,600,1", "0,600",
                                             "3,-5", "x,600", "3,600x", "3;600", "3, 600x"};
    for (size_t i = 0; i < sizeof bad_resign / sizeof *bad_resign; i++)
        CHECK_MSG(match_adjudication_parse_resign(&r, bad_resign[i]) != 0, "accepted '%s'",
                  bad_resign[i]);
    static const char *const bad_draw[] = {"34,8", "34,8,20,1", "34,0,20", "0,8,20", "a,b,c"};
    for (size_t i = 0; i < sizeof bad_draw / sizeof *bad_draw; i++)
        CHECK_MSG(match_adjudication_parse_draw(&r, bad_draw[i]) != 0, "accepted '%s'",
                  bad_draw[i]);
    /* A failed parse leaves the rules as they were. */
    CHECK(r.resign_moves == 3 && r.draw_moves == 8);
}

TEST(match_adjudicate_uci_scores)
{
    int s = 0;
    CHECK(match_uci_info_score("info depth 12 seldepth 17 score cp 35 nodes 1 pv e2e4", &s));
    CHECK_EQ_INT(s, 35);
    CHECK(match_uci_info_score("info depth 9 score cp -1200 pv a7a8q", &s));
    CHECK_EQ_INT(s, -1200);
    CHECK(match_uci_info_score("info depth 20 score mate 3 pv h5f7", &s));
    CHECK_EQ_INT(s, 29997);
    CHECK(match_uci_info_score("info depth 20 score mate -2 pv g8h8", &s));
    CHECK_EQ_INT(s, -29998);
    CHECK(match_uci_info_score("info depth 20 multipv 1 score cp 7", &s));
    CHECK_EQ_INT(s, 7);
    s = 12345;
    CHECK(!match_uci_info_score("info depth 20 multipv 2 score cp 7", &s));
    CHECK(!match_uci_info_score("info depth 20 score cp 40 lowerbound", &s));
    CHECK(!match_uci_info_score("info depth 20 score cp 40 upperbound", &s));
    CHECK(!match_uci_info_score("info string score cp", &s));
    CHECK(!match_uci_info_score("info depth 3 nodes 100", &s));
    CHECK(!match_uci_info_score("info score cp x", &s));
    CHECK(!match_uci_info_score("info score mate 0", &s));
    CHECK(!match_uci_info_score("bestmove e2e4", &s));
    CHECK_EQ_INT(s, 12345);
}

/* A match from `fen` between two shallow searches with adjudication `flag` `rule`:
 * the output, the games' Termination tags counted in *adjudicated (-1 when the
 * match failed). */
static char *adjudicated_match(const char *fen, const char *flag, const char *rule,
                               int *adjudicated)
{
    char openings[] = "/tmp/agora-adj-XXXXXX", pgn[] = "/tmp/agora-adj-pgn-XXXXXX";
    int fd = mkstemp(openings), fd2 = mkstemp(pgn);
    *adjudicated = -1;
    if (fd < 0 || fd2 < 0)
        return NULL;
    close(fd2);
    int written = write(fd, fen, strlen(fen)) == (ssize_t)strlen(fen);
    close(fd);
    char *argv[] = {"agora",      "match",      "chess",   "depth:3",    "depth:2",
                    "--games",    "2",          "--quiet", "--openings", openings,
                    (char *)flag, (char *)rule, "--out",   pgn,          NULL};
    char *out = NULL;
    int rc = written ? cli_run("", &out, 14, argv) : -1;
    FILE *f = fopen(pgn, "r");
    char line[4096];
    *adjudicated = rc == 0 ? 0 : -1;
    while (f && fgets(line, sizeof line, f))
        *adjudicated += !strcmp(line, "[Termination \"adjudication\"]\n");
    if (f)
        fclose(f);
    unlink(openings);
    unlink(pgn);
    return out;
}

TEST(match_adjudicate_whole_games)
{
    int n;
    /* White a queen up: each colour wins its game with the queen, by adjudication. */
    char *out =
        adjudicated_match("4k3/8/8/8/8/8/3QK3/8 w - - 0 1\n", "--adjudicate-resign", "2,500", &n);
    CHECK(out && strstr(out, "+1 =0 -1") != NULL);
    CHECK(out && strstr(out, "adjudicated: 2 won, 0 drawn") != NULL);
    CHECK_EQ_INT(n, 2);
    free(out);
    /* Rook against rook: drawn at once from move 1. */
    out =
        adjudicated_match("4k3/r7/8/8/8/8/R7/4K3 w - - 0 1\n", "--adjudicate-draw", "1,3,100", &n);
    CHECK(out && strstr(out, "+0 =2 -0") != NULL);
    CHECK(out && strstr(out, "adjudicated: 0 won, 2 drawn") != NULL);
    CHECK_EQ_INT(n, 2);
    free(out);
    char *bad[] = {"agora", "match", "chess", "depth:1", "depth:1", "--adjudicate-draw",
                   "1,3",   NULL};
    out = NULL;
    CHECK_EQ_INT(cli_run("", &out, 7, bad), 2);
    free(out);
}
