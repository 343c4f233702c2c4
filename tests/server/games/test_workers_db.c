/* Computer moves made by `agora worker` processes (issue 26; src/worker/, db_jobs.c):
 * a server on PostgreSQL with --workers 0 queues each move in the database, a worker
 * process claims it for a lease and commits it; the waiting request is answered.  A
 * worker killed mid-move, or one too slow for its lease: another makes the move, and
 * it is committed once.  The cap of queued moves per address counts the store.  A
 * server with engine threads of its own takes the shared queue's moves when idle.  An
 * idle worker waits on the database (LISTEN/NOTIFY): every idle thread of it starts
 * one of the jobs queued together, and it stops within its wait. */
#include <fcntl.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "cli/cli.h"
#include "core/types.h"
#include "store/store.h"
#include "worker/worker.h"

/* Wait (at most 10 s) until a job is claimed: 1, or 0. */
static int wait_claimed(const char *url)
{
    for (int i = 0; i < 500; i++) {
        if (fx_db_number(url, "SELECT count(*) FROM engine_jobs WHERE worker <> ''") > 0)
            return 1;
        usleep(20 * 1000);
    }
    return 0;
}

static struct server *start_without_workers(const char *url, int queued_per_address)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 0;
    cfg.db_path = url;
    cfg.queued_per_address = queued_per_address;
    return fx_start(&cfg);
}

#define NEEDS_POSTGRES_AND_AGORA()                                                                 \
    do {                                                                                           \
        if (!fx_on_postgres())                                                                     \
            SKIP("engine jobs are for PostgreSQL (tests/suites/postgres)");                        \
        if (access("./agora", X_OK) != 0)                                                          \
            SKIP("./agora is not built (run from the repository root)");                           \
    } while (0)

TEST(server_workers_play_against_a_worker_process)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_without_workers(url, 0);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    const char *fast[] = {"--move-ms", "200", NULL};
    pid_t w = fx_spawn_worker(url, 0, fast);
    char id[40], token[40];
    /* The computer opens: the creation waits for the worker's move. */
    json_t *st = fx_new_game(port, "egara", "black", NULL, id, token);
    CHECK(st != NULL);
    CHECK_EQ_INT(fx_int(st, "ply"), 1);
    for (int i = 0; st && i < 3 && !json_is_true(json_object_get(st, "over")); i++) {
        int ply = (int)fx_int(st, "ply");
        char body[96];
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", fx_first_legal(st));
        json_t *next = NULL;
        CHECK_EQ_INT(fx_game_post(port, id, "moves", token, body, &next), 200);
        json_decref(st);
        st = next;
        CHECK_MSG(fx_int(st, "ply") == ply + 2 || json_is_true(json_object_get(st, "over")),
                  "ply %lld after %d", fx_int(st, "ply"), ply);
        CHECK(!json_is_true(json_object_get(st, "thinking")));
    }
    json_decref(st);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM engine_jobs");
    CHECK_EQ_INT(fx_db_number(url, sql), 0);
    CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
}

struct pending_move {
    int port;
    const char *id, *token, *move;
    int status;
    json_t *answer;
};

static void *post_move(void *arg)
{
    struct pending_move *p = arg;
    char body[96];
    snprintf(body, sizeof body, "{\"move\":\"%s\"}", p->move);
    p->status = fx_game_post(p->port, p->id, "moves", p->token, body, &p->answer);
    return NULL;
}

/* A game with the human white, and its first move posted on a thread (it waits). */
static json_t *start_waiting_move(int port, char *id, char *token, struct pending_move *p,
                                  pthread_t *th)
{
    json_t *st = fx_new_game(port, "egara", "white", NULL, id, token);
    if (!st)
        return NULL;
    *p = (struct pending_move){.port = port, .id = id, .token = token, .move = fx_first_legal(st)};
    pthread_create(th, NULL, post_move, p);
    return st;
}

static long long moves_of(const char *url, const char *id)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM moves WHERE game_id = '%s'", id);
    return fx_db_number(url, sql);
}

