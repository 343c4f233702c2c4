/* The PostgreSQL backend's part for players (store.h "Players"): a visitor's display
 * name, by token hash. */
#include <stdio.h>

#include "store/postgres/private.h"

static const char sql_put_player[] =
    "INSERT INTO players (token_hash, name, created_ms, updated_ms) VALUES ($1, $2, $3, $3)"
    " ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name,"
    " updated_ms = excluded.updated_ms";

struct player_ctx {
    const char *hash, *name;
    int64_t now;
};

static int put_player(struct pg_conn *c, void *ctx)
{
    struct player_ctx *p = ctx;
    return pg_do(c, sql_put_player, "ttI", p->hash, p->name, p->now) == 1 ? 0 : -1;
}

int pg_store_put_player(struct store *s, const char *token_hash, const char *name, int64_t now_ms,
                        char *err, size_t err_size)
{
    struct player_ctx p = {token_hash, name, now_ms};
    return pg_store_write(s, put_player, &p, "store name", err, err_size);
}

static const char sql_get_player[] = "SELECT name FROM players WHERE token_hash = $1";

struct name_ctx {
    char *name;
    size_t size;
};

static void read_name(void *ctx, const PGresult *r)
{
    struct name_ctx *n = ctx;
    pg_col_text(r, 0, 0, n->name, n->size);
}

int pg_store_get_player(struct store *s, const char *token_hash, char *name, size_t name_size,
                        char *err, size_t err_size)
{
    struct name_ctx n = {name, name_size};
    return pg_one(pg_store_query(s, "load name", err, err_size, sql_get_player, "t", token_hash),
                  read_name, &n);
}
