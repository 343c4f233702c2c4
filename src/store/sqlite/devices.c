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
    if (expires < q->now) {
        q->expires = -1; /* expired: nothing written, told as 2 (the write's own 1 is one) */
        return 0;
    }
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
    if (rc == 0 && q.expires < 0)
        return 2;
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

/* ---- devices by passkey, passkeys ---- */

struct pk_ctx {
    const char *a, *b, *c;
    int64_t n, now;
    char *out;
    const struct store_passkey *p;
    struct store_passkey *pout;
    store_passkey_fn fn;
    void *ctx;
};

static int add_device(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    return sq_done(sq_bind(s, sql_add_device, "tttI", q->a, q->b, q->c, q->now));
}

int sqlite_store_add_device(struct store *s, const char *token_hash, const char *player_hash,
                            const char *name, int64_t now_ms, char *err, size_t err_size)
{
    struct pk_ctx q = {.a = token_hash, .b = player_hash, .c = name, .now = now_ms};
    return sqlite_store_write(s, add_device, &q, "add device", err, err_size);
}

static const char sql_put_challenge[] =
    "INSERT OR REPLACE INTO passkey_challenges (challenge, player_hash, expires_ms)"
    " VALUES (?1, ?2, ?3)";
static const char sql_old_challenges[] = "DELETE FROM passkey_challenges WHERE expires_ms < ?3";

static int put_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    /* Those left unused a while go with each new one (?3 - 10 minutes). */
    if (sq_done(sq_bind(s, sql_old_challenges, "ttI", q->a, q->b, q->n - 600000)) != 0)
        return -1;
    return sq_done(sq_bind(s, sql_put_challenge, "ttI", q->a, q->b, q->n));
}

int sqlite_store_put_passkey_challenge(struct store *s, const char *challenge,
                                       const char *player_hash, int64_t expires_ms, char *err,
                                       size_t err_size)
{
    struct pk_ctx q = {.a = challenge, .b = player_hash, .n = expires_ms};
    return sqlite_store_write(s, put_challenge, &q, "store challenge", err, err_size);
}

static const char sql_get_challenge[] =
    "SELECT player_hash, expires_ms FROM passkey_challenges WHERE challenge = ?1";
static const char sql_del_challenge[] = "DELETE FROM passkey_challenges WHERE challenge = ?1";

static int take_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_challenge, "t", q->a);
    int row = sq_row(st);
    if (row < 0)
        return -1;
    if (row == 0)
        return 1;
    sq_text(st, 0, q->out, STORE_HASH_LEN + 1);
    int64_t expires = sqlite3_column_int64(st, 1);
    sq_end(st);
    if (sq_done(sq_bind(s, sql_del_challenge, "t", q->a)) != 0)
        return -1;
    q->n = expires < q->now; /* expired: deleted, and refused */
    return 0;
}

int sqlite_store_take_passkey_challenge(struct store *s, const char *challenge, int64_t now_ms,
                                        char *player_hash, char *err, size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    struct pk_ctx q = {.a = challenge, .now = now_ms, .out = found};
    int rc = sqlite_store_write(s, take_challenge, &q, "take challenge", err, err_size);
    if (rc == 0 && q.n)
        return 1;
    if (rc == 0)
        snprintf(player_hash, STORE_HASH_LEN + 1, "%s", found);
    return rc;
}

static const char sql_add_passkey[] =
    "INSERT OR IGNORE INTO passkeys (id, player_hash, public_key, sign_count, name, created_ms,"
    " used_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)";

