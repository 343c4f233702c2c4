/* The SQLite backend of the store: one connection in WAL mode, prepared statements,
 * one mutex.  This file holds the connection (its schema and migrations, the group
 * commit, the statement cache, the table of operations); the operations are in one
 * file a concern beside it (games.c, reviews.c, people.c, ratings.c, clubs.c,
 * players.c, puzzles.c, events.c), over the statement helper (stmt.c).  SQLite serialises writers
 * anyway, and the server keeps the active games in memory, so reads here are rare (loading a game,
 * listing a visitor's games): one connection under a mutex is simpler than a pool and not slower.
 *
 * Writes use group commit: a writer queues its write and waits; whoever finds no
 * commit under way becomes the leader, takes every queued write, applies each inside
 * its own savepoint (one bad write fails alone) and commits them all with one fsync.
 * Writers arriving meanwhile queue up for the next leader.  Each write still returns
 * only after the COMMIT that holds it, so "acknowledged after commit" is kept, while
 * synchronous=FULL costs one fsync per batch instead of one per move. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "store/migrations.h"
#include "store/sqlite/checkpoint.h"
#include "store/sqlite/private.h"
#include "store/sqlite/sqlite.h"
#include "store/store.h"

/* The group commit's own statements (the operations' are in the cache, extra[]). */
enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE", [ST_COMMIT] = "COMMIT",     [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT w", [ST_RELEASE] = "RELEASE w", [ST_ROLLBACK_TO] = "ROLLBACK TO w",
};

/* The schema: the shared list of migrations (store/migrations.h), each applied in its
 * own transaction and recorded in schema_version; the first one missing is applied
 * next.  A database made before that table (its version in PRAGMA user_version, 0 for
 * the first tables) is adopted on first open: user_version v <= 6 is versions 1..v + 1;
 * 7 is main's players database (agora before the shared list, with players.id): 1..7
 * and 9, so 8 (the events) comes next.  PRAGMA user_version keeps saying the version
 * in that older numbering (user_version_now), so an agora of before the shared list
 * still reads its database right and refuses one it does not know. */
static const char sql_versions[] = "CREATE TABLE IF NOT EXISTS schema_version ("
                                   " version INTEGER PRIMARY KEY, applied_ms INTEGER NOT NULL)";

/* The players' migration (main's user_version 7), and the events' (not in main's list). */
enum { V_EVENTS = 8, V_PLAYERS = 9, OLD_PLAYERS_USER_VERSION = 7 };

/* The first integer of `sql`'s first row; `none` when there is no row, -1 failed. */
static int query_int(sqlite3 *db, const char *sql, int none)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    int v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : rc == SQLITE_DONE ? none : -1;
    sqlite3_finalize(st);
    return v;
}

/* 1 when version v is recorded, 0 not, -1 failed. */
static int has_version(sqlite3 *db, int v)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT 1 FROM schema_version WHERE version = %d", v);
    return query_int(db, sql, 0);
}

