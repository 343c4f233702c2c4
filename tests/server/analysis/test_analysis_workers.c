/* Analyses run by `agora worker` processes (issue 26; analysis_db.c,
 * src/worker/analysis.c): a server on PostgreSQL with --workers 0 queues each
 * analysis as a job in the database, a worker process claims it and writes the
 * stream's events into the job, and the server holding the stream sends them as its
 * own analysis threads would.  The stream's close drops the job (the worker stops);
 * a worker killed midway: the lease runs out and another worker runs the analysis
 * again; the caps per address and in all count the store's analysis jobs. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "games/registry.h"
#include "server/server.h"

#define NEEDS_POSTGRES_AND_AGORA()                                                                 \
    do {                                                                                           \
        if (!fx_on_postgres())                                                                     \
            SKIP("analysis jobs are for PostgreSQL (tests/suites/postgres)");                      \
        if (access("./agora", X_OK) != 0)                                                          \
            SKIP("./agora is not built (run from the repository root)");                           \
        if (!game_find("chess"))                                                                   \
            SKIP("chess is not registered");                                                       \
    } while (0)

#define MATE_IN_ONE "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"

static void analysis_config(struct server_config *cfg, const char *url, int workers,
                            int64_t analysis_ms)
{
    fx_config(cfg);
    cfg->engine_workers = workers;
    cfg->db_path = url;
    cfg->trust_proxy = 1; /* the tests choose client addresses by X-Forwarded-For */
    cfg->analysis_threads = 2;
    cfg->analysis_per_client = 2;
    cfg->analysis_max = 3;
    cfg->analysis_nodes_cap = 200000000;
    cfg->review_nodes = 3000;
    cfg->analysis_ms = analysis_ms;
}

/* A server of `url`: `workers` 0 (its analyses are jobs) or its own threads. */
static struct server *start_on(const char *url, int workers, int64_t analysis_ms)
{
    struct server_config cfg;
    analysis_config(&cfg, url, workers, analysis_ms);
    return fx_start(&cfg);
}

/* Wait until `sql` answers `want` (or timeout_ms): the last answer. */
static long long wait_number(const char *url, const char *sql, long long want, int timeout_ms)
{
    long long got = -1;
    for (int64_t t0 = fx_now_ms(); fx_now_ms() - t0 < timeout_ms; usleep(20 * 1000))
        if ((got = fx_db_number(url, sql)) == want)
            break;
    return got;
}

/* The stream of `body` read to its end: its `line` events counted, its `done`.  With
 * `url`, the stream waits for its job in the store there before `*worker` is started
 * on it (the analysis is the worker's, not the server's). */
static json_t *run_analysis_by(struct test_ctx *t__, int port, const char *body, int *lines,
                               const char *url, pid_t *worker)
{
    struct sse_reader r;
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis", body, NULL), 200);
    if (url) {
        CHECK_EQ_INT(
            wait_number(url, "SELECT count(*) FROM engine_jobs WHERE kind = 'analysis'", 1, 3000),
            1);
        *worker = fx_spawn_worker(url, 200, NULL);
    }
    char event[32];
    json_t *done = NULL;
    *lines = 0;
    for (char *data; (data = sse_next(&r, event, sizeof event, 60000)); free(data)) {
        CHECK_MSG(!done, "an event after done");
        if (!strcmp(event, "line"))
            (*lines)++;
        else if (!strcmp(event, "done"))
            done = json_loads(data, 0, NULL);
    }
    sse_close(&r);
    return done;
}

static json_t *run_analysis(struct test_ctx *t__, int port, const char *body, int *lines)
{
    return run_analysis_by(t__, port, body, lines, NULL, NULL);
}

/* The done event without what depends on the clock. */
static char *without_times(json_t *done)
{
    json_t *copy = json_deep_copy(done);
    json_t *ls = json_object_get(copy, "lines");
    for (size_t i = 0; i < json_array_size(ls); i++) {
        json_object_del(json_array_get(ls, i), "time_ms");
        json_object_del(json_array_get(ls, i), "nps");
    }
    char *text = json_dumps(copy, JSON_SORT_KEYS);
    json_decref(copy);
    return text;
}

