/* The PostgreSQL backend's part for notifications (store_ops.def "Notifications"), as
 * SQLite's (sqlite/notices.c): what happened to a player, kept until read, the newest
 * 200 a token. */
#include <string.h>

#include "store/postgres/private.h"

#define NOTICES_KEPT 200

struct notify_ctx {
    const char *hash, *kind, *body;
    int64_t now, id;
};

static const char sql_notify[] = "INSERT INTO notices (token_hash, kind, body, created_ms, read)"
                                 " VALUES ($1, $2, $3, $4, 0) RETURNING id";
static const char sql_trim[] =
    "DELETE FROM notices WHERE token_hash = $1 AND id <= (SELECT id FROM notices WHERE"
    " token_hash = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)";

static int notify(struct pg_conn *c, void *ctx)
{
    struct notify_ctx *q = ctx;
    PGresult *r = pg_exec(c, sql_notify, "tttI", q->hash, q->kind, q->body, q->now);
    if (!r)
        return -1;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return pg_why(c, "no notification id");
    }
    q->id = pg_col_int64(r, 0, 0);
    PQclear(r);
    return pg_do(c, sql_trim, "ti", q->hash, NOTICES_KEPT) < 0 ? -1 : 0;
}

int pg_store_notify(struct store *s, const char *token_hash, const char *kind, const char *body,
                    int64_t now_ms, int64_t *id, char *err, size_t err_size)
{
    struct notify_ctx q = {token_hash, kind, body, now_ms, 0};
    int rc = pg_store_write(s, notify, &q, "store notification", err, err_size);
    if (rc == 0)
        *id = q.id;
    return rc;
}

/* Both read in one snapshot; the rows called back after it (a callback may use the
 * store). */
struct list_ctx {
    const char *hash;
    int64_t after;
    int limit, unread;
    PGresult *rows;
};

static const char sql_list[] = "SELECT id, kind, body, read, created_ms FROM notices WHERE"
                               " token_hash = $1 AND id > $2 ORDER BY id DESC LIMIT $3";
static const char sql_unread[] = "SELECT count(*) FROM notices WHERE token_hash = $1 AND read = 0";

static int list(struct pg_conn *c, void *ctx)
{
    struct list_ctx *q = ctx;
    PQclear(q->rows); /* a try before, retried */
    q->rows = NULL;
    PGresult *r = pg_exec(c, sql_unread, "t", q->hash);
    if (!r)
        return -1;
    q->unread = PQntuples(r) > 0 ? pg_col_int(r, 0, 0) : 0;
    PQclear(r);
    q->rows = pg_exec(c, sql_list, "tIi", q->hash, q->after, q->limit);
    return q->rows ? 0 : -1;
}

int pg_store_list_notifications(struct store *s, const char *token_hash, int64_t after_id,
                                int limit, int *unread, store_notice_fn fn, void *ctx, char *err,
                                size_t err_size)
{
    if (limit < 0)
        limit = 0;
    if (limit > NOTICES_KEPT)
        limit = NOTICES_KEPT;
    struct list_ctx q = {token_hash, after_id, limit, 0, NULL};
    int rc = pg_store_read(s, list, &q, "list notifications", err, err_size);
    if (rc == 0 && q.rows) {
        struct store_notice n;
        for (int i = 0; i < PQntuples(q.rows); i++) {
            memset(&n, 0, sizeof n);
            n.id = pg_col_int64(q.rows, i, 0);
            pg_col_text(q.rows, i, 1, n.kind, sizeof n.kind);
            n.body = PQgetvalue(q.rows, i, 2);
            n.read = pg_col_int(q.rows, i, 3);
            n.created_ms = pg_col_int64(q.rows, i, 4);
            fn(ctx, &n);
        }
        *unread = q.unread;
    }
    PQclear(q.rows);
    return rc;
}

struct read_ctx {
    const char *hash;
    int64_t upto;
    int marked;
};

static const char sql_read[] = "UPDATE notices SET read = 1 WHERE token_hash = $1 AND read = 0"
                               " AND ($2::bigint = 0 OR id <= $2::bigint)";

static int mark(struct pg_conn *c, void *ctx)
{
    struct read_ctx *q = ctx;
    return (q->marked = pg_do(c, sql_read, "tI", q->hash, q->upto)) < 0 ? -1 : 0;
}

int pg_store_read_notifications(struct store *s, const char *token_hash, int64_t upto_id,
                                int *marked, char *err, size_t err_size)
{
    struct read_ctx q = {token_hash, upto_id, 0};
    int rc = pg_store_write(s, mark, &q, "mark notifications read", err, err_size);
    if (rc == 0)
        *marked = q.marked;
    return rc;
}
