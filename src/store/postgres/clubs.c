/* The PostgreSQL backend's part for clubs (store.h "Clubs"): a club with its creator's
 * membership, members joining, roles and removals (never of the creator), the results
 * between members, the club's games and open challenges. */
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

static const char sql_put_member[] =
    "INSERT INTO club_members (club_id, token_hash, member_id, name, role, joined_ms)"
    " VALUES ($1, $2, $3, $4, $5, $6)"
    " ON CONFLICT (club_id, token_hash) DO UPDATE SET name = excluded.name";

static int put_member(struct pg_conn *c, const char *club_id, const struct store_member *m)
{
    return pg_do(c, sql_put_member, "ttttiI", club_id, m->token_hash, m->id, m->name, m->role,
                 m->joined_ms) == 1
               ? 0
               : -1;
}

struct club_ctx {
    const struct store_club *c;
    const struct store_member *m;
};

static const char sql_put_club[] =
    "INSERT INTO clubs (id, name, description, languages, invite, creator_hash, created_ms,"
    " public) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

static int create_club(struct pg_conn *c, void *ctx)
{
    struct club_ctx *q = ctx;
    const struct store_club *k = q->c;
    if (pg_do(c, sql_put_club, "ttttttIi", k->id, k->name, k->description, k->languages, k->invite,
              k->creator_hash, k->created_ms, k->is_public != 0) != 1)
        return -1;
    return put_member(c, k->id, q->m);
}

int pg_store_create_club(struct store *s, const struct store_club *c, const struct store_member *m,
                         char *err, size_t err_size)
{
    struct club_ctx q = {c, m};
    return pg_store_write(s, create_club, &q, "create club", err, err_size);
}

#define CLUB_COLUMNS "id, name, description, languages, invite, creator_hash, created_ms, public"
static const char sql_get_club[] = "SELECT " CLUB_COLUMNS " FROM clubs WHERE id = $1";

static void read_club_row(const PGresult *r, int row, struct store_club *c)
{
    memset(c, 0, sizeof *c);
    pg_col_text(r, row, 0, c->id, sizeof c->id);
    pg_col_text(r, row, 1, c->name, sizeof c->name);
    pg_col_text(r, row, 2, c->description, sizeof c->description);
    pg_col_text(r, row, 3, c->languages, sizeof c->languages);
    pg_col_text(r, row, 4, c->invite, sizeof c->invite);
    pg_col_text(r, row, 5, c->creator_hash, sizeof c->creator_hash);
    c->created_ms = pg_col_int64(r, row, 6);
    c->is_public = pg_col_int(r, row, 7);
}

static void read_club(void *ctx, const PGresult *r)
{
    read_club_row(r, 0, ctx);
}

int pg_store_get_club(struct store *s, const char *id, struct store_club *c, char *err,
                      size_t err_size)
{
    return pg_one(pg_store_query(s, "load club", err, err_size, sql_get_club, "t", id), read_club,
                  c);
}

static const char sql_members[] = "SELECT member_id, token_hash, name, role, joined_ms"
                                  " FROM club_members WHERE club_id = $1"
                                  " ORDER BY role = 2 DESC, joined_ms, member_id";

int pg_store_list_members(struct store *s, const char *club_id, store_member_fn fn, void *ctx,
                          char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "list members", err, err_size, sql_members, "t", club_id);
    if (!r)
        return -1;
    struct store_member m;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&m, 0, sizeof m);
        pg_col_text(r, i, 0, m.id, sizeof m.id);
        pg_col_text(r, i, 1, m.token_hash, sizeof m.token_hash);
        pg_col_text(r, i, 2, m.name, sizeof m.name);
        m.role = pg_col_int(r, i, 3);
        m.joined_ms = pg_col_int64(r, i, 4);
        fn(ctx, &m);
    }
    PQclear(r);
    return 0;
}

struct join_ctx {
    const char *club_id;
    const struct store_member *m;
};

static const char sql_barred[] = "SELECT 1 FROM club_bars WHERE club_id = $1 AND token_hash = $2";

static int join_club(struct pg_conn *c, void *ctx)
{
    struct join_ctx *j = ctx;
    PGresult *r = pg_exec(c, sql_barred, "tt", j->club_id, j->m->token_hash);
    if (!r)
        return -1;
    int barred = PQntuples(r) > 0;
    PQclear(r);
    return barred ? 1 : put_member(c, j->club_id, j->m);
}

int pg_store_join_club(struct store *s, const char *club_id, const struct store_member *m,
                       char *err, size_t err_size)
{
    struct join_ctx j = {club_id, m};
    return pg_store_write(s, join_club, &j, "join club", err, err_size);
}

struct role_ctx {
    const char *club_id, *member_id, *invite;
    int role;
};

static const char sql_set_role[] = "UPDATE club_members SET role = $3"
                                   " WHERE club_id = $1 AND member_id = $2 AND role <> 2";
static const char sql_remove[] =
    "DELETE FROM club_members WHERE club_id = $1 AND member_id = $2 AND role <> 2";

