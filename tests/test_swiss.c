/* Swiss tournaments (src/swiss/): TRF reading and writing, the FIDE Dutch pairing on
 * hand-made cases (checked by hand and with bbpPairings), tie-breaks against
 * hand-computed values, and the pairing against the independent program
 * ../shared/tools/bbpPairings on tournaments it generates (skipped when absent). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "harness.h"
#include "swiss/matching.h"
#include "swiss/swiss.h"

/* A player line: pairing number, rating, points, then round blocks "OOOO c r". */
static void player_line(char *buf, size_t size, int id, int rating, const char *points,
                        const char *const *rounds)
{
    int n = snprintf(buf, size, "001 %4d      %-33s %4d %27s%4s %4d", id, "Player", rating, "",
                     points, id);
    for (int r = 0; rounds && rounds[r]; r++)
        n += snprintf(buf + n, size - (size_t)n, "  %s", rounds[r]);
    snprintf(buf + n, size - (size_t)n, "\r");
}

/* A TRF text from player rows (NULL-terminated arrays of round blocks). */
struct row {
    const char *points;
    const char *rounds[8];
};

static char *make_trf(const char *head, const struct row *rows, int n, const char *tail)
{
    size_t size = 256 + (size_t)n * 256;
    char *text = malloc(size);
    size_t used = (size_t)snprintf(text, size, "012 %s\r", head);
    for (int i = 0; i < n; i++) {
        char line[256];
        player_line(line, sizeof line, i + 1, 2000 - 10 * i, rows[i].points, rows[i].rounds);
        used += (size_t)snprintf(text + used, size - used, "%s", line);
    }
    snprintf(text + used, size - used, "%s", tail);
    return text;
}

/* Pair `text` and compare with the expected output of the endorsed programs. */
static void expect_pairing(struct test_ctx *t__, const char *text, const char *expected)
{
    char err[256] = "";
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    CHECK_MSG(t != NULL, "reading: %s", err);
    if (!t)
        return;
    struct swiss_pair pairs[64];
    int n = 0;
    int rc = swiss_pair_next(t, pairs, &n, err, sizeof err);
    char out[1024] = "";
    if (rc == SWISS_OK)
        swiss_format_pairs(pairs, n, out, sizeof out);
    else
        snprintf(out, sizeof out, "rc %d", rc);
    CHECK_STR(out, expected);
    swiss_free(t);
}

TEST(swiss_round_one)
{
    struct row rows[6];
    for (int i = 0; i < 6; i++)
        rows[i] = (struct row){"0.0", {NULL}};
    char *text = make_trf("Round one", rows, 6, "XXR 5\rXXC white1\r");
    /* top half against bottom half; the top player white, colours alternating */
    expect_pairing(TEST_CTX, text, "3\n1 4\n5 2\n3 6\n");
    free(text);
    text = make_trf("Round one", rows, 6, "XXR 5\rXXC black1\r");
    expect_pairing(TEST_CTX, text, "3\n4 1\n2 5\n6 3\n");
    free(text);
}

TEST(swiss_bye)
{
    struct row rows[5];
    for (int i = 0; i < 5; i++)
        rows[i] = (struct row){"0.0", {NULL}};
    char *text = make_trf("Bye", rows, 5, "142 5\r152 W\r");
    /* five players: the lowest gets the pairing-allocated bye */
    expect_pairing(TEST_CTX, text, "3\n1 3\n4 2\n5 0\n");
    free(text);
    /* round 2: player 5 had the bye and may not have it again (C2); player 3, the
     * lowest score, gets it */
    struct row r2[5] = {{"1.0", {"   3 w 1"}},
                        {"0.5", {"   4 b ="}},
                        {"0.0", {"   1 b 0"}},
                        {"0.5", {"   2 w ="}},
                        {"1.0", {"0000 - U"}}};
    text = make_trf("Bye twice", r2, 5, "XXR 5\r");
    expect_pairing(TEST_CTX, text, "3\n2 1\n5 4\n3 0\n");
    free(text);
}

TEST(swiss_forfeit)
{
    /* a forfeited game was not played: the two may meet again */
    struct row rows[4] = {
        {"1.0", {"   2 w +"}}, {"0.0", {"   1 b -"}}, {"1.0", {"   4 b 1"}}, {"0.0", {"   3 w 0"}}};
    char *text = make_trf("Forfeit", rows, 4, "XXR 3\r");
    expect_pairing(TEST_CTX, text, "2\n3 1\n2 4\n");
    free(text);
    /* a forfeit win is a point without playing: no pairing-allocated bye after it */
    struct row r3[3] = {{"1.0", {"   2 w +"}}, {"0.0", {"   1 b -"}}, {"1.0", {"0000 - U"}}};
    text = make_trf("Forfeit bye", r3, 3, "XXR 3\r");
    expect_pairing(TEST_CTX, text, "2\n1 3\n2 0\n");
    free(text);
}

