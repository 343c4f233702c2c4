/* The SQLite backend's presence of the servers in the games (store_ops.def "Several
 * servers").  One server a database: the server does not publish on SQLite; these
 * are here so that both backends have every operation. */
#include <string.h>

#include "store/sqlite/private.h"

static const char sql_beat[] =
    "INSERT INTO presence_beats (server, beat_ms) VALUES (?1, ?2)"
    " ON CONFLICT (server) DO UPDATE SET beat_ms = max(beat_ms, excluded.beat_ms)";
static const char sql_clear[] = "DELETE FROM presence WHERE server = ?1";
static const char sql_row[] =
    "INSERT INTO presence (server, game_id, viewers, white_seated, black_seated,"
    " white_seen_ms, black_seen_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char sql_gone_rows[] =
    "DELETE FROM presence WHERE server IN (SELECT server FROM presence_beats WHERE beat_ms < ?1)";
static const char sql_gone_beats[] = "DELETE FROM presence_beats WHERE beat_ms < ?1";

struct publish_ctx {
    const char *server;
    const struct store_presence *rows;
    int n;
    int64_t now;
};

static int publish(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct publish_ctx *p = ctx;
    if (sq_done(sq_bind(s, sql_beat, "tI", p->server, p->now)) != 0 ||
        sq_done(sq_bind(s, sql_clear, "t", p->server)) != 0)
        return -1;
    for (int i = 0; i < p->n; i++) {
        const struct store_presence *r = &p->rows[i];
        if (sq_done(sq_bind(s, sql_row, "ttiiiII", p->server, r->game_id, r->viewers, r->seated[0],
                            r->seated[1], r->seen_ms[0], r->seen_ms[1])) != 0)
            return -1;
    }
    int64_t gone = p->now - 10 * 60 * 1000;
    if (sq_done(sq_bind(s, sql_gone_rows, "I", gone)) != 0)
        return -1;
    return sq_done(sq_bind(s, sql_gone_beats, "I", gone));
}

int sqlite_store_presence_publish(struct store *s, const char *server,
                                  const struct store_presence *rows, int n, int64_t now_ms,
                                  char *err, size_t err_size)
{
    struct publish_ctx p = {server, rows, n, now_ms};
    return sqlite_store_write(s, publish, &p, "publish presence", err, err_size);
}

static const char sql_others[] =
    "SELECT p.game_id, sum(p.viewers), max(p.white_seated), max(p.black_seated),"
    " max(p.white_seen_ms), max(p.black_seen_ms)"
    " FROM presence p JOIN presence_beats b ON b.server = p.server"
    " WHERE p.server <> ?1 AND b.beat_ms >= ?2 GROUP BY p.game_id";

struct others_ctx {
    const char *server;
    int64_t fresh;
    store_presence_fn fn;
    void *ctx;
};

static int others(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct others_ctx *o = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_others, "tI", o->server, o->fresh);
    int row;
    struct store_presence p;
    while ((row = sq_row(st)) > 0) {
        memset(&p, 0, sizeof p);
        sq_text(st, 0, p.game_id, sizeof p.game_id);
        p.viewers = sqlite3_column_int(st, 1);
        p.seated[0] = sqlite3_column_int(st, 2);
        p.seated[1] = sqlite3_column_int(st, 3);
        p.seen_ms[0] = sqlite3_column_int64(st, 4);
        p.seen_ms[1] = sqlite3_column_int64(st, 5);
        o->fn(o->ctx, &p);
    }
    return row < 0 ? -1 : 0;
}

int sqlite_store_presence_others(struct store *s, const char *server, int64_t fresh_ms,
                                 store_presence_fn fn, void *ctx, char *err, size_t err_size)
{
    struct others_ctx o = {server, fresh_ms, fn, ctx};
    return sqlite_store_read(s, others, &o, "presence", err, err_size);
}