static int add_passkey(struct store *s, sqlite3 *db, void *ctx)
{
    struct pk_ctx *q = ctx;
    const struct store_passkey *p = q->p;
    if (sq_done(sq_bind(s, sql_add_passkey, "tttItI", p->id, p->player_hash, p->public_key,
                        p->sign_count, p->name, p->created_ms)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_add_passkey(struct store *s, const struct store_passkey *p, char *err,
                             size_t err_size)
{
    struct pk_ctx q = {.p = p};
    return sqlite_store_write(s, add_passkey, &q, "add passkey", err, err_size);
}

#define PASSKEY_COLUMNS "id, player_hash, public_key, sign_count, name, created_ms, used_ms"

static void read_passkey(sqlite3_stmt *st, struct store_passkey *p)
{
    memset(p, 0, sizeof *p);
    sq_text(st, 0, p->id, sizeof p->id);
    sq_text(st, 1, p->player_hash, sizeof p->player_hash);
    sq_text(st, 2, p->public_key, sizeof p->public_key);
    p->sign_count = sqlite3_column_int64(st, 3);
    sq_text(st, 4, p->name, sizeof p->name);
    p->created_ms = sqlite3_column_int64(st, 5);
    p->used_ms = sqlite3_column_int64(st, 6);
}

static const char sql_get_passkey[] = "SELECT " PASSKEY_COLUMNS " FROM passkeys WHERE id = ?1";

static int get_passkey(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_passkey, "t", q->a);
    int row = sq_row(st);
    if (row > 0) {
        read_passkey(st, q->pout);
        sq_end(st);
    }
    return sq_found(row);
}

int sqlite_store_get_passkey(struct store *s, const char *id, struct store_passkey *out, char *err,
                             size_t err_size)
{
    struct pk_ctx q = {.a = id, .pout = out};
    return sqlite_store_read(s, get_passkey, &q, "load passkey", err, err_size);
}

static const char sql_passkey_used[] =
    "UPDATE passkeys SET sign_count = ?2, used_ms = ?3 WHERE id = ?1 AND"
    " ((sign_count = 0 AND ?2 = 0) OR ?2 > sign_count)";

static int passkey_used(struct store *s, sqlite3 *db, void *ctx)
{
    struct pk_ctx q0 = *(struct pk_ctx *)ctx;
    if (sq_done(sq_bind(s, sql_passkey_used, "tII", q0.a, q0.n, q0.now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_passkey_used(struct store *s, const char *id, int64_t sign_count, int64_t now_ms,
                              char *err, size_t err_size)
{
    struct pk_ctx q = {.a = id, .n = sign_count, .now = now_ms};
    return sqlite_store_write(s, passkey_used, &q, "passkey used", err, err_size);
}

static const char sql_passkeys[] = "SELECT " PASSKEY_COLUMNS " FROM passkeys WHERE"
                                   " player_hash = ?1 ORDER BY created_ms DESC";

static int list_passkeys(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_passkeys, "t", q->a);
    int row;
    struct store_passkey p;
    while ((row = sq_row(st)) > 0) {
        read_passkey(st, &p);
        q->fn(q->ctx, &p);
    }
    return row;
}

int sqlite_store_list_passkeys(struct store *s, const char *player_hash, store_passkey_fn fn,
                               void *ctx, char *err, size_t err_size)
{
    struct pk_ctx q = {.a = player_hash, .fn = fn, .ctx = ctx};
    return sqlite_store_read(s, list_passkeys, &q, "list passkeys", err, err_size);
}

static const char sql_drop_passkey[] = "DELETE FROM passkeys WHERE player_hash = ?1 AND id = ?2";

static int drop_passkey(struct store *s, sqlite3 *db, void *ctx)
{
    struct pk_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_drop_passkey, "tt", q->a, q->b)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_drop_passkey(struct store *s, const char *player_hash, const char *id, char *err,
                              size_t err_size)
{
    struct pk_ctx q = {.a = player_hash, .b = id};
    return sqlite_store_write(s, drop_passkey, &q, "revoke passkey", err, err_size);
}

/* ---- the first token revoked ---- */

static const char *const sql_rekey[] = {
    "UPDATE games SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE games SET white_hash = ?2 WHERE white_hash = ?1",
    "UPDATE games SET black_hash = ?2 WHERE black_hash = ?1",
    "UPDATE challenges SET creator_hash = ?2 WHERE creator_hash = ?1",
    "UPDATE players SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE ratings SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE rating_history SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE progress SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE puzzle_players SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE puzzle_attempts SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE puzzle_served SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE clubs SET creator_hash = ?2 WHERE creator_hash = ?1",
    "UPDATE club_members SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE club_bars SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE notices SET token_hash = ?2 WHERE token_hash = ?1",
    "UPDATE links SET player_hash = ?2 WHERE player_hash = ?1",
    "UPDATE devices SET player_hash = ?2 WHERE player_hash = ?1",
    "UPDATE passkeys SET player_hash = ?2 WHERE player_hash = ?1",
    "UPDATE passkey_challenges SET player_hash = ?2 WHERE player_hash = ?1",
};
static const char sql_taken[] =
    "SELECT 1 FROM players WHERE token_hash = ?2 UNION ALL SELECT 1 FROM devices WHERE"
    " token_hash = ?2 OR player_hash = ?2 LIMIT 1";

static int rekey(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pk_ctx *q = ctx;
    if (!strcmp(q->a, q->b))
        return 1;
    sqlite3_stmt *st = sq_bind(s, sql_taken, "tt", q->a, q->b);
    int row = sq_row(st);
    if (row < 0)
        return -1;
    if (row > 0) {
        sq_end(st);
        return 1;
    }
    for (size_t i = 0; i < sizeof sql_rekey / sizeof sql_rekey[0]; i++)
        if (sq_done(sq_bind(s, sql_rekey[i], "tt", q->a, q->b)) != 0)
            return -1;
    return 0;
}

int sqlite_store_rekey_player(struct store *s, const char *old_hash, const char *new_hash,
                              char *err, size_t err_size)
{
    struct pk_ctx q = {.a = old_hash, .b = new_hash};
    return sqlite_store_write(s, rekey, &q, "revoke the first token", err, err_size);
}