TEST(swiss_float_and_colours)
{
    /* three winners: one floats down; colours alternate from round 1 */
    struct row rows[6] = {{"1.0", {"   4 w 1"}}, {"1.0", {"   5 b 1"}}, {"1.0", {"   6 w 1"}},
                          {"0.0", {"   1 b 0"}}, {"0.0", {"   2 w 0"}}, {"0.0", {"   3 b 0"}}};
    char *text = make_trf("Float", rows, 6, "XXR 5\r");
    expect_pairing(TEST_CTX, text, "3\n2 1\n4 3\n6 5\n");
    free(text);
    /* no valid pairing: each remaining pair has met or has the same absolute colour
     * preference */
    struct row c[4] = {{"1.0", {"   3 w 1", "   2 w 0"}},
                       {"2.0", {"   4 b 1", "   1 b 1"}},
                       {"1.0", {"   1 b 0", "   4 b 1"}},
                       {"0.0", {"   2 w 0", "   3 w 0"}}};
    text = make_trf("Colours", c, 4, "XXR 5\r");
    expect_pairing(TEST_CTX, text, "rc 1");
    free(text);
}

/* Malformed files: NULL and a message naming line and column. */
static void expect_bad(struct test_ctx *t__, const char *text, const char *where)
{
    char err[256] = "";
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    CHECK_MSG(t == NULL, "accepted: %s", text);
    swiss_free(t);
    CHECK_MSG(strstr(err, where) != NULL, "message \"%s\" does not say \"%s\"", err, where);
}

TEST(swiss_trf_errors)
{
    struct row good[2] = {{"1.0", {"   2 w 1"}}, {"0.0", {"   1 b 0"}}};
    char *text = make_trf("Good", good, 2, "XXR 3\r");
    char err[256];
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    CHECK(t != NULL);
    swiss_free(t);
    free(text);

    struct row colour[2] = {{"1.0", {"   2 x 1"}}, {"0.0", {"   1 b 0"}}};
    text = make_trf("Bad colour", colour, 2, "XXR 3\r");
    expect_bad(TEST_CTX, text, "line 2, column 97");
    free(text);
    struct row mismatch[2] = {{"1.0", {"   2 w 1"}}, {"0.0", {"   1 w 0"}}};
    text = make_trf("Mismatch", mismatch, 2, "XXR 3\r");
    expect_bad(TEST_CTX, text, "line 2, column 92");
    free(text);
    struct row score[2] = {{"0.5", {"   2 w 1"}}, {"0.0", {"   1 b 0"}}};
    text = make_trf("Score", score, 2, "XXR 3\r");
    expect_bad(TEST_CTX, text, "line 2, column 81");
    free(text);
    struct row result[2] = {{"1.0", {"   2 w 7"}}, {"0.0", {"   1 b 0"}}};
    text = make_trf("Result", result, 2, "XXR 3\r");
    expect_bad(TEST_CTX, text, "line 2, column 99");
    free(text);
    text = make_trf("No rounds", good, 2, "");
    expect_bad(TEST_CTX, text, "number of rounds");
    free(text);
    text = make_trf("Points", good, 2, "XXR 3\r162 W x\r");
    expect_bad(TEST_CTX, text, "line 5");
    free(text);
    text = make_trf("Unknown", good, 2, "XXR 3\rHELLO\r");
    expect_bad(TEST_CTX, text, "line 5, column 1");
    free(text);
    expect_bad(TEST_CTX, "001 abcd\r", "line 1, column 5");
    expect_bad(TEST_CTX, "001    1\r001    1\rXXR 1\r", "line 2, column 5");
    expect_bad(TEST_CTX, "001    2\rXXR 1\r", "player 1 is missing");
}

