/* The SQLite backend's part for clubs (store.h "Clubs"): a club with its creator's
 * membership, members joining, roles and removals (never of the creator), the results
 * between members, the club's games and open challenges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

static const char sql_put_member[] =
    "INSERT INTO club_members (club_id, token_hash, member_id, name, role, joined_ms)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    " ON CONFLICT (club_id, token_hash) DO UPDATE SET name = excluded.name";

static int put_member(struct store *s, const char *club_id, const struct store_member *m)
{
    return sq_done(sq_bind(s, sql_put_member, "ttttiI", club_id, m->token_hash, m->id, m->name,
                           m->role, m->joined_ms));
}

struct club_ctx {
    const struct store_club *c;
    const struct store_member *m;
};

static const char sql_put_club[] =
    "INSERT INTO clubs (id, name, description, languages, invite, creator_hash, created_ms,"
    " public) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

static int create_club(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct club_ctx *q = ctx;
    const struct store_club *c = q->c;
    if (sq_done(sq_bind(s, sql_put_club, "ttttttIi", c->id, c->name, c->description, c->languages,
                        c->invite, c->creator_hash, c->created_ms, c->is_public != 0)) != 0)
        return -1;
    return put_member(s, q->c->id, q->m);
}

int sqlite_store_create_club(struct store *s, const struct store_club *c,
                             const struct store_member *m, char *err, size_t err_size)
{
    struct club_ctx q = {c, m};
    return sqlite_store_write(s, create_club, &q, "create club", err, err_size);
}

struct get_ctx {
    const char *id;
    struct store_club *c;
};

#define CLUB_COLUMNS "id, name, description, languages, invite, creator_hash, created_ms, public"
static const char sql_get_club[] = "SELECT " CLUB_COLUMNS " FROM clubs WHERE id = ?1";

static void read_club(sqlite3_stmt *st, struct store_club *c)
{
    memset(c, 0, sizeof *c);
    sq_text(st, 0, c->id, sizeof c->id);
    sq_text(st, 1, c->name, sizeof c->name);
    sq_text(st, 2, c->description, sizeof c->description);
    sq_text(st, 3, c->languages, sizeof c->languages);
    sq_text(st, 4, c->invite, sizeof c->invite);
    sq_text(st, 5, c->creator_hash, sizeof c->creator_hash);
    c->created_ms = sqlite3_column_int64(st, 6);
    c->is_public = sqlite3_column_int(st, 7);
}

static int get_club(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct get_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_club, "t", g->id);
    int row = sq_row(st);
    if (row > 0)
        read_club(st, g->c);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_club(struct store *s, const char *id, struct store_club *c, char *err,
                          size_t err_size)
{
    struct get_ctx g = {id, c};
    return sqlite_store_read(s, get_club, &g, "load club", err, err_size);
}

struct list_ctx {
    const char *id;
    store_member_fn fn;
    void *ctx;
};

static const char sql_members[] = "SELECT member_id, token_hash, name, role, joined_ms"
                                  " FROM club_members WHERE club_id = ?1"
                                  " ORDER BY role = 2 DESC, joined_ms, member_id";

static int list_members(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *l = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_members, "t", l->id);
    int row;
    struct store_member m;
    while ((row = sq_row(st)) > 0) {
        memset(&m, 0, sizeof m);
        sq_text(st, 0, m.id, sizeof m.id);
        sq_text(st, 1, m.token_hash, sizeof m.token_hash);
        sq_text(st, 2, m.name, sizeof m.name);
        m.role = sqlite3_column_int(st, 3);
        m.joined_ms = sqlite3_column_int64(st, 4);
        l->fn(l->ctx, &m);
    }
    return row;
}

int sqlite_store_list_members(struct store *s, const char *club_id, store_member_fn fn, void *ctx,
                              char *err, size_t err_size)
{
    struct list_ctx l = {club_id, fn, ctx};
    return sqlite_store_read(s, list_members, &l, "list members", err, err_size);
}

struct join_ctx {
    const char *club_id;
    const struct store_member *m;
};

static const char sql_barred[] = "SELECT 1 FROM club_bars WHERE club_id = ?1 AND token_hash = ?2";

static int join_club(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct join_ctx *j = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_barred, "tt", j->club_id, j->m->token_hash);
    int row = sq_row(st);
    if (row < 0)
        return -1;
    if (row > 0) {
        sq_end(st);
        return 1;
    }
    return put_member(s, j->club_id, j->m);
}

int sqlite_store_join_club(struct store *s, const char *club_id, const struct store_member *m,
                           char *err, size_t err_size)
{
    struct join_ctx j = {club_id, m};
    return sqlite_store_write(s, join_club, &j, "join club", err, err_size);
}

struct role_ctx {
    const char *club_id, *member_id;
    int role;
};

static const char sql_set_role[] = "UPDATE club_members SET role = ?3"
                                   " WHERE club_id = ?1 AND member_id = ?2 AND role <> 2";
static const char sql_remove[] =
    "DELETE FROM club_members WHERE club_id = ?1 AND member_id = ?2 AND role <> 2";

static int set_member(struct store *s, sqlite3 *db, void *ctx)
{
    struct role_ctx *r = ctx;
    sqlite3_stmt *st = r->role < 0
                           ? sq_bind(s, sql_remove, "tt", r->club_id, r->member_id)
                           : sq_bind(s, sql_set_role, "tti", r->club_id, r->member_id, r->role);
    if (sq_done(st) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_set_member(struct store *s, const char *club_id, const char *member_id, int role,
                            char *err, size_t err_size)
{
    struct role_ctx r = {club_id, member_id, role};
    return sqlite_store_write(s, set_member, &r, "club member", err, err_size);
}

struct remove_ctx {
    const char *club_id, *member_id, *invite;
    int max_role;
};

static const char sql_remove_upto[] =
    "DELETE FROM club_members WHERE club_id = ?1 AND member_id = ?2"
    " AND role <> 2 AND role <= ?3";
static const char sql_invite[] = "UPDATE clubs SET invite = ?2 WHERE id = ?1";

static int remove_member(struct store *s, sqlite3 *db, void *ctx)
{
    struct remove_ctx *r = ctx;
    if (sq_done(sq_bind(s, sql_remove_upto, "tti", r->club_id, r->member_id, r->max_role)) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1;
    if (sq_done(sq_bind(s, sql_invite, "tt", r->club_id, r->invite)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : -1;
}

int sqlite_store_remove_member(struct store *s, const char *club_id, const char *member_id,
                               int max_role, const char *invite, char *err, size_t err_size)
{
    struct remove_ctx r = {club_id, member_id, invite, max_role};
    return sqlite_store_write(s, remove_member, &r, "remove club member", err, err_size);
}

struct results_ctx {
    const char *id;
    store_result_fn fn;
    void *ctx;
};

static const char sql_results[] = "SELECT white_hash, black_hash, result, count(*) FROM games"
                                  " WHERE club_id = ?1 AND result <> 0 AND reason <> 18"
                                  " GROUP BY white_hash, black_hash, result";

static int club_results(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct results_ctx *r = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_results, "t", r->id);
    int row;
    while ((row = sq_row(st)) > 0)
        r->fn(r->ctx, (const char *)sqlite3_column_text(st, 0),
              (const char *)sqlite3_column_text(st, 1), sqlite3_column_int(st, 2),
              sqlite3_column_int(st, 3));
    return row;
}

int sqlite_store_club_results(struct store *s, const char *club_id, store_result_fn fn, void *ctx,
                              char *err, size_t err_size)
{
    struct results_ctx r = {club_id, fn, ctx};
    return sqlite_store_read(s, club_results, &r, "club results", err, err_size);
}

struct games_ctx {
    const char *id;
    int limit;
    store_game_fn fn;
    void *ctx;
};

static int club_games(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct games_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sqlite_club_games_sql, "ti", g->id, g->limit);
    int rc;
    struct store_game row;
    while ((rc = sq_row(st)) > 0) {
        sqlite_read_game_row(st, &row);
        g->fn(g->ctx, &row);
    }
    return rc;
}

int sqlite_store_club_games(struct store *s, const char *club_id, int limit, store_game_fn fn,
                            void *ctx, char *err, size_t err_size)
{
    struct games_ctx g = {club_id, limit, fn, ctx};
    return sqlite_store_read(s, club_games, &g, "club games", err, err_size);
}

struct open_ctx {
    const char *id;
    int64_t now;
    store_challenge_fn fn;
    void *ctx;
};

static int club_challenges(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    static char sql[512];
    if (!sql[0])
        snprintf(sql, sizeof sql,
                 "SELECT %s FROM challenges WHERE club_id = ?1 AND status = 0"
                 " AND expires_ms > ?2 ORDER BY created_ms, id LIMIT 200",
                 sqlite_challenge_columns);
    struct open_ctx *o = ctx;
    sqlite3_stmt *st = sq_bind(s, sql, "tI", o->id, o->now);
    int row;
    struct store_challenge c;
    while ((row = sq_row(st)) > 0) {
        sqlite_read_challenge(st, &c);
        o->fn(o->ctx, &c);
    }
    return row;
}

int sqlite_store_club_challenges(struct store *s, const char *club_id, int64_t now_ms,
                                 store_challenge_fn fn, void *ctx, char *err, size_t err_size)
{
    struct open_ctx o = {club_id, now_ms, fn, ctx};
    return sqlite_store_read(s, club_challenges, &o, "club challenges", err, err_size);
}

/* ---- public clubs, bars ---- */