TEST(server_analysis_jobs_lines_and_done_as_in_process)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 10000);
    struct server *own = start_on(":memory:", 1, 10000); /* its own analysis threads */
    CHECK(srv != NULL && own != NULL);
    pid_t w = -1;
    static const char body[] =
        "{\"game\":\"chess\",\"position\":\"" MATE_IN_ONE "\",\"multipv\":3,\"nodes\":20000}";
    json_t *a = NULL, *b = NULL;
    int la = 0, lb = 0;
    if (!srv || !own)
        goto out;
    /* Queued first, then a worker started: the lines are the worker's. */
    a = run_analysis_by(TEST_CTX, server_port(srv), body, &la, url, &w);
    b = run_analysis(TEST_CTX, server_port(own), body, &lb);
    CHECK(a != NULL && b != NULL);
    CHECK_MSG(la > 0, "no line before the worker's done");
    CHECK_EQ_INT(la, lb);
    if (!a || !b)
        goto out;
    char *ta = without_times(a), *tb = without_times(b);
    CHECK_MSG(ta && tb && !strcmp(ta, tb), "worker's:\n%s\nserver's:\n%s", ta, tb);
    free(ta);
    free(tb);
    json_t *best = json_array_get(json_object_get(a, "lines"), 0);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(best, "mate")), 1);
    CHECK_STR(json_string_value(json_array_get(json_object_get(best, "pv"), 0)), "a1a8");
    CHECK(json_integer_value(json_object_get(best, "depth")) >= 1);
    CHECK(strlen(fx_str(a, "engine")) > 0);
    /* Read, the job is dropped by the server. */
    CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 0, 2000), 0);
    /* A position after moves: the worker plays them as the server does. */
    json_decref(a);
    json_decref(b);
    static const char moves[] = "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"e7e5\",\"d1h5\"],"
                                "\"nodes\":5000}";
    a = run_analysis(TEST_CTX, server_port(srv), moves, &la);
    b = run_analysis(TEST_CTX, server_port(own), moves, &lb);
    CHECK(a != NULL && b != NULL);
    if (a && b) {
        ta = without_times(a);
        tb = without_times(b);
        CHECK_MSG(ta && tb && !strcmp(ta, tb), "worker's:\n%s\nserver's:\n%s", ta, tb);
        free(ta);
        free(tb);
    }
out:
    json_decref(a);
    json_decref(b);
    if (w > 0)
        CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(own);
    server_stop(srv);
}

TEST(server_analysis_jobs_the_streams_close_stops_the_worker)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 60000); /* a minute's cap: only the close ends it */
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    pid_t w = fx_spawn_worker(url, 200, NULL); /* one thread */
    struct sse_reader r;
    CHECK_EQ_INT(
        sse_post(&r, port, "/api/analysis", "{\"game\":\"egara\",\"nodes\":200000000}", NULL), 200);
    char event[32];
    char *data = sse_next(&r, event, sizeof event, 20000);
    CHECK_MSG(data && !strcmp(event, "line"), "no first line");
    free(data);
    CHECK_EQ_INT(fx_db_number(url, "SELECT priority FROM engine_jobs WHERE kind = 'analysis'"), 1);
    int64_t t0 = fx_now_ms();
    sse_close(&r);
    CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 0, 3000), 0);
    /* The worker (one thread) moves on: a second analysis is served at once. */
    int lines = 0;
    json_t *done = run_analysis(TEST_CTX, port, "{\"game\":\"egara\",\"nodes\":2000}", &lines);
    CHECK(done != NULL);
    CHECK(json_array_size(json_object_get(done, "lines")) > 0);
    int64_t took = fx_now_ms() - t0;
    CHECK_MSG(took < 15000, "the second took %lld ms after the close", (long long)took);
    fprintf(stderr, "    a second analysis done %lld ms after the first's close\n",
            (long long)took);
    json_decref(done);
    CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
}

TEST(server_analysis_jobs_a_worker_killed_midway_another_finishes)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 3000);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    const char *short_lease[] = {"--lease-ms", "1500", NULL};
    pid_t killed = fx_spawn_worker(url, 200, short_lease);
    struct sse_reader r;
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis",
                          "{\"game\":\"egara\",\"multipv\":2,\"nodes\":200000000}", NULL),
                 200);
    char event[32];
    char *data = sse_next(&r, event, sizeof event, 20000);
    CHECK_MSG(data && !strcmp(event, "line"), "no first line");
    free(data);
    CHECK_EQ_INT(fx_db_number(url, "SELECT tries FROM engine_jobs WHERE kind = 'analysis'"), 1);
    kill(killed, SIGKILL);
    waitpid(killed, NULL, 0);
    pid_t second = fx_spawn_worker(url, 200, NULL);
    /* Its lease run out, the second worker claims the job and runs it again. */
    CHECK_EQ_INT(wait_number(url, "SELECT tries FROM engine_jobs", 2, 10000), 2);
    json_t *done = NULL;
    int lines = 0;
    for (; (data = sse_next(&r, event, sizeof event, 60000)); free(data)) {
        lines += !strcmp(event, "line");
        if (!strcmp(event, "done"))
            done = json_loads(data, 0, NULL);
    }
    sse_close(&r);
    CHECK(done != NULL);
    CHECK(lines > 0);
    json_t *ls = json_object_get(done, "lines");
    CHECK_EQ_INT((int)json_array_size(ls), 2);
    CHECK(!json_object_get(done, "engine_error"));
    for (size_t i = 0; i < json_array_size(ls); i++)
        CHECK(json_integer_value(json_object_get(json_array_get(ls, i), "depth")) > 1);
    json_decref(done);
    CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 0, 2000), 0);
    CHECK_EQ_INT(fx_stop_worker(second), 0);
    server_stop(srv);
}

