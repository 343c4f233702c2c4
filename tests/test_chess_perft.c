/* Chess perft: the positions of ../shared/data/perft-chess.epd ("FEN ;D1 n ;D2 n ...").
 * Light: a handful of positions at small depth (under the sanitizers), through the fast
 * perft and the generic one.  Heavy: every position at every depth with at most 20
 * million leaves.  `make perft-full` (scripts/perft-epd) runs every depth of the file. */
#include <stdlib.h>

#include "core/perft.h"
#include "games/registry.h"
#include "harness.h"

#define EPD_MAX_DEPTH 12

struct epd_line {
    char fen[POSITION_TEXT_MAX];
    uint64_t count[EPD_MAX_DEPTH + 1]; /* 0 where the file gives none */
};

/* Read the file; returns the number of lines, or -1 if the file is absent. */
static int read_epd(struct epd_line **out)
{
    const char *dir = test_data_dir();
    if (!dir)
        return -1;
    char path[512];
    snprintf(path, sizeof path, "%s/perft-chess.epd", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0, cap = 256;
    struct epd_line *lines = calloc((size_t)cap, sizeof *lines);
    char buf[1024];
    while (fgets(buf, sizeof buf, f) && n < cap) {
        char *semi = strchr(buf, ';');
        if (!semi)
            continue;
        struct epd_line *l = &lines[n];
        memset(l, 0, sizeof *l);
        size_t len = (size_t)(semi - buf);
        while (len && buf[len - 1] == ' ')
            len--;
        if (len >= sizeof l->fen)
            continue;
        memcpy(l->fen, buf, len);
        l->fen[len] = 0;
        for (char *s = semi; s && *s; s = strchr(s + 1, ';')) {
            int d;
            unsigned long long c;
            if (sscanf(s, ";D%d %llu", &d, &c) == 2 && d >= 1 && d <= EPD_MAX_DEPTH)
                l->count[d] = c;
        }
        n++;
    }
    fclose(f);
    *out = lines;
    return n;
}

/* Run the positions whose counts stay within `max_leaves` (0: no limit), at depths up to
 * `max_depth`; returns the number of perfts run. */
static int run_epd(struct test_ctx *t__, uint64_t max_leaves, int max_depth, int every,
                   int generic_too)
{
    struct epd_line *lines;
    int n = read_epd(&lines);
    if (n < 0)
        return -1;
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    int runs = 0;
    for (int i = 0; i < n; i += every) {
        char err[ERROR_TEXT_MAX];
        if (g->parse_position(st, lines[i].fen, err, sizeof err)) {
            CHECK_MSG(0, "line %d: '%s': %s", i + 1, lines[i].fen, err);
            continue;
        }
        for (int d = 1; d <= max_depth && d <= EPD_MAX_DEPTH; d++) {
            uint64_t want = lines[i].count[d];
            if (!want || (max_leaves && want > max_leaves))
                continue;
            uint64_t got = perft(g, st, d);
            CHECK_MSG(got == want, "line %d depth %d: %llu leaves, expected %llu (%s)", i + 1, d,
                      (unsigned long long)got, (unsigned long long)want, lines[i].fen);
            if (generic_too) {
                uint64_t gen = perft_generic(g, st, d);
                CHECK_MSG(gen == want, "line %d depth %d: generic %llu, expected %llu", i + 1, d,
                          (unsigned long long)gen, (unsigned long long)want);
            }
            runs++;
        }
    }
    free(st);
    free(lines);
    return runs;
}

TEST(chess_perft_light)
{
    int runs = run_epd(TEST_CTX, 200000, 3, 9, 1);
    if (runs < 0)
        SKIP("../shared/data/perft-chess.epd is absent");
    CHECK(runs > 20);
}

TEST(chess_perft_start_and_kiwipete)
{
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    g->start(st);
    CHECK_EQ_U64(perft(g, st, 4), 197281);
    char err[ERROR_TEXT_MAX];
    CHECK(g->parse_position(st,
                            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            err, sizeof err) == 0);
    CHECK_EQ_U64(perft(g, st, 3), 97862);
    CHECK_EQ_U64(perft_generic(g, st, 2), 2039);
    free(st);
}

TEST_HEAVY(chess_perft_suite)
{
    int runs = run_epd(TEST_CTX, 20000000, EPD_MAX_DEPTH, 1, 0);
    if (runs < 0)
        SKIP("../shared/data/perft-chess.epd is absent");
    CHECK(runs > 500);
}