/* Record version v as applied (applied_ms: 0 for those adopted). */
static int record_version(sqlite3 *db, int v, long long now_ms, char **msg)
{
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO schema_version (version, applied_ms) VALUES (%d, %lld)",
             v, now_ms);
    return sqlite3_exec(db, sql, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

/* PRAGMA user_version as an agora of before the shared list reads it: version - 1,
 * except that the players (9) alone are its 7, and the events (8), which it never
 * knew, make it at least 8 (a number it refuses). */
static int user_version_now(sqlite3 *db, char **msg)
{
    int max = query_int(db, "SELECT COALESCE(max(version), 0) FROM schema_version", 0);
    int events = has_version(db, V_EVENTS);
    if (max < 0 || events < 0)
        return -1;
    int uv = max > 0 ? max - 1 : 0;
    if (!events && max >= V_PLAYERS)
        uv = OLD_PLAYERS_USER_VERSION;
    else if (events && uv < V_EVENTS)
        uv = V_EVENTS;
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", uv);
    return sqlite3_exec(db, sql, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

/* Adopt a database made before schema_version (in the open transaction): 0 (adopted,
 * or nothing to adopt), -1 failed, or 1 with *unknown its user_version, one no agora
 * of before the shared list made. */
static int adopt(sqlite3 *db, int *unknown, char **msg)
{
    int have = query_int(db, "SELECT 1 FROM sqlite_master WHERE name = 'schema_version'", 0);
    if (have != 0)
        return have < 0 ? -1 : 0;
    int games = query_int(db, "SELECT 1 FROM sqlite_master WHERE name = 'games'", 0);
    int u = games > 0 ? query_int(db, "PRAGMA user_version", 0) : 0;
    int players_id =
        query_int(db, "SELECT 1 FROM pragma_table_info('players') WHERE name = 'id'", 0);
    if (games < 0 || u < 0 || players_id < 0)
        return -1;
    bool main_players = u == OLD_PLAYERS_USER_VERSION && players_id;
    if (games > 0 && u >= OLD_PLAYERS_USER_VERSION && !main_players) {
        *unknown = u;
        return 1;
    }
    if (sqlite3_exec(db, sql_versions, NULL, NULL, msg) != SQLITE_OK)
        return -1;
    if (!games)
        return 0; /* a new database: every migration to apply */
    int last = main_players ? OLD_PLAYERS_USER_VERSION : u + 1;
    for (int v = 1; v <= last; v++)
        if (record_version(db, v, 0, msg) != 0)
            return -1;
    if (main_players && record_version(db, V_PLAYERS, 0, msg) != 0)
        return -1;
    return user_version_now(db, msg);
}

static long long wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Bring the database to every version of the list; 0, or -1 with the reason in err. */
static int migrate(sqlite3 *db, char *err, size_t err_size)
{
    char *msg = NULL;
    for (;;) {
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK)
            break;
        int unknown = 0, a = adopt(db, &unknown, &msg);
        if (a < 0)
            break;
        if (a > 0) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return fail(err, err_size,
                        "the database's user_version %d is not one this agora knows (a newer "
                        "agora made it?)",
                        unknown);
        }
        int max = query_int(db, "SELECT COALESCE(max(version), 0) FROM schema_version", 0);
        if (max < 0)
            break;
        if (max > store_migrations_count) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return store_migrations_newer(err, err_size, max);
        }
        int next = 0, h = 1;
        for (int v = 1; v <= store_migrations_count && !next && h >= 0; v++)
            if ((h = has_version(db, v)) == 0)
                next = v;
        if (h < 0)
            break;
        if (!next) {
            if (sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) == SQLITE_OK)
                return 0;
            break;
        }
        const struct store_migration *m = &store_migrations[next - 1];
        if (sqlite3_exec(db, m->sqlite, NULL, NULL, &msg) != SQLITE_OK) {
            char *why =
                sqlite3_mprintf("migration %d (%s): %s", m->version, m->what, msg ? msg : "?");
            sqlite3_free(msg);
            msg = why;
            break;
        }
        if (record_version(db, next, wall_ms(), &msg) != 0 || user_version_now(db, &msg) != 0 ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
            break;
    }
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    fail(err, err_size, "%s", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
}

/* One queued write: an operation's (private.h), its context and name. */
struct write {
    sqlite_fn fn;
    void *ctx;
    const char *what;
    const struct store_attached_event *ev; /* appended after fn (store.h); NULL: none */
    int64_t ev_seq;
    int rc;
    bool done;
    char err[ERROR_TEXT_MAX];
    struct write *next;
};

struct sqlite_store {
    struct store base; /* first: a struct store * is a struct sqlite_store * */
    sqlite3 *db;
    pthread_mutex_t mu; /* the connection */
    sqlite3_stmt *stmt[ST_COUNT];
    /* Group commit: the queue and whether a leader is committing. */
    pthread_mutex_t q_mu;
    pthread_cond_t q_cv;
    struct write *q_head, *q_tail;
    bool committing;
    struct checkpointer *ckpt; /* NULL: SQLite's own checkpoints (in-memory databases) */
    /* The events committed (events.c) and the jobs queued (jobs.c) by this process:
     * counts whose growth wakes the waiters of each. */
    pthread_mutex_t ev_mu;
    pthread_cond_t ev_cv; /* on CLOCK_MONOTONIC */
    uint64_t ev_generation, jobs_generation;
    /* Statements of the backend's other files (sqlite_store_stmt), by their SQL. */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } extra[SQLITE_EXTRA_STMTS];
};

/* A failure an operation found itself (sqlite_store_why), for db_fail: the operation
 * and db_fail run on one thread (the group commit's leader, or the reader). */
static _Thread_local char op_why[ERROR_TEXT_MAX];

int sqlite_store_why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(op_why, sizeof op_why, fmt, ap);
    va_end(ap);
    return -1;
}

static int db_fail(struct sqlite_store *s, char *err, size_t err_size, const char *what)
{
    int rc =
        fail(err, err_size, "database: %s: %s", what, op_why[0] ? op_why : sqlite3_errmsg(s->db));
    op_why[0] = 0;
    return rc;
}

