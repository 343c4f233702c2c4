/* The PostgreSQL backend's part for an analysis's output (store_ops.def "Engine
 * jobs": job_output_add, job_output): the events a worker writes into its job's row,
 * read by the server that holds the stream.  The append, the count and the lease are
 * one conditional UPDATE on the claim (worker and tries): a worker whose job was
 * dropped (the stream closed) or claimed again is refused and stops. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

static const char sql_add[] = "UPDATE engine_jobs SET output = output || $4::text, done = done + 1,"
                              " total = CASE WHEN $5::bigint = 1 THEN 1 ELSE total END,"
                              " lease_until_ms = $6::bigint + $7::bigint"
                              " WHERE id = $1 AND worker = $2 AND tries = $3::bigint RETURNING id";

int pg_store_job_output_add(struct store *s, const struct store_job *job, const char *text,
                            bool last, int64_t now_ms, int64_t lease_ms, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "job output", err, err_size, sql_add, "ttitiII", job->id,
                                 job->worker, job->tries, text, last ? 1 : 0, now_ms, lease_ms);
    if (!r)
        return -1;
    int held = PQntuples(r);
    PQclear(r);
    return held ? 0 : 1;
}

static const char sql_read[] =
    "SELECT id, kind, client, created_ms, lease_until_ms, worker, tries, done, total, output"
    " FROM engine_jobs WHERE id = $1";

int pg_store_job_output(struct store *s, const char *id, struct store_job *j, char **output,
                        char *err, size_t err_size)
{
    *output = NULL;
    PGresult *r = pg_store_query(s, "load job output", err, err_size, sql_read, "t", id);
    if (!r)
        return -1;
    int rc = 1;
    if (PQntuples(r) > 0) {
        memset(j, 0, sizeof *j);
        pg_col_text(r, 0, 0, j->id, sizeof j->id);
        pg_col_text(r, 0, 1, j->kind, sizeof j->kind);
        pg_col_text(r, 0, 2, j->client, sizeof j->client);
        j->created_ms = pg_col_int64(r, 0, 3);
        j->lease_until_ms = pg_col_int64(r, 0, 4);
        pg_col_text(r, 0, 5, j->worker, sizeof j->worker);
        j->tries = pg_col_int(r, 0, 6);
        j->done = pg_col_int(r, 0, 7);
        j->total = pg_col_int(r, 0, 8);
        *output = strdup(PQgetvalue(r, 0, 9));
        rc = *output ? 0 : fail(err, err_size, "out of memory");
    }
    PQclear(r);
    return rc;
}
