/* The SQLite backend's part for reviews (store.h "Reviews"): a finished review kept
 * as the JSON text the server answers with, by the id of its game or record.  One
 * statement each, its own transaction, under the connection's mutex between the group
 * commit's batches (sqlite_store_read). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

struct review_ctx {
    const char *id, *game, *body;
    int64_t now;
    char *out; /* get: the body read (malloc'ed) */
    bool no_memory;
};

static const char sql_put_review[] = "INSERT OR REPLACE INTO reviews (id, game, created_ms, body)"
                                     " VALUES (?1, ?2, ?3, ?4)";

static int put_review(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct review_ctx *r = ctx;
    return sq_done(sq_bind(s, sql_put_review, "ttIt", r->id, r->game, r->now, r->body));
}

int sqlite_store_put_review(struct store *s, const char *id, const char *game, const char *body,
                            int64_t now_ms, char *err, size_t err_size)
{
    struct review_ctx r = {.id = id, .game = game, .body = body, .now = now_ms};
    return sqlite_store_read(s, put_review, &r, "store review", err, err_size);
}

static const char sql_get_review[] = "SELECT body FROM reviews WHERE id = ?1";

static int get_review(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct review_ctx *r = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_review, "t", r->id);
    int row = sq_row(st);
    if (row > 0) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        r->out = strdup(t ? (const char *)t : "");
        r->no_memory = !r->out;
    }
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_review(struct store *s, const char *id, char **body, char *err,
                            size_t err_size)
{
    struct review_ctx r = {.id = id};
    int rc = sqlite_store_read(s, get_review, &r, "load review", err, err_size);
    if (rc == 0 && r.no_memory)
        rc = fail(err, err_size, "out of memory");
    *body = rc == 0 ? r.out : NULL;
    return rc;
}
