/* The PostgreSQL backend's part for the engine jobs (store_ops.def "Engine jobs"):
 * workers on any machine claim with one UPDATE over a SELECT ... FOR UPDATE SKIP
 * LOCKED, so two claimers never take one job and neither waits for the other's row.
 *
 * An idle worker waits on LISTEN agora_jobs (wait_jobs, on a connection of its own):
 * put_job's statement NOTIFYs when it inserts, so the notification goes out with the
 * job's COMMIT, never before the job can be claimed.  A lease that runs out sends
 * nothing (nobody writes then), so the waiter reads the nearest lease's end with the
 * queue's state and wakes by then: a job given back by a killed worker is claimed
 * when its lease ends, with no poll.  The read comes after the LISTEN, on the same
 * connection, so a job queued before it is seen and one queued after it notifies;
 * a waiter that lost its connection LISTENs again and reads again, missing none. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "store/postgres/private.h"

/* Its round: after the client's last job (one address's jobs in order), and no
 * earlier than the lowest round waiting (a new address joins at the front).  The
 * NOTIFY only when a row went in (a job queued twice wakes nobody the second time);
 * its payload the job's id. */
static const char sql_put[] =
    "WITH j AS (INSERT INTO engine_jobs"
    " (id, kind, game_id, ply, client, priority, round, created_ms, payload, game)"
    " VALUES ($1::text, $2::text, $3::text, $4::bigint, $5::text, $6::bigint,"
    " GREATEST((SELECT COALESCE(max(round) + 1, 0) FROM engine_jobs WHERE client = $5::text),"
    " (SELECT COALESCE(min(round), 0) FROM engine_jobs)), $7::bigint, $8::text, $9::text)"
    " ON CONFLICT (id) DO NOTHING RETURNING id)"
    " SELECT pg_notify('" PG_JOBS_CHANNEL "', id) FROM j";

int pg_store_put_job(struct store *s, const struct store_job *j, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "queue job", err, err_size, sql_put, "tttitiItt", j->id,
                                 j->kind, j->game_id, j->ply, j->client, j->priority, j->created_ms,
                                 j->payload ? j->payload : "", j->game);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

/* put_job under caps: every capped put of one kind waits for the others' COMMIT, then
 * counts what they queued. */
static const char sql_cap_lock[] =
    "SELECT pg_advisory_xact_lock(hashtext('agora.engine_jobs.' || $1::text))";
static const char sql_cap_count[] = "SELECT count(*) FILTER (WHERE client = $2::text), count(*)"
                                    " FROM engine_jobs WHERE kind = $1::text";

struct capped_ctx {
    const struct store_job *job;
    int client_max, kind_max, full;
};

static int put_capped(struct pg_conn *c, void *ctx)
{
    struct capped_ctx *p = ctx;
    const struct store_job *j = p->job;
    PGresult *r = pg_exec(c, sql_cap_lock, "t", j->kind);
    if (!r)
        return -1;
    PQclear(r);
    if (!(r = pg_exec(c, sql_cap_count, "tt", j->kind, j->client)))
        return -1;
    int mine = pg_col_int(r, 0, 0), all = pg_col_int(r, 0, 1);
    PQclear(r);
    p->full = p->client_max > 0 && mine >= p->client_max ? 1
              : p->kind_max > 0 && all >= p->kind_max    ? 2
                                                         : 0;
    if (p->full)
        return 1; /* nothing written */
    r = pg_exec(c, sql_put, "tttitiItt", j->id, j->kind, j->game_id, j->ply, j->client, j->priority,
                j->created_ms, j->payload ? j->payload : "", j->game);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

int pg_store_put_job_capped(struct store *s, const struct store_job *j, int client_max,
                            int kind_max, int *full, char *err, size_t err_size)
{
    struct capped_ctx p = {j, client_max, kind_max, 0};
    int rc = pg_store_write(s, put_capped, &p, "queue job", err, err_size);
    *full = p.full;
    return rc < 0 ? -1 : 0;
}

#define JOB_COLUMNS                                                                                \
    "id, kind, game_id, ply, client, priority, round, created_ms, lease_until_ms, worker, tries,"  \
    " done, total, game"

static void read_job(PGresult *r, struct store_job *j)
{
    memset(j, 0, sizeof *j);
    pg_col_text(r, 0, 0, j->id, sizeof j->id);
    pg_col_text(r, 0, 1, j->kind, sizeof j->kind);
    pg_col_text(r, 0, 2, j->game_id, sizeof j->game_id);
    j->ply = pg_col_int(r, 0, 3);
    pg_col_text(r, 0, 4, j->client, sizeof j->client);
    j->priority = pg_col_int(r, 0, 5);
    j->round = pg_col_int(r, 0, 6);
    j->created_ms = pg_col_int64(r, 0, 7);
    j->lease_until_ms = pg_col_int64(r, 0, 8);
    pg_col_text(r, 0, 9, j->worker, sizeof j->worker);
    j->tries = pg_col_int(r, 0, 10);
    j->done = pg_col_int(r, 0, 11);
    j->total = pg_col_int(r, 0, 12);
    pg_col_text(r, 0, 13, j->game, sizeof j->game);
}

static const char sql_claim[] =
    "UPDATE engine_jobs SET lease_until_ms = $2::bigint + $3::bigint, worker = $1::text,"
    " tries = tries + 1, output = '' WHERE id = (SELECT id FROM engine_jobs WHERE lease_until_ms < "
    "$2::bigint"
    " AND priority <= $4::bigint ORDER BY priority, round, created_ms LIMIT 1 FOR UPDATE SKIP "
    "LOCKED)"
    " RETURNING " JOB_COLUMNS;

int pg_store_claim_job(struct store *s, const char *worker, int64_t now_ms, int64_t lease_ms,
                       int max_priority, struct store_job *j, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "claim job", err, err_size, sql_claim, "tIIi", worker, now_ms,
                                 lease_ms, max_priority);
    if (!r)
        return -1;
    int found = PQntuples(r);
    if (found)
        read_job(r, j);
    PQclear(r);
    return found ? 0 : 1;
}