TEST(swiss_trf_round_trip)
{
    struct row rows[3] = {{"3.0", {"   2 w 1", "0000 - U"}},
                          {"1.0", {"   1 b 0", "   3 w ="}},
                          {"1.0", {"0000 - Z", "   2 b ="}}};
    char *text = make_trf("Points", rows, 3, "142 4\r162 W 3.0 D 1.0 L 0.0 A 0.0 P 2.0\r");
    char err[256] = "";
    /* win 3, draw 1, PAB 2: 1 has 3 + 2 = 5, not the 3.0 written */
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    CHECK(t == NULL);
    CHECK(strstr(err, "line 2, column 81") != NULL);
    free(text);
    rows[0].points = "5.0";
    text = make_trf("Points", rows, 3, "142 4\r162 W 3.0 D 1.0 L 0.0 A 0.0 P 2.0\r");
    t = swiss_trf_read(text, strlen(text), err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    free(text);
    if (!t)
        return;
    CHECK_EQ_INT(t->n_players, 3);
    CHECK_EQ_INT(t->rounds_played, 2);
    CHECK_EQ_INT(t->rounds_total, 4);
    CHECK_EQ_INT(t->points.win, 30);
    CHECK_EQ_INT(t->points.pairing_bye, 20);
    CHECK_EQ_INT(swiss_score(t, 1, 2), 50);
    CHECK_EQ_INT(t->players[2].games[0].result, SWISS_BYE_ZERO);
    CHECK_EQ_INT(t->players[1].games[1].colour, SWISS_WHITE);
    CHECK_EQ_INT(t->initial_colour, SWISS_WHITE);
    for (int f = 0; f < 2; f++) {
        char *out = swiss_trf_write(t, f ? SWISS_TRF_X : SWISS_TRF_2026);
        CHECK(out != NULL);
        struct swiss_tournament *u = out ? swiss_trf_read(out, strlen(out), err, sizeof err) : NULL;
        CHECK_MSG(u != NULL, "re-reading: %s", err);
        if (u) {
            CHECK_EQ_INT(u->rounds_played, 2);
            CHECK_EQ_INT(u->rounds_total, 4);
            CHECK_EQ_INT(u->points.draw, 10);
            CHECK_EQ_INT(u->points.pairing_bye, 20);
            for (int id = 1; id <= 3; id++) {
                CHECK_EQ_INT(swiss_score(u, id, 2), swiss_score(t, id, 2));
                for (int r = 0; r < 2; r++) {
                    CHECK_EQ_INT(u->players[id - 1].games[r].opponent,
                                 t->players[id - 1].games[r].opponent);
                    CHECK_EQ_INT(u->players[id - 1].games[r].result,
                                 t->players[id - 1].games[r].result);
                }
            }
            CHECK_STR(u->players[0].name, "Player");
            CHECK_EQ_INT(u->players[1].rating, 1990);
        }
        swiss_free(u);
        free(out);
    }
    /* A name of Bengali letters (three bytes each) that does not fit its 33 columns is
     * cut between letters, never inside one, and the columns after it stay in place. */
    static const char bengali[] =
        "\u0985\u09b8\u09ae\u09c0\u09af\u09bc\u09be \u0996\u09c7\u09b2\u09c1\u09f1\u09c8";
    memcpy(t->players[0].name, bengali, sizeof t->players[0].name - 1); /* cut as the model does */
    t->players[0].name[sizeof t->players[0].name - 1] = 0;
    char *out = swiss_trf_write(t, SWISS_TRF_2026);
    CHECK(out != NULL);
    const char *line = out ? strstr(out, "001    1") : NULL;
    CHECK(line != NULL);
    if (line) {
        static const char want[] = "\u0985\u09b8\u09ae\u09c0\u09af\u09bc\u09be "
                                   "\u0996\u09c7\u09b2   "; /* 31 bytes, padded to 33 */
        CHECK_MSG(strncmp(line + 14, want, 34) == 0, "%.40s", line + 14);
        struct swiss_tournament *u = swiss_trf_read(out, strlen(out), err, sizeof err);
        CHECK_MSG(u != NULL, "re-reading: %s", err);
        swiss_free(u);
    }
    free(out);
    swiss_free(t);
}

TEST(swiss_tiebreaks)
{
    /* R1: 1-2 1-0, 3-4 draw, 5 bye; R2: 5-1 0-1, 2-3 1-0, 4 bye.
     * Scores: 1: 2.0, 2: 1.0, 3: 0.5, 4: 1.5, 5: 1.0. */
    struct row rows[5] = {{"2.0", {"   2 w 1", "   5 b 1"}},
                          {"1.0", {"   1 b 0", "   3 w 1"}},
                          {"0.5", {"   4 w =", "   2 b 0"}},
                          {"1.5", {"   3 b =", "0000 - U"}},
                          {"1.0", {"0000 - U", "   1 w 0"}}};
    char *text = make_trf("Tie-breaks", rows, 5, "XXR 5\r");
    char err[256];
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    free(text);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    /* Buchholz: opponents' scores; an unplayed round counts the player's own score */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 2, SWISS_TB_BUCHHOLZ), 200);
    CHECK_EQ_INT(swiss_tiebreak(t, 2, 2, SWISS_TB_BUCHHOLZ), 250);
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 2, SWISS_TB_BUCHHOLZ), 250);
    CHECK_EQ_INT(swiss_tiebreak(t, 4, 2, SWISS_TB_BUCHHOLZ), 200);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 2, SWISS_TB_BUCHHOLZ), 300);
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 2, SWISS_TB_BUCHHOLZ_CUT1), 100);
    CHECK_EQ_INT(swiss_tiebreak(t, 4, 2, SWISS_TB_BUCHHOLZ_CUT1), 150);
    /* Sonneborn-Berger: beaten opponents' scores, half of those drawn */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 2, SWISS_TB_SONNEBORN_BERGER), 200);
    CHECK_EQ_INT(swiss_tiebreak(t, 2, 2, SWISS_TB_SONNEBORN_BERGER), 50);
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 2, SWISS_TB_SONNEBORN_BERGER), 75);
    CHECK_EQ_INT(swiss_tiebreak(t, 4, 2, SWISS_TB_SONNEBORN_BERGER), 175);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 2, SWISS_TB_SONNEBORN_BERGER), 100);
    /* wins: the bye scores a win; games won: over the board only */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 2, SWISS_TB_WINS), 2);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 2, SWISS_TB_WINS), 1);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 2, SWISS_TB_GAMES_WON), 0);
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 2, SWISS_TB_WINS), 0);
    /* after round 1 only */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 1, SWISS_TB_BUCHHOLZ), 0);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 1, SWISS_TB_BUCHHOLZ), 100);
    swiss_free(t);
}

