/* Reviews made by `agora worker` processes (issue 26; review_db.c, src/worker/review.c):
 * a server on PostgreSQL with --workers 0 queues each review as a job in the database,
 * a worker process claims it, reviews the game its payload carries and stores the
 * review, which the server then answers as its own would be.  A worker killed midway:
 * the lease runs out and another worker does it.  The caps per address and in all count
 * the store's review jobs. */
#include <fcntl.h>
#include <libpq-fe.h>
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
#include "store/store.h"

#define NEEDS_POSTGRES_AND_AGORA()                                                                 \
    do {                                                                                           \
        if (!fx_on_postgres())                                                                     \
            SKIP("review jobs are for PostgreSQL (tests/suites/postgres)");                        \
        if (access("./agora", X_OK) != 0)                                                          \
            SKIP("./agora is not built (run from the repository root)");                           \
        if (!game_find("chess"))                                                                   \
            SKIP("chess is not registered");                                                       \
    } while (0)

static const char *const short_record = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";
static const char *const long_record =
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 "
    "Nb8 10. d4 Nbd7 *";

/* A server of `url` reviewing with small budgets: `workers` 0 (its reviews are jobs)
 * or its own engine and review threads. */
static struct server *start_on(const char *url, int workers, int review_max)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = workers;
    cfg.db_path = url;
    cfg.trust_proxy = 1; /* the tests choose client addresses by X-Forwarded-For */
    cfg.review_threads = 1;
    cfg.review_max = review_max;
    cfg.review_nodes = 3000;
    return fx_start(&cfg);
}

/* POST /api/reviews of `record` from `from`: the status, the answer in *out. */
static int import_from(int port, const char *from, const char *record, json_t **out)
{
    char body[512], headers[96];
    snprintf(body, sizeof body, "{\"game\":\"chess\",\"record\":\"%s\"}", record);
    snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\nContent-Type: application/json\r\n",
             from);
    struct http_reply r;
    int st = http_call(port, "POST", "/api/reviews", NULL, body, strlen(body), headers, &r) == 0
                 ? r.status
                 : 0;
    if (out)
        *out = http_json(&r);
    http_reply_free(&r);
    return st;
}

/* Poll `path` until its review is done (or timeout_ms); the body, or NULL. */
static json_t *wait_done(int port, const char *path, int timeout_ms)
{
    int64_t t0 = fx_now_ms();
    while (fx_now_ms() - t0 < timeout_ms) {
        json_t *j = NULL;
        if (api_call(port, "GET", path, NULL, NULL, &j) == 200 &&
            !strcmp(fx_str(j, "status"), "done"))
            return j;
        json_decref(j);
        usleep(50 * 1000);
    }
    return NULL;
}

/* Whether every ply's class is one of the five. */
static bool classes_known(json_t *rv)
{
    static const char *const classes[] = {"best", "good", "inaccuracy", "mistake", "blunder"};
    json_t *plies = json_object_get(rv, "plies");
    for (size_t i = 0; i < json_array_size(plies); i++) {
        const char *c = fx_str(json_array_get(plies, i), "class");
        bool known = false;
        for (int k = 0; k < 5; k++)
            known |= !strcmp(c, classes[k]);
        if (!known)
            return false;
    }
    return json_array_size(plies) > 0;
}

/* The review's text without its id (two reviews of one record, by two reviewers). */
static char *without_id(json_t *rv)
{
    json_t *copy = json_deep_copy(rv);
    json_object_del(copy, "id");
    char *text = json_dumps(copy, JSON_SORT_KEYS);
    json_decref(copy);
    return text;
}

