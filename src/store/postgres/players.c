/* The PostgreSQL backend's part for players (store.h "Players"): a visitor's display
 * name, by token hash, the public id made with it, whether they hide, the search by
 * name, the clubs of a player and what they did in the browser (their progress).  As
 * SQLite's (sqlite/players.c); names and ids ordered byte by byte (COLLATE "C"), the
 * search folding ASCII letters only (translate, as SQLite's lower). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

/* The public id: 64 random bits in hex (the md5 of a random UUID cut to 16 digits),
 * made once with the row (a new name keeps it). */
static const char sql_put_player[] =
    "INSERT INTO players (token_hash, name, created_ms, updated_ms, id)"
    " VALUES ($1, $2, $3, $3, substr(md5(gen_random_uuid()::text), 1, 16))"
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

/* ---- the player's row, search, clubs ---- */

#define PLAYER_COLUMNS "id, token_hash, name, hidden, created_ms"

static void read_player_row(const PGresult *r, int i, struct store_player *p)
{
    memset(p, 0, sizeof *p);
    pg_col_text(r, i, 0, p->id, sizeof p->id);
    pg_col_text(r, i, 1, p->token_hash, sizeof p->token_hash);
    pg_col_text(r, i, 2, p->name, sizeof p->name);
    p->hidden = pg_col_int(r, i, 3);
    p->created_ms = pg_col_int64(r, i, 4);
}

static void read_player(void *ctx, const PGresult *r)
{
    read_player_row(r, 0, ctx);
}

static const char sql_player_by_id[] = "SELECT " PLAYER_COLUMNS " FROM players WHERE id = $1";
static const char sql_player_by_hash[] =
    "SELECT " PLAYER_COLUMNS " FROM players WHERE token_hash = $1";

int pg_store_player_by_id(struct store *s, const char *id, struct store_player *out, char *err,
                          size_t err_size)
{
    return pg_one(pg_store_query(s, "load player", err, err_size, sql_player_by_id, "t", id),
                  read_player, out);
}

int pg_store_player_by_hash(struct store *s, const char *token_hash, struct store_player *out,
                            char *err, size_t err_size)
{
    return pg_one(
        pg_store_query(s, "load player", err, err_size, sql_player_by_hash, "t", token_hash),
        read_player, out);
}

struct hidden_ctx {
    const char *hash;
    int hidden;
    int64_t now;
};

static const char sql_set_hidden[] =
    "UPDATE players SET hidden = $2, updated_ms = $3 WHERE token_hash = $1";

static int set_hidden(struct pg_conn *c, void *ctx)
{
    struct hidden_ctx *q = ctx;
    int n = pg_do(c, sql_set_hidden, "tiI", q->hash, q->hidden, q->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_set_player_hidden(struct store *s, const char *token_hash, int hidden, int64_t now_ms,
                               char *err, size_t err_size)
{
    struct hidden_ctx q = {token_hash, hidden ? 1 : 0, now_ms};
    return pg_store_write(s, set_hidden, &q, "hide player", err, err_size);
}

#define ASCII_FOLD(x) "translate(" x ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"

/* A scan of the players' names, as SQLite's (a search is rare).  A negative limit is
 * none, as in SQLite. */
static const char sql_find_players[] =
    "SELECT " PLAYER_COLUMNS " FROM players WHERE hidden = 0 AND id <> ''"
    " AND strpos(" ASCII_FOLD("name") ", " ASCII_FOLD(
        "$1::text") ") > 0"
                    " ORDER BY name COLLATE \"C\", id COLLATE \"C\" LIMIT "
                    "NULLIF(GREATEST($2::bigint, -1), -1)";

int pg_store_find_players(struct store *s, const char *text, int limit, store_player_fn fn,
                          void *ctx, char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "find players", err, err_size, sql_find_players, "ti", text, limit);
    if (!r)
        return -1;
    struct store_player p;
    for (int i = 0; i < PQntuples(r); i++) {
        read_player_row(r, i, &p);
        fn(ctx, &p);
    }
    PQclear(r);
    return 0;
}

static const char sql_player_clubs[] =
    "SELECT c.id, c.name, m.role FROM club_members m JOIN clubs c ON c.id = m.club_id"
    " WHERE m.token_hash = $1 ORDER BY c.name COLLATE \"C\", c.id COLLATE \"C\"";

int pg_store_player_clubs(struct store *s, const char *token_hash, store_club_fn fn, void *ctx,
                          char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "player's clubs", err, err_size, sql_player_clubs, "t", token_hash);
    if (!r)
        return -1;
    char id[STORE_ID_LEN + 1], name[STORE_CLUB_NAME_MAX];
    for (int i = 0; i < PQntuples(r); i++) {
        pg_col_text(r, i, 0, id, sizeof id);
        pg_col_text(r, i, 1, name, sizeof name);
        fn(ctx, id, name, pg_col_int(r, i, 2));
    }
    PQclear(r);
    return 0;
}

/* ---- progress ---- */

static const char sql_get_progress[] = "SELECT body, version FROM progress WHERE token_hash = $1";

int pg_store_get_progress(struct store *s, const char *token_hash, char **body, int64_t *version,
                          char *err, size_t err_size)
{
    *body = NULL;
    *version = 0;
    PGresult *r =
        pg_store_query(s, "load progress", err, err_size, sql_get_progress, "t", token_hash);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 1;
    }
    *body = strdup(PQgetisnull(r, 0, 0) ? "{}" : PQgetvalue(r, 0, 0));
    *version = pg_col_int64(r, 0, 1);
    PQclear(r);
    if (!*body) {
        *version = 0;
        return fail(err, err_size, "database: load progress: out of memory");
    }
    return 0;
}

struct progress_ctx {
    const char *hash, *text;
    int64_t version, now;
};

static const char sql_insert_progress[] =
    "INSERT INTO progress (token_hash, body, version, updated_ms) VALUES ($1, $2, 1, $3)"
    " ON CONFLICT (token_hash) DO NOTHING";
static const char sql_update_progress[] =
    "UPDATE progress SET body = $2, version = version + 1, updated_ms = $4"
    " WHERE token_hash = $1 AND version = $3";

/* Of two writers of one version, the second's INSERT finds the row (DO NOTHING) or
 * its UPDATE, having waited for the first's row lock, finds the version grown. */
static int put_progress(struct pg_conn *c, void *ctx)
{
    struct progress_ctx *q = ctx;
    int n = q->version == 0
                ? pg_do(c, sql_insert_progress, "ttI", q->hash, q->text, q->now)
                : pg_do(c, sql_update_progress, "ttII", q->hash, q->text, q->version, q->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_put_progress(struct store *s, const char *token_hash, const char *body,
                          int64_t version, int64_t now_ms, char *err, size_t err_size)
{
    struct progress_ctx q = {token_hash, body, version, now_ms};
    return pg_store_write(s, put_progress, &q, "store progress", err, err_size);
}
