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
static const char sql_trim_places[] = "DELETE FROM seek_places WHERE expires_ms < $1";

static int trim(struct pg_conn *c, void *ctx)
{
    struct trim_ctx *t = ctx;
    if ((t->deleted = pg_do(c, sql_trim_events, "I", t->before)) < 0)
        return -1;
    if (pg_do(c, sql_trim_buckets, "I", t->before) < 0)
        return -1;
    return pg_do(c, sql_trim_places, "I", t->before) < 0 ? -1 : 0;
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

/* ---- the lobby's places of open seeks ---- */

static const char sql_key_lock[] = "SELECT pg_advisory_xact_lock(7021002, hashtext($1::text))";
/* (status 0: open; a place whose seek is not stored yet stays until it expires) */
static const char sql_forget[] =
    "DELETE FROM seek_places WHERE key = $1::text AND (expires_ms <= $2::bigint OR EXISTS"
    " (SELECT 1 FROM challenges c WHERE c.id = seek_places.seek_id AND c.status <> 0))";
static const char sql_count[] = "SELECT count(*) FROM seek_places WHERE key = $1::text";
static const char sql_place[] =
    "INSERT INTO seek_places (key, seek_id, expires_ms) VALUES ($1::text, $2::text, $3::bigint)"
    " ON CONFLICT (key, seek_id) DO UPDATE SET expires_ms = excluded.expires_ms";
static const char sql_unplace[] =
    "DELETE FROM seek_places WHERE key = $1::text AND seek_id = $2::text";

struct place_ctx {
    const char *const *keys;
    const int *caps;
    int n;
    const char *id;
    int64_t expires, now;
    int full;
};

static int place(struct pg_conn *c, void *ctx)
{
    struct place_ctx *p = ctx;
    for (int k = 0; k < p->n; k++) {
        if (p->caps[k] <= 0)
            continue;
        PGresult *r = pg_exec(c, sql_key_lock, "t", p->keys[k]);
        if (!r)
            return -1;
        PQclear(r);
        if (pg_do(c, sql_forget, "tI", p->keys[k], p->now) < 0 ||
            !(r = pg_exec(c, sql_count, "t", p->keys[k])))
            return -1;
        int have = pg_col_int(r, 0, 0);
        PQclear(r);
        if (have >= p->caps[k]) {
            p->full = k;
            return 1; /* nothing stored */
        }
    }
    for (int k = 0; k < p->n; k++)
        if (p->caps[k] > 0 && pg_do(c, sql_place, "ttI", p->keys[k], p->id, p->expires) < 0)
            return -1;
    return 0;
}

int pg_store_seek_place(struct store *s, const char *const *keys, const int *caps, int n,
                        const char *seek_id, int64_t expires_ms, int64_t now_ms, int *full,
                        char *err, size_t err_size)
{
    struct place_ctx p = {keys, caps, n, seek_id, expires_ms, now_ms, -1};
    int rc = pg_store_write(s, place, &p, "seek place", err, err_size);
    if (rc >= 0)
        *full = p.full;
    return rc > 0 ? 0 : rc;
}

struct unplace_ctx {
    const char *const *keys;
    int n;
    const char *id;
};

static int unplace(struct pg_conn *c, void *ctx)
{
    struct unplace_ctx *u = ctx;
    for (int k = 0; k < u->n; k++)
        if (pg_do(c, sql_unplace, "tt", u->keys[k], u->id) < 0)
            return -1;
    return 0;
}

int pg_store_seek_unplace(struct store *s, const char *const *keys, int n, const char *seek_id,
                          char *err, size_t err_size)
{
    struct unplace_ctx u = {keys, n, seek_id};
    return pg_store_write(s, unplace, &u, "seek unplace", err, err_size);
}