/* C.07 article 16: unplayed rounds.  Three rounds of three (win 1, draw 1/2):
 *   R1: 1-2 1-0; 3 wins by forfeit against 4; 5-6 draw.
 *   R2: 1-3 draw; 5-4 1-0; 2 asked for a half-point bye; 6 the pairing-allocated bye.
 *   R3: 1-5 1-0; 2-6 draw; 3 a zero-point bye and 4 a half-point bye, both asked for.
 * Scores: 1: 2.5, 2: 1.0, 3: 1.5, 4: 0.5, 5: 1.5, 6: 2.0.
 * Adjusted scores (16.3; a bye asked for in the last round counts as a draw):
 *   3: 1 + 1/2 + 1/2 = 2.0 (the zero-point bye of R3), the others as they are.
 * Dummies (16.4): the player's own score, at most the scheduled opponent's adjusted
 * score after a forfeit (16.4.1) and at most 3 x 1/2 = 1.5 otherwise (16.4.2). */
TEST(swiss_tiebreaks_unplayed_rounds)
{
    struct row rows[6] = {{"2.5", {"   2 w 1", "   3 b =", "   5 w 1"}},
                          {"1.0", {"   1 b 0", "0000 - H", "   6 w ="}},
                          {"1.5", {"   4 w +", "   1 w =", "0000 - Z"}},
                          {"0.5", {"   3 b -", "   5 b 0", "0000 - H"}},
                          {"1.5", {"   6 w =", "   4 w 1", "   1 b 0"}},
                          {"2.0", {"   5 b =", "0000 - U", "   2 b ="}}};
    char *text = make_trf("Unplayed rounds", rows, 6, "XXR 3\r");
    char err[256];
    struct swiss_tournament *t = swiss_trf_read(text, strlen(text), err, sizeof err);
    free(text);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    /* 1: opponents 2 (1.0), 3 (adjusted 2.0), 5 (1.5) */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 3, SWISS_TB_BUCHHOLZ), 450);
    /* 2: 1 (2.5), the half-point bye's dummy (own 1.0), 6 (2.0) */
    CHECK_EQ_INT(swiss_tiebreak(t, 2, 3, SWISS_TB_BUCHHOLZ), 550);
    /* 3: the forfeit win's dummy min(1.5, adjusted 4 = 0.5), 1 (2.5), the zero-point
     * bye's dummy min(1.5, 1.5) */
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 3, SWISS_TB_BUCHHOLZ), 450);
    /* 4: the forfeit loss's dummy min(0.5, 2.0), 5 (1.5), the bye's dummy 0.5 */
    CHECK_EQ_INT(swiss_tiebreak(t, 4, 3, SWISS_TB_BUCHHOLZ), 250);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 3, SWISS_TB_BUCHHOLZ), 500);
    /* 6: 5 (1.5), the pairing-allocated bye's dummy min(2.0, 1.5), 2 (1.0) */
    CHECK_EQ_INT(swiss_tiebreak(t, 6, 3, SWISS_TB_BUCHHOLZ), 400);
    /* Cut-1 (16.5): a voluntary unplayed round's contribution is cut first */
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 3, SWISS_TB_BUCHHOLZ_CUT1), 300);
    CHECK_EQ_INT(swiss_tiebreak(t, 2, 3, SWISS_TB_BUCHHOLZ_CUT1), 450);
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 3, SWISS_TB_BUCHHOLZ_CUT1), 350);
    CHECK_EQ_INT(swiss_tiebreak(t, 6, 3, SWISS_TB_BUCHHOLZ_CUT1), 300);
    /* Sonneborn-Berger: the dummies scored as the rounds were */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 3, SWISS_TB_SONNEBORN_BERGER), 350);
    CHECK_EQ_INT(swiss_tiebreak(t, 2, 3, SWISS_TB_SONNEBORN_BERGER), 150);
    CHECK_EQ_INT(swiss_tiebreak(t, 3, 3, SWISS_TB_SONNEBORN_BERGER), 175);
    CHECK_EQ_INT(swiss_tiebreak(t, 4, 3, SWISS_TB_SONNEBORN_BERGER), 25);
    CHECK_EQ_INT(swiss_tiebreak(t, 5, 3, SWISS_TB_SONNEBORN_BERGER), 150);
    CHECK_EQ_INT(swiss_tiebreak(t, 6, 3, SWISS_TB_SONNEBORN_BERGER), 275);
    /* after two rounds, 2's half-point bye is its last round: 16.2.5 (a draw for
     * 1's Buchholz, as the half point was), and 3's zero-point bye is not counted */
    CHECK_EQ_INT(swiss_tiebreak(t, 1, 2, SWISS_TB_BUCHHOLZ), 200);
    swiss_free(t);
}

