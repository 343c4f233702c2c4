/* The SQLite backend's part for notifications (store_ops.def "Notifications"): what
 * happened to a player, kept until read, the newest 200 a token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite/private.h"

#define NOTICES_KEPT 200

struct notify_ctx {
    const char *hash, *kind, *body;
    int64_t now, id;
};

static const char sql_notify[] = "INSERT INTO notices (token_hash, kind, body, created_ms, read)"
                                 " VALUES (?1, ?2, ?3, ?4, 0)";
static const char sql_trim[] =
    "DELETE FROM notices WHERE token_hash = ?1 AND id <= (SELECT id FROM notices WHERE"
    " token_hash = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)";

static int notify(struct store *s, sqlite3 *db, void *ctx)
{
    struct notify_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_notify, "tttI", q->hash, q->kind, q->body, q->now)) != 0)
        return -1;
    q->id = sqlite3_last_insert_rowid(db);
    return sq_done(sq_bind(s, sql_trim, "ti", q->hash, NOTICES_KEPT));
}

int sqlite_store_notify(struct store *s, const char *token_hash, const char *kind, const char *body,
                        int64_t now_ms, int64_t *id, char *err, size_t err_size)
{
    struct notify_ctx q = {token_hash, kind, body, now_ms, 0};
    int rc = sqlite_store_write(s, notify, &q, "store notification", err, err_size);
    if (rc == 0)
        *id = q.id;
    return rc;
}

/* Read under the connection's mutex, called back after it (a callback may use the
 * store): the rows are copied first. */
struct notice_row {
    struct store_notice n;
    char *body;
};

struct list_ctx {
    const char *hash;
    int64_t after;
    int limit, unread, n;
    struct notice_row *rows;
};

static const char sql_list[] = "SELECT id, kind, body, read, created_ms FROM notices WHERE"
                               " token_hash = ?1 AND id > ?2 ORDER BY id DESC LIMIT ?3";
static const char sql_unread[] = "SELECT count(*) FROM notices WHERE token_hash = ?1 AND read = 0";

static int list(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_unread, "t", q->hash);
    int row = sq_row(st);
    if (row <= 0)
        return -1;
    q->unread = sqlite3_column_int(st, 0);
    sq_end(st);
    st = sq_bind(s, sql_list, "tIi", q->hash, q->after, q->limit);
    while ((row = sq_row(st)) > 0) {
        struct notice_row *r = &q->rows[q->n];
        r->n.id = sqlite3_column_int64(st, 0);
        sq_text(st, 1, r->n.kind, sizeof r->n.kind);
        const unsigned char *t = sqlite3_column_text(st, 2);
        r->body = strdup(t ? (const char *)t : "{}");
        r->n.read = sqlite3_column_int(st, 3);
        r->n.created_ms = sqlite3_column_int64(st, 4);
        if (!r->body) {
            sq_end(st);
            return -1;
        }
        q->n++;
    }
    return row < 0 ? -1 : 0;
}

int sqlite_store_list_notifications(struct store *s, const char *token_hash, int64_t after_id,
                                    int limit, int *unread, store_notice_fn fn, void *ctx,
                                    char *err, size_t err_size)
{
    if (limit < 0)
        limit = 0;
    if (limit > NOTICES_KEPT)
        limit = NOTICES_KEPT;
    struct list_ctx q = {token_hash, after_id, limit, 0, 0, NULL};
    q.rows = calloc((size_t)(limit ? limit : 1), sizeof *q.rows);
    if (!q.rows) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    int rc = sqlite_store_read(s, list, &q, "list notifications", err, err_size);
    for (int i = 0; i < q.n; i++) {
        if (rc == 0) {
            q.rows[i].n.body = q.rows[i].body;
            fn(ctx, &q.rows[i].n);
        }
        free(q.rows[i].body);
    }
    free(q.rows);
    if (rc == 0)
        *unread = q.unread;
    return rc;
}

struct read_ctx {
    const char *hash;
    int64_t upto;
    int marked;
};

static const char sql_read[] = "UPDATE notices SET read = 1 WHERE token_hash = ?1 AND read = 0"
                               " AND (?2 = 0 OR id <= ?2)";

static int mark(struct store *s, sqlite3 *db, void *ctx)
{
    struct read_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_read, "tI", q->hash, q->upto)) != 0)
        return -1;
    q->marked = sqlite3_changes(db);
    return 0;
}

int sqlite_store_read_notifications(struct store *s, const char *token_hash, int64_t upto_id,
                                    int *marked, char *err, size_t err_size)
{
    struct read_ctx q = {token_hash, upto_id, 0};
    int rc = sqlite_store_write(s, mark, &q, "mark notifications read", err, err_size);
    if (rc == 0)
        *marked = q.marked;
    return rc;
}
