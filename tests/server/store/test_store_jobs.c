/* The engine jobs of the store (store_ops.def "Engine jobs") on the backend the run
 * is on: queued once, claimed by one claimer for a lease, claimed again when the lease
 * runs out, games before analyses and each address in turn, a move committed once; an
 * idle claimer's wait (wait_jobs) woken by a job queued elsewhere or a lease's end,
 * and on PostgreSQL by a job queued after its LISTEN connection broke. */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

static struct store *open_url(struct test_ctx *t__, const char *url)
{
    char err[256] = "";
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "store_open: %s", err);
    return s;
}

static void a_game(struct store *s, struct test_ctx *t__, int n, struct store_game *g)
{
    char err[256];
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%032d", n);
    snprintf(g->game, sizeof g->game, "egara-guti");
    snprintf(g->token_hash, sizeof g->token_hash, "tok");
    g->level = 1;
    g->human_side = 0;
    g->created_ms = g->updated_ms = 1000;
    CHECK_EQ_INT(store_create_game(s, g, err, sizeof err), 0);
}

static void a_job(struct store_job *j, const char *game, int ply, const char *client, int priority,
                  int64_t created)
{
    memset(j, 0, sizeof *j);
    snprintf(j->id, sizeof j->id, "%s.%d.%s", game, ply, client);
    snprintf(j->kind, sizeof j->kind, "%s", priority ? "analysis" : "move");
    snprintf(j->game_id, sizeof j->game_id, "%s", game);
    snprintf(j->client, sizeof j->client, "%s", client);
    j->ply = ply;
    j->priority = priority;
    j->created_ms = created;
}