TEST(server_review_jobs_an_import_made_by_a_worker_as_in_process)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2);
    struct server *own = start_on(":memory:", 1, 2); /* its own review thread */
    CHECK(srv != NULL && own != NULL);
    pid_t w = srv ? fx_spawn_worker(url, 200, NULL) : -1;
    json_t *a = NULL, *b = NULL, *j = NULL;
    char path[128];
    if (!srv || !own)
        goto out;
    CHECK_EQ_INT(import_from(server_port(srv), "10.0.0.1", short_record, &j), 202);
    CHECK_STR(fx_str(j, "status"), "running");
    CHECK_STR(fx_str(j, "game"), "chess");
    CHECK_EQ_INT(fx_int(j, "total"), 8);
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    a = wait_done(server_port(srv), path, 60000);
    CHECK(a != NULL);
    CHECK_EQ_INT(import_from(server_port(own), "10.0.0.1", short_record, &j), 202);
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    b = wait_done(server_port(own), path, 60000);
    CHECK(b != NULL);
    if (!a || !b)
        goto out;
    /* The same budget and the same engine: the same review, but for its id. */
    char *ta = without_id(a), *tb = without_id(b);
    CHECK_MSG(ta && tb && !strcmp(ta, tb), "worker's:\n%s\nserver's:\n%s", ta, tb);
    free(ta);
    free(tb);
    CHECK_EQ_INT((int)json_array_size(json_object_get(a, "plies")), 7);
    CHECK(classes_known(a));
    CHECK_STR(fx_str(json_array_get(json_object_get(a, "plies"), 5), "class"), "blunder");
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs"), 0);
out:
    json_decref(a);
    json_decref(b);
    if (w > 0)
        CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(own);
    server_stop(srv);
}

TEST(server_review_jobs_a_game_reviewed_by_a_worker)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    pid_t w = fx_spawn_worker(url, 200, NULL); /* the computer's moves, then the review */
    char id[40], token[40], path[128];
    json_t *st = fx_new_game(port, "egara", "white", NULL, id, token);
    CHECK(st != NULL);
    for (int k = 0; st && k < 2; k++) {
        char body[96];
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", fx_first_legal(st));
        json_t *next = NULL;
        CHECK_EQ_INT(fx_game_post(port, id, "moves", token, body, &next), 200);
        json_decref(st);
        st = next;
    }
    int plies = st ? (int)fx_int(st, "ply") : 0;
    CHECK_EQ_INT(plies, 4);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%s/review", id);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "none");
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, NULL, &j), 202);
    CHECK_STR(fx_str(j, "status"), "running");
    CHECK_EQ_INT(fx_int(j, "total"), plies + 1);
    json_decref(j);
    int again = api_call(port, "POST", path, NULL, NULL, &j); /* the running one, or done */
    CHECK(again == 202 || again == 200);
    json_decref(j);
    json_t *rv = wait_done(port, path, 60000);
    CHECK(rv != NULL);
    CHECK_EQ_INT((int)json_array_size(json_object_get(rv, "plies")), plies);
    CHECK(classes_known(rv));
    CHECK_STR(fx_str(rv, "id"), id);
    CHECK(strlen(fx_str(rv, "engine")) > 0);
    static const char *const keys[] = {"id",     "game",       "status",        "done",
                                       "total",  "engine",     "plies",         "accuracy",
                                       "counts", "thresholds", "start_position"};
    for (size_t k = 0; rv && k < sizeof keys / sizeof keys[0]; k++)
        CHECK_MSG(json_object_get(rv, keys[k]) != NULL, "no \"%s\"", keys[k]);
    json_decref(rv);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs"), 0);
    CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
}

TEST(server_review_jobs_a_worker_killed_midway_another_finishes)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    /* Slow: 300 ms a position, its progress (and lease) written each second. */
    const char *slow[] = {"--test-think-ms", "300", "--lease-ms", "1500", NULL};
    pid_t killed = fx_spawn_worker(url, 200, slow);
    json_t *j = NULL;
    char path[128];
    CHECK_EQ_INT(import_from(port, "10.0.0.1", long_record, &j), 202);
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    long long done = 0;
    for (int i = 0; i < 500 && done < 3; i++) {
        done = fx_db_number(url, "SELECT done FROM engine_jobs");
        usleep(20 * 1000);
    }
    CHECK_MSG(done >= 3, "done %lld", done);
    /* Any server answers its progress from the job. */
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "running");
    CHECK(fx_int(j, "done") >= 3 && fx_int(j, "total") == 21);
    json_decref(j);
    kill(killed, SIGKILL);
    waitpid(killed, NULL, 0);
    pid_t second = fx_spawn_worker(url, 200, NULL);
    json_t *rv = wait_done(port, path, 60000);
    CHECK(rv != NULL);
    CHECK_EQ_INT((int)json_array_size(json_object_get(rv, "plies")), 20);
    CHECK(classes_known(rv));
    json_decref(rv);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs"), 0);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM reviews"), 1);
    CHECK_EQ_INT(fx_stop_worker(second), 0);
    server_stop(srv);
}

