/* The SQLite backend's part for players (store.h "Players"): a visitor's display
 * name, by token hash. */
#include "store/sqlite/private.h"

static const char sql_put_player[] =
    "INSERT INTO players (token_hash, name, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?3)"
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
