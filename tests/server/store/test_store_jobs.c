/* The engine jobs of the store (store_ops.def "Engine jobs") on the backend the run
 * is on: queued once, claimed by one claimer for a lease, claimed again when the lease
 * runs out, games before analyses and each address in turn, a move committed once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
    CHECK_EQ_INT(store_put_job(s, &j, err, sizeof err), 0);
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
