/* The capped queueing of engine jobs (store_ops.def put_job_capped) on the backend the
 * run is on: many callers at the same moment, on two stores of one database where
 * there are two (PostgreSQL: two servers), never queue past a cap; the count and the
 * insert are one step. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

#define RACERS 16

struct racer {
    struct store *s;
    pthread_barrier_t *go;
    int n;
    const char *client; /* NULL: an address of its own */
    int client_max, kind_max;
    int rc, full;
    char err[256];
};

static void *race(void *arg)
{
    struct racer *r = arg;
    struct store_job j;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "review.cap%d", r->n);
    snprintf(j.kind, sizeof j.kind, "review");
    snprintf(j.game_id, sizeof j.game_id, "cap%d", r->n);
    snprintf(j.game, sizeof j.game, "chess");
    if (r->client)
        snprintf(j.client, sizeof j.client, "%s", r->client);
    else
        snprintf(j.client, sizeof j.client, "10.0.1.%d", r->n);
    j.priority = STORE_JOB_PRIORITY_REVIEW;
    j.created_ms = fx_wall_ms();
    j.payload = "{}";
    pthread_barrier_wait(r->go);
    r->rc =
        store_put_job_capped(r->s, &j, r->client_max, r->kind_max, &r->full, r->err, sizeof r->err);
    return NULL;
}

/* RACERS callers at once, half on each store: how many were refused by each cap
 * (refused[1] the client's, refused[2] the kind's) and the jobs queued. */
static int run_race(struct test_ctx *t__, const char *client, int client_max, int kind_max,
                    int refused[3])
{
    const char *url = fx_store_url();
    char err[256];
    struct store *s[2] = {store_open(url, NULL, err, sizeof err), NULL};
    CHECK_MSG(s[0] != NULL, "store_open: %s", err);
    if (!s[0])
        return -1;
    s[1] = fx_on_postgres() ? store_open(url, NULL, err, sizeof err) : s[0];
    CHECK_MSG(s[1] != NULL, "store_open: %s", err);
    struct racer r[RACERS];
    pthread_t th[RACERS];
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, RACERS);
    for (int i = 0; i < RACERS; i++) {
        r[i] = (struct racer){.s = s[i % 2] ? s[i % 2] : s[0],
                              .go = &go,
                              .n = i,
                              .client = client,
                              .client_max = client_max,
                              .kind_max = kind_max};
        pthread_create(&th[i], NULL, race, &r[i]);
    }
    refused[0] = refused[1] = refused[2] = 0;
    for (int i = 0; i < RACERS; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(r[i].rc == 0, "put_job_capped: %s", r[i].err);
        refused[r[i].full >= 0 && r[i].full <= 2 ? r[i].full : 0]++;
        if (r[i].rc == 0 && r[i].full == 0) { /* queued whole: its game in its row too */
            char id[64];
            struct store_job got;
            snprintf(id, sizeof id, "review.cap%d", i);
            CHECK_EQ_INT(store_get_job(s[0], id, &got, err, sizeof err), 0);
            CHECK_STR(got.game, "chess");
        }
    }
    pthread_barrier_destroy(&go);
    int queued = -1;
    CHECK_EQ_INT(store_count_jobs(s[0], "review", NULL, &queued, err, sizeof err), 0);
    if (s[1] && s[1] != s[0])
        store_close(s[1]);
    store_close(s[0]);
    return queued;
}

TEST(store_job_caps_one_address_at_once_gets_its_cap)
{
    int refused[3];
    int queued = run_race(TEST_CTX, "10.0.0.9", 2, 100, refused);
    CHECK_EQ_INT(queued, 2);
    CHECK_EQ_INT(refused[0], 2); /* queued */
    CHECK_EQ_INT(refused[1], RACERS - 2);
    CHECK_EQ_INT(refused[2], 0);
}

TEST(store_job_caps_many_addresses_at_once_get_the_kinds_cap)
{
    int refused[3];
    int queued = run_race(TEST_CTX, NULL, 1, 3, refused);
    CHECK_EQ_INT(queued, 3);
    CHECK_EQ_INT(refused[0], 3);
    CHECK_EQ_INT(refused[1], 0);
    CHECK_EQ_INT(refused[2], RACERS - 3);
}