/* Run a prepared statement that returns no rows, and reset it. */
static int run(struct sqlite_store *s, sqlite3_stmt *st)
{
    (void)s;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int write_one(struct sqlite_store *s, struct write *w)
{
    int rc = w->fn(&s->base, s->db, w->ctx);
    if (rc == 0 && w->ev)
        rc = sqlite_events_append(&s->base, s->db, w->ev, &w->ev_seq);
    if (rc > 0)
        w->rc = 1; /* refused: rolled back like a failure, without an error */
    return rc;
}

/* One write inside the open transaction, in its own savepoint when it shares the
 * transaction with others (alone, a failure rolls the transaction back instead). */
static void apply_write(struct sqlite_store *s, struct write *w, bool alone)
{
    const char *name = w->what ? w->what : "write";
    if (alone) {
        int rc = write_one(s, w);
        if (rc < 0)
            w->rc = db_fail(s, w->err, sizeof w->err, name);
        else if (rc > 0)
            w->err[0] = 0;
        return;
    }
    if (run(s, s->stmt[ST_SAVEPOINT]) != 0) {
        w->rc = db_fail(s, w->err, sizeof w->err, "savepoint");
        return;
    }
    int rc = write_one(s, w);
    if (rc != 0) {
        if (rc < 0)
            w->rc = db_fail(s, w->err, sizeof w->err, name);
        else
            w->err[0] = 0;
        run(s, s->stmt[ST_ROLLBACK_TO]);
    }
    run(s, s->stmt[ST_RELEASE]);
}

/* Commit a batch (a list of writes) in one transaction. */
static void commit_batch(struct sqlite_store *s, struct write *batch)
{
    pthread_mutex_lock(&s->mu);
    char err[ERROR_TEXT_MAX];
    int rc = run(s, s->stmt[ST_BEGIN]) == 0 ? 0 : db_fail(s, err, sizeof err, "begin");
    bool alone = batch && !batch->next;
    for (struct write *w = batch; w && rc == 0; w = w->next)
        apply_write(s, w, alone);
    if (alone && batch->rc != 0) {
        run(s, s->stmt[ST_ROLLBACK]);
        pthread_mutex_unlock(&s->mu);
        return;
    }
    if (rc == 0 && run(s, s->stmt[ST_COMMIT]) != 0) {
        rc = db_fail(s, err, sizeof err, "commit");
        run(s, s->stmt[ST_ROLLBACK]);
    }
    if (rc != 0)
        for (struct write *w = batch; w; w = w->next) {
            w->rc = -1; /* a refused write (rc 1) was rolled back too: now an error */
            snprintf(w->err, sizeof w->err, "%s", err);
        }
    pthread_mutex_unlock(&s->mu);
}

static int submit(struct sqlite_store *s, struct write *w, char *err, size_t err_size)
{
    w->next = NULL;
    w->rc = 0;
    w->done = false;
    pthread_mutex_lock(&s->q_mu);
    if (s->q_tail)
        s->q_tail->next = w;
    else
        s->q_head = w;
    s->q_tail = w;
    while (!w->done) {
        if (s->committing) {
            pthread_cond_wait(&s->q_cv, &s->q_mu);
            continue;
        }
        /* Lead: take the whole queue (this write is in it). */
        struct write *batch = s->q_head;
        s->q_head = s->q_tail = NULL;
        s->committing = true;
        pthread_mutex_unlock(&s->q_mu);
        commit_batch(s, batch);
        pthread_mutex_lock(&s->q_mu);
        for (struct write *b = batch, *next; b; b = next) {
            next = b->next; /* b may go as soon as done is seen */
            b->done = true;
        }
        s->committing = false;
        pthread_cond_broadcast(&s->q_cv);
    }
    pthread_mutex_unlock(&s->q_mu);
    if (w->rc != 0)
        fail(err, err_size, "%s", w->err);
    return w->rc;
}

int sqlite_store_write(struct store *base, sqlite_fn fn, void *ctx, const char *what, char *err,
                       size_t err_size)
{
    struct write w = {.fn = fn, .ctx = ctx, .what = what, .ev = store_event_take()};
    int rc = submit((struct sqlite_store *)base, &w, err, err_size);
    if (rc == 0 && w.ev) {
        store_event_committed(w.ev, w.ev_seq);
        sqlite_events_committed(base);
    }
    return rc;
}

int sqlite_store_read(struct store *base, sqlite_fn fn, void *ctx, const char *what, char *err,
                      size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    pthread_mutex_lock(&s->mu);
    int rc = fn(base, s->db, ctx);
    if (rc < 0)
        db_fail(s, err, err_size, what);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

/* A count of ev_mu's: read, grown (waking every waiter) and waited on. */
static uint64_t count_now(struct sqlite_store *s, const uint64_t *count)
{
    pthread_mutex_lock(&s->ev_mu);
    uint64_t g = *count;
    pthread_mutex_unlock(&s->ev_mu);
    return g;
}

static void count_grows(struct sqlite_store *s, uint64_t *count)
{
    pthread_mutex_lock(&s->ev_mu);
    ++*count;
    pthread_cond_broadcast(&s->ev_cv);
    pthread_mutex_unlock(&s->ev_mu);
}

static bool count_wait(struct sqlite_store *s, const uint64_t *count, uint64_t generation,
                       const struct timespec *deadline)
{
    pthread_mutex_lock(&s->ev_mu);
    int rc = 0;
    while (*count == generation && rc == 0)
        rc = pthread_cond_timedwait(&s->ev_cv, &s->ev_mu, deadline);
    bool changed = *count != generation;
    pthread_mutex_unlock(&s->ev_mu);
    return changed;
}

uint64_t sqlite_events_generation(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return count_now(s, &s->ev_generation);
}

void sqlite_events_committed(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    count_grows(s, &s->ev_generation);
}

bool sqlite_events_wait(struct store *base, uint64_t generation, const struct timespec *deadline)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return count_wait(s, &s->ev_generation, generation, deadline);
}

uint64_t sqlite_jobs_generation(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return count_now(s, &s->jobs_generation);
}

void sqlite_jobs_queued(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    count_grows(s, &s->jobs_generation);
}

bool sqlite_jobs_wait(struct store *base, uint64_t generation, const struct timespec *deadline)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return count_wait(s, &s->jobs_generation, generation, deadline);
}

