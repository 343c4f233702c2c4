/* The PostgreSQL backend's presence of the servers in the games (store_ops.def
 * "Several servers"): each server replaces its own rows once a second with its
 * heartbeat, all its rows in one statement (a JSON array of them: a statement a row
 * was a round trip a game each second, 2.2 statements a move with 500 games under
 * way); the others read them summed by game. */
#include <stdlib.h>
#include <string.h>

#include "core/json_out.h"
#include "store/postgres/private.h"

static const char sql_beat[] =
    "INSERT INTO presence_beats (server, beat_ms) VALUES ($1::text, $2::bigint)"
    " ON CONFLICT (server) DO UPDATE SET"
    " beat_ms = GREATEST(presence_beats.beat_ms, excluded.beat_ms)";
static const char sql_clear[] = "DELETE FROM presence WHERE server = $1::text";
static const char sql_rows[] =
    "INSERT INTO presence (server, game_id, viewers, white_seated, black_seated,"
    " white_seen_ms, black_seen_ms) SELECT $1::text, g, v, ws, bs, wm, bm"
    " FROM json_to_recordset($2::json)"
    " AS t(g text, v bigint, ws bigint, bs bigint, wm bigint, bm bigint)";
static const char sql_gone_rows[] =
    "DELETE FROM presence WHERE server IN"
    " (SELECT server FROM presence_beats WHERE beat_ms < $1::bigint)";
static const char sql_gone_beats[] = "DELETE FROM presence_beats WHERE beat_ms < $1::bigint";

struct publish_ctx {
    const char *server;
    const struct store_presence *rows;
    int n;
    int64_t now;
};

static int publish(struct pg_conn *c, void *ctx)
{
    struct publish_ctx *p = ctx;
    if (pg_do(c, sql_beat, "tI", p->server, p->now) < 0 || pg_do(c, sql_clear, "t", p->server) < 0)
        return -1;
    if (p->n > 0) {
        struct jout j;
        jout_init(&j, 96 * (size_t)p->n);
        jout_open(&j, '[');
        for (int i = 0; i < p->n; i++) {
            const struct store_presence *r = &p->rows[i];
            jout_open(&j, '{');
            jout_kstr(&j, "g", r->game_id);
            jout_kint(&j, "v", r->viewers);
            jout_kint(&j, "ws", r->seated[0]);
            jout_kint(&j, "bs", r->seated[1]);
            jout_kint(&j, "wm", (long long)r->seen_ms[0]);
            jout_kint(&j, "bm", (long long)r->seen_ms[1]);
            jout_close(&j, '}');
        }
        jout_close(&j, ']');
        char *rows = jout_finish(&j);
        if (!rows)
            return pg_why(c, "out of memory");
        int rc = pg_do(c, sql_rows, "tt", p->server, rows);
        free(rows);
        if (rc < 0)
            return -1;
    }
    int64_t gone = p->now - 10 * 60 * 1000;
    if (pg_do(c, sql_gone_rows, "I", gone) < 0)
        return -1;
    return pg_do(c, sql_gone_beats, "I", gone) < 0 ? -1 : 0;
}

int pg_store_presence_publish(struct store *s, const char *server,
                              const struct store_presence *rows, int n, int64_t now_ms, char *err,
                              size_t err_size)
{
    struct publish_ctx p = {server, rows, n, now_ms};
    return pg_store_write(s, publish, &p, "publish presence", err, err_size);
}

static const char sql_others[] =
    "SELECT p.game_id, sum(p.viewers), max(p.white_seated), max(p.black_seated),"
    " max(p.white_seen_ms), max(p.black_seen_ms)"
    " FROM presence p JOIN presence_beats b ON b.server = p.server"
    " WHERE p.server <> $1::text AND b.beat_ms >= $2::bigint GROUP BY p.game_id";

int pg_store_presence_others(struct store *s, const char *server, int64_t fresh_ms,
                             store_presence_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "presence", err, err_size, sql_others, "tI", server, fresh_ms);
    if (!r)
        return -1;
    struct store_presence p;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&p, 0, sizeof p);
        pg_col_text(r, i, 0, p.game_id, sizeof p.game_id);
        p.viewers = pg_col_int(r, i, 1);
        p.seated[0] = pg_col_int(r, i, 2);
        p.seated[1] = pg_col_int(r, i, 3);
        p.seen_ms[0] = pg_col_int64(r, i, 4);
        p.seen_ms[1] = pg_col_int64(r, i, 5);
        fn(ctx, &p);
    }
    PQclear(r);
    return 0;
}