TEST(store_jobs_claimed_once_and_finished_once)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_game g;
    a_game(s, TEST_CTX, 1, &g);
    struct store_job j, got, again;
    a_job(&j, g.id, 0, "10.0.0.1", 0, 2000);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0); /* idempotent */
    int n = -1;
    CHECK_EQ_INT(store_count_jobs(s, "move", "10.0.0.1", &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_claim_job(s, "w1", 3000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 0);
    CHECK_STR(got.id, j.id);
    CHECK_STR(got.game_id, g.id);
    CHECK_STR(got.worker, "w1");
    CHECK_STR(got.kind, "move");
    CHECK_EQ_INT(got.tries, 1);
    CHECK_EQ_INT((int)got.lease_until_ms, 3500);
    /* Held: nobody else gets it while the lease runs. */
    CHECK_EQ_INT(
        store_claim_job(s, "w2", 3100, 500, STORE_JOB_PRIORITY_ANY, &again, err, sizeof err), 1);
    CHECK_EQ_INT(
        store_finish_job(s, &got, "c3-d4", 0, 0, 3200, "{\"server\":\"w1\"}", err, sizeof err), 0);
    CHECK_EQ_INT(store_count_jobs(s, "move", "10.0.0.1", &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 0);
    /* Twice (a second claimer of the same ply): refused, nothing stored. */
    CHECK_EQ_INT(store_finish_job(s, &got, "c3-d4", 0, 0, 3300, "{}", err, sizeof err), 1);
    struct store_game back;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    CHECK_EQ_INT(store_load_game(s, g.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK(n >= 1 && !strcmp(moves[0], "c3-d4"));
    free(moves);
    /* The move's event is in the outbox, for every server. */
    int64_t last = 0;
    CHECK_EQ_INT(store_wait_events(s, 0, 0, &last, err, sizeof err), 0);
    CHECK(last >= 1);
    CHECK_EQ_INT(
        store_claim_job(s, "w2", 9000, 500, STORE_JOB_PRIORITY_ANY, &again, err, sizeof err), 1);
    /* A game over refuses its job's move. */
    a_job(&j, g.id, 1, "10.0.0.1", 0, 4000);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    CHECK_EQ_INT(store_claim_job(s, "w1", 5000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 0);
    CHECK_EQ_INT(store_set_result(s, g.id, 1, 1, 5100, err, sizeof err), 0);
    CHECK_EQ_INT(store_finish_job(s, &got, "d5-c4", 0, 0, 5200, "{}", err, sizeof err), 1);
    CHECK_EQ_INT(store_drop_job(s, got.id, err, sizeof err), 0);
    CHECK_EQ_INT(
        store_claim_job(s, "w1", 99000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 1);
    store_close(s);
}

TEST(store_jobs_lease_runs_out)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_job j, got;
    a_job(&j, "00000000000000000000000000000009", 4, "a", 0, 100);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    CHECK_EQ_INT(
        store_claim_job(s, "killed", 1000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
    CHECK_EQ_INT(
        store_claim_job(s, "other", 1499, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 1);
    CHECK_EQ_INT(
        store_claim_job(s, "other", 1501, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
    CHECK_STR(got.worker, "other");
    CHECK_EQ_INT(got.tries, 2);
    CHECK_EQ_INT(got.ply, 4);
    store_close(s);
}

TEST(store_jobs_games_first_then_each_address_in_turn)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_job j, got;
    const char *game = "00000000000000000000000000000007";
    /* An analysis queued first, then three moves of one address and one of another. */
    a_job(&j, game, 0, "slow", 1, 100);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    for (int i = 0; i < 3; i++) {
        a_job(&j, game, i + 1, "flood", 0, 200 + i);
        CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    }
    a_job(&j, game, 9, "one", 0, 300);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    const char *want[] = {"flood", "one", "flood", "flood", "slow"};
    const int rounds[] = {0, 0, 1, 2, 0};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(
            store_claim_job(s, "w", 1000, 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
        CHECK_MSG(!strcmp(got.client, want[i]) && got.round == rounds[i],
                  "claim %d: %s round %d, wanted %s round %d", i, got.client, got.round, want[i],
                  rounds[i]);
    }
    CHECK_EQ_INT(
        store_claim_job(s, "w", 1000, 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 1);
    store_close(s);
}

TEST(store_jobs_one_address_in_order_a_new_one_at_the_front)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_job j, got;
    const char *game = "00000000000000000000000000000006";
    /* One address queues 4, two are served, it queues 2 more: its jobs stay in order. */
    for (int i = 0; i < 4; i++) {
        a_job(&j, game, i, "flood", 0, 100 + i);
        CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    }
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(
            store_claim_job(s, "w", 1000, 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
        CHECK_EQ_INT(got.ply, i);
        CHECK_EQ_INT(store_drop_job(s, got.id, err, sizeof err), 0);
    }
    for (int i = 4; i < 6; i++) {
        a_job(&j, game, i, "flood", 0, 200 + i);
        CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    }
    /* A new address comes after the flood's next job, before the rest. */
    a_job(&j, game, 9, "new", 0, 300);
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    const int want[] = {2, 9, 3, 4, 5};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(
            store_claim_job(s, "w", 1000, 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err), 0);
        CHECK_MSG(got.ply == want[i], "claim %d: ply %d (%s round %d), wanted %d", i, got.ply,
                  got.client, got.round, want[i]);
    }
    store_close(s);
}

/* A review's job: its payload read back, its progress recorded and its lease renewed
 * only while its claimer holds it, read by any server through get_job. */
TEST(store_jobs_review_payload_progress_and_lease)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256], *payload = NULL;
    struct store_job j, got, seen;
    a_job(&j, "00000000000000000000000000000004", 0, "r", STORE_JOB_PRIORITY_REVIEW, 100);
    snprintf(j.id, sizeof j.id, "review.00000000000000000000000000000004");
    snprintf(j.kind, sizeof j.kind, "review");
    j.payload = "{\"game\":\"chess\",\"moves\":[\"e2e4\"]}";
    snprintf(j.game, sizeof j.game, "chess");
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    /* Its game in its row (migration 17), read without the payload; a job put without
     * one (as every row made before) reads "". */
    CHECK_EQ_INT(store_get_job(s, j.id, &seen, err, sizeof err), 0);
    CHECK_STR(seen.game, "chess");
    CHECK_EQ_INT(store_job_payload(s, j.id, &payload, err, sizeof err), 0);
    CHECK(payload && !strcmp(payload, j.payload));
    free(payload);
    CHECK_EQ_INT(store_job_payload(s, "review.none", &payload, err, sizeof err), 1);
    CHECK_EQ_INT(store_get_job(s, "review.none", &seen, err, sizeof err), 1);
    /* A move's job queued after it is claimed first (games before reviews). */
    struct store_job move;
    a_job(&move, "00000000000000000000000000000004", 3, "r", 0, 200);
    CHECK_EQ_INT(store_put_job(s, &move, err, sizeof err), 0);
    int n = -1;
    CHECK_EQ_INT(store_count_jobs(s, "review", "r", &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_count_jobs(s, "move", "r", &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_count_jobs(s, "review", NULL, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_count_jobs(s, "review", "other", &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(store_job_payload(s, move.id, &payload, err, sizeof err), 0);
    CHECK(payload && !payload[0]);
    free(payload);
    CHECK_EQ_INT(store_get_job(s, move.id, &seen, err, sizeof err), 0);
    CHECK_STR(seen.game, "");
    CHECK_EQ_INT(store_claim_job(s, "w1", 1000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 0);
    CHECK_STR(got.kind, "move");
    CHECK_EQ_INT(store_drop_job(s, got.id, err, sizeof err), 0);
    /* A claimer of moves only (a server's own engine threads) leaves the review. */
    CHECK_EQ_INT(
        store_claim_job(s, "w1", 1000, 500, STORE_JOB_PRIORITY_MOVE, &got, err, sizeof err), 1);
    CHECK_EQ_INT(store_claim_job(s, "w1", 1000, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 0);
    CHECK_STR(got.id, j.id);
    CHECK_STR(got.kind, "review");
    CHECK_EQ_INT(got.done, 0);
    /* Progress renews the lease: at 1600 nobody else may claim it. */
    CHECK_EQ_INT(store_job_progress(s, j.id, "w1", 3, 41, 1200, 500, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_job(s, j.id, &seen, err, sizeof err), 0);
    CHECK_EQ_INT(seen.done, 3);
    CHECK_EQ_INT(seen.total, 41);
    CHECK_EQ_INT((int)seen.lease_until_ms, 1700);
    CHECK_STR(seen.worker, "w1");
    CHECK_EQ_INT(store_claim_job(s, "w2", 1600, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 1);
    /* Its lease runs out: w2 takes it over, and w1's progress is refused. */
    CHECK_EQ_INT(store_claim_job(s, "w2", 1701, 500, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
                 0);
    CHECK_EQ_INT(got.tries, 2);
    CHECK_EQ_INT(store_job_progress(s, j.id, "w1", 4, 41, 1800, 500, err, sizeof err), 1);
    CHECK_EQ_INT(store_get_job(s, j.id, &seen, err, sizeof err), 0);
    CHECK_EQ_INT(seen.done, 3);
    CHECK_STR(seen.worker, "w2");
    CHECK_EQ_INT(store_job_progress(s, j.id, "w2", 5, 41, 1800, 500, err, sizeof err), 0);
    CHECK_EQ_INT(store_drop_job(s, j.id, err, sizeof err), 0);
    CHECK_EQ_INT(store_job_progress(s, j.id, "w2", 6, 41, 1900, 500, err, sizeof err), 1);
    CHECK_EQ_INT(store_get_job(s, j.id, &seen, err, sizeof err), 1);
    store_close(s);
}

/* ---- two claimers never take one job ---- */

enum { JOBS = 40, CLAIMERS = 4 };

struct claimer {
    struct store *s;
    char name[16];
    atomic_int *claimed; /* per job: how many times claimed */
    int got;
};

static void *claim_all(void *arg)
{
    struct claimer *c = arg;
    char err[256];
    struct store_job j;
    while (store_claim_job(c->s, c->name, 1000, 600000, STORE_JOB_PRIORITY_ANY, &j, err,
                           sizeof err) == 0) {
        atomic_fetch_add(&c->claimed[j.ply], 1);
        c->got++;
    }
    return NULL;
}

TEST(store_jobs_two_claimers_never_take_one_job)
{
    const char *url = fx_store_url();
    struct store *stores[CLAIMERS] = {0};
    /* PostgreSQL: a store (a pool) each, as workers on several machines; SQLite: one. */
    int n_stores = fx_on_postgres() ? CLAIMERS : 1;
    for (int i = 0; i < n_stores; i++)
        if (!(stores[i] = open_url(TEST_CTX, url)))
            goto out;
    char err[256];
    for (int i = 0; i < JOBS; i++) {
        struct store_job j;
        a_job(&j, "00000000000000000000000000000005", i, "c", 0, 100 + i);
        CHECK_EQ_INT(store_put_job(stores[0], &j, err, sizeof err), 0);
    }
    atomic_int claimed[JOBS];
    for (int i = 0; i < JOBS; i++)
        atomic_init(&claimed[i], 0);
    struct claimer c[CLAIMERS];
    pthread_t th[CLAIMERS];
    for (int i = 0; i < CLAIMERS; i++) {
        c[i] = (struct claimer){.s = stores[i % n_stores], .claimed = claimed};
        snprintf(c[i].name, sizeof c[i].name, "w%d", i);
        pthread_create(&th[i], NULL, claim_all, &c[i]);
    }
    int total = 0;
    for (int i = 0; i < CLAIMERS; i++) {
        pthread_join(th[i], NULL);
        total += c[i].got;
    }
    CHECK_EQ_INT(total, JOBS);
    for (int i = 0; i < JOBS; i++)
        CHECK_MSG(atomic_load(&claimed[i]) == 1, "job %d claimed %d times", i,
                  atomic_load(&claimed[i]));
out:
    for (int i = 0; i < n_stores; i++)
        store_close(stores[i]);
}

/* ---- waiting for a job (wait_jobs) ---- */

/* The wait's timeout in these tests: far above the bounds they check, so none can
 * pass by timing out (a timed-out wait also says 1, not 0). */
enum { WAIT_MS = 5000, SOON_MS = 1000 };

static int64_t wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

struct waiter {
    struct store *s;
    int timeout_ms;
    int rc;
    int64_t returned; /* fx_now_ms() as it returned */
    char err[256];
};

static void *wait_for_job(void *arg)
{
    struct waiter *w = arg;
    w->rc = store_wait_jobs(w->s, wall_now(), w->timeout_ms, STORE_JOB_PRIORITY_ANY, w->err,
                            sizeof w->err);
    w->returned = fx_now_ms();
    return NULL;
}

/* Two stores on PostgreSQL (the waiter's and the one queueing, as two machines); on
 * SQLite (one server a file) the same one: 0, or -1 (said). */
static int open_pair(struct test_ctx *t__, struct store **waiting, struct store **queueing)
{
    const char *url = fx_store_url();
    *waiting = open_url(t__, url);
    *queueing = *waiting && fx_on_postgres() ? open_url(t__, url) : *waiting;
    return *waiting && *queueing ? 0 : -1;
}

static void close_pair(struct store *waiting, struct store *queueing)
{
    if (queueing != waiting)
        store_close(queueing);
    store_close(waiting);
}

TEST(store_jobs_wait_wakes_when_a_job_is_queued)
{
    struct store *s, *q;
    if (open_pair(TEST_CTX, &s, &q) != 0)
        return;
    struct waiter w = {.s = s, .timeout_ms = WAIT_MS};
    pthread_t th;
    pthread_create(&th, NULL, wait_for_job, &w);
    pause_ms(300); /* the waiter is waiting */
    char err[256];
    struct store_job j;
    a_job(&j, "00000000000000000000000000000004", 0, "a", 0, wall_now());
    int64_t queued = fx_now_ms();
    CHECK_EQ_INT(store_put_job(q, &j, err, sizeof err), 0);
    pthread_join(th, NULL);
    CHECK_MSG(w.rc == 0, "wait_jobs: %d (%s)", w.rc, w.err);
    CHECK_MSG(w.returned - queued < SOON_MS, "woken %lld ms after the job was queued",
              (long long)(w.returned - queued));
    CHECK_MSG(w.returned >= queued, "returned before the job was queued");
    /* The job is there to claim; then, none left, the next wait sleeps again. */
    struct store_job got;
    CHECK_EQ_INT(
        store_claim_job(s, "w", wall_now(), 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
        0);
    CHECK_STR(got.id, j.id);
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 100, STORE_JOB_PRIORITY_ANY, err, sizeof err), 1);
    close_pair(s, q);
}

TEST(store_jobs_wait_times_out_when_nothing_comes)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    int64_t t0 = fx_now_ms();
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 400, STORE_JOB_PRIORITY_ANY, err, sizeof err), 1);
    int64_t took = fx_now_ms() - t0;
    CHECK_MSG(took >= 390 && took < 400 + SOON_MS, "a wait of 400 ms took %lld ms",
              (long long)took);
    /* No timeout: a look, no wait. */
    t0 = fx_now_ms();
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 0, STORE_JOB_PRIORITY_ANY, err, sizeof err), 1);
    CHECK_MSG(fx_now_ms() - t0 < SOON_MS, "a wait of 0 ms took %lld ms",
              (long long)(fx_now_ms() - t0));
    store_close(s);
}

TEST(store_jobs_wait_ignores_jobs_above_its_priority)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_game g;
    a_game(s, TEST_CTX, 1, &g);
    struct store_job j;
    a_job(&j, g.id, 0, "10.0.0.1", STORE_JOB_PRIORITY_REVIEW, wall_now());
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    /* A server's engine threads claim moves only: a review waiting wakes none of them
     * (else their wait would return at once, again and again). */
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 100, STORE_JOB_PRIORITY_MOVE, err, sizeof err), 1);
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 100, STORE_JOB_PRIORITY_ANY, err, sizeof err), 0);
    store_close(s);
}

TEST(store_jobs_wait_returns_at_once_for_a_job_waiting_and_at_a_leases_end)
{
    struct store *s = open_url(TEST_CTX, fx_store_url());
    if (!s)
        return;
    char err[256];
    struct store_job j, got;
    a_job(&j, "00000000000000000000000000000003", 0, "a", 0, wall_now());
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
    int64_t t0 = fx_now_ms();
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), WAIT_MS, STORE_JOB_PRIORITY_ANY, err, sizeof err),
                 0);
    CHECK_MSG(fx_now_ms() - t0 < SOON_MS, "a job waiting: the wait took %lld ms",
              (long long)(fx_now_ms() - t0));
    /* Claimed for 700 ms by a worker that then dies: nobody writes when its lease
     * ends, and the wait wakes then by itself. */
    CHECK_EQ_INT(store_claim_job(s, "killed", wall_now(), 700, STORE_JOB_PRIORITY_ANY, &got, err,
                                 sizeof err),
                 0);
    t0 = fx_now_ms();
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), WAIT_MS, STORE_JOB_PRIORITY_ANY, err, sizeof err),
                 0);
    int64_t took = fx_now_ms() - t0;
    CHECK_MSG(took >= 500 && took < 700 + SOON_MS, "the lease of 700 ms ended after %lld ms",
              (long long)took);
    CHECK_EQ_INT(store_claim_job(s, "other", wall_now(), 60000, STORE_JOB_PRIORITY_ANY, &got, err,
                                 sizeof err),
                 0);
    CHECK_EQ_INT(got.tries, 2);
    store_close(s);
}

/* Ends the sessions of this database that wait on a job (the LISTEN connections of
 * wait_jobs, their last statement its read of the queue): how many. */
static int end_listeners(const char *url)
{
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQstatus(c) == CONNECTION_OK
                      ? PQexec(c, "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))"
                                  " FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                                  " AND query LIKE 'SELECT min(lease_until_ms) FROM engine_jobs%'")
                      : NULL;
    int n = r && PQresultStatus(r) == PGRES_TUPLES_OK ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    PQfinish(c);
    return n;
}

TEST(store_jobs_wait_listens_again_after_its_connection_broke)
{
    if (!fx_on_postgres())
        SKIP("LISTEN/NOTIFY is PostgreSQL's (tests/pg-run)");
    struct store *s, *q;
    if (open_pair(TEST_CTX, &s, &q) != 0)
        return;
    const char *url = fx_store_url(); /* any schema: the sessions are the server's */
    char err[256];
    struct store_job j;
    /* Broken between two waits: the next one connects and LISTENs again. */
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 50, STORE_JOB_PRIORITY_ANY, err, sizeof err), 1);
    CHECK_MSG(end_listeners(url) >= 1, "no listener ended");
    struct waiter w = {.s = s, .timeout_ms = WAIT_MS};
    pthread_t th;
    pthread_create(&th, NULL, wait_for_job, &w);
    pause_ms(300);
    a_job(&j, "00000000000000000000000000000002", 0, "a", 0, wall_now());
    int64_t queued = fx_now_ms();
    CHECK_EQ_INT(store_put_job(q, &j, err, sizeof err), 0);
    pthread_join(th, NULL);
    CHECK_MSG(w.rc == 0 && w.returned - queued < SOON_MS, "wait_jobs: %d after %lld ms (%s)", w.rc,
              (long long)(w.returned - queued), w.err);
    struct store_job got;
    CHECK_EQ_INT(
        store_claim_job(s, "w", wall_now(), 60000, STORE_JOB_PRIORITY_ANY, &got, err, sizeof err),
        0);
    /* Broken during a wait: it connects again, reads the queue, and wakes for the job
     * queued after. */
    w = (struct waiter){.s = s, .timeout_ms = WAIT_MS};
    pthread_create(&th, NULL, wait_for_job, &w);
    pause_ms(300);
    CHECK_MSG(end_listeners(url) >= 1, "no listener ended");
    pause_ms(300); /* it has connected again */
    a_job(&j, "00000000000000000000000000000002", 1, "a", 0, wall_now());
    queued = fx_now_ms();
    CHECK_EQ_INT(store_put_job(q, &j, err, sizeof err), 0);
    pthread_join(th, NULL);
    CHECK_MSG(w.rc == 0 && w.returned - queued < SOON_MS && w.returned >= queued,
              "wait_jobs: %d, %lld ms after the job (%s)", w.rc, (long long)(w.returned - queued),
              w.err);
    close_pair(s, q);
}

