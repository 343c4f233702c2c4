/* The SQLite backend's part for the outbox of events (store.h "Events"): numbered
 * max + 1 inside the group commit (one writer: commit order), waiters of this process
 * woken after the commit.  An SQLite database has one server, so no other process
 * needs waking. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

struct put_ctx {
    const char *game_id, *kind, *body;
    int64_t now, seq;
};

static const char sql_put[] = "INSERT INTO events (seq, game_id, kind, body, created_ms)"
                              " SELECT COALESCE(max(seq), 0) + 1, ?1, ?2, ?3, ?4 FROM events";

static int put_event(struct store *s, sqlite3 *db, void *ctx)
{
    struct put_ctx *p = ctx;
    if (sq_done(sq_bind(s, sql_put, "tttI", p->game_id, p->kind, p->body, p->now)) != 0)
        return -1;
    p->seq = sqlite3_last_insert_rowid(db);
    return 0;
}

int sqlite_store_put_event(struct store *s, const char *game_id, const char *kind, const char *body,
                           int64_t now_ms, int64_t *seq, char *err, size_t err_size)
{
    if (strlen(kind) >= STORE_EVENT_KIND_MAX)
        return fail(err, err_size, "event: kind '%.40s' is too long", kind);
    struct put_ctx p = {game_id, kind, body, now_ms, 0};
    int rc = sqlite_store_write(s, put_event, &p, "store event", err, err_size);
    if (rc == 0) {
        *seq = p.seq;
        sqlite_events_committed(s);
    }
    return rc;
}

struct since_ctx {
    int64_t after;
    int limit;
    store_event_fn fn;
    void *ctx;
};

static const char sql_since[] = "SELECT seq, game_id, kind, body, created_ms FROM events"
                                " WHERE seq > ?1 ORDER BY seq LIMIT ?2";

static int since(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct since_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_since, "Ii", q->after, q->limit);
    int row;
    struct store_event e;
    while ((row = sq_row(st)) > 0) {
        memset(&e, 0, sizeof e);
        e.seq = sqlite3_column_int64(st, 0);
        sq_text(st, 1, e.game_id, sizeof e.game_id);
        sq_text(st, 2, e.kind, sizeof e.kind);
        const unsigned char *body = sqlite3_column_text(st, 3);
        e.body = body ? (const char *)body : "";
        e.created_ms = sqlite3_column_int64(st, 4);
        q->fn(q->ctx, &e);
    }
    return row;
}

int sqlite_store_events_since(struct store *s, int64_t after_seq, int limit, store_event_fn fn,
                              void *ctx, char *err, size_t err_size)
{
    struct since_ctx q = {after_seq, limit, fn, ctx};
    return sqlite_store_read(s, since, &q, "events", err, err_size);
}

static const char sql_last[] = "SELECT COALESCE(max(seq), 0) FROM events";

static int last_seq(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    sqlite3_stmt *st = sq_bind(s, sql_last, "");
    int row = sq_row(st);
    if (row > 0)
        *(int64_t *)ctx = sqlite3_column_int64(st, 0);
    sq_end(st);
    return row > 0 ? 0 : -1;
}

int sqlite_store_wait_events(struct store *s, int64_t after_seq, int timeout_ms, int64_t *last,
                             char *err, size_t err_size)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    for (;;) {
        /* The count first: an event committed after it wakes the wait below. */
        uint64_t generation = sqlite_events_generation(s);
        int64_t newest = 0;
        if (sqlite_store_read(s, last_seq, &newest, "events", err, err_size) != 0)
            return -1;
        if (newest > after_seq) {
            *last = newest;
            return 0;
        }
        if (!sqlite_events_wait(s, generation, &deadline))
            return 1;
    }
}