/* ---- waiting for a job ---- */

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The queue on the listener: 1 with *first the lowest lease end (0: a job waits
 * unclaimed), 0 when it is empty, -1 when the read failed. */
static int first_lease(PGconn *db, int max_priority, int64_t *first)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT min(lease_until_ms) FROM engine_jobs WHERE priority <= %d",
             max_priority);
    PGresult *r = PQexec(db, sql);
    int rc = PQresultStatus(r) != PGRES_TUPLES_OK ? -1 : PQgetisnull(r, 0, 0) ? 0 : 1;
    if (rc == 1)
        *first = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return rc;
}

/* The listener's last message as one line in err, the listener given back: -1. */
static int listener_failed(struct store *s, PGconn *db, const char *why, char *err, size_t err_size)
{
    char line[ERROR_TEXT_MAX];
    pg_one_line(line, sizeof line, why ? why : db ? PQerrorMessage(db) : "out of memory");
    pg_listener_done(s, PG_CHANNEL_JOBS);
    return fail(err, err_size, "database: wait for jobs: %s", line);
}

/* The notifications received: dropped (the queue is read after them). */
static void drain(PGconn *db)
{
    PGnotify *n;
    while ((n = PQnotifies(db)))
        PQfreemem(n);
}

int pg_store_wait_jobs(struct store *s, int64_t now_ms, int timeout_ms, int max_priority, char *err,
                       size_t err_size)
{
    int64_t start = mono_ms(), deadline = start + (timeout_ms > 0 ? timeout_ms : 0);
    int rc = 1;
    PGconn *db = pg_listener(s, PG_CHANNEL_JOBS);
    for (int broken = 0; rc == 1;) {
        if (!db || PQstatus(db) != CONNECTION_OK) {
            /* Connect and LISTEN again, then read the queue: nothing is missed. */
            pg_listener_done(s, PG_CHANNEL_JOBS);
            if (broken++ > 0 || !(db = pg_listener(s, PG_CHANNEL_JOBS)) ||
                PQstatus(db) != CONNECTION_OK)
                return listener_failed(s, db, NULL, err, err_size);
        }
        PQconsumeInput(db);
        drain(db);
        int64_t first = 0, clock = now_ms + (mono_ms() - start);
        int queued = first_lease(db, max_priority, &first);
        if (queued < 0 && PQstatus(db) == CONNECTION_OK)
            return listener_failed(s, db, NULL, err, err_size);
        if (queued < 0)
            continue; /* the connection broke: again, connected anew */
        if (queued && first < clock) {
            rc = 0; /* one waits, or its lease ran out */
            break;
        }
        PGnotify *late = PQnotifies(db);
        if (late) {
            /* Read by libpq with the queue's answer (a job committed while it was read):
             * the socket says nothing more of it, so read the queue again. */
            PQfreemem(late);
            continue;
        }
        int64_t left = deadline - mono_ms();
        if (left <= 0)
            break;
        if (queued && first - clock + 1 < left)
            left = first - clock + 1; /* that lease's end */
        struct pollfd p = {.fd = PQsocket(db), .events = POLLIN};
        int ready = poll(&p, 1, (int)left);
        if (ready < 0 && errno != EINTR)
            return listener_failed(s, db, strerror(errno), err, err_size);
        if (ready == 0 && mono_ms() >= deadline)
            break; /* nothing came: the queue was read at the start */
        if (ready > 0 && !PQconsumeInput(db))
            continue; /* broken: read the queue once connected again */
    }
    pg_listener_done(s, PG_CHANNEL_JOBS);
    return rc;
}

