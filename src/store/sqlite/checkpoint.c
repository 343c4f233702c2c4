#include "store/sqlite/checkpoint.h"

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

/* Catch up under the writer's lock when the WAL has grown past this many pages anyway
 * (8 MiB of 4 KiB pages: 8 times the checkpoint threshold, CKPT_PAGES in checkpoint.h). */
#define CKPT_CATCH_UP_PAGES 2048
/* How long a commit that found the WAL at CKPT_HARD_PAGES waits for a pass of the
 * thread to end before it copies the WAL back itself (1 ms steps, 2 s in all). */
#define CKPT_HARD_TRIES 2000

struct checkpointer {
    sqlite3 *db; /* its own connection */
    sqlite3 *writer;
    pthread_mutex_t *writer_mu;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int wal_pages; /* the WAL's size at the last commit (under mu) */
    bool wanted, stop;
};

/* Called by SQLite after every commit on the writer (under writer_mu). */
static int on_commit(void *ctx, sqlite3 *db, const char *name, int pages)
{
    struct checkpointer *c = ctx;
    if (pages < CKPT_PAGES)
        return SQLITE_OK;
    if (pages >= CKPT_HARD_PAGES) {
        /* The thread falls behind (a slow disk's syncs, a starved core): this commit
         * copies the WAL back itself, with nothing appended meanwhile, so the next
         * commit restarts it.  BUSY: a pass of the thread holds the checkpoint lock;
         * that pass needs no lock of ours, so it ends. */
        for (int tries = 0; tries < CKPT_HARD_TRIES; tries++) {
            if (sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL) !=
                SQLITE_BUSY)
                break;
            nanosleep(&(struct timespec){.tv_nsec = 1000 * 1000}, NULL);
        }
        return SQLITE_OK;
    }
    pthread_mutex_lock(&c->mu);
    c->wal_pages = pages;
    if (!c->wanted) {
        c->wanted = true;
        pthread_cond_signal(&c->cv);
    }
    pthread_mutex_unlock(&c->mu);
    return SQLITE_OK;
}

static void *run(void *arg)
{
    struct checkpointer *c = arg;
    pthread_mutex_lock(&c->mu);
    for (;;) {
        while (!c->wanted && !c->stop)
            pthread_cond_wait(&c->cv, &c->mu);
        if (c->stop)
            break;
        c->wanted = false;
        int pages = c->wal_pages;
        pthread_mutex_unlock(&c->mu);
        int log = 0, done = 0;
        int rc = sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
        if (rc == SQLITE_OK && done < log && pages >= CKPT_CATCH_UP_PAGES) {
            /* Commits kept coming: the rest (only what came during the pass above)
             * with the writer held, so the next commit can restart the WAL. */
            pthread_mutex_lock(c->writer_mu);
            sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
            pthread_mutex_unlock(c->writer_mu);
        }
        pthread_mutex_lock(&c->mu);
    }
    pthread_mutex_unlock(&c->mu);
    return NULL;
}

struct checkpointer *checkpointer_start(const char *path, sqlite3 *writer,
                                        pthread_mutex_t *writer_mu)
{
    struct checkpointer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->writer = writer;
    c->writer_mu = writer_mu;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    bool opened = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                                  NULL) == SQLITE_OK;
    if (opened) {
        sqlite3_busy_timeout(c->db, 1000);
        /* A connection knows the database is in WAL mode once it has read it;
         * until then a checkpoint does nothing. */
        opened = sqlite3_exec(c->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) ==
                 SQLITE_OK;
    }
    if (!opened || pthread_create(&c->thread, NULL, run, c) != 0) {
        sqlite3_close(c->db);
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    pthread_mutex_lock(writer_mu);
    sqlite3_wal_hook(writer, on_commit, c); /* replaces the automatic checkpoint */
    pthread_mutex_unlock(writer_mu);
    return c;
}

void checkpointer_stop(struct checkpointer *c)
{
    if (!c)
        return;
    pthread_mutex_lock(c->writer_mu);
    sqlite3_wal_hook(c->writer, NULL, NULL);
    sqlite3_wal_autocheckpoint(c->writer, CKPT_PAGES);
    pthread_mutex_unlock(c->writer_mu);
    pthread_mutex_lock(&c->mu);
    c->stop = true;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    sqlite3_close(c->db);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
}
