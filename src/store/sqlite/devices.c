/* The SQLite backend's part for devices (store_ops.def "Devices"): a player's personal
 * link (its code's hash, one a player) and the devices signed in through it, each a
 * token of its own that stands for the player. */
#include <stdio.h>
#include <string.h>

#include "store/sqlite/private.h"

struct device_ctx {
    const char *hash;
    char *player;
};

static const char sql_device[] = "SELECT player_hash FROM devices WHERE token_hash = ?1";

static int device_player(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct device_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_device, "t", q->hash);
    int row = sq_row(st);
    if (row > 0) {
        sq_text(st, 0, q->player, STORE_HASH_LEN + 1);
        sq_end(st);
    }
    return sq_found(row);
}

int sqlite_store_device_player(struct store *s, const char *token_hash, char *player_hash,
                               char *err, size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    struct device_ctx q = {token_hash, found};
    int rc = sqlite_store_read(s, device_player, &q, "device", err, err_size);
    if (rc == 0)
        snprintf(player_hash, STORE_HASH_LEN + 1, "%s", found);
    return rc;
}

struct link_ctx {
    const char *player, *code, *token, *name;
    int64_t now, expires;
    char *out;
};

static const char sql_put_link[] =
    "INSERT INTO links (player_hash, code_hash, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4)"
    " ON CONFLICT (player_hash) DO UPDATE SET code_hash = excluded.code_hash,"
    " created_ms = excluded.created_ms, expires_ms = excluded.expires_ms";

static int put_link(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct link_ctx *q = ctx;
    return sq_done(sq_bind(s, sql_put_link, "ttII", q->player, q->code, q->now, q->expires));
}

int sqlite_store_put_link(struct store *s, const char *player_hash, const char *code_hash,
                          int64_t now_ms, int64_t expires_ms, char *err, size_t err_size)
{
    struct link_ctx q = {
        .player = player_hash, .code = code_hash, .now = now_ms, .expires = expires_ms};
    return sqlite_store_write(s, put_link, &q, "store link", err, err_size);
}

static const char sql_drop_link[] = "DELETE FROM links WHERE player_hash = ?1";

static int drop_link(struct store *s, sqlite3 *db, void *ctx)
{
    struct link_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_drop_link, "t", q->player)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_drop_link(struct store *s, const char *player_hash, char *err, size_t err_size)
{
    struct link_ctx q = {.player = player_hash};
    return sqlite_store_write(s, drop_link, &q, "revoke link", err, err_size);
}

static const char sql_link[] = "SELECT player_hash, expires_ms FROM links WHERE code_hash = ?1";
static const char sql_add_device[] =
    "INSERT OR REPLACE INTO devices (token_hash, player_hash, name, created_ms, seen_ms)"
    " VALUES (?1, ?2, ?3, ?4, ?4)";

static int device_add(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct link_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_link, "t", q->code);
    int row = sq_row(st);
    if (row <= 0)
        return row < 0 ? -1 : 1;
    sq_text(st, 0, q->out, STORE_HASH_LEN + 1);
    int64_t expires = sqlite3_column_int64(st, 1);
    sq_end(st);
    if (expires < q->now)
        return 2;
    return sq_done(sq_bind(s, sql_add_device, "tttI", q->token, q->out, q->name, q->now));
}

int sqlite_store_device_add(struct store *s, const char *code_hash, const char *token_hash,
                            const char *name, int64_t now_ms, char *player_hash, char *err,
                            size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    struct link_ctx q = {
        .code = code_hash, .token = token_hash, .name = name, .now = now_ms, .out = found};
    int rc = sqlite_store_write(s, device_add, &q, "add device", err, err_size);
    if (rc == 0)
        snprintf(player_hash, STORE_HASH_LEN + 1, "%s", found);
    return rc;
}

struct list_ctx {
    const char *player;
    store_device_fn fn;
    void *ctx;
};

static const char sql_devices[] = "SELECT substr(token_hash, 1, 16), name, created_ms, seen_ms"
                                  " FROM devices WHERE player_hash = ?1 ORDER BY created_ms DESC";

static int list_devices(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *l = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_devices, "t", l->player);
    int row;
    struct store_device d;
    while ((row = sq_row(st)) > 0) {
        memset(&d, 0, sizeof d);
        sq_text(st, 0, d.id, sizeof d.id);
        sq_text(st, 1, d.name, sizeof d.name);
        d.created_ms = sqlite3_column_int64(st, 2);
        d.seen_ms = sqlite3_column_int64(st, 3);
        l->fn(l->ctx, &d);
    }
    return row;
}

int sqlite_store_list_devices(struct store *s, const char *player_hash, store_device_fn fn,
                              void *ctx, char *err, size_t err_size)
{
    struct list_ctx l = {player_hash, fn, ctx};
    return sqlite_store_read(s, list_devices, &l, "list devices", err, err_size);
}

static const char sql_drop_device[] =
    "DELETE FROM devices WHERE player_hash = ?1 AND substr(token_hash, 1, 16) = ?2";

static int drop_device(struct store *s, sqlite3 *db, void *ctx)
{
    struct link_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_drop_device, "tt", q->player, q->code)) != 0)
        return -1;
    return sqlite3_changes(db) >= 1 ? 0 : 1;
}

int sqlite_store_drop_device(struct store *s, const char *player_hash, const char *device_id,
                             char *err, size_t err_size)
{
    struct link_ctx q = {.player = player_hash, .code = device_id};
    return sqlite_store_write(s, drop_device, &q, "revoke device", err, err_size);
}
