/* The outbox under concurrent writers (store.h "Events"), on both backends: writers
 * from several stores (several servers, on PostgreSQL) append events, alone
 * (put_event) and with a change (an attached event), at random moments, while a
 * reader on a store of its own reads them as a server's outbox thread does; on
 * PostgreSQL the reader's listening connection is ended twice under it.  Every event
 * is read exactly once, numbered 1, 2, ... without a gap, each writer's in its order. */
#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

#define RACE_WRITERS 8
#define RACE_EACH 40
#define RACE_TOTAL (RACE_WRITERS * RACE_EACH)

struct race {
    const char *url;
    struct store *shared; /* SQLite ":memory:": one store for all */
    atomic_int written, failed;
    /* the reader's findings */
    int read, out_of_order, unknown, twice;
    int64_t last;
    unsigned char seen[RACE_WRITERS][RACE_EACH];
    int next_of[RACE_WRITERS]; /* each writer's next expected event */
    atomic_bool stop;
};

struct writer {
    struct race *r;
    int id;
    char err[256];
};

static void pause_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static struct store *open_store(struct race *r, char *err, size_t err_size)
{
    if (r->shared)
        return r->shared;
    struct store_options opt = {.pool = 2};
    return store_open(r->url, &opt, err, err_size);
}

static void close_store(struct race *r, struct store *s)
{
    if (s != r->shared)
        store_close(s);
}

/* Even events alone, odd ones attached to a move of the writer's own game. */
static void *write_events(void *arg)
{
    struct writer *w = arg;
    struct store *s = open_store(w->r, w->err, sizeof w->err);
    if (!s) {
        atomic_fetch_add(&w->r->failed, RACE_EACH);
        return NULL;
    }
    unsigned seed = 7919u * (unsigned)(w->id + 1);
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%032d", 100 + w->id);
    snprintf(g.game, sizeof g.game, "chess");
    snprintf(g.token_hash, sizeof g.token_hash, "%064d", 1);
    g.level = 1;
    g.created_ms = g.updated_ms = 1000;
    if (store_create_game(s, &g, w->err, sizeof w->err) != 0) {
        atomic_fetch_add(&w->r->failed, RACE_EACH);
        close_store(w->r, s);
        return NULL;
    }
    int ply = 0;
    for (int k = 0; k < RACE_EACH; k++) {
        char body[48], err[256];
        snprintf(body, sizeof body, "{\"w\":%d,\"k\":%d}", w->id, k);
        pause_us(rand_r(&seed) % 800);
        int rc;
        if (k % 2 == 0) {
            int64_t seq = 0;
            rc = store_put_event(s, g.id, "game", body, 2000 + k, &seq, err, sizeof err);
        } else {
            const char *move[] = {ply % 2 ? "e7e5" : "e2e4"};
            store_attach_event(g.id, "game", body, 2000 + k);
            rc = store_add_moves(s, g.id, ply + 1, 1, move, 0, 0, 2000 + k, err, sizeof err);
            if (rc == 0 && !store_event_told(g.id))
                rc = -1;
            ply += rc == 0;
        }
        if (rc != 0) {
            snprintf(w->err, sizeof w->err, "event %d: %.200s", k, err);
            atomic_fetch_add(&w->r->failed, 1);
        } else
            atomic_fetch_add(&w->r->written, 1);
    }
    close_store(w->r, s);
    return NULL;
}

static void read_one(void *ctx, const struct store_event *e)
{
    struct race *r = ctx;
    if (e->seq != r->last + 1)
        r->out_of_order++;
    r->last = e->seq;
    int w = -1, k = -1;
    if (sscanf(e->body, "{\"w\":%d,\"k\":%d}", &w, &k) != 2 || w < 0 || w >= RACE_WRITERS ||
        k < 0 || k >= RACE_EACH) {
        r->unknown++;
        return;
    }
    if (r->seen[w][k]++)
        r->twice++;
    if (k != r->next_of[w])
        r->out_of_order++;
    r->next_of[w] = k + 1;
    r->read++;
}

