/* The store's one list of operations (store_ops.def) and the gate made from it: every
 * operation of the list is filled by the backend (an operation added to the list but
 * not to the backend would be a NULL call in the server: the people's clock thread
 * once met one), every call passes the gate, which refuses a marked thread once
 * max_waiting of them wait in a stuck store, and store_open picks the backend by the
 * URL. */
#include "../../harness.h"
#include "../server_client.h"
#include "store/store_gate.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

TEST(store_gate_forwards_every_operation)
{
    char err[256];
    struct store *s =
        store_open(":memory:", &(struct store_options){.max_waiting = 4}, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    CHECK(s->gate != NULL);
#define STORE_OP(name, params, args)                                                               \
    CHECK_MSG(s->ops->name != NULL, "operation %s of store_ops.def has no SQLite function", #name);
#include "store/store_ops.def"
#undef STORE_OP
    CHECK(s->ops->close != NULL);
    /* A call goes through the gate to the backend. */
    char name[64];
    CHECK_EQ_INT(store_put_player(s, "ab", "Ann", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_player(s, "ab", name, sizeof name, err, sizeof err), 0);
    CHECK_STR(name, "Ann");
    store_close(s);
}

/* A backend whose get_player waits until it is let go: a stuck database. */
struct stuck {
    struct store base;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool open;
    int inside;
};

static int stuck_get_player(struct store *s, const char *token_hash, char *name, size_t name_size,
                            char *err, size_t err_size)
{
    (void)token_hash;
    (void)err;
    (void)err_size;
    struct stuck *k = (struct stuck *)s;
    pthread_mutex_lock(&k->mu);
    k->inside++;
    pthread_cond_broadcast(&k->cv);
    while (!k->open)
        pthread_cond_wait(&k->cv, &k->mu);
    k->inside--;
    pthread_mutex_unlock(&k->mu);
    snprintf(name, name_size, "x");
    return 0;
}

static void stuck_close(struct store *s)
{
    (void)s;
}

static const struct store_ops stuck_ops = {.get_player = stuck_get_player, .close = stuck_close};

struct caller {
    struct store *s;
    bool mark;
    int rc;
    char err[256];
};

static void *call(void *arg)
{
    struct caller *c = arg;
    if (c->mark)
        store_gate_mark_thread();
    char name[8];
    c->rc = store_get_player(c->s, "ab", name, sizeof name, c->err, sizeof c->err);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

TEST(store_gate_refuses_a_marked_thread_beyond_its_bound)
{
    struct stuck k = {.base.ops = &stuck_ops};
    pthread_mutex_init(&k.mu, NULL);
    pthread_cond_init(&k.cv, NULL);
    k.base.gate = store_gate_new(2);
    CHECK(k.base.gate != NULL);
    if (!k.base.gate)
        return;
    /* Two marked threads wait in the stuck store. */
    struct caller waiting[2] = {{&k.base, true, -9, ""}, {&k.base, true, -9, ""}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, call, &waiting[i]);
    pthread_mutex_lock(&k.mu);
    while (k.inside < 2)
        pthread_cond_wait(&k.cv, &k.mu);
    pthread_mutex_unlock(&k.mu);
    sleep_ms(150); /* past the gate's 100 ms without progress: stuck, not busy */
    /* A third marked thread is refused at once... */
    struct caller third = {&k.base, true, -9, ""};
    pthread_t t3;
    pthread_create(&t3, NULL, call, &third);
    pthread_join(t3, NULL);
    CHECK_EQ_INT(third.rc, STORE_BUSY);
    CHECK_MSG(strstr(third.err, "busy") != NULL, "%s", third.err);
    /* ...while an unmarked one (a committer, the review thread) passes and waits. */
    struct caller unmarked = {&k.base, false, -9, ""};
    pthread_t t4;
    pthread_create(&t4, NULL, call, &unmarked);
    pthread_mutex_lock(&k.mu);
    while (k.inside < 3)
        pthread_cond_wait(&k.cv, &k.mu);
    k.open = true; /* the database comes back */
    pthread_cond_broadcast(&k.cv);
    pthread_mutex_unlock(&k.mu);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        CHECK_EQ_INT(waiting[i].rc, 0);
    }
    pthread_join(t4, NULL);
    CHECK_EQ_INT(unmarked.rc, 0);
    /* Free again: a marked thread passes. */
    struct caller after = {&k.base, true, -9, ""};
    pthread_t t5;
    pthread_create(&t5, NULL, call, &after);
    pthread_join(t5, NULL);
    CHECK_EQ_INT(after.rc, 0);
    store_close(&k.base);
    pthread_mutex_destroy(&k.mu);
    pthread_cond_destroy(&k.cv);
}

TEST(store_open_picks_the_backend_by_the_url)
{
    char err[256], dir[256], url[320];
    struct store *s = store_open("sqlite::memory:", NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    store_close(s);
    test_tmpdir(dir, sizeof dir);
    snprintf(url, sizeof url, "sqlite:%s/a.db", dir);
    s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (s) {
        CHECK_EQ_INT(store_put_player(s, "ab", "Ann", 1, err, sizeof err), 0);
        store_close(s);
    }
    /* The same file by its plain path. */
    snprintf(url, sizeof url, "%s/a.db", dir);
    s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (s) {
        char name[64] = "";
        CHECK_EQ_INT(store_get_player(s, "ab", name, sizeof name, err, sizeof err), 0);
        CHECK_STR(name, "Ann");
        store_close(s);
    }
    test_rmdir(dir);
    /* A backend not built in is refused, naming those that are, and not echoing the
     * rest of the URL (a password). */
    err[0] = 0;
    s = store_open("mysql://agora:secret@db.example/agora", NULL, err, sizeof err);
    CHECK(s == NULL);
    store_close(s);
    CHECK_MSG(strstr(err, "mysql") && strstr(err, "postgresql") && strstr(err, "sqlite"), "%s",
              err);
    CHECK_MSG(!strstr(err, "secret"), "%s", err);
    /* PostgreSQL by either scheme; one that does not answer (nothing listens on port
     * 1) or a URL libpq refuses: one line, without the password. */
    static const char *const bad[] = {
        "postgresql://agora:secret@127.0.0.1:1/agora",
        "postgres://agora:secret@127.0.0.1:1/agora",
        "postgresql://agora:secret@127.0.0.1:5432/agora?no_such_option=1",
        "postgresql://agora:secret@127.0.0.1:notaport/agora",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        s = store_open(bad[i], NULL, err, sizeof err);
        CHECK_MSG(s == NULL, "%s opened", bad[i]);
        store_close(s);
        CHECK_MSG(strstr(err, "database") && !strchr(err, '\n') && !strstr(err, "secret"), "%s: %s",
                  bad[i], err);
    }
}
