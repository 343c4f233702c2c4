/* The PostgreSQL backend's part for devices and passkeys (store_ops.def "Devices",
 * "Passkeys"), as SQLite's (sqlite/devices.c): a player's personal link and the devices
 * signed in through it, passkeys and their challenges, and the player's first token
 * revoked (every row of theirs rekeyed in one transaction). */
#include <stdio.h>
#include <string.h>

#include "store/postgres/private.h"

static void read_hash(void *ctx, const PGresult *r)
{
    pg_col_text(r, 0, 0, ctx, STORE_HASH_LEN + 1);
}

static const char sql_device[] = "SELECT player_hash FROM devices WHERE token_hash = $1";

int pg_store_device_player(struct store *s, const char *token_hash, char *player_hash, char *err,
                           size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    int rc = pg_one(pg_store_query(s, "device", err, err_size, sql_device, "t", token_hash),
                    read_hash, found);
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
    "INSERT INTO links (player_hash, code_hash, created_ms, expires_ms) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (player_hash) DO UPDATE SET code_hash = excluded.code_hash,"
    " created_ms = excluded.created_ms, expires_ms = excluded.expires_ms";

static int put_link(struct pg_conn *c, void *ctx)
{
    struct link_ctx *q = ctx;
    return pg_do(c, sql_put_link, "ttII", q->player, q->code, q->now, q->expires) < 0 ? -1 : 0;
}

int pg_store_put_link(struct store *s, const char *player_hash, const char *code_hash,
                      int64_t now_ms, int64_t expires_ms, char *err, size_t err_size)
{
    struct link_ctx q = {
        .player = player_hash, .code = code_hash, .now = now_ms, .expires = expires_ms};
    return pg_store_write(s, put_link, &q, "store link", err, err_size);
}

static const char sql_drop_link[] = "DELETE FROM links WHERE player_hash = $1";

static int drop_link(struct pg_conn *c, void *ctx)
{
    struct link_ctx *q = ctx;
    int n = pg_do(c, sql_drop_link, "t", q->player);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_drop_link(struct store *s, const char *player_hash, char *err, size_t err_size)
{
    struct link_ctx q = {.player = player_hash};
    return pg_store_write(s, drop_link, &q, "revoke link", err, err_size);
}

static const char sql_link[] = "SELECT player_hash, expires_ms FROM links WHERE code_hash = $1";
/* SQLite's INSERT OR REPLACE: the device's row, whoever's it was, made anew. */
static const char sql_add_device[] =
    "INSERT INTO devices (token_hash, player_hash, name, created_ms, seen_ms)"
    " VALUES ($1, $2, $3, $4, $4) ON CONFLICT (token_hash) DO UPDATE SET"
    " player_hash = excluded.player_hash, name = excluded.name,"
    " created_ms = excluded.created_ms, seen_ms = excluded.seen_ms";

static int device_add(struct pg_conn *c, void *ctx)
{
    struct link_ctx *q = ctx;
    q->expires = 0;
    PGresult *r = pg_exec(c, sql_link, "t", q->code);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 1;
    }
    pg_col_text(r, 0, 0, q->out, STORE_HASH_LEN + 1);
    int64_t expires = pg_col_int64(r, 0, 1);
    PQclear(r);
    if (expires < q->now) {
        q->expires = -1; /* expired: nothing written, told as 2 (the write's own 1 is one) */
        return 0;
    }
    return pg_do(c, sql_add_device, "tttI", q->token, q->out, q->name, q->now) < 0 ? -1 : 0;
}

int pg_store_device_add(struct store *s, const char *code_hash, const char *token_hash,
                        const char *name, int64_t now_ms, char *player_hash, char *err,
                        size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    struct link_ctx q = {
        .code = code_hash, .token = token_hash, .name = name, .now = now_ms, .out = found};
    int rc = pg_store_write(s, device_add, &q, "add device", err, err_size);
    if (rc == 0 && q.expires < 0)
        return 2;
    if (rc == 0)
        snprintf(player_hash, STORE_HASH_LEN + 1, "%s", found);
    return rc;
}

static const char sql_devices[] = "SELECT substr(token_hash, 1, 16), name, created_ms, seen_ms"
                                  " FROM devices WHERE player_hash = $1 ORDER BY created_ms DESC";

int pg_store_list_devices(struct store *s, const char *player_hash, store_device_fn fn, void *ctx,
                          char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "list devices", err, err_size, sql_devices, "t", player_hash);
    if (!r)
        return -1;
    struct store_device d;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&d, 0, sizeof d);
        pg_col_text(r, i, 0, d.id, sizeof d.id);
        pg_col_text(r, i, 1, d.name, sizeof d.name);
        d.created_ms = pg_col_int64(r, i, 2);
        d.seen_ms = pg_col_int64(r, i, 3);
        fn(ctx, &d);
    }
    PQclear(r);
    return 0;
}