TEST(server_workers_kill9_mid_move_another_worker_makes_it)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_without_workers(url, 0);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    /* A's move would take 20 s: it is killed after its claim. */
    const char *slow[] = {"--move-ms",       "100",   "--lease-ms", "1000",
                          "--test-think-ms", "20000", NULL};
    const char *fast[] = {"--move-ms", "100", "--lease-ms", "1000", NULL};
    pid_t a = fx_spawn_worker(url, 0, slow);
    char id[40], token[40];
    struct pending_move p;
    pthread_t th;
    json_t *st = start_waiting_move(port, id, token, &p, &th);
    CHECK(st != NULL);
    if (!st) {
        fx_stop_worker(a);
        server_stop(srv);
        return;
    }
    CHECK(wait_claimed(url));
    kill(a, SIGKILL);
    waitpid(a, NULL, 0);
    pid_t b = fx_spawn_worker(url, 0, fast);
    pthread_join(th, NULL);
    CHECK_EQ_INT(p.status, 200);
    CHECK_EQ_INT(fx_int(p.answer, "ply"), 2);
    CHECK_EQ_INT(moves_of(url, id), 2);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs"), 0);
    json_decref(p.answer);
    json_decref(st);
    CHECK_EQ_INT(fx_stop_worker(b), 0);
    server_stop(srv);
}

TEST(server_workers_lease_runs_out_move_committed_once)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_without_workers(url, 0);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    /* A is alive but slower than its lease: B makes the move, A's commit is refused. */
    const char *slow[] = {"--move-ms",       "100",  "--lease-ms", "1000",
                          "--test-think-ms", "2500", NULL};
    const char *fast[] = {"--move-ms", "100", "--lease-ms", "1000", NULL};
    pid_t a = fx_spawn_worker(url, 0, slow);
    char id[40], token[40];
    struct pending_move p;
    pthread_t th;
    json_t *st = start_waiting_move(port, id, token, &p, &th);
    CHECK(st != NULL);
    if (!st) {
        fx_stop_worker(a);
        server_stop(srv);
        return;
    }
    CHECK(wait_claimed(url));
    pid_t b = fx_spawn_worker(url, 0, fast);
    pthread_join(th, NULL);
    CHECK_EQ_INT(p.status, 200);
    CHECK_EQ_INT(fx_int(p.answer, "ply"), 2);
    usleep(2500 * 1000); /* A ends its move and tries to commit it */
    CHECK_EQ_INT(moves_of(url, id), 2);
    /* The game goes on, and A finishes cleanly. */
    json_t *now = fx_state(port, id, token);
    CHECK_EQ_INT(fx_int(now, "ply"), 2);
    CHECK_EQ_INT(fx_stop_worker(a), 0);
    if (now && !json_is_true(json_object_get(now, "over")))
        CHECK_EQ_INT(fx_move(port, id, token, fx_first_legal(now)), 200);
    CHECK_EQ_INT(moves_of(url, id), 4);
    json_decref(now);
    json_decref(p.answer);
    json_decref(st);
    CHECK_EQ_INT(fx_stop_worker(b), 0);
    server_stop(srv);
}

TEST(server_workers_sigterm_finishes_the_move_being_thought)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_without_workers(url, 0);
    CHECK(srv != NULL);
    if (!srv)
        return;
    const char *slow[] = {"--move-ms", "100", "--test-think-ms", "1500", NULL};
    pid_t w = fx_spawn_worker(url, 0, slow);
    char id[40], token[40];
    struct pending_move p;
    pthread_t th;
    json_t *st = start_waiting_move(server_port(srv), id, token, &p, &th);
    CHECK(st != NULL);
    if (st) {
        CHECK(wait_claimed(url));
        /* Told to stop mid-move: it claims no more, but commits this one first. */
        CHECK_EQ_INT(fx_stop_worker(w), 0);
        CHECK_EQ_INT(moves_of(url, id), 2);
        pthread_join(th, NULL);
        CHECK_EQ_INT(p.status, 200);
        CHECK_EQ_INT(fx_int(p.answer, "ply"), 2);
        json_decref(p.answer);
    } else {
        fx_stop_worker(w);
    }
    json_decref(st);
    server_stop(srv);
}