static const char sql_get[] = "SELECT " JOB_COLUMNS " FROM engine_jobs WHERE id = $1";

int pg_store_get_job(struct store *s, const char *id, struct store_job *j, char *err,
                     size_t err_size)
{
    PGresult *r = pg_store_query(s, "load job", err, err_size, sql_get, "t", id);
    if (!r)
        return -1;
    int found = PQntuples(r);
    if (found)
        read_job(r, j);
    PQclear(r);
    return found ? 0 : 1;
}

static const char sql_payload[] = "SELECT payload FROM engine_jobs WHERE id = $1";

int pg_store_job_payload(struct store *s, const char *id, char **payload, char *err,
                         size_t err_size)
{
    *payload = NULL;
    PGresult *r = pg_store_query(s, "load job payload", err, err_size, sql_payload, "t", id);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) > 0) {
        *payload = strdup(PQgetvalue(r, 0, 0));
        rc = *payload ? 0 : fail(err, err_size, "out of memory");
    }
    PQclear(r);
    return rc;
}

static const char sql_progress[] =
    "UPDATE engine_jobs SET done = $3::bigint, total = $4::bigint,"
    " lease_until_ms = $5::bigint + $6::bigint WHERE id = $1 AND worker = $2 RETURNING id";

int pg_store_job_progress(struct store *s, const char *id, const char *worker, int done, int total,
                          int64_t now_ms, int64_t lease_ms, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "job progress", err, err_size, sql_progress, "ttiiII", id,
                                 worker, done, total, now_ms, lease_ms);
    if (!r)
        return -1;
    int held = PQntuples(r);
    PQclear(r);
    return held ? 0 : 1;
}

static const char sql_drop[] = "DELETE FROM engine_jobs WHERE id = $1";

int pg_store_drop_job(struct store *s, const char *id, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "drop job", err, err_size, sql_drop, "t", id);
    if (!r)
        return -1;
    PQclear(r);
    return 0;
}

static const char sql_count[] = "SELECT count(*) FROM engine_jobs WHERE kind = $1"
                                " AND (client = $2 OR $3::bigint = 1)";

int pg_store_count_jobs(struct store *s, const char *kind, const char *client, int *n, char *err,
                        size_t err_size)
{
    PGresult *r = pg_store_query(s, "count jobs", err, err_size, sql_count, "tti", kind,
                                 client ? client : "", client ? 0 : 1);
    if (!r)
        return -1;
    *n = pg_col_int(r, 0, 0);
    PQclear(r);
    return 0;
}

struct finish_ctx {
    const struct store_job *job;
    const char *move;
    int result, reason;
    int64_t now;
};

/* The game's row held to the end (its writers go one after another), then its moves. */
static const char sql_hold[] = "SELECT result FROM games WHERE id = $1 FOR UPDATE";
static const char sql_last[] = "SELECT COALESCE(max(ply), 0) FROM moves WHERE game_id = $1";
static const char sql_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) VALUES ($1, $2, $3, $4)";
static const char sql_end[] = "UPDATE games SET result = $2, reason = $3, updated_ms = $4,"
                              " plies = $5 WHERE id = $1";

static int finish(struct pg_conn *c, void *ctx)
{
    struct finish_ctx *f = ctx;
    const struct store_job *j = f->job;
    PGresult *r = pg_exec(c, sql_hold, "t", j->game_id);
    if (!r)
        return -1;
    int found = PQntuples(r), result = found ? pg_col_int(r, 0, 0) : 0;
    PQclear(r);
    if (!found)
        return pg_why(c, "no game %.32s", j->game_id);
    if (!(r = pg_exec(c, sql_last, "t", j->game_id)))
        return -1;
    int last = pg_col_int(r, 0, 0);
    PQclear(r);
    if (result != 0 || last != j->ply)
        return 1; /* over, or the move is made already */
    if (pg_do(c, sql_move, "titI", j->game_id, j->ply + 1, f->move, f->now) != 1)
        return -1;
    if (f->result != 0 &&
        pg_do(c, sql_end, "tiiIi", j->game_id, f->result, f->reason, f->now, j->ply + 1) != 1)
        return -1;
    return pg_do(c, sql_drop, "t", j->id) < 0 ? -1 : 0;
}

int pg_store_finish_job(struct store *s, const struct store_job *job, const char *move, int result,
                        int reason, int64_t now_ms, const char *event_body, char *err,
                        size_t err_size)
{
    struct finish_ctx f = {job, move, result, reason, now_ms};
    /* the move's event committed with it (events.c) */
    struct pg_event ev = {job->game_id, "game", event_body, now_ms};
    int64_t seq = 0;
    return pg_store_write_event(s, finish, &f, &ev, &seq, "finish job", err, err_size);
}