/* The matching against brute force on small random graphs. */
static long long brute_best(int n, long long w[][10], int has[][10], int used)
{
    int i = 0;
    while (i < n && (used >> i & 1))
        i++;
    if (i >= n)
        return 0;
    long long best = brute_best(n, w, has, used | 1 << i);
    for (int j = i + 1; j < n; j++)
        if (!(used >> j & 1) && has[i][j]) {
            long long v = w[i][j] + brute_best(n, w, has, used | 1 << i | 1 << j);
            if (v > best)
                best = v;
        }
    return best;
}

TEST(swiss_matching_brute_force)
{
    unsigned seed = 12345;
    for (int it = 0; it < 500; it++) {
        seed = seed * 1103515245u + 12345u;
        int n = 2 + (int)(seed >> 16) % 9;
        long long w[10][10];
        int has[10][10];
        struct swiss_matcher *m = swiss_matcher_new(n, n * n, 2);
        CHECK(m != NULL);
        if (!m)
            return;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                seed = seed * 1103515245u + 12345u;
                has[i][j] = (seed >> 16) % 3 != 0;
                w[i][j] = (long long)((seed >> 8) % 50);
                /* a second word: the high digit of a lexicographic weight */
                uint64_t wt[2] = {(uint64_t)w[i][j], 0};
                if (has[i][j])
                    swiss_matcher_add(m, i, j, wt);
            }
        int mate[10];
        CHECK_EQ_INT(swiss_matcher_solve(m, mate), 0);
        long long total = 0;
        for (int i = 0; i < n; i++)
            if (mate[i] > i) {
                CHECK(has[i][mate[i]]);
                CHECK_EQ_INT(mate[mate[i]], i);
                total += w[i][mate[i]];
            }
        CHECK_EQ_INT(total, brute_best(n, w, has, 0));
        swiss_matcher_free(m);
    }
}

TEST(swiss_cli)
{
    struct row rows[5];
    for (int i = 0; i < 5; i++)
        rows[i] = (struct row){"0.0", {NULL}};
    char *text = make_trf("CLI", rows, 5, "XXR 5\rXXC white1\r");
    char path[] = "/tmp/agora-swiss-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) {
        free(text);
        return;
    }
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    free(text);
    char *out = NULL;
    char *argv[] = {"agora", "swiss", "pair", path, NULL};
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 0);
    CHECK_STR(out, "3\n1 3\n4 2\n5 0\n");
    free(out);
    char outpath[64];
    snprintf(outpath, sizeof outpath, "%s.out", path);
    char *argv2[] = {"agora", "swiss", "pair", path, "--out", outpath, NULL};
    CHECK_EQ_INT(cli_run("", &out, 6, argv2), 0);
    free(out);
    FILE *f = fopen(outpath, "rb");
    char buf[64] = "";
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
    }
    CHECK_STR(buf, "3\n1 3\n4 2\n5 0\n");
    unlink(outpath);
    /* an invalid file: exit 3; a missing one: 5 */
    f = fopen(path, "wb");
    if (f) {
        fputs("001 abcd\rXXR 3\r", f);
        fclose(f);
    }
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 3);
    free(out);
    unlink(path);
    CHECK_EQ_INT(cli_run("", &out, 4, argv), 5);
    free(out);
}

