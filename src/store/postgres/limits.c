/* The PostgreSQL backend's rate buckets and the outbox's trimming (store_ops.def
 * "Several servers"): every server on the database takes from the same buckets, one
 * statement each, decided under the bucket's row lock (INSERT ... ON CONFLICT DO
 * UPDATE ... WHERE: a bucket that has not one token left is not updated, so no row
 * comes back). */
#include "store/postgres/private.h"

static const char sql_take[] =
    "INSERT INTO rate_buckets AS b (name, key, tokens, last_ms)"
    " VALUES ($1::text, $2::text, $3::float8 - 1, $4::bigint)"
    " ON CONFLICT (name, key) DO UPDATE SET"
    " tokens = LEAST($3::float8, b.tokens + GREATEST(0, $4::bigint - b.last_ms) * $5::float8) - 1,"
    " last_ms = GREATEST(b.last_ms, $4::bigint)"
    " WHERE LEAST($3::float8, b.tokens + GREATEST(0, $4::bigint - b.last_ms) * $5::float8) >= 1"
    " RETURNING 1";

int pg_store_rate_take(struct store *s, const char *name, const char *key, int per_minute,
                       int64_t now_ms, int *allowed, char *err, size_t err_size)
{
    if (per_minute < 1) { /* no limit */
        *allowed = 1;
        return 0;
    }
    PGresult *r = pg_store_query(s, "rate bucket", err, err_size, sql_take, "ttdId", name, key,
                                 (double)per_minute, now_ms, per_minute / 60000.0);
    if (!r)
        return -1;
    *allowed = PQntuples(r) > 0;
    PQclear(r);
    return 0;
}

struct trim_ctx {
    int64_t before;
    int deleted;
};

/* (never the newest: the next event's number is the newest's + 1) */
static const char sql_trim_events[] =
    "DELETE FROM events WHERE created_ms < $1 AND seq < (SELECT max(seq) FROM events)";
static const char sql_trim_buckets[] = "DELETE FROM rate_buckets WHERE last_ms < $1";

static int trim(struct pg_conn *c, void *ctx)
{
    struct trim_ctx *t = ctx;
    if ((t->deleted = pg_do(c, sql_trim_events, "I", t->before)) < 0)
        return -1;
    return pg_do(c, sql_trim_buckets, "I", t->before) < 0 ? -1 : 0;
}

int pg_store_trim_events(struct store *s, int64_t before_ms, int *deleted, char *err,
                         size_t err_size)
{
    struct trim_ctx t = {before_ms, 0};
    int rc = pg_store_write(s, trim, &t, "trim events", err, err_size);
    if (rc == 0)
        *deleted = t.deleted;
    return rc;
}
