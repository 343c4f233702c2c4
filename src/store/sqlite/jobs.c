/* The SQLite backend's part for the engine jobs (store_ops.def "Engine jobs"): one
 * writer at a time (the group commit), so a claim is a read and a conditional update
 * in one write; nobody else can claim between the two.  An SQLite database has one
 * server, so a waiter (wait_jobs) is woken by this process's put_job (a count that
 * grows, backend.c) or by the nearest lease's end, read with the queue. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "store/sqlite/private.h"

/* Its round: after the client's last job (one address's jobs in order), and no
 * earlier than the lowest round waiting (a new address joins at the front). */
static const char sql_put[] =
    "INSERT OR IGNORE INTO engine_jobs (id, kind, game_id, ply, client, priority, round,"
    " created_ms, payload, game) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
    " max((SELECT COALESCE(max(round) + 1, 0) FROM engine_jobs WHERE client = ?5),"
    " (SELECT COALESCE(min(round), 0) FROM engine_jobs)), ?7, ?8, ?9)";

static int put(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const struct store_job *j = ctx;
    return sq_done(sq_bind(s, sql_put, "tttitiItt", j->id, j->kind, j->game_id, j->ply, j->client,
                           j->priority, j->created_ms, j->payload ? j->payload : "", j->game));
}

int sqlite_store_put_job(struct store *s, const struct store_job *job, char *err, size_t err_size)
{
    int rc = sqlite_store_write(s, put, (void *)job, "queue job", err, err_size);
    if (rc == 0)
        sqlite_jobs_queued(s);
    return rc;
}

/* put_job under caps: in the one writer's transaction, so the count sees every job
 * queued before and none is queued between the count and the insert. */
static const char sql_cap_count[] =
    "SELECT count(*) FILTER (WHERE client = ?2), count(*) FROM engine_jobs WHERE kind = ?1";

struct capped_ctx {
    const struct store_job *job;
    int client_max, kind_max, full;
};

static int put_capped(struct store *s, sqlite3 *db, void *ctx)
{
    struct capped_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_cap_count, "tt", p->job->kind, p->job->client);
    int row = sq_row(st);
    int mine = row > 0 ? sqlite3_column_int(st, 0) : 0,
        all = row > 0 ? sqlite3_column_int(st, 1) : 0;
    sq_end(st);
    if (row <= 0)
        return -1;
    p->full = p->client_max > 0 && mine >= p->client_max ? 1
              : p->kind_max > 0 && all >= p->kind_max    ? 2
                                                         : 0;
    return p->full ? 1 : put(s, db, (void *)p->job);
}

int sqlite_store_put_job_capped(struct store *s, const struct store_job *job, int client_max,
                                int kind_max, int *full, char *err, size_t err_size)
{
    struct capped_ctx p = {job, client_max, kind_max, 0};
    int rc = sqlite_store_write(s, put_capped, &p, "queue job", err, err_size);
    *full = p.full;
    if (rc == 0)
        sqlite_jobs_queued(s);
    return rc < 0 ? -1 : 0;
}

/* ---- waiting for a job ---- */

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct timespec mono_at(int64_t ms)
{
    return (struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L};
}

struct first_ctx {
    int max_priority; /* the jobs looked at */
    int queued;       /* 0: the queue is empty */
    int64_t first;
};

static const char sql_first[] = "SELECT min(lease_until_ms) FROM engine_jobs WHERE priority <= ?1";

/* The lowest lease end (0: a job waits unclaimed), when a job is queued. */
static int first_lease(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct first_ctx *f = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_first, "i", f->max_priority);
    int row = sq_row(st);
    if (row > 0 && sqlite3_column_type(st, 0) != SQLITE_NULL) {
        f->queued = 1;
        f->first = sqlite3_column_int64(st, 0);
    }
    sq_end(st);
    return row > 0 ? 0 : -1;
}

int sqlite_store_wait_jobs(struct store *s, int64_t now_ms, int timeout_ms, int max_priority,
                           char *err, size_t err_size)
{
    int64_t start = mono_ms(), deadline = start + (timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
        /* The count first: a job queued after it wakes the wait below. */
        uint64_t generation = sqlite_jobs_generation(s);
        struct first_ctx f = {max_priority, 0, 0};
        if (sqlite_store_read(s, first_lease, &f, "jobs", err, err_size) != 0)
            return -1;
        int64_t mono = mono_ms(), clock = now_ms + (mono - start);
        if (f.queued && f.first < clock)
            return 0; /* one waits, or its lease ran out */
        if (mono >= deadline)
            return 1;
        int64_t until = deadline;
        if (f.queued && mono + (f.first - clock + 1) < until)
            until = mono + (f.first - clock + 1); /* that lease's end */
        struct timespec at = mono_at(until);
        if (!sqlite_jobs_wait(s, generation, &at) && until == deadline)
            return 1; /* nothing came: the queue was read before */
    }
}