/* agora swiss cut: the tournament after its first rounds, as TRF-2026 */
TEST(swiss_cli_cut)
{
    /* R1: 1-3 1-0, 4-2 draw; R2: 2-1 0-1, 3-4 1-0 */
    struct row rows[4] = {{"2.0", {"   3 w 1", "   2 b 1"}},
                          {"0.5", {"   4 b =", "   1 w 0"}},
                          {"1.0", {"   1 b 0", "   4 w 1"}},
                          {"0.5", {"   2 w =", "   3 b 0"}}};
    char *text = make_trf("Cut", rows, 4, "XXR 5\r");
    char path[] = "/tmp/agora-swiss-cut-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) {
        free(text);
        return;
    }
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    free(text);
    char *out = NULL;
    char *argv[] = {"agora", "swiss", "cut", path, "1", NULL};
    CHECK_EQ_INT(cli_run("", &out, 5, argv), 0);
    char err[256] = "";
    struct swiss_tournament *t = out ? swiss_trf_read(out, strlen(out), err, sizeof err) : NULL;
    CHECK_MSG(t != NULL, "%s", err);
    if (t) {
        CHECK_EQ_INT(t->rounds_played, 1);
        CHECK_EQ_INT(t->rounds_total, 5);
        CHECK_EQ_INT(swiss_score(t, 1, 1), 10);
        CHECK_EQ_INT(swiss_score(t, 2, 1), 5);
        CHECK_EQ_INT(swiss_score(t, 3, 1), 0);
        swiss_free(t);
    }
    free(out);
    /* more rounds than played, or not a number: bad usage */
    char *argv2[] = {"agora", "swiss", "cut", path, "3", NULL};
    CHECK_EQ_INT(cli_run("", &out, 5, argv2), 2);
    free(out);
    char *argv3[] = {"agora", "swiss", "cut", path, "x", NULL};
    CHECK_EQ_INT(cli_run("", &out, 5, argv3), 2);
    free(out);
    unlink(path);
}

/* --- against bbpPairings --- */

