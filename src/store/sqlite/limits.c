/* The SQLite backend's rate buckets and the outbox's trimming (store_ops.def "Several
 * servers").  One server a database: the server keeps its limits in memory on SQLite
 * (common/ratelimit.c); these are here so that both backends have every operation. */
#include "store/sqlite/private.h"

struct take_ctx {
    const char *name, *key;
    double burst, per_ms;
    int64_t now;
    int allowed;
};

/* A new bucket is full (one taken now); an old one refilled since its last use, capped
 * at the burst, and one taken only when at least one is there. */
static const char sql_take[] =
    "INSERT INTO rate_buckets (name, key, tokens, last_ms) VALUES (?1, ?2, ?3 - 1, ?4)"
    " ON CONFLICT (name, key) DO UPDATE SET"
    " tokens = min(?3, tokens + max(0, ?4 - last_ms) * ?5) - 1, last_ms = max(last_ms, ?4)"
    " WHERE min(?3, tokens + max(0, ?4 - last_ms) * ?5) >= 1";

static int take(struct store *s, sqlite3 *db, void *ctx)
{
    struct take_ctx *t = ctx;
    if (sq_done(sq_bind(s, sql_take, "ttdId", t->name, t->key, t->burst, t->now, t->per_ms)) != 0)
        return -1;
    t->allowed = sqlite3_changes(db) > 0;
    return 0;
}

int sqlite_store_rate_take(struct store *s, const char *name, const char *key, int per_minute,
                           int64_t now_ms, int *allowed, char *err, size_t err_size)
{
    struct take_ctx t = {name, key, per_minute, per_minute / 60000.0, now_ms, 0};
    if (per_minute < 1) { /* no limit */
        *allowed = 1;
        return 0;
    }
    int rc = sqlite_store_write(s, take, &t, "rate bucket", err, err_size);
    if (rc == 0)
        *allowed = t.allowed;
    return rc;
}

struct trim_ctx {
    int64_t before;
    int deleted;
};

/* (never the newest: the next event's number is the newest's + 1) */
static const char sql_trim_events[] =
    "DELETE FROM events WHERE created_ms < ?1 AND seq < (SELECT max(seq) FROM events)";
static const char sql_trim_buckets[] = "DELETE FROM rate_buckets WHERE last_ms < ?1";
static const char sql_trim_places[] = "DELETE FROM seek_places WHERE expires_ms < ?1";

static int trim(struct store *s, sqlite3 *db, void *ctx)
{
    struct trim_ctx *t = ctx;
    if (sq_done(sq_bind(s, sql_trim_events, "I", t->before)) != 0)
        return -1;
    t->deleted = sqlite3_changes(db);
    if (sq_done(sq_bind(s, sql_trim_buckets, "I", t->before)) != 0)
        return -1;
    return sq_done(sq_bind(s, sql_trim_places, "I", t->before));
}

int sqlite_store_trim_events(struct store *s, int64_t before_ms, int *deleted, char *err,
                             size_t err_size)
{
    struct trim_ctx t = {before_ms, 0};
    int rc = sqlite_store_write(s, trim, &t, "trim events", err, err_size);
    if (rc == 0)
        *deleted = t.deleted;
    return rc;
}

/* ---- the lobby's places of open seeks ---- */

/* (status 0: open; a place whose seek is not stored yet stays until it expires) */
static const char sql_forget[] =
    "DELETE FROM seek_places WHERE key = ?1 AND (expires_ms <= ?2 OR EXISTS"
    " (SELECT 1 FROM challenges c WHERE c.id = seek_places.seek_id AND c.status <> 0))";
static const char sql_count[] = "SELECT count(*) FROM seek_places WHERE key = ?1";
static const char sql_place[] =
    "INSERT OR REPLACE INTO seek_places (key, seek_id, expires_ms) VALUES (?1, ?2, ?3)";
static const char sql_unplace[] = "DELETE FROM seek_places WHERE key = ?1 AND seek_id = ?2";

struct place_ctx {
    const char *const *keys;
    const int *caps;
    int n;
    const char *id;
    int64_t expires, now;
    int full;
};

static int place(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct place_ctx *p = ctx;
    for (int k = 0; k < p->n; k++) {
        if (p->caps[k] <= 0)
            continue;
        if (sq_done(sq_bind(s, sql_forget, "tI", p->keys[k], p->now)) != 0)
            return -1;
        sqlite3_stmt *st = sq_bind(s, sql_count, "t", p->keys[k]);
        int row = sq_row(st);
        if (row < 0)
            return -1;
        int have = sqlite3_column_int(st, 0);
        sq_end(st);
        if (have >= p->caps[k]) {
            p->full = k;
            return 1; /* nothing stored */
        }
    }
    for (int k = 0; k < p->n; k++)
        if (p->caps[k] > 0 && sq_done(sq_bind(s, sql_place, "ttI", p->keys[k], p->id, p->expires)))
            return -1;
    return 0;
}

int sqlite_store_seek_place(struct store *s, const char *const *keys, const int *caps, int n,
                            const char *seek_id, int64_t expires_ms, int64_t now_ms, int *full,
                            char *err, size_t err_size)
{
    struct place_ctx p = {keys, caps, n, seek_id, expires_ms, now_ms, -1};
    int rc = sqlite_store_write(s, place, &p, "seek place", err, err_size);
    if (rc >= 0)
        *full = p.full;
    return rc > 0 ? 0 : rc;
}

struct unplace_ctx {
    const char *const *keys;
    int n;
    const char *id;
};

static int unplace(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct unplace_ctx *u = ctx;
    for (int k = 0; k < u->n; k++)
        if (sq_done(sq_bind(s, sql_unplace, "tt", u->keys[k], u->id)) != 0)
            return -1;
    return 0;
}

int sqlite_store_seek_unplace(struct store *s, const char *const *keys, int n, const char *seek_id,
                              char *err, size_t err_size)
{
    struct unplace_ctx u = {keys, n, seek_id};
    return sqlite_store_write(s, unplace, &u, "seek unplace", err, err_size);
}
