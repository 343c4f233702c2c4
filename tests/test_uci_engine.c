/* The external analysis engine (engines/uci_engine.h) and its use by the analyses
 * (analysis.h): a fake engine that works, is missing, crashes, hangs or answers
 * garbage (tests/fake_uci.h), each with the documented fallback; the pool restarts a
 * failed process for the next request and nothing hangs.  One test asks the real
 * Stockfish when it is installed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli/cli.h"
#include "core/game.h"
#include "engines/profile.h"
#include "engines/uci_engine.h"
#include "fake_uci.h"
#include "games/registry.h"
#include "harness.h"

/* The fake engines' silence before they are killed (room for a loaded CI machine). */
#define TIMEOUT_MS 1000
#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define MATE_IN_TWO "k7/8/2K5/8/8/8/8/7R w - - 0 1"
#define STOCKFISH "/usr/games/stockfish"

static int64_t ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct uci_pool *fake_pool(const char *mode, int size, char *err, size_t err_size)
{
    char path[512];
    if (!fake_uci_path(mode, path, sizeof path)) {
        snprintf(err, err_size, "cannot write the fake engine");
        return NULL;
    }
    struct uci_engine_config cfg = {
        .path = path, .size = size, .nice = -1, .timeout_ms = TIMEOUT_MS};
    return uci_pool_new(&cfg, err, err_size);
}

static int go_start(struct uci_pool *p, int multipv, struct uci_engine_line *out, char *best,
                    char *err, size_t err_size)
{
    struct uci_engine_go go = {
        .position = START_FEN, .multipv = multipv, .expect = multipv, .nodes = 1000};
    return uci_pool_go(p, &go, out, best, MOVE_TEXT_MAX, err, err_size);
}