/* As a server's outbox thread (src/server/games/outbox.c): wait, then read after the
 * last number seen, until every event is read or the writers stopped and a while
 * passed without one. */
static void *read_events(void *arg)
{
    struct race *r = arg;
    char err[256];
    struct store *s = open_store(r, err, sizeof err);
    if (!s)
        return NULL;
    int quiet = 0;
    while (r->read < RACE_TOTAL && quiet < 40) {
        int64_t newest = 0;
        int rc = store_wait_events(s, r->last, 100, &newest, err, sizeof err);
        if (rc == 0 && newest > r->last) {
            quiet = 0;
            rc = store_events_since(s, r->last, 16, read_one, r, err, sizeof err);
        } else if (atomic_load(&r->stop))
            quiet++;
        if (rc < 0)
            pause_us(20000); /* the database away: again from where it stopped */
    }
    close_store(r, s);
    return NULL;
}

/* End the sessions that LISTEN for events (the reader's), as a broken network does:
 * how many. */
static int end_listeners(const char *url)
{
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQexec(c, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                            " AND (query LIKE 'LISTEN%'"
                            " OR query = 'SELECT COALESCE(max(seq), 0) FROM events')");
    int n = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : -1;
    PQclear(r);
    PQfinish(c);
    return n;
}

TEST(store_events_concurrent_writers_read_once_in_order)
{
    char err[256] = "";
    struct race *r = calloc(1, sizeof *r);
    if (!r)
        return;
    r->url = fx_store_url();
    CHECK(r->url != NULL);
    if (!r->url) {
        free(r);
        return;
    }
    /* The schema made by a first store (the writers then open theirs on it). */
    struct store *first = store_open(r->url, NULL, err, sizeof err);
    CHECK_MSG(first != NULL, "store_open: %s", err);
    if (!first) {
        free(r);
        return;
    }
    if (!fx_on_postgres())
        r->shared = first;
    pthread_t reader, writers[RACE_WRITERS];
    struct writer w[RACE_WRITERS];
    CHECK_EQ_INT(pthread_create(&reader, NULL, read_events, r), 0);
    for (int i = 0; i < RACE_WRITERS; i++) {
        w[i] = (struct writer){.r = r, .id = i};
        CHECK_EQ_INT(pthread_create(&writers[i], NULL, write_events, &w[i]), 0);
    }
    if (fx_on_postgres()) {
        for (int cut = 1; cut <= 2; cut++) {
            while (atomic_load(&r->written) + atomic_load(&r->failed) < cut * RACE_TOTAL / 3)
                pause_us(2000);
            /* the reader's, under it (once it has connected again after the first) */
            int ended = 0;
            for (int tries = 0; tries < 300 && ended == 0; tries++)
                if ((ended = end_listeners(r->url)) == 0)
                    pause_us(10000);
            CHECK_EQ_INT(ended, 1);
        }
    }
    for (int i = 0; i < RACE_WRITERS; i++) {
        pthread_join(writers[i], NULL);
        CHECK_MSG(w[i].err[0] == 0, "writer %d: %s", i, w[i].err);
    }
    atomic_store(&r->stop, true);
    pthread_join(reader, NULL);
    CHECK_EQ_INT(atomic_load(&r->failed), 0);
    CHECK_EQ_INT(atomic_load(&r->written), RACE_TOTAL);
    CHECK_EQ_INT(r->read, RACE_TOTAL);
    CHECK_EQ_INT(r->last, RACE_TOTAL);
    CHECK_EQ_INT(r->twice, 0);
    CHECK_EQ_INT(r->unknown, 0);
    CHECK_EQ_INT(r->out_of_order, 0);
    int missing = 0;
    for (int i = 0; i < RACE_WRITERS; i++)
        for (int k = 0; k < RACE_EACH; k++)
            missing += r->seen[i][k] != 1;
    CHECK_EQ_INT(missing, 0);
    store_close(first);
    free(r);
}