static const char *oracle_path(void)
{
    static const char *const candidates[] = {"../shared/tools/bbpPairings",
                                             "../../shared/tools/bbpPairings"};
    const char *env = getenv("AGORA_BBP");
    if (env)
        return access(env, X_OK) == 0 ? env : NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (access(candidates[i], X_OK) == 0)
            return candidates[i];
    return NULL;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap * 2 + 8192;
            char *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        if (!r)
            break;
        n += r;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

static int cmp_pair(const void *a, const void *b)
{
    const struct swiss_pair *x = a, *y = b;
    return x->white != y->white ? x->white - y->white : x->black - y->black;
}

/* Generate `count` tournaments from `seed`, pair each round of each again and count
 * the rounds paired as the oracle paired them. */
static void against_oracle(struct test_ctx *t__, int first_seed, int count, const char *extra,
                           int *same, int *total)
{
    const char *bbp = oracle_path();
    char dir[] = "/tmp/agora-oracle-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    unsigned rng = (unsigned)first_seed * 2654435761u;
    for (int s = first_seed; s < first_seed + count; s++) {
        rng = rng * 1103515245u + 12345u;
        int players = 6 + (int)((rng >> 16) % 35); /* 6..40 */
        rng = rng * 1103515245u + 12345u;
        int rounds = 5 + (int)((rng >> 16) % 7); /* 5..11 */
        if (rounds > players - 1)
            rounds = players - 1;
        char cfg[128], trf[128], cmd[512];
        snprintf(cfg, sizeof cfg, "%s/cfg", dir);
        snprintf(trf, sizeof trf, "%s/t.trf", dir);
        FILE *f = fopen(cfg, "w");
        if (!f)
            break;
        fprintf(f, "PlayersNumber=%d\nRoundsNumber=%d\n%s", players, rounds, extra);
        fclose(f);
        snprintf(cmd, sizeof cmd, "%s --dutch -g %s -o %s -s %d >/dev/null 2>&1", bbp, cfg, trf, s);
        if (system(cmd) != 0)
            continue; /* the generator found no pairing for some round: no tournament */
        size_t len = 0;
        char *text = read_file(trf, &len);
        char err[256] = "";
        struct swiss_tournament *t = text ? swiss_trf_read(text, len, err, sizeof err) : NULL;
        if (!t) {
            /* the generated file has no round count: add it */
            char *with = text ? malloc(len + 32) : NULL;
            if (with) {
                memcpy(with, text, len);
                len += (size_t)snprintf(with + len, 32, "\rXXR %d\r", rounds);
                t = swiss_trf_read(with, len, err, sizeof err);
                free(with);
            }
        }
        free(text);
        CHECK_MSG(t != NULL, "seed %d: %s", s, err);
        if (!t)
            continue;
        for (int k = 0; k < t->rounds_played; k++) {
            struct swiss_tournament *c = swiss_cut(t, k);
            CHECK(c != NULL);
            if (!c)
                break;
            struct swiss_pair got[64], want[64];
            int n_got = 0, n_want = 0;
            int rc = swiss_pair_next(c, got, &n_got, err, sizeof err);
            for (int i = 0; i < t->n_players; i++) {
                const struct swiss_game *g = &t->players[i].games[k];
                if (g->opponent && g->colour == SWISS_WHITE && n_want < 64)
                    want[n_want++] = (struct swiss_pair){i + 1, g->opponent};
                else if (g->result == SWISS_BYE_PAIRING && n_want < 64)
                    want[n_want++] = (struct swiss_pair){i + 1, 0};
            }
            qsort(got, (size_t)n_got, sizeof got[0], cmp_pair);
            qsort(want, (size_t)n_want, sizeof want[0], cmp_pair);
            int equal = rc == SWISS_OK && n_got == n_want &&
                        !memcmp(got, want, (size_t)n_got * sizeof got[0]);
            (*total)++;
            *same += equal;
            if (!equal)
                printf("  seed %d (%d players), round %d differs from bbpPairings\n", s,
                       t->n_players, k + 1);
            swiss_free(c);
        }
        swiss_free(t);
    }
    char path[160];
    snprintf(path, sizeof path, "%s/cfg", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/t.trf", dir);
    unlink(path);
    rmdir(dir);
}

/* Every round must be paired as bbpPairings pairs it, but for the differences listed
 * in NOTES.md (one round of the heavy set, seed 1035 round 2). */

TEST(swiss_dutch_against_bbppairings)
{
    if (!oracle_path())
        SKIP("../shared/tools/bbpPairings is absent");
    int same = 0, total = 0;
    against_oracle(TEST_CTX, 1, 12, "", &same, &total);
    printf("  %d of %d rounds identical to bbpPairings\n", same, total);
    CHECK(total > 0);
    CHECK_MSG(same == total, "%d of %d rounds identical", same, total);
}

TEST_HEAVY(swiss_dutch_against_bbppairings_many)
{
    if (!oracle_path())
        SKIP("../shared/tools/bbpPairings is absent");
    int same = 0, total = 0;
    against_oracle(TEST_CTX, 1, 150, "", &same, &total);
    against_oracle(TEST_CTX, 1001, 50,
                   "ForfeitRate=8\nHalfPointByeRate=5\nRetiredRate=3\nPointsForWin=3\n"
                   "PointsForDraw=1\n",
                   &same, &total);
    printf("  %d of %d rounds identical to bbpPairings\n", same, total);
    CHECK(total > 0);
    CHECK_MSG(same >= total - 1, "%d of %d rounds identical", same, total);
}

/* Seeds the implementation was not adjusted on: 250 default tournaments and 100 with
 * forfeits, byes, withdrawals and 3-1-0 points. */
TEST_HEAVY(swiss_dutch_against_bbppairings_fresh)
{
    if (!oracle_path())
        SKIP("../shared/tools/bbpPairings is absent");
    int same = 0, total = 0;
    against_oracle(TEST_CTX, 151, 250, "", &same, &total);
    against_oracle(TEST_CTX, 1051, 100,
                   "ForfeitRate=8\nHalfPointByeRate=5\nRetiredRate=3\nPointsForWin=3\n"
                   "PointsForDraw=1\n",
                   &same, &total);
    printf("  %d of %d rounds identical to bbpPairings\n", same, total);
    CHECK(total > 0);
    CHECK_MSG(same == total, "%d of %d rounds identical", same, total);
}

/* Tournaments played out by agora's own pairings with random results (forfeits,
 * requested byes, a late withdrawal): every round pairs each present player once,
 * never two who met (C1), never a second pairing-allocated bye nor one after a forfeit
 * win (C2), never two non-topscorers with the same absolute colour preference (C3). */
static int absolute_pref(const struct swiss_tournament *t, int id, int rounds)
{
    int cd = 0, n = 0, last = 0, prev = 0;
    for (int r = 0; r < rounds; r++) {
        const struct swiss_game *g = &t->players[id - 1].games[r];
        if (!swiss_played(g))
            continue;
        cd += g->colour;
        prev = last;
        last = g->colour;
        n++;
    }
    if (cd > 1 || (n >= 2 && last == prev && last == SWISS_WHITE))
        return SWISS_BLACK;
    if (cd < -1 || (n >= 2 && last == prev && last == SWISS_BLACK))
        return SWISS_WHITE;
    return 0;
}

TEST(swiss_simulated_tournaments)
{
    unsigned seed = 777;
    for (int tour = 0; tour < 30; tour++) {
        seed = seed * 1103515245u + 12345u;
        int n = 7 + (int)((seed >> 16) % 19), rounds = 7;
        struct swiss_tournament *t = swiss_new(n, rounds);
        CHECK(t != NULL);
        if (!t)
            return;
        for (int r = 0; r < rounds; r++) {
            /* requests for this round: now and then a half-point bye */
            for (int i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                t->players[i].withdrawn = (seed >> 16) % 23 == 0;
                t->players[i].games[r] = (struct swiss_game){0};
                if (t->players[i].withdrawn)
                    t->players[i].games[r].result = SWISS_BYE_HALF;
            }
            struct swiss_pair pairs[32];
            int np = 0;
            char err[256];
            int rc = swiss_pair_next(t, pairs, &np, err, sizeof err);
            if (rc == SWISS_NO_PAIRING)
                break; /* small fields run out of opponents */
            CHECK_MSG(rc == SWISS_OK, "tournament %d round %d: %s", tour, r + 1, err);
            if (rc != SWISS_OK)
                break;
            int seen[32] = {0};
            for (int b = 0; b < np; b++) {
                int w = pairs[b].white, k = pairs[b].black;
                CHECK(w >= 1 && w <= n && k >= 0 && k <= n && w != k);
                if (w < 1 || w > n || k < 0 || k > n)
                    continue;
                CHECK(!seen[w] && (k == 0 || !seen[k]));
                seen[w] = 1;
                if (k)
                    seen[k] = 1;
                for (int q = 0; q < r; q++) {
                    const struct swiss_game *g = &t->players[w - 1].games[q];
                    if (k)
                        CHECK_MSG(!(swiss_played(g) && g->opponent == k),
                                  "tournament %d round %d: %d and %d meet again", tour, r + 1, w,
                                  k);
                    else
                        CHECK(g->result != SWISS_BYE_PAIRING && g->result != SWISS_FORFEIT_WIN);
                }
                if (k && r + 1 < rounds) {
                    int pw = absolute_pref(t, w, r), pk = absolute_pref(t, k, r);
                    CHECK_MSG(!pw || pw != pk, "tournament %d round %d: %d and %d both want %d",
                              tour, r + 1, w, k, pw);
                }
            }
            for (int i = 1; i <= n; i++)
                CHECK(seen[i] == !t->players[i - 1].withdrawn);
            /* results: mostly played, now and then a forfeit */
            for (int b = 0; b < np; b++) {
                struct swiss_game *gw = &t->players[pairs[b].white - 1].games[r];
                if (!pairs[b].black) {
                    *gw = (struct swiss_game){0, SWISS_NO_COLOUR, SWISS_BYE_PAIRING, 'U'};
                    continue;
                }
                struct swiss_game *gb = &t->players[pairs[b].black - 1].games[r];
                seed = seed * 1103515245u + 12345u;
                int roll = (int)((seed >> 16) % 20);
                enum swiss_result rw = roll < 8    ? SWISS_WIN
                                       : roll < 13 ? SWISS_DRAW
                                       : roll < 19 ? SWISS_LOSS
                                                   : SWISS_FORFEIT_WIN;
                enum swiss_result rb = rw == SWISS_WIN    ? SWISS_LOSS
                                       : rw == SWISS_LOSS ? SWISS_WIN
                                       : rw == SWISS_DRAW ? SWISS_DRAW
                                                          : SWISS_FORFEIT_LOSS;
                *gw = (struct swiss_game){pairs[b].black, SWISS_WHITE, rw, 0};
                *gb = (struct swiss_game){pairs[b].white, SWISS_BLACK, rb, 0};
            }
            CHECK(swiss_add_round(t) == 0);
            for (int i = 0; i < n; i++)
                t->players[i].withdrawn = 0;
        }
        /* the whole tournament writes and reads back */
        char *text = swiss_trf_write(t, SWISS_TRF_2026);
        char err[256] = "";
        struct swiss_tournament *back =
            text ? swiss_trf_read(text, strlen(text), err, sizeof err) : NULL;
        CHECK_MSG(back != NULL, "tournament %d: %s", tour, err);
        if (back)
            for (int i = 1; i <= n; i++)
                CHECK_EQ_INT(swiss_score(back, i, back->rounds_played),
                             swiss_score(t, i, back->rounds_played));
        swiss_free(back);
        free(text);
        swiss_free(t);
    }
}