static int run_script(const char *env)
{
    const char *cmd = getenv(env);
    return cmd && cmd[0] ? system(cmd) : -1;
}

TEST(store_jobs_wait_says_why_when_the_database_is_away_then_goes_on)
{
    if (!fx_on_postgres() || !getenv("AGORA_TEST_PG_STOP") || !getenv("AGORA_TEST_PG_START"))
        SKIP("PostgreSQL of tests/pg-run only (it stops and starts that database)");
    struct store *s, *q;
    if (open_pair(TEST_CTX, &s, &q) != 0)
        return;
    char err[256] = "";
    CHECK_EQ_INT(store_wait_jobs(s, wall_now(), 50, STORE_JOB_PRIORITY_ANY, err, sizeof err), 1);
    CHECK_EQ_INT(run_script("AGORA_TEST_PG_STOP"), 0);
    /* Away: the wait fails at once with one line, and no crash. */
    int64_t t0 = fx_now_ms();
    int rc = store_wait_jobs(s, wall_now(), WAIT_MS, STORE_JOB_PRIORITY_ANY, err, sizeof err);
    CHECK_MSG(rc < 0, "wait_jobs with the database away: %d", rc);
    CHECK_MSG(fx_now_ms() - t0 < WAIT_MS, "the failure took %lld ms",
              (long long)(fx_now_ms() - t0));
    const char *prefix = "database: wait for jobs: ";
    CHECK_MSG(!strncmp(err, prefix, strlen(prefix)) && !strchr(err, '\n') &&
                  err[strlen(err) - 1] != ' ',
              "error: '%s'", err);
    CHECK_EQ_INT(run_script("AGORA_TEST_PG_START"), 0);
    /* Back: the next wait connects and LISTENs again by itself. */
    struct waiter w = {.s = s, .timeout_ms = WAIT_MS};
    pthread_t th;
    pthread_create(&th, NULL, wait_for_job, &w);
    pause_ms(300);
    struct store_job j;
    a_job(&j, "00000000000000000000000000000001", 0, "a", 0, wall_now());
    int64_t queued = 0;
    int put = -1;
    for (int i = 0; i < 50 && put != 0; i++) { /* the pool connects again on its next use */
        queued = fx_now_ms();
        if ((put = store_put_job(q, &j, err, sizeof err)) != 0)
            pause_ms(100);
    }
    CHECK_MSG(put == 0, "put_job after the restart: %s", err);
    pthread_join(th, NULL);
    CHECK_MSG(w.rc == 0 && w.returned - queued < SOON_MS, "wait_jobs: %d after %lld ms (%s)", w.rc,
              (long long)(w.returned - queued), w.err);
    close_pair(s, q);
}