static const char sql_drop_device[] =
    "DELETE FROM devices WHERE player_hash = $1 AND substr(token_hash, 1, 16) = $2";

static int drop_device(struct pg_conn *c, void *ctx)
{
    struct link_ctx *q = ctx;
    int n = pg_do(c, sql_drop_device, "tt", q->player, q->code);
    return n < 0 ? -1 : n >= 1 ? 0 : 1;
}

int pg_store_drop_device(struct store *s, const char *player_hash, const char *device_id, char *err,
                         size_t err_size)
{
    struct link_ctx q = {.player = player_hash, .code = device_id};
    return pg_store_write(s, drop_device, &q, "revoke device", err, err_size);
}

/* ---- devices by passkey, passkeys ---- */

struct pk_ctx {
    const char *a, *b, *c;
    int64_t n, now;
    char *out;
    const struct store_passkey *p;
};

static int add_device(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    return pg_do(c, sql_add_device, "tttI", q->a, q->b, q->c, q->now) < 0 ? -1 : 0;
}

int pg_store_add_device(struct store *s, const char *token_hash, const char *player_hash,
                        const char *name, int64_t now_ms, char *err, size_t err_size)
{
    struct pk_ctx q = {.a = token_hash, .b = player_hash, .c = name, .now = now_ms};
    return pg_store_write(s, add_device, &q, "add device", err, err_size);
}

static const char sql_put_challenge[] =
    "INSERT INTO passkey_challenges (challenge, player_hash, expires_ms) VALUES ($1, $2, $3)"
    " ON CONFLICT (challenge) DO UPDATE SET player_hash = excluded.player_hash,"
    " expires_ms = excluded.expires_ms";
static const char sql_old_challenges[] = "DELETE FROM passkey_challenges WHERE expires_ms < $1";

static int put_challenge(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    /* Those left unused a while go with each new one (its expiry - 10 minutes). */
    if (pg_do(c, sql_old_challenges, "I", q->n - 600000) < 0)
        return -1;
    return pg_do(c, sql_put_challenge, "ttI", q->a, q->b, q->n) < 0 ? -1 : 0;
}

int pg_store_put_passkey_challenge(struct store *s, const char *challenge, const char *player_hash,
                                   int64_t expires_ms, char *err, size_t err_size)
{
    struct pk_ctx q = {.a = challenge, .b = player_hash, .n = expires_ms};
    return pg_store_write(s, put_challenge, &q, "store challenge", err, err_size);
}

/* Taken and read in one statement: used once, whoever asks at the same time. */
static const char sql_take_challenge[] =
    "DELETE FROM passkey_challenges WHERE challenge = $1 RETURNING player_hash, expires_ms";

static int take_challenge(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    PGresult *r = pg_exec(c, sql_take_challenge, "t", q->a);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 1;
    }
    pg_col_text(r, 0, 0, q->out, STORE_HASH_LEN + 1);
    q->n = pg_col_int64(r, 0, 1) < q->now; /* expired: deleted, and refused */
    PQclear(r);
    return 0;
}

int pg_store_take_passkey_challenge(struct store *s, const char *challenge, int64_t now_ms,
                                    char *player_hash, char *err, size_t err_size)
{
    char found[STORE_HASH_LEN + 1] = "";
    struct pk_ctx q = {.a = challenge, .now = now_ms, .out = found};
    int rc = pg_store_write(s, take_challenge, &q, "take challenge", err, err_size);
    if (rc == 0 && q.n)
        return 1;
    if (rc == 0)
        snprintf(player_hash, STORE_HASH_LEN + 1, "%s", found);
    return rc;
}

static const char sql_add_passkey[] =
    "INSERT INTO passkeys (id, player_hash, public_key, sign_count, name, created_ms, used_ms)"
    " VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT DO NOTHING";