TEST(server_review_jobs_caps_count_the_store)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2); /* no worker: the jobs stay queued */
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    const char *records[] = {"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *",
                             "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O *",
                             "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 *"};
    json_t *j = NULL;
    char path[128];
    CHECK_EQ_INT(import_from(port, "10.0.0.1", records[0], &j), 202);
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    CHECK_EQ_INT(import_from(port, "10.0.0.1", records[1], &j), 429); /* its second at once */
    CHECK_STR(fx_str(j, "code"), "too_many_reviews");
    json_decref(j);
    CHECK_EQ_INT(import_from(port, "10.0.0.2", records[1], NULL), 202); /* another address */
    CHECK_EQ_INT(import_from(port, "10.0.0.3", records[2], &j), 503);   /* two in all */
    CHECK(strstr(fx_str(j, "error"), "reviewing all it can") != NULL);
    json_decref(j);
    /* Queued, not claimed: running, nothing done yet, its game read from the job. */
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "running");
    CHECK_STR(fx_str(j, "game"), "chess");
    CHECK_EQ_INT(fx_int(j, "done"), 0);
    CHECK_EQ_INT(fx_int(j, "total"), 11);
    json_decref(j);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs WHERE kind = 'review'"), 2);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs WHERE priority > 0"), 2);
    server_stop(srv);
}

/* A review job put straight in the store with `payload`, its row naming `game` ("":
 * none, as the rows made before migration 17). */
static void put_review_job(struct test_ctx *t__, struct store *s, const char *id,
                           const char *payload, const char *game)
{
    char err[256];
    struct store_job job;
    memset(&job, 0, sizeof job);
    snprintf(job.id, sizeof job.id, "review.%s", id);
    snprintf(job.kind, sizeof job.kind, "review");
    snprintf(job.game_id, sizeof job.game_id, "%s", id);
    snprintf(job.client, sizeof job.client, "10.0.0.9");
    job.priority = STORE_JOB_PRIORITY_REVIEW;
    job.created_ms = 1;
    job.payload = payload;
    snprintf(job.game, sizeof job.game, "%s", game);
    CHECK_EQ_INT(store_put_job(s, &job, err, sizeof err), 0);
}

/* A running review's GET (polled by its page about once a second) takes its game from
 * the job's row, not from parsing its payload (every move); a row without it (made
 * before migration 17) is read from the payload as before. */
TEST(server_review_jobs_running_game_read_from_the_row)
{
    if (!fx_on_postgres())
        SKIP("review jobs are for PostgreSQL (tests/suites/postgres)");
    if (!game_find("chess"))
        SKIP("chess is not registered");
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2); /* no worker: the jobs stay queued */
    char err[256] = "";
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(srv != NULL && s != NULL, "%s", err);
    if (!srv || !s) {
        store_close(s);
        server_stop(srv);
        return;
    }
    /* The row names the game; the payload is not read (empty here). */
    put_review_job(TEST_CTX, s, "00000000000000000000000000000011", "", "chess");
    /* A row as before migration 17: the game in the payload only. */
    put_review_job(TEST_CTX, s, "00000000000000000000000000000012",
                   "{\"id\":\"00000000000000000000000000000012\",\"game\":\"chess\","
                   "\"start\":\"\",\"moves\":[\"e2e4\",\"e7e5\"],\"nodes\":3000}",
                   "");
    store_close(s);
    const char *ids[] = {"00000000000000000000000000000011", "00000000000000000000000000000012"};
    for (int i = 0; i < 2; i++) {
        char path[128];
        json_t *j = NULL;
        snprintf(path, sizeof path, "/api/reviews/%s", ids[i]);
        CHECK_EQ_INT(api_call(server_port(srv), "GET", path, NULL, NULL, &j), 200);
        CHECK_STR(fx_str(j, "status"), "running");
        CHECK_STR(fx_str(j, "game"), "chess");
        json_decref(j);
    }
    server_stop(srv);
}