#define JOB_COLUMNS                                                                                \
    "id, kind, game_id, ply, client, priority, round, created_ms, lease_until_ms, worker, tries,"  \
    " done, total, game"

static void read_job(sqlite3_stmt *st, struct store_job *j)
{
    memset(j, 0, sizeof *j);
    sq_text(st, 0, j->id, sizeof j->id);
    sq_text(st, 1, j->kind, sizeof j->kind);
    sq_text(st, 2, j->game_id, sizeof j->game_id);
    j->ply = sqlite3_column_int(st, 3);
    sq_text(st, 4, j->client, sizeof j->client);
    j->priority = sqlite3_column_int(st, 5);
    j->round = sqlite3_column_int(st, 6);
    j->created_ms = sqlite3_column_int64(st, 7);
    j->lease_until_ms = sqlite3_column_int64(st, 8);
    sq_text(st, 9, j->worker, sizeof j->worker);
    j->tries = sqlite3_column_int(st, 10);
    j->done = sqlite3_column_int(st, 11);
    j->total = sqlite3_column_int(st, 12);
    sq_text(st, 13, j->game, sizeof j->game);
}

struct claim_ctx {
    const char *worker;
    int64_t now, lease;
    int max_priority;
    struct store_job *job;
};

static const char sql_next[] = "SELECT " JOB_COLUMNS " FROM engine_jobs WHERE lease_until_ms < ?1"
                               " AND priority <= ?2 ORDER BY priority, round, created_ms LIMIT 1";
static const char sql_take[] = "UPDATE engine_jobs SET lease_until_ms = ?2, worker = ?3, tries = "
                               "tries + 1, output = '' WHERE id = ?1";

static int claim(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct claim_ctx *c = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_next, "Ii", c->now, c->max_priority);
    int row = sq_row(st);
    if (row > 0)
        read_job(st, c->job);
    sq_end(st);
    if (row <= 0)
        return row < 0 ? -1 : 1;
    c->job->lease_until_ms = c->now + c->lease;
    c->job->tries++;
    snprintf(c->job->worker, sizeof c->job->worker, "%s", c->worker);
    return sq_done(sq_bind(s, sql_take, "tIt", c->job->id, c->job->lease_until_ms, c->worker));
}

int sqlite_store_claim_job(struct store *s, const char *worker, int64_t now_ms, int64_t lease_ms,
                           int max_priority, struct store_job *job, char *err, size_t err_size)
{
    struct claim_ctx c = {worker, now_ms, lease_ms, max_priority, job};
    return sqlite_store_write(s, claim, &c, "claim job", err, err_size);
}

static const char sql_drop[] = "DELETE FROM engine_jobs WHERE id = ?1";

static int drop(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    return sq_done(sq_bind(s, sql_drop, "t", (const char *)ctx));
}

int sqlite_store_drop_job(struct store *s, const char *id, char *err, size_t err_size)
{
    return sqlite_store_write(s, drop, (void *)id, "drop job", err, err_size);
}

struct count_ctx {
    const char *kind, *client;
    int count;
};

static const char sql_count[] = "SELECT count(*) FROM engine_jobs WHERE kind = ?1"
                                " AND (client = ?2 OR ?3 = 1)";

static int count(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct count_ctx *c = ctx;
    sqlite3_stmt *st =
        sq_bind(s, sql_count, "tti", c->kind, c->client ? c->client : "", c->client ? 0 : 1);
    int row = sq_row(st);
    if (row > 0)
        c->count = sqlite3_column_int(st, 0);
    sq_end(st);
    return row > 0 ? 0 : -1;
}

int sqlite_store_count_jobs(struct store *s, const char *kind, const char *client, int *n,
                            char *err, size_t err_size)
{
    struct count_ctx c = {kind, client, 0};
    int rc = sqlite_store_read(s, count, &c, "count jobs", err, err_size);
    if (rc == 0)
        *n = c.count;
    return rc;
}

struct get_ctx {
    const char *id;
    struct store_job *job;
    char *payload;
    bool no_memory;
};