static int add_passkey(struct pg_conn *c, void *ctx)
{
    const struct store_passkey *p = ((struct pk_ctx *)ctx)->p;
    int n = pg_do(c, sql_add_passkey, "tttItI", p->id, p->player_hash, p->public_key, p->sign_count,
                  p->name, p->created_ms);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_add_passkey(struct store *s, const struct store_passkey *p, char *err, size_t err_size)
{
    struct pk_ctx q = {.p = p};
    return pg_store_write(s, add_passkey, &q, "add passkey", err, err_size);
}

#define PASSKEY_COLUMNS "id, player_hash, public_key, sign_count, name, created_ms, used_ms"

static void read_passkey_row(const PGresult *r, int row, struct store_passkey *p)
{
    memset(p, 0, sizeof *p);
    pg_col_text(r, row, 0, p->id, sizeof p->id);
    pg_col_text(r, row, 1, p->player_hash, sizeof p->player_hash);
    pg_col_text(r, row, 2, p->public_key, sizeof p->public_key);
    p->sign_count = pg_col_int64(r, row, 3);
    pg_col_text(r, row, 4, p->name, sizeof p->name);
    p->created_ms = pg_col_int64(r, row, 5);
    p->used_ms = pg_col_int64(r, row, 6);
}

static void read_passkey(void *ctx, const PGresult *r)
{
    read_passkey_row(r, 0, ctx);
}

static const char sql_get_passkey[] = "SELECT " PASSKEY_COLUMNS " FROM passkeys WHERE id = $1";

int pg_store_get_passkey(struct store *s, const char *id, struct store_passkey *out, char *err,
                         size_t err_size)
{
    return pg_one(pg_store_query(s, "load passkey", err, err_size, sql_get_passkey, "t", id),
                  read_passkey, out);
}

static const char sql_passkey_used[] =
    "UPDATE passkeys SET sign_count = $2, used_ms = $3 WHERE id = $1 AND"
    " ((sign_count = 0 AND $2::bigint = 0) OR $2::bigint > sign_count)";

static int passkey_used(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    int n = pg_do(c, sql_passkey_used, "tII", q->a, q->n, q->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_passkey_used(struct store *s, const char *id, int64_t sign_count, int64_t now_ms,
                          char *err, size_t err_size)
{
    struct pk_ctx q = {.a = id, .n = sign_count, .now = now_ms};
    return pg_store_write(s, passkey_used, &q, "passkey used", err, err_size);
}

static const char sql_passkeys[] = "SELECT " PASSKEY_COLUMNS " FROM passkeys WHERE"
                                   " player_hash = $1 ORDER BY created_ms DESC";

int pg_store_list_passkeys(struct store *s, const char *player_hash, store_passkey_fn fn, void *ctx,
                           char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "list passkeys", err, err_size, sql_passkeys, "t", player_hash);
    if (!r)
        return -1;
    struct store_passkey p;
    for (int i = 0; i < PQntuples(r); i++) {
        read_passkey_row(r, i, &p);
        fn(ctx, &p);
    }
    PQclear(r);
    return 0;
}

static const char sql_drop_passkey[] = "DELETE FROM passkeys WHERE player_hash = $1 AND id = $2";

static int drop_passkey(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    int n = pg_do(c, sql_drop_passkey, "tt", q->a, q->b);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_drop_passkey(struct store *s, const char *player_hash, const char *id, char *err,
                          size_t err_size)
{
    struct pk_ctx q = {.a = player_hash, .b = id};
    return pg_store_write(s, drop_passkey, &q, "revoke passkey", err, err_size);
}

/* ---- the first token revoked ---- */

static const char *const sql_rekey[] = {
    "UPDATE games SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE games SET white_hash = $2 WHERE white_hash = $1",
    "UPDATE games SET black_hash = $2 WHERE black_hash = $1",
    "UPDATE challenges SET creator_hash = $2 WHERE creator_hash = $1",
    "UPDATE players SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE ratings SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE rating_history SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE progress SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE puzzle_players SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE puzzle_attempts SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE puzzle_served SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE clubs SET creator_hash = $2 WHERE creator_hash = $1",
    "UPDATE club_members SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE club_bars SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE notices SET token_hash = $2 WHERE token_hash = $1",
    "UPDATE links SET player_hash = $2 WHERE player_hash = $1",
    "UPDATE devices SET player_hash = $2 WHERE player_hash = $1",
    "UPDATE passkeys SET player_hash = $2 WHERE player_hash = $1",
    "UPDATE passkey_challenges SET player_hash = $2 WHERE player_hash = $1",
};
static const char sql_taken[] =
    "SELECT 1 FROM players WHERE token_hash = $1 UNION ALL"
    " SELECT 1 FROM devices WHERE token_hash = $1 OR player_hash = $1 LIMIT 1";

static int rekey(struct pg_conn *c, void *ctx)
{
    struct pk_ctx *q = ctx;
    if (!strcmp(q->a, q->b))
        return 1;
    PGresult *r = pg_exec(c, sql_taken, "t", q->b);
    if (!r)
        return -1;
    int taken = PQntuples(r) > 0;
    PQclear(r);
    if (taken)
        return 1;
    for (size_t i = 0; i < sizeof sql_rekey / sizeof sql_rekey[0]; i++)
        if (pg_do(c, sql_rekey[i], "tt", q->a, q->b) < 0)
            return -1;
    return 0;
}

int pg_store_rekey_player(struct store *s, const char *old_hash, const char *new_hash, char *err,
                          size_t err_size)
{
    struct pk_ctx q = {.a = old_hash, .b = new_hash};
    return pg_store_write(s, rekey, &q, "revoke the first token", err, err_size);
}