TEST(server_workers_queued_cap_counts_the_store)
{
    NEEDS_POSTGRES_AND_AGORA();
    const char *url = fx_store_url();
    struct server *srv = start_without_workers(url, 1);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    char id[40], token[40], id2[40], token2[40];
    struct pending_move p;
    pthread_t th;
    json_t *st = start_waiting_move(port, id, token, &p, &th);
    CHECK(st != NULL);
    if (!st) {
        server_stop(srv);
        return;
    }
    /* No worker yet: the first move waits in the store. */
    for (int i = 0; i < 250 && fx_db_number(url, "SELECT count(*) FROM engine_jobs") < 1; i++)
        usleep(20 * 1000);
    json_t *st2 = fx_new_game(port, "egara", "white", NULL, id2, token2);
    CHECK(st2 != NULL);
    if (st2)
        CHECK_EQ_INT(fx_move(port, id2, token2, fx_first_legal(st2)), 429);
    const char *fast[] = {"--move-ms", "100", NULL};
    pid_t w = fx_spawn_worker(url, 0, fast);
    pthread_join(th, NULL);
    CHECK_EQ_INT(p.status, 200);
    CHECK_EQ_INT(fx_int(p.answer, "ply"), 2);
    if (st2)
        CHECK_EQ_INT(fx_move(port, id2, token2, fx_first_legal(st2)), 200);
    json_decref(p.answer);
    json_decref(st);
    json_decref(st2);
    CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(srv);
}

TEST(server_workers_server_threads_take_shared_jobs)
{
    NEEDS_POSTGRES_AND_AGORA();
    /* A queues its moves (--workers 0); B, with an engine thread of its own and no
     * move of its own to think, takes them: no worker process at all. */
    const char *url = fx_store_url();
    struct server *a = start_without_workers(url, 0);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 1;
    cfg.shared_jobs = 1;
    cfg.db_path = url;
    struct server *b = a ? fx_start(&cfg) : NULL;
    CHECK(a != NULL && b != NULL);
    if (a && b) {
        char id[40], token[40];
        json_t *st = fx_new_game(server_port(a), "egara", "black", NULL, id, token);
        CHECK(st != NULL);
        CHECK_EQ_INT(fx_int(st, "ply"), 1);
        if (st) {
            json_t *next = NULL;
            char body[96];
            snprintf(body, sizeof body, "{\"move\":\"%s\"}", fx_first_legal(st));
            CHECK_EQ_INT(fx_game_post(server_port(a), id, "moves", token, body, &next), 200);
            CHECK_EQ_INT(fx_int(next, "ply"), 3);
            json_decref(next);
        }
        CHECK_EQ_INT(moves_of(url, id), 3);
        json_decref(st);
    }
    server_stop(b);
    server_stop(a);
}

TEST(server_workers_move_heard_on_another_servers_stream)
{
    NEEDS_POSTGRES_AND_AGORA();
    /* The move is asked through A, made by a worker, and B's event stream tells it. */
    const char *url = fx_store_url();
    struct server *a = start_without_workers(url, 0);
    struct server *b = a ? start_without_workers(url, 0) : NULL;
    CHECK(a != NULL && b != NULL);
    const char *fast[] = {"--move-ms", "100", NULL};
    pid_t w = a && b ? fx_spawn_worker(url, 0, fast) : -1;
    char id[40], token[40];
    json_t *st = a && b ? fx_new_game(server_port(a), "egara", "white", NULL, id, token) : NULL;
    if (st) {
        struct sse_reader r;
        char path[96], event[32];
        snprintf(path, sizeof path, "/api/games/%s/events", id);
        CHECK_EQ_INT(sse_get(&r, server_port(b), path, NULL), 200);
        CHECK_EQ_INT(fx_move(server_port(a), id, token, fx_first_legal(st)), 200);
        int last = 0;
        for (char *data; last < 2 && (data = sse_next(&r, event, sizeof event, 5000));) {
            json_t *j = json_loads(data, 0, NULL);
            if (!strcmp(event, "move"))
                last = (int)fx_int(j, "ply");
            json_decref(j);
            free(data);
        }
        CHECK_EQ_INT(last, 2);
        sse_close(&r);
    }
    json_decref(st);
    if (w > 0)
        CHECK_EQ_INT(fx_stop_worker(w), 0);
    server_stop(b);
    server_stop(a);
}

/* A game where the computer (white) opens, and its first move queued: 0, or -1. */
static int queue_computer_move(struct store *s, int n)
{
    char err[256];
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "w%031d", n);
    snprintf(g.game, sizeof g.game, "egara");
    snprintf(g.token_hash, sizeof g.token_hash, "tok");
    g.level = 1;
    g.human_side = SIDE_BLACK;
    g.created_ms = g.updated_ms = fx_wall_ms();
    struct store_job j;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "%s.0", g.id);
    snprintf(j.kind, sizeof j.kind, "move");
    snprintf(j.game_id, sizeof j.game_id, "%s", g.id);
    snprintf(j.client, sizeof j.client, "c%d", n);
    j.created_ms = fx_wall_ms();
    if (store_create_game(s, &g, err, sizeof err) != 0 ||
        store_put_job(s, &j, err, sizeof err) != 0)
        return -1;
    return 0;
}