TEST(server_analysis_jobs_caps_hold_across_servers)
{
    NEEDS_POSTGRES_AND_AGORA();
    struct server_config cfg;
    char url[512];
    struct server *a = NULL, *b = NULL;
    analysis_config(&cfg, NULL, 0, 60000);
    if (fx_start_pair(&cfg, url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    /* No worker: the jobs stay queued, each stream open. */
    static const char body[] = "{\"game\":\"egara\",\"nodes\":1000}";
    struct sse_reader a1, a2, a3, b1, c1;
    CHECK_EQ_INT(sse_post(&a1, pa, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 200);
    CHECK_EQ_INT(sse_post(&a2, pb, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 200);
    CHECK_EQ_INT(sse_post(&a3, pb, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 429);
    CHECK(strstr(a3.buf, "too many analyses") != NULL);
    CHECK(strstr(a3.buf, "too_many_analyses") != NULL);
    CHECK_EQ_INT(sse_post(&b1, pb, "/api/analysis", body, "X-Forwarded-For: 10.0.0.2\r\n"), 200);
    CHECK_EQ_INT(sse_post(&c1, pa, "/api/analysis", body, "X-Forwarded-For: 10.0.0.3\r\n"), 503);
    CHECK(strstr(c1.buf, "analysing all it can") != NULL);
    sse_close(&a3);
    sse_close(&c1);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs WHERE kind = 'analysis'"), 3);
    /* One stream closed on A: its job goes, and B admits that address again. */
    sse_close(&a1);
    CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 2, 3000), 2);
    struct sse_reader again;
    CHECK_EQ_INT(sse_post(&again, pb, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 200);
    sse_close(&again);
    sse_close(&a2);
    sse_close(&b1);
    CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 0, 3000), 0);
    server_stop(a);
    server_stop(b);
}

/* A worker with the game's external engine (Stockfish for chess) analyses with it, as a
 * server's analysis threads do: the done names it; with its engine missing, agora's
 * own analyses and engine_error says why. */
TEST(server_analysis_jobs_a_worker_analyses_chess_with_its_engine)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 10000);
    CHECK(srv != NULL);
    if (!srv)
        return;
    static const char body[] =
        "{\"game\":\"chess\",\"position\":\"" MATE_IN_ONE "\",\"multipv\":2,\"nodes\":20000}";
    static const char *const stockfish[] = {"--analysis-engine", "/usr/games/stockfish", NULL};
    static const char *const missing[] = {"--analysis-engine", "/nonexistent/stockfish", NULL};
    const char *const *extra[2] = {stockfish, missing};
    for (int k = access("/usr/games/stockfish", X_OK) == 0 ? 0 : 1; k < 2; k++) {
        struct sse_reader r;
        CHECK_EQ_INT(sse_post(&r, server_port(srv), "/api/analysis", body, NULL), 200);
        CHECK_EQ_INT(
            wait_number(url, "SELECT count(*) FROM engine_jobs WHERE kind = 'analysis'", 1, 3000),
            1);
        pid_t w = fx_spawn_worker(url, 200, extra[k]);
        char event[32];
        json_t *done = NULL;
        for (char *data; (data = sse_next(&r, event, sizeof event, 60000)); free(data))
            if (!strcmp(event, "done") && !done)
                done = json_loads(data, 0, NULL);
        sse_close(&r);
        CHECK(done != NULL);
        const char *engine = done ? fx_str(done, "engine") : "";
        if (k == 0) {
            CHECK_MSG(!strncmp(engine, "Stockfish", 9), "engine: '%s'", engine);
        } else {
            CHECK_STR(engine, "agora chess");
            CHECK_MSG(done && strstr(fx_str(done, "engine_error"), "/nonexistent/stockfish"),
                      "engine_error: '%s'", done ? fx_str(done, "engine_error") : "");
        }
        json_t *best = json_array_get(json_object_get(done, "lines"), 0);
        CHECK_STR(json_string_value(json_array_get(json_object_get(best, "pv"), 0)), "a1a8");
        json_decref(done);
        if (w > 0)
            CHECK_EQ_INT(fx_stop_worker(w), 0);
        CHECK_EQ_INT(wait_number(url, "SELECT count(*) FROM engine_jobs", 0, 3000), 0);
    }
    server_stop(srv);
}
