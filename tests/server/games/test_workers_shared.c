/* The idle engine threads of a --shared-jobs server (src/server/games/workers_shared.h):
 * asleep until the database says a shared move is there, no poll, and awake at once
 * for a move of their own server. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "core/types.h"
#include "server/server_state.h"
#include "store/store.h"
#include "worker/worker.h"

static struct server *start_shared(const char *url)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 2;
    cfg.shared_jobs = 1;
    cfg.db_path = url;
    return fx_start(&cfg);
}

/* A stored egara game whose computer (white) opens, its first move queued as a shared
 * job: 0, or -1. */
static int queue_opening_move(struct store *s, const char *id)
{
    char err[256];
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.game, sizeof g.game, "egara");
    snprintf(g.token_hash, sizeof g.token_hash, "tok");
    g.level = 1;
    g.human_side = SIDE_BLACK;
    g.created_ms = g.updated_ms = fx_wall_ms();
    struct store_job j;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "%s.0", id);
    snprintf(j.kind, sizeof j.kind, "move");
    snprintf(j.game_id, sizeof j.game_id, "%s", id);
    snprintf(j.client, sizeof j.client, "elsewhere");
    j.created_ms = fx_wall_ms();
    if (store_create_game(s, &g, err, sizeof err) != 0 ||
        store_put_job(s, &j, err, sizeof err) != 0) {
        fprintf(stderr, "queue: %s\n", err);
        return -1;
    }
    return 0;
}

TEST(server_workers_shared_idle_server_claims_nothing)
{
    if (!fx_on_postgres())
        SKIP("the shared jobs are for PostgreSQL (tests/suites/postgres)");
    struct server *srv = start_shared(fx_store_url());
    CHECK(srv != NULL);
    if (!srv)
        return;
    usleep(300 * 1000); /* both threads asleep */
    long before = worker_claims(srv->shared_jobs);
    usleep(1500 * 1000);
    long claims = worker_claims(srv->shared_jobs) - before;
    /* A poll every 50 ms made about 60 in that time. */
    CHECK_MSG(claims == 0, "%ld claims in 1.5 s of an idle server", claims);
    server_stop(srv);
}

TEST(server_workers_shared_job_claimed_promptly)
{
    if (!fx_on_postgres())
        SKIP("the shared jobs are for PostgreSQL (tests/suites/postgres)");
    const char *url = fx_store_url();
    char err[256];
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "store_open: %s", err);
    struct server *srv = s ? start_shared(url) : NULL;
    CHECK(srv != NULL);
    if (srv) {
        usleep(500 * 1000); /* idle */
        int64_t t0 = fx_now_ms(), took = -1;
        CHECK_EQ_INT(queue_opening_move(s, "sharedwait0000000000000000000001"), 0);
        for (int i = 0; i < 500 && took < 0; i++) {
            if (fx_db_number(url, "SELECT count(*) FROM moves") == 1)
                took = fx_now_ms() - t0;
            else
                usleep(10 * 1000);
        }
        /* Well under the threads' own look every 10 s. */
        CHECK_MSG(took >= 0 && took < 2000, "the shared move was made after %lld ms",
                  (long long)took);
        /* A move of its own wakes a sleeping thread at once. */
        usleep(500 * 1000);
        char id[40], token[40];
        t0 = fx_now_ms();
        json_t *st = fx_new_game(server_port(srv), "egara", "black", NULL, id, token);
        CHECK(st != NULL);
        CHECK_EQ_INT(fx_int(st, "ply"), 1);
        took = fx_now_ms() - t0;
        CHECK_MSG(took < 3000, "its own move after %lld ms", (long long)took);
        json_decref(st);
    }
    server_stop(srv);
    store_close(s);
}