TEST(uci_engine_fake_works)
{
    char err[ERROR_TEXT_MAX], best[MOVE_TEXT_MAX];
    struct uci_pool *p = fake_pool("works", 1, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (!p)
        return;
    CHECK_STR(uci_pool_name(p), "Fake 1.0");
    struct uci_engine_line l[UCI_ENGINE_LINES_MAX];
    int n = go_start(p, 2, l, best, err, sizeof err);
    CHECK_EQ_INT(n, 2);
    CHECK_STR(best, "e2e4");
    /* The last full iteration; the bound, currmove and string lines left out. */
    CHECK_EQ_INT(l[0].depth, 2);
    CHECK_EQ_INT(l[0].is_mate, 0);
    CHECK_EQ_INT(l[0].cp, 25);
    CHECK_STR(l[0].pv, "e2e4 c7c5");
    CHECK_EQ_INT(l[1].is_mate, 1);
    CHECK_EQ_INT(l[1].mate, -2);
    CHECK_STR(l[1].pv, "d2d4 d7d5");
    /* One process serves request after request. */
    CHECK_EQ_INT(go_start(p, 1, l, best, err, sizeof err), 1);
    CHECK_EQ_INT(uci_pool_starts(p), 1);
    uci_pool_free(p);
    fake_uci_cleanup();
}

/* The processes run at the pool's nice value (the server's analysis threads': 19). */
TEST(uci_engine_runs_niced)
{
    char path[512], err[ERROR_TEXT_MAX];
    CHECK(fake_uci_path("nice", path, sizeof path) != NULL);
    struct uci_engine_config cfg = {.path = path, .nice = 19, .timeout_ms = TIMEOUT_MS};
    struct uci_pool *p = uci_pool_new(&cfg, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (p)
        CHECK_STR(uci_pool_name(p), "Fake at nice 19");
    uci_pool_free(p);
    fake_uci_cleanup();
}

TEST(uci_engine_missing_or_silent_at_start)
{
    char err[ERROR_TEXT_MAX];
    struct uci_engine_config cfg = {.path = "/nonexistent/engine", .timeout_ms = TIMEOUT_MS};
    CHECK(uci_pool_new(&cfg, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "/nonexistent/engine") != NULL, "%s", err);
    int64_t t0 = ms_now();
    CHECK(fake_pool("hang_start", 1, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "said nothing") != NULL, "%s", err);
    CHECK(fake_pool("garbage_start", 1, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "garbage") != NULL, "%s", err);
    CHECK_MSG(ms_now() - t0 < 5 * TIMEOUT_MS, "took %lld ms", (long long)(ms_now() - t0));
    fake_uci_cleanup();
}

TEST(uci_engine_crash_hang_garbage_fail_and_restart)
{
    static const char *const modes[] = {"crash", "hang", "garbage_move", "garbage_score"};
    char err[ERROR_TEXT_MAX], best[MOVE_TEXT_MAX];
    for (int i = 0; i < 4; i++) {
        struct uci_pool *p = fake_pool(modes[i], 1, err, sizeof err);
        CHECK_MSG(p != NULL, "%s: %s", modes[i], err);
        if (!p)
            continue;
        struct uci_engine_line l[UCI_ENGINE_LINES_MAX];
        int64_t t0 = ms_now();
        int n = go_start(p, 1, l, best, err, sizeof err);
        int64_t took = ms_now() - t0;
        /* garbage_move's "z9z9" is a word UCI allows: the game's parser refuses it
         * (below); the others fail here. */
        if (strcmp(modes[i], "garbage_move") != 0) {
            CHECK_MSG(n == -1, "%s: %d lines", modes[i], n);
            CHECK_MSG(strstr(err, "Fake 1.0 failed") != NULL, "%s: %s", modes[i], err);
            /* The next request starts a new process (which fails the same way). */
            CHECK_EQ_INT(go_start(p, 1, l, best, err, sizeof err), -1);
            CHECK_EQ_INT(uci_pool_starts(p), 2);
        }
        CHECK_MSG(took < 3 * TIMEOUT_MS, "%s took %lld ms", modes[i], (long long)took);
        uci_pool_free(p);
    }
    fake_uci_cleanup();
}

TEST(uci_engine_crash_once_restarted)
{
    char err[ERROR_TEXT_MAX], best[MOVE_TEXT_MAX];
    struct uci_pool *p = fake_pool("crash_once", 2, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (!p)
        return;
    struct uci_engine_line l[UCI_ENGINE_LINES_MAX];
    CHECK_EQ_INT(go_start(p, 1, l, best, err, sizeof err), -1);
    CHECK_MSG(strstr(err, "exited") != NULL, "%s", err);
    CHECK_EQ_INT(go_start(p, 1, l, best, err, sizeof err), 1);
    CHECK_STR(best, "e2e4");
    CHECK_EQ_INT(uci_pool_starts(p), 2);
    uci_pool_free(p);
    fake_uci_cleanup();
}

struct busy_go {
    struct uci_pool *p;
    const atomic_int *stop;
    int n;
    int64_t ms;
};

static void *busy_thread(void *arg)
{
    struct busy_go *b = arg;
    char err[ERROR_TEXT_MAX], best[MOVE_TEXT_MAX];
    struct uci_engine_line l[UCI_ENGINE_LINES_MAX];
    struct uci_engine_go go = {.position = START_FEN, .multipv = 1, .expect = 1, .stop = b->stop};
    int64_t t0 = ms_now();
    b->n = uci_pool_go(b->p, &go, l, best, sizeof best, err, sizeof err);
    b->ms = ms_now() - t0;
    return NULL;
}

/* A pool of one: while its process is busy (hung), a second request waits for it and
 * starts no process of its own; its stop ends the wait. */
TEST(uci_engine_pool_is_bounded)
{
    char err[ERROR_TEXT_MAX], best[MOVE_TEXT_MAX];
    struct uci_pool *p = fake_pool("hang", 1, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (!p)
        return;
    atomic_int stop;
    atomic_init(&stop, 0);
    struct busy_go a = {.p = p}, b = {.p = p, .stop = &stop};
    pthread_t ta, tb;
    pthread_create(&ta, NULL, busy_thread, &a);
    struct timespec ts = {0, 50 * 1000000L};
    nanosleep(&ts, NULL);
    pthread_create(&tb, NULL, busy_thread, &b);
    nanosleep(&ts, NULL);
    atomic_store(&stop, 1);
    pthread_join(tb, NULL);
    pthread_join(ta, NULL);
    CHECK_EQ_INT(b.n, 0);     /* stopped while waiting: no lines, no error */
    CHECK(b.ms < TIMEOUT_MS); /* it did not wait for the hung one */
    CHECK_EQ_INT(a.n, -1);    /* the hung one was killed */
    CHECK_EQ_INT(uci_pool_starts(p), 1);
    uci_pool_free(p);

    /* Bad requests are refused before any process is asked. */
    p = fake_pool("works", 1, err, sizeof err);
    if (!p)
        return;
    struct uci_engine_line l[UCI_ENGINE_LINES_MAX];
    struct uci_engine_go go = {
        .position = "8/8/8/8/8/8/8/8 w - - 0 1\nquit", .multipv = 1, .expect = 1};
    CHECK_EQ_INT(uci_pool_go(p, &go, l, best, sizeof best, err, sizeof err), -1);
    go.position = START_FEN;
    go.multipv = UCI_ENGINE_LINES_MAX + 1;
    CHECK_EQ_INT(uci_pool_go(p, &go, l, best, sizeof best, err, sizeof err), -1);
    go.multipv = 1;
    CHECK_EQ_INT(uci_pool_go(p, &go, l, best, sizeof best, err, sizeof err), 1);
    CHECK_EQ_INT(uci_pool_starts(p), 1);
    uci_pool_free(p);
    fake_uci_cleanup();
}

struct seen {
    int calls;
    char engine[ANALYSIS_ENGINE_MAX];
    const struct analysis_engine_report *report;
};

static void on_lines(void *ctx, const struct analysis_line *lines, int n)
{
    struct seen *s = ctx;
    (void)lines;
    (void)n;
    s->calls++;
    snprintf(s->engine, sizeof s->engine, "%s", s->report->name);
}

/* analysis_position with the pool of `mode`: the lines, the report. */
static int analyse_start(const char *mode, int multipv, struct analysis_line *out,
                         struct analysis_engine_report *report, struct seen *seen)
{
    const struct game *g = game_find("chess");
    char err[ERROR_TEXT_MAX];
    struct uci_pool *p = mode ? fake_pool(mode, 1, err, sizeof err) : NULL;
    void *st = game_state_new(g);
    g->start(st);
    memset(seen, 0, sizeof *seen);
    seen->report = report;
    struct analysis_request rq = {
        .multipv = multipv,
        .nodes = 2000,
        .external = p,
        .report = report,
        .on_lines = on_lines,
        .ctx = seen,
    };
    int n = analysis_position(g, st, &rq, NULL, out);
    free(st);
    uci_pool_free(p);
    return n;
}

TEST(analysis_external_lines_in_agora_terms)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct analysis_line l[ANALYSIS_MAX_LINES];
    struct analysis_engine_report report;
    struct seen seen;
    int n = analyse_start("works", 2, l, &report, &seen);
    CHECK_EQ_INT(n, 2);
    CHECK_STR(report.name, "Fake 1.0");
    CHECK_STR(report.error, "");
    CHECK_EQ_INT(seen.calls, 2); /* an iteration each */
    CHECK_STR(seen.engine, "Fake 1.0");
    CHECK_EQ_INT(l[0].score, 25);
    CHECK_EQ_INT(l[0].mate, 0);
    CHECK_EQ_INT(l[0].depth, 2);
    CHECK_EQ_INT(l[0].pv_len, 2);
    CHECK_STR(l[0].pv[0], "e2e4");
    CHECK_STR(l[0].pv_display[1], "c5");
    const struct engine_profile *prof = engine_profile_of(game_find("chess"));
    CHECK(l[0].win == engine_win_chance(prof, 25));
    CHECK_EQ_INT(l[1].mate, -2); /* "mate -2": mated in 2 moves */
    CHECK(l[1].score <= -ENGINE_WIN_BOUND);
    CHECK(l[1].win == 0);
    CHECK_STR(l[1].pv_display[0], "d4");
    fake_uci_cleanup();
}

TEST(analysis_external_failures_fall_back_to_agora)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    static const char *const modes[] = {"crash", "hang", "garbage_move", "garbage_score"};
    static const char *const says[] = {"exited", "said nothing", "not legal", "garbage"};
    for (int i = 0; i < 4; i++) {
        struct analysis_line l[ANALYSIS_MAX_LINES];
        struct analysis_engine_report report;
        struct seen seen;
        int64_t t0 = ms_now();
        int n = analyse_start(modes[i], 2, l, &report, &seen);
        CHECK_MSG(n == 2, "%s: %d lines", modes[i], n);
        CHECK_MSG(!strcmp(report.name, "agora chess"), "%s: %s", modes[i], report.name);
        CHECK_MSG(strstr(report.error, says[i]) != NULL, "%s: %s", modes[i], report.error);
        CHECK_MSG(!strcmp(seen.engine, "agora chess"), "%s: lines said %s", modes[i], seen.engine);
        CHECK_MSG(ms_now() - t0 < 10 * TIMEOUT_MS, "%s: %lld ms", modes[i],
                  (long long)(ms_now() - t0));
    }
    /* No pool (missing, or none wanted): agora's own, no error. */
    struct analysis_line l[ANALYSIS_MAX_LINES];
    struct analysis_engine_report report;
    struct seen seen;
    CHECK_EQ_INT(analyse_start(NULL, 1, l, &report, &seen), 1);
    CHECK_STR(report.name, "agora chess");
    CHECK_STR(report.error, "");
    fake_uci_cleanup();
}

TEST(analysis_external_review_falls_back_whole)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered");
    char err[ERROR_TEXT_MAX];
    /* "works" answers e2e4 everywhere: from the second position on that is garbage. */
    struct uci_pool *p = fake_pool("works", 1, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (!p)
        return;
    void *st = game_state_new(g);
    g->start(st);
    static const char *const texts[] = {"e2e4", "e7e5", "g1f3"};
    Move moves[3];
    void *walk = game_state_new(g);
    g->start(walk);
    for (int i = 0; i < 3; i++) {
        CHECK(g->parse_move(walk, texts[i], &moves[i], err, sizeof err) == 0);
        g->make_move(walk, moves[i]);
    }
    struct analysis_engine_report report;
    struct analysis_review_request rq = {.nodes = 2000, .external = p, .report = &report};
    struct analysis_ply plies[3];
    int n = analysis_review(g, st, moves, 3, &rq, plies, NULL, err, sizeof err);
    CHECK_EQ_INT(n, 3);
    CHECK_STR(report.name, "agora chess");
    CHECK_MSG(strstr(report.error, "not legal") != NULL, "%s", report.error);
    /* agora's own judged every ply: its best move is one of the position's. */
    for (int i = 0; i < n; i++)
        CHECK(plies[i].best[0] != 0);
    free(walk);
    free(st);
    uci_pool_free(p);
    fake_uci_cleanup();
}

TEST(analysis_stockfish_mate_in_two)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered");
    if (access(STOCKFISH, X_OK) != 0)
        SKIP(STOCKFISH " is not installed");
    char err[ERROR_TEXT_MAX];
    struct uci_engine_config cfg = {.path = STOCKFISH, .size = 1, .nice = -1};
    struct uci_pool *p = uci_pool_new(&cfg, err, sizeof err);
    CHECK_MSG(p != NULL, "%s", err);
    if (!p)
        return;
    CHECK_MSG(!strncmp(uci_pool_name(p), "Stockfish", 9), "%s", uci_pool_name(p));
    void *st = game_state_new(g);
    CHECK(g->parse_position(st, MATE_IN_TWO, err, sizeof err) == 0);
    struct analysis_engine_report report;
    struct analysis_request rq = {.multipv = 2, .nodes = 20000, .external = p, .report = &report};
    struct analysis_line l[ANALYSIS_MAX_LINES];
    int n = analysis_position(g, st, &rq, NULL, l);
    CHECK_EQ_INT(n, 2);
    CHECK_MSG(!strncmp(report.name, "Stockfish", 9), "%s", report.name);
    CHECK_STR(report.error, "");
    CHECK_EQ_INT(l[0].mate, 2);
    CHECK(l[0].win == 1);
    CHECK(l[0].pv_len >= 3);
    CHECK(strcmp(l[0].pv[0], l[1].pv[0]) != 0);
    free(st);
    uci_pool_free(p);
}

static int analyse_cli(char **out, char **err, int argc, char **argv)
{
    FILE *in = fmemopen((void *)"", 0, "r");
    size_t out_len = 0, err_len = 0;
    FILE *o = open_memstream(out, &out_len), *e = open_memstream(err, &err_len);
    struct cli_io io = {in, o, e};
    int rc = cli_main(argc, argv, &io);
    fclose(in);
    fclose(o);
    fclose(e);
    return rc;
}

TEST(analysis_cli_engine_and_fallback)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    char works[512], crash[512];
    CHECK(fake_uci_path("works", works, sizeof works) != NULL);
    CHECK(fake_uci_path("crash", crash, sizeof crash) != NULL);
    char *engines[] = {works, "/nonexistent/engine", crash, "none"};
    const char *says[] = {"\"engine\":\"Fake 1.0\"",
                          "\"engine\":\"agora chess\",\"engine_error\":\"/nonexistent/engine: ",
                          "\"engine\":\"agora chess\",\"engine_error\":\"Fake 1.0 failed: ",
                          "\"engine\":\"agora chess\"}"};
    for (int i = 0; i < 4; i++) {
        char *argv[] = {"agora",   "analyse",  "chess",    "--position",
                        START_FEN, "--engine", engines[i], "--engine-timeout",
                        "1000",    "--nodes",  "2000",     NULL};
        char *out = NULL, *err = NULL;
        CHECK_EQ_INT(analyse_cli(&out, &err, 11, argv), 0);
        CHECK_MSG(strstr(out, says[i]) != NULL, "%s: %s", engines[i], out);
        /* A missing engine is said on stderr too. */
        CHECK_EQ_INT(strstr(err, "agora's own engine judges") != NULL, i == 1);
        free(out);
        free(err);
    }
    char *bad[] = {"agora", "analyse", "chess", "--engine-timeout", "0", NULL};
    char *out = NULL, *err = NULL;
    CHECK_EQ_INT(analyse_cli(&out, &err, 5, bad), CLI_BAD_INPUT);
    free(out);
    free(err);
    fake_uci_cleanup();
}