static const char sql_set_public[] = "UPDATE clubs SET public = ?2 WHERE id = ?1";

static int set_public(struct store *s, sqlite3 *db, void *ctx)
{
    const void *const *a = ctx;
    if (sq_done(sq_bind(s, sql_set_public, "ti", (const char *)a[0], *(const int *)a[1])) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_set_club_public(struct store *s, const char *club_id, int is_public, char *err,
                                 size_t err_size)
{
    int v = is_public != 0;
    const void *a[2] = {club_id, &v};
    return sqlite_store_write(s, set_public, (void *)a, "club public", err, err_size);
}

struct find_ctx {
    const char *text, *lang;
    int limit;
    store_found_club_fn fn;
    void *ctx;
};

/* instr over lower(): ASCII letters match in either case, other text as it is. */
static const char sql_find[] =
    "SELECT " CLUB_COLUMNS ", (SELECT count(*) FROM club_members m WHERE m.club_id = c.id)"
    " FROM clubs c WHERE public = 1 AND instr(lower(name), lower(?1)) > 0"
    " AND (?2 = '' OR instr(',' || languages || ',', ',' || ?2 || ',') > 0)"
    " ORDER BY name, id LIMIT ?3";

static int find_clubs(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct find_ctx *f = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_find, "tti", f->text, f->lang, f->limit);
    int row;
    struct store_club c;
    while ((row = sq_row(st)) > 0) {
        read_club(st, &c);
        f->fn(f->ctx, &c, sqlite3_column_int(st, 8));
    }
    return row;
}

int sqlite_store_find_clubs(struct store *s, const char *text, const char *lang, int limit,
                            store_found_club_fn fn, void *ctx, char *err, size_t err_size)
{
    struct find_ctx f = {text, lang, limit, fn, ctx};
    return sqlite_store_read(s, find_clubs, &f, "find clubs", err, err_size);
}

struct bar_ctx {
    const char *club_id, *member_id, *invite;
    int max_role;
    int64_t now;
};

static const char sql_bar[] =
    "INSERT OR IGNORE INTO club_bars (club_id, token_hash, barred_ms) SELECT club_id,"
    " token_hash, ?4 FROM club_members WHERE club_id = ?1 AND member_id = ?2 AND role <> 2"
    " AND role <= ?3";

static int bar_member(struct store *s, sqlite3 *db, void *ctx)
{
    struct bar_ctx *b = ctx;
    if (sq_done(sq_bind(s, sql_bar, "ttiI", b->club_id, b->member_id, b->max_role, b->now)) != 0)
        return -1;
    struct remove_ctx r = {b->club_id, b->member_id, b->invite, b->max_role};
    return remove_member(s, db, &r);
}

int sqlite_store_bar_member(struct store *s, const char *club_id, const char *member_id,
                            int max_role, const char *invite, int64_t now_ms, char *err,
                            size_t err_size)
{
    struct bar_ctx b = {club_id, member_id, invite, max_role, now_ms};
    return sqlite_store_write(s, bar_member, &b, "bar club member", err, err_size);
}