static int set_member(struct pg_conn *c, void *ctx)
{
    struct role_ctx *r = ctx;
    int n = r->role < 0 ? pg_do(c, sql_remove, "tt", r->club_id, r->member_id)
                        : pg_do(c, sql_set_role, "tti", r->club_id, r->member_id, r->role);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_set_member(struct store *s, const char *club_id, const char *member_id, int role,
                        char *err, size_t err_size)
{
    struct role_ctx r = {club_id, member_id, NULL, role};
    return pg_store_write(s, set_member, &r, "club member", err, err_size);
}

static const char sql_remove_upto[] =
    "DELETE FROM club_members WHERE club_id = $1 AND member_id = $2"
    " AND role <> 2 AND role <= $3";
static const char sql_invite[] = "UPDATE clubs SET invite = $2 WHERE id = $1";

static int remove_member(struct pg_conn *c, void *ctx)
{
    struct role_ctx *r = ctx;
    int n = pg_do(c, sql_remove_upto, "tti", r->club_id, r->member_id, r->role);
    if (n < 0)
        return -1;
    if (n != 1)
        return 1;
    n = pg_do(c, sql_invite, "tt", r->club_id, r->invite);
    if (n < 0)
        return -1;
    return n == 1 ? 0 : pg_why(c, "no club %.32s", r->club_id);
}

int pg_store_remove_member(struct store *s, const char *club_id, const char *member_id,
                           int max_role, const char *invite, char *err, size_t err_size)
{
    struct role_ctx r = {club_id, member_id, invite, max_role};
    return pg_store_write(s, remove_member, &r, "remove club member", err, err_size);
}

static const char sql_results[] = "SELECT white_hash, black_hash, result, count(*) FROM games"
                                  " WHERE club_id = $1 AND result <> 0 AND reason <> 18"
                                  " GROUP BY white_hash, black_hash, result";

int pg_store_club_results(struct store *s, const char *club_id, store_result_fn fn, void *ctx,
                          char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "club results", err, err_size, sql_results, "t", club_id);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++)
        fn(ctx, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), pg_col_int(r, i, 2), pg_col_int(r, i, 3));
    PQclear(r);
    return 0;
}

int pg_store_club_games(struct store *s, const char *club_id, int limit, store_game_fn fn,
                        void *ctx, char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "club games", err, err_size, pg_club_games_sql, "ti", club_id, limit);
    if (!r)
        return -1;
    struct store_game row;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_game(r, i, &row);
        fn(ctx, &row);
    }
    PQclear(r);
    return 0;
}

int pg_store_club_challenges(struct store *s, const char *club_id, int64_t now_ms,
                             store_challenge_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "club challenges", err, err_size, pg_club_challenges_sql, "tI",
                                 club_id, now_ms);
    if (!r)
        return -1;
    struct store_challenge c;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_challenge(r, i, &c);
        fn(ctx, &c);
    }
    PQclear(r);
    return 0;
}

/* ---- public clubs, bars ---- */

struct public_ctx {
    const char *club_id;
    int is_public;
};

static const char sql_set_public[] = "UPDATE clubs SET public = $2 WHERE id = $1";

static int set_public(struct pg_conn *c, void *ctx)
{
    struct public_ctx *q = ctx;
    int n = pg_do(c, sql_set_public, "ti", q->club_id, q->is_public);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_set_club_public(struct store *s, const char *club_id, int is_public, char *err,
                             size_t err_size)
{
    struct public_ctx q = {club_id, is_public != 0};
    return pg_store_write(s, set_public, &q, "club public", err, err_size);
}

#define ASCII_FOLD(x) "translate(" x ", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"

/* As SQLite's: ASCII letters match in either case, other text as it is; a negative
 * limit is none. */
#define FOLDED_NAME ASCII_FOLD("name")
#define FOLDED_TEXT ASCII_FOLD("$1::text")
static const char sql_find[] =
    "SELECT " CLUB_COLUMNS ", (SELECT count(*) FROM club_members m WHERE m.club_id = c.id)"
    " FROM clubs c WHERE public = 1 AND strpos(" FOLDED_NAME ", " FOLDED_TEXT ") > 0"
    " AND ($2::text = '' OR strpos(',' || languages || ',', ',' || $2::text || ',') > 0)"
    " ORDER BY name COLLATE \"C\", id COLLATE \"C\" LIMIT NULLIF(GREATEST($3::bigint, -1), -1)";

int pg_store_find_clubs(struct store *s, const char *text, const char *lang, int limit,
                        store_found_club_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "find clubs", err, err_size, sql_find, "tti", text, lang, limit);
    if (!r)
        return -1;
    struct store_club c;
    for (int i = 0; i < PQntuples(r); i++) {
        read_club_row(r, i, &c);
        fn(ctx, &c, pg_col_int(r, i, 8));
    }
    PQclear(r);
    return 0;
}

static const char sql_bar[] =
    "INSERT INTO club_bars (club_id, token_hash, barred_ms) SELECT club_id, token_hash, $4"
    " FROM club_members WHERE club_id = $1 AND member_id = $2 AND role <> 2 AND role <= $3"
    " ON CONFLICT DO NOTHING";

struct bar_ctx {
    const char *club_id, *member_id, *invite;
    int max_role;
    int64_t now;
};

static int bar_member(struct pg_conn *c, void *ctx)
{
    struct bar_ctx *b = ctx;
    if (pg_do(c, sql_bar, "ttiI", b->club_id, b->member_id, b->max_role, b->now) < 0)
        return -1;
    struct role_ctx r = {b->club_id, b->member_id, b->invite, b->max_role};
    return remove_member(c, &r);
}

int pg_store_bar_member(struct store *s, const char *club_id, const char *member_id, int max_role,
                        const char *invite, int64_t now_ms, char *err, size_t err_size)
{
    struct bar_ctx b = {club_id, member_id, invite, max_role, now_ms};
    return pg_store_write(s, bar_member, &b, "bar club member", err, err_size);
}