sqlite3_stmt *sqlite_store_stmt(struct store *base, const char *sql)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    for (int i = 0; i < SQLITE_EXTRA_STMTS; i++) {
        if (s->extra[i].sql == sql)
            return s->extra[i].st;
        if (!s->extra[i].sql) {
            if (sqlite3_prepare_v2(s->db, sql, -1, &s->extra[i].st, NULL) != SQLITE_OK)
                return NULL;
            s->extra[i].sql = sql;
            return s->extra[i].st;
        }
    }
    return NULL;
}

static void sq_close(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    if (!s)
        return;
    checkpointer_stop(s->ckpt);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    for (int i = 0; i < SQLITE_EXTRA_STMTS; i++)
        sqlite3_finalize(s->extra[i].st);
    sqlite3_close(s->db);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->q_mu);
    pthread_cond_destroy(&s->q_cv);
    pthread_mutex_destroy(&s->ev_mu);
    pthread_cond_destroy(&s->ev_cv);
    free(s);
}

static const struct store_ops sqlite_ops = {
#define STORE_OP(name, params, args) .name = sqlite_store_##name,
#include "store/store_ops.def"
#undef STORE_OP
    .close = sq_close,
};

struct store *store_sqlite_open(const char *path, enum store_durability durability, char *err,
                                size_t err_size)
{
    struct sqlite_store *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    s->base.ops = &sqlite_ops;
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->q_mu, NULL);
    pthread_cond_init(&s->q_cv, NULL);
    pthread_mutex_init(&s->ev_mu, NULL);
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&s->ev_cv, &monotonic);
    pthread_condattr_destroy(&monotonic);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        fail(err, err_size, "cannot open database '%s': %s", path,
             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sq_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char pragmas[256];
    /* The WAL bounded (checkpoint.h): checkpoints at CKPT_PAGES (SQLite's own, when the
     * checkpointer thread is not running) and the file cut back to CKPT_WAL_LIMIT. */
    snprintf(pragmas, sizeof pragmas,
             "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA journal_size_limit=%d; "
             "PRAGMA wal_autocheckpoint=%d;",
             durability == STORE_SURVIVES_POWER_LOSS ? "FULL" : "NORMAL", CKPT_WAL_LIMIT,
             CKPT_PAGES);
    char *msg = NULL, why[ERROR_TEXT_MAX] = "?";
    if (sqlite3_exec(s->db, pragmas, NULL, NULL, &msg) != SQLITE_OK ||
        migrate(s->db, why, sizeof why) != 0) {
        fail(err, err_size, "cannot set up database '%s': %s", path, msg ? msg : why);
        sqlite3_free(msg);
        sq_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, stmt_sql[i], -1, &s->stmt[i], NULL) != SQLITE_OK) {
            db_fail(s, err, err_size, "prepare");
            sq_close(&s->base);
            return NULL;
        }
    /* A file in WAL mode: checkpoints off the commit path (without the thread,
     * SQLite's own ones remain, which is correct, only slower). */
    if (strcmp(path, ":memory:") != 0 && path[0])
        s->ckpt = checkpointer_start(path, s->db, &s->mu);
    return &s->base;
}