static const char sql_get[] = "SELECT " JOB_COLUMNS " FROM engine_jobs WHERE id = ?1";

static int get(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct get_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get, "t", g->id);
    int row = sq_row(st);
    if (row > 0)
        read_job(st, g->job);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_job(struct store *s, const char *id, struct store_job *job, char *err,
                         size_t err_size)
{
    struct get_ctx g = {.id = id, .job = job};
    return sqlite_store_read(s, get, &g, "load job", err, err_size);
}

static const char sql_payload[] = "SELECT payload FROM engine_jobs WHERE id = ?1";

static int payload(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct get_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_payload, "t", g->id);
    int row = sq_row(st);
    if (row > 0) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        g->payload = strdup(t ? (const char *)t : "");
        g->no_memory = !g->payload;
    }
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_job_payload(struct store *s, const char *id, char **out, char *err,
                             size_t err_size)
{
    struct get_ctx g = {.id = id};
    int rc = sqlite_store_read(s, payload, &g, "load job payload", err, err_size);
    if (rc == 0 && g.no_memory)
        rc = fail(err, err_size, "out of memory");
    *out = rc == 0 ? g.payload : NULL;
    return rc;
}

struct progress_ctx {
    const char *id, *worker;
    int done, total;
    int64_t lease_until;
};

static const char sql_progress[] = "UPDATE engine_jobs SET done = ?3, total = ?4,"
                                   " lease_until_ms = ?5 WHERE id = ?1 AND worker = ?2";

static int progress(struct store *s, sqlite3 *db, void *ctx)
{
    struct progress_ctx *p = ctx;
    if (sq_done(sq_bind(s, sql_progress, "ttiiI", p->id, p->worker, p->done, p->total,
                        p->lease_until)) != 0)
        return -1;
    return sqlite3_changes(db) > 0 ? 0 : 1;
}

int sqlite_store_job_progress(struct store *s, const char *id, const char *worker, int done,
                              int total, int64_t now_ms, int64_t lease_ms, char *err,
                              size_t err_size)
{
    struct progress_ctx p = {id, worker, done, total, now_ms + lease_ms};
    return sqlite_store_write(s, progress, &p, "job progress", err, err_size);
}

struct finish_ctx {
    const struct store_job *job;
    const char *move, *body;
    int result, reason;
    int64_t now;
};

static const char sql_game_on[] =
    "SELECT result, COALESCE((SELECT max(ply) FROM moves WHERE game_id = ?1), 0)"
    " FROM games WHERE id = ?1";
static const char sql_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) VALUES (?1, ?2, ?3, ?4)";
static const char sql_end[] = "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4,"
                              " plies = ?5 WHERE id = ?1";
static const char sql_event[] = "INSERT INTO events (seq, game_id, kind, body, created_ms)"
                                " SELECT COALESCE(max(seq), 0) + 1, ?1, 'game', ?2, ?3 FROM events";

static int finish(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct finish_ctx *f = ctx;
    const struct store_job *j = f->job;
    sqlite3_stmt *st = sq_bind(s, sql_game_on, "t", j->game_id);
    int row = sq_row(st);
    int result = row > 0 ? sqlite3_column_int(st, 0) : 0;
    int last = row > 0 ? sqlite3_column_int(st, 1) : 0;
    sq_end(st);
    if (row < 0)
        return -1;
    if (row == 0)
        return sqlite_store_why("no game %.32s", j->game_id);
    if (result != 0 || last != j->ply)
        return 1; /* over, or the move is made already */
    if (sq_done(sq_bind(s, sql_move, "titI", j->game_id, j->ply + 1, f->move, f->now)) != 0)
        return -1;
    if (f->result != 0 && sq_done(sq_bind(s, sql_end, "tiiIi", j->game_id, f->result, f->reason,
                                          f->now, j->ply + 1)) != 0)
        return -1;
    if (sq_done(sq_bind(s, sql_drop, "t", j->id)) != 0)
        return -1;
    return sq_done(sq_bind(s, sql_event, "ttI", j->game_id, f->body, f->now));
}

int sqlite_store_finish_job(struct store *s, const struct store_job *job, const char *move,
                            int result, int reason, int64_t now_ms, const char *event_body,
                            char *err, size_t err_size)
{
    struct finish_ctx f = {job, move, event_body, result, reason, now_ms};
    int rc = sqlite_store_write(s, finish, &f, "finish job", err, err_size);
    if (rc == 0)
        sqlite_events_committed(s);
    return rc;
}
