/* The SQLite backend's part for players (store.h "Players"): a visitor's display
 * name, by token hash, the public id made with it, whether they hide, the search by
 * name, the clubs of a player and what they did in the browser (their progress). */
#include <stdlib.h>
#include <string.h>

#include "store/sqlite/private.h"

/* The public id: 64 random bits, made once with the row (a new name keeps it). */
static const char sql_put_player[] =
    "INSERT INTO players (token_hash, name, created_ms, updated_ms, id)"
    " VALUES (?1, ?2, ?3, ?3, lower(hex(randomblob(8))))"
    " ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name, updated_ms = "
    "excluded.updated_ms";

static int put_player(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const void *const *a = ctx;
    return sq_done(sq_bind(s, sql_put_player, "ttI", (const char *)a[0], (const char *)a[1],
                           *(const int64_t *)a[2]));
}

int sqlite_store_put_player(struct store *s, const char *token_hash, const char *name,
                            int64_t now_ms, char *err, size_t err_size)
{
    const void *a[3] = {token_hash, name, &now_ms};
    return sqlite_store_write(s, put_player, (void *)a, "store name", err, err_size);
}

struct player_ctx {
    const char *hash;
    char *name;
    size_t size;
};

static const char sql_get_player[] = "SELECT name FROM players WHERE token_hash = ?1";

static int get_player(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct player_ctx *p = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_player, "t", p->hash);
    int row = sq_row(st);
    if (row > 0)
        sq_text(st, 0, p->name, p->size);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_player(struct store *s, const char *token_hash, char *name, size_t name_size,
                            char *err, size_t err_size)
{
    struct player_ctx p = {token_hash, name, name_size};
    return sqlite_store_read(s, get_player, &p, "load name", err, err_size);
}

/* ---- the player's row, search, clubs ---- */

#define PLAYER_COLUMNS "id, token_hash, name, hidden, created_ms"

static void read_player(sqlite3_stmt *st, struct store_player *p)
{
    memset(p, 0, sizeof *p);
    sq_text(st, 0, p->id, sizeof p->id);
    sq_text(st, 1, p->token_hash, sizeof p->token_hash);
    sq_text(st, 2, p->name, sizeof p->name);
    p->hidden = sqlite3_column_int(st, 3);
    p->created_ms = sqlite3_column_int64(st, 4);
}

struct row_ctx {
    const char *sql, *key;
    struct store_player *out;
};