TEST(server_review_jobs_a_bad_payload_is_dropped_and_the_worker_goes_on)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2);
    char err[256] = "";
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(srv != NULL && s != NULL, "%s", err);
    if (!srv || !s) {
        store_close(s);
        server_stop(srv);
        return;
    }
    put_review_job(TEST_CTX, s, "00000000000000000000000000000001", "{not json", "");
    put_review_job(TEST_CTX, s, "00000000000000000000000000000002",
                   "{\"id\":\"00000000000000000000000000000002\",\"game\":\"chess\","
                   "\"start\":\"\",\"moves\":[\"e2e4\",\"e7e4\"],\"nodes\":3000}",
                   "");
    put_review_job(TEST_CTX, s, "00000000000000000000000000000003",
                   "{\"id\":\"00000000000000000000000000000003\",\"game\":\"no-such\","
                   "\"start\":\"\",\"moves\":[],\"nodes\":3000}",
                   "");
    store_close(s);
    pid_t w = fx_spawn_worker(url, 200, NULL);
    long long left = -1;
    for (int i = 0; i < 500 && left != 0; i++) {
        left = fx_db_number(url, "SELECT count(*) FROM engine_jobs");
        usleep(20 * 1000);
    }
    CHECK_EQ_INT(left, 0);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM reviews"), 0);
    /* The worker carries on: a good review after them is made. */
    json_t *j = NULL;
    char path[128];
    CHECK_EQ_INT(import_from(server_port(srv), "10.0.0.1", short_record, &j), 202);
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    json_t *rv = wait_done(server_port(srv), path, 60000);
    CHECK(rv != NULL);
    json_decref(rv);
    CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
}

/* The review of short_record made by a worker started with `extra`: its body, or NULL. */
static json_t *reviewed_by_worker(struct test_ctx *t__, const char *const *extra)
{
    const char *url = fx_store_url();
    struct server *srv = start_on(url, 0, 2);
    CHECK(srv != NULL);
    if (!srv)
        return NULL;
    pid_t w = fx_spawn_worker(url, 0, extra);
    json_t *j = NULL, *rv = NULL;
    CHECK_EQ_INT(import_from(server_port(srv), "10.0.0.1", short_record, &j), 202);
    char path[128];
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    rv = wait_done(server_port(srv), path, 60000);
    CHECK(rv != NULL);
    if (w > 0)
        CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
    return rv;
}

#define STOCKFISH "/usr/games/stockfish"

TEST(server_review_jobs_a_worker_judges_chess_with_stockfish)
{
    NEEDS_POSTGRES_AND_AGORA();
    if (access(STOCKFISH, X_OK) != 0)
        SKIP(STOCKFISH " is not installed (Debian's stockfish)");
    /* --analysis-engine as the servers' (the fixture's "none" overridden). */
    const char *extra[] = {"--analysis-engine", STOCKFISH, NULL};
    json_t *rv = reviewed_by_worker(TEST_CTX, extra);
    CHECK_MSG(rv && !strncmp(fx_str(rv, "engine"), "Stockfish", 9), "engine: '%s'",
              rv ? fx_str(rv, "engine") : "");
    CHECK_STR(rv ? fx_str(rv, "engine_error") : "", "");
    CHECK(rv && classes_known(rv));
    json_decref(rv);
}

TEST(server_review_jobs_a_worker_without_its_engine_judges_with_agoras)
{
    NEEDS_POSTGRES_AND_AGORA();
    /* Missing: agora's own judges, and the review says why not the external one. */
    const char *missing[] = {"--analysis-engine", "/nonexistent/stockfish", NULL};
    json_t *rv = reviewed_by_worker(TEST_CTX, missing);
    CHECK_STR(rv ? fx_str(rv, "engine") : "", "agora chess");
    CHECK_MSG(rv && strstr(fx_str(rv, "engine_error"), "/nonexistent/stockfish"),
              "engine_error: '%s'", rv ? fx_str(rv, "engine_error") : "");
    CHECK(rv && classes_known(rv));
    json_decref(rv);
    /* Not wanted (none): agora's own, with nothing to say. */
    const char *none[] = {"--analysis-engine", "none", NULL};
    rv = reviewed_by_worker(TEST_CTX, none);
    CHECK_STR(rv ? fx_str(rv, "engine") : "", "agora chess");
    CHECK_STR(rv ? fx_str(rv, "engine_error") : "", "");
    json_decref(rv);
}
