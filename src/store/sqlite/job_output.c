/* The SQLite backend's part for an analysis's output (store_ops.def "Engine jobs":
 * job_output_add, job_output), as PostgreSQL's: one conditional UPDATE on the claim
 * (worker and tries) appends, counts and renews the lease. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

struct add_ctx {
    const struct store_job *job;
    const char *text;
    int last;
    int64_t lease_until;
};

static const char sql_add[] = "UPDATE engine_jobs SET output = output || ?4, done = done + 1,"
                              " total = CASE WHEN ?5 = 1 THEN 1 ELSE total END, lease_until_ms = ?6"
                              " WHERE id = ?1 AND worker = ?2 AND tries = ?3";

static int add(struct store *s, sqlite3 *db, void *ctx)
{
    struct add_ctx *a = ctx;
    if (sq_done(sq_bind(s, sql_add, "ttitiI", a->job->id, a->job->worker, a->job->tries, a->text,
                        a->last, a->lease_until)) != 0)
        return -1;
    return sqlite3_changes(db) > 0 ? 0 : 1;
}

int sqlite_store_job_output_add(struct store *s, const struct store_job *job, const char *text,
                                bool last, int64_t now_ms, int64_t lease_ms, char *err,
                                size_t err_size)
{
    struct add_ctx a = {job, text, last ? 1 : 0, now_ms + lease_ms};
    return sqlite_store_write(s, add, &a, "job output", err, err_size);
}

struct read_ctx {
    const char *id;
    struct store_job *job;
    char *output;
    bool no_memory;
};

static const char sql_read[] =
    "SELECT id, kind, client, created_ms, lease_until_ms, worker, tries, done, total, output"
    " FROM engine_jobs WHERE id = ?1";

static int read_output(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct read_ctx *c = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_read, "t", c->id);
    int row = sq_row(st);
    if (row > 0) {
        struct store_job *j = c->job;
        memset(j, 0, sizeof *j);
        sq_text(st, 0, j->id, sizeof j->id);
        sq_text(st, 1, j->kind, sizeof j->kind);
        sq_text(st, 2, j->client, sizeof j->client);
        j->created_ms = sqlite3_column_int64(st, 3);
        j->lease_until_ms = sqlite3_column_int64(st, 4);
        sq_text(st, 5, j->worker, sizeof j->worker);
        j->tries = sqlite3_column_int(st, 6);
        j->done = sqlite3_column_int(st, 7);
        j->total = sqlite3_column_int(st, 8);
        const unsigned char *t = sqlite3_column_text(st, 9);
        c->output = strdup(t ? (const char *)t : "");
        c->no_memory = !c->output;
    }
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_job_output(struct store *s, const char *id, struct store_job *job, char **output,
                            char *err, size_t err_size)
{
    struct read_ctx c = {.id = id, .job = job};
    int rc = sqlite_store_read(s, read_output, &c, "load job output", err, err_size);
    if (rc == 0 && c.no_memory)
        rc = fail(err, err_size, "out of memory");
    if (rc != 0) {
        free(c.output);
        c.output = NULL;
    }
    *output = c.output;
    return rc;
}