/* A worker of `threads` threads in this process, each move taking think_ms. */
static struct worker *start_worker_here(const char *url, int threads, int think_ms)
{
    struct worker_config wc;
    worker_config_default(&wc);
    wc.db_url = url;
    wc.threads = threads;
    wc.move_time_ms = 100;
    wc.test_think_ms = think_ms;
    char err[256];
    struct worker *w = worker_start(&wc, err, sizeof err);
    if (!w)
        fprintf(stderr, "worker_start: %s\n", err);
    return w;
}

TEST(server_workers_idle_threads_start_jobs_queued_together)
{
    if (!fx_on_postgres())
        SKIP("engine jobs are for PostgreSQL (tests/suites/postgres)");
    const char *url = fx_store_url();
    char err[256];
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "store_open: %s", err);
    /* Two threads, each move 1.5 s: one watches the database, one waits for it. */
    struct worker *w = s ? start_worker_here(url, 2, 1500) : NULL;
    CHECK(w != NULL);
    if (!w) {
        store_close(s);
        return;
    }
    usleep(500 * 1000);
    CHECK_EQ_INT(queue_computer_move(s, 1), 0);
    CHECK_EQ_INT(queue_computer_move(s, 2), 0);
    int64_t queued = fx_now_ms(), both = -1;
    for (int i = 0; i < 250 && both < 0; i++) {
        if (fx_db_number(url, "SELECT count(*) FROM engine_jobs WHERE worker <> ''") == 2)
            both = fx_now_ms() - queued;
        else
            usleep(20 * 1000);
    }
    /* Not one after the other (the second would start after the first's 1.5 s). */
    CHECK_MSG(both >= 0 && both < 1000, "both jobs started after %lld ms", (long long)both);
    worker_stop(w); /* the moves being thought are committed first */
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM moves"), 2);
    CHECK_EQ_INT(fx_db_number(url, "SELECT count(*) FROM engine_jobs"), 0);
    store_close(s);
}

TEST(server_workers_idle_worker_stops_within_its_wait)
{
    if (!fx_on_postgres())
        SKIP("engine jobs are for PostgreSQL (tests/suites/postgres)");
    struct worker *w = start_worker_here(fx_store_url(), 3, 0);
    CHECK(w != NULL);
    if (!w)
        return;
    usleep(300 * 1000); /* idle: one thread on the database, two waiting for it */
    int64_t t0 = fx_now_ms();
    worker_stop(w);
    struct worker_config wc;
    worker_config_default(&wc);
    CHECK_MSG(fx_now_ms() - t0 < wc.wait_ms + 1000, "stopped after %lld ms",
              (long long)(fx_now_ms() - t0));
}

TEST(server_workers_bad_config)
{
    static const char *const bad[][8] = {
        {"worker", NULL},
        {"worker", "--db", "agora.db", NULL},
        {"worker", "--db", "postgresql://agora:secret@127.0.0.1:1/agora", NULL},
        {"worker", "--db", "postgresql://agora:secret@127.0.0.1:1/agora", "--threads", "0", NULL},
        {"worker", "--db", "postgresql://a@127.0.0.1:1/a", "--move-ms", "5000", "--lease-ms",
         "1000", NULL},
        {"worker", "--bogus", "1", NULL},
        {"serve", "--port", "0", "--db", "sqlite:agora-none.db", "--workers", "0", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[10] = {"agora"};
        int argc = 1;
        for (int k = 0; k < 8 && bad[i][k]; k++)
            argv[argc++] = (char *)bad[i][k];
        FILE *out = tmpfile(), *err = tmpfile();
        struct cli_io io = {stdin, out, err};
        int code = cli_main(argc, argv, &io);
        CHECK_MSG(code == 2, "case %zu exits %d", i, code);
        char line[512] = "", more[512] = "";
        rewind(err);
        CHECK_MSG(fgets(line, sizeof line, err) && !strncmp(line, "agora: ", 7), "case %zu: '%s'",
                  i, line);
        CHECK_MSG(!fgets(more, sizeof more, err), "case %zu: a second line '%s'", i, more);
        CHECK_MSG(!strstr(line, "secret"), "case %zu: '%s'", i, line);
        fclose(out);
        fclose(err);
    }
}