static const char sql_player_by_id[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE id = ?1";
static const char sql_player_by_hash[] =
    "SELECT " PLAYER_COLUMNS " FROM players WHERE token_hash = ?1";

static int player_row(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct row_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, q->sql, "t", q->key);
    int row = sq_row(st);
    if (row > 0)
        read_player(st, q->out);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_player_by_id(struct store *s, const char *id, struct store_player *out, char *err,
                              size_t err_size)
{
    struct row_ctx q = {sql_player_by_id, id, out};
    return sqlite_store_read(s, player_row, &q, "load player", err, err_size);
}

int sqlite_store_player_by_hash(struct store *s, const char *token_hash, struct store_player *out,
                                char *err, size_t err_size)
{
    struct row_ctx q = {sql_player_by_hash, token_hash, out};
    return sqlite_store_read(s, player_row, &q, "load player", err, err_size);
}

struct hidden_ctx {
    const char *hash;
    int hidden;
    int64_t now;
};

static const char sql_set_hidden[] =
    "UPDATE players SET hidden = ?2, updated_ms = ?3 WHERE token_hash = ?1";

static int set_hidden(struct store *s, sqlite3 *db, void *ctx)
{
    struct hidden_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_set_hidden, "tiI", q->hash, q->hidden, q->now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_set_player_hidden(struct store *s, const char *token_hash, int hidden,
                                   int64_t now_ms, char *err, size_t err_size)
{
    struct hidden_ctx q = {token_hash, hidden ? 1 : 0, now_ms};
    return sqlite_store_write(s, set_hidden, &q, "hide player", err, err_size);
}

struct find_ctx {
    const char *text;
    int limit;
    store_player_fn fn;
    void *ctx;
};

/* A scan of the players' names: a search is rare, and names hold any script (no
 * index of SQLite's would fold their case). */
static const char sql_find_players[] =
    "SELECT " PLAYER_COLUMNS " FROM players WHERE hidden = 0 AND id <> ''"
    " AND instr(lower(name), lower(?1)) > 0 ORDER BY name, id LIMIT ?2";

static int find_players(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct find_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_find_players, "ti", q->text, q->limit);
    int row;
    struct store_player p;
    while ((row = sq_row(st)) > 0) {
        read_player(st, &p);
        q->fn(q->ctx, &p);
    }
    return row;
}

int sqlite_store_find_players(struct store *s, const char *text, int limit, store_player_fn fn,
                              void *ctx, char *err, size_t err_size)
{
    struct find_ctx q = {text, limit, fn, ctx};
    return sqlite_store_read(s, find_players, &q, "find players", err, err_size);
}

struct clubs_ctx {
    const char *hash;
    store_club_fn fn;
    void *ctx;
};

static const char sql_player_clubs[] =
    "SELECT c.id, c.name, m.role FROM club_members m JOIN clubs c ON c.id = m.club_id"
    " WHERE m.token_hash = ?1 ORDER BY c.name, c.id";

static int player_clubs(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct clubs_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_player_clubs, "t", q->hash);
    int row;
    char id[STORE_ID_LEN + 1], name[STORE_CLUB_NAME_MAX];
    while ((row = sq_row(st)) > 0) {
        sq_text(st, 0, id, sizeof id);
        sq_text(st, 1, name, sizeof name);
        q->fn(q->ctx, id, name, sqlite3_column_int(st, 2));
    }
    return row;
}

int sqlite_store_player_clubs(struct store *s, const char *token_hash, store_club_fn fn, void *ctx,
                              char *err, size_t err_size)
{
    struct clubs_ctx q = {token_hash, fn, ctx};
    return sqlite_store_read(s, player_clubs, &q, "player's clubs", err, err_size);
}

/* ---- progress ---- */

struct progress_ctx {
    const char *hash;
    char **body;
    const char *text;
    int64_t version, now;
    int64_t *version_out;
};

static const char sql_get_progress[] = "SELECT body, version FROM progress WHERE token_hash = ?1";

static int get_progress(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct progress_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_progress, "t", q->hash);
    int row = sq_row(st);
    if (row > 0) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        *q->body = strdup(t ? (const char *)t : "{}");
        *q->version_out = sqlite3_column_int64(st, 1);
    }
    sq_end(st);
    if (row > 0 && !*q->body)
        return -1;
    return sq_found(row);
}

int sqlite_store_get_progress(struct store *s, const char *token_hash, char **body,
                              int64_t *version, char *err, size_t err_size)
{
    *body = NULL;
    *version = 0;
    struct progress_ctx q = {.hash = token_hash, .body = body, .version_out = version};
    return sqlite_store_read(s, get_progress, &q, "load progress", err, err_size);
}

static const char sql_insert_progress[] =
    "INSERT OR IGNORE INTO progress (token_hash, body, version, updated_ms) VALUES (?1, ?2, 1, ?3)";
static const char sql_update_progress[] =
    "UPDATE progress SET body = ?2, version = version + 1, updated_ms = ?4"
    " WHERE token_hash = ?1 AND version = ?3";

static int put_progress(struct store *s, sqlite3 *db, void *ctx)
{
    struct progress_ctx *q = ctx;
    int rc = q->version == 0
                 ? sq_done(sq_bind(s, sql_insert_progress, "ttI", q->hash, q->text, q->now))
                 : sq_done(sq_bind(s, sql_update_progress, "ttII", q->hash, q->text, q->version,
                                   q->now));
    if (rc != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_put_progress(struct store *s, const char *token_hash, const char *body,
                              int64_t version, int64_t now_ms, char *err, size_t err_size)
{
    struct progress_ctx q = {.hash = token_hash, .text = body, .version = version, .now = now_ms};
    return sqlite_store_write(s, put_progress, &q, "store progress", err, err_size);
}
