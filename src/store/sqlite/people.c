/* The SQLite backend's part for games between people (store.h "People"): challenges
 * and seeks taken exactly once by a conditional UPDATE, people's moves with their
 * receipt times and the clock's deadline, endings only of games still on, offers,
 * deadlines for the clock's timer (ratings.c and players.c hold the rest of store.h's
 * people).  Writes go through the backend's group commit (sqlite_store_write), reads
 * under its mutex (sqlite_store_read). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

#define CHALLENGE_COLUMNS                                                                          \
    "id, game, clock_initial_ms, clock_increment_ms, days, side, rated, lobby, creator_hash,"      \
    " creator_name, status, game_id, created_ms, expires_ms, creator_rating, club_id"

static void read_challenge(sqlite3_stmt *st, struct store_challenge *c)
{
    memset(c, 0, sizeof *c);
    sq_text(st, 0, c->id, sizeof c->id);
    sq_text(st, 1, c->game, sizeof c->game);
    c->clock_initial_ms = sqlite3_column_int64(st, 2);
    c->clock_increment_ms = sqlite3_column_int64(st, 3);
    c->days = sqlite3_column_int(st, 4);
    c->side = sqlite3_column_int(st, 5);
    c->rated = sqlite3_column_int(st, 6);
    c->lobby = sqlite3_column_int(st, 7);
    sq_text(st, 8, c->creator_hash, sizeof c->creator_hash);
    sq_text(st, 9, c->creator_name, sizeof c->creator_name);
    c->status = sqlite3_column_int(st, 10);
    sq_text(st, 11, c->game_id, sizeof c->game_id);
    c->created_ms = sqlite3_column_int64(st, 12);
    c->expires_ms = sqlite3_column_int64(st, 13);
    c->creator_rating = sqlite3_column_int(st, 14);
    sq_text(st, 15, c->club_id, sizeof c->club_id);
}

void sqlite_read_challenge(sqlite3_stmt *st, struct store_challenge *c)
{
    read_challenge(st, c);
}

const char sqlite_challenge_columns[] = CHALLENGE_COLUMNS;

/* ---- challenges ---- */

static const char sql_put_challenge[] =
    "INSERT INTO challenges (" CHALLENGE_COLUMNS ")"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)";

static int put_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const struct store_challenge *c = ctx;
    return sq_done(sq_bind(s, sql_put_challenge, "ttIIiiiittitIIit", c->id, c->game,
                           c->clock_initial_ms, c->clock_increment_ms, c->days, c->side, c->rated,
                           c->lobby, c->creator_hash, c->creator_name, c->status, c->game_id,
                           c->created_ms, c->expires_ms, c->creator_rating, c->club_id));
}

int sqlite_store_put_challenge(struct store *s, const struct store_challenge *c, char *err,
                               size_t err_size)
{
    return sqlite_store_write(s, put_challenge, (void *)c, "store challenge", err, err_size);
}

struct get_challenge_ctx {
    const char *id;
    struct store_challenge *c;
};

static const char sql_get_challenge[] =
    "SELECT " CHALLENGE_COLUMNS " FROM challenges WHERE id = ?1";

static int get_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct get_challenge_ctx *g = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_get_challenge, "t", g->id);
    int row = sq_row(st);
    if (row > 0)
        read_challenge(st, g->c);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_get_challenge(struct store *s, const char *id, struct store_challenge *c,
                               char *err, size_t err_size)
{
    struct get_challenge_ctx g = {id, c};
    return sqlite_store_read(s, get_challenge, &g, "load challenge", err, err_size);
}

struct accept_ctx {
    const char *id, *acceptor;
    const struct store_game *g;
    int64_t now;
};

/* Taken only while open and unexpired, and never by its creator: one UPDATE decides,
 * so two accepts (on one server or several on one database) cannot both win. */
static const char sql_take[] =
    "UPDATE challenges SET status = 1, game_id = ?2 WHERE id = ?1 AND status = 0"
    " AND expires_ms > ?3 AND creator_hash <> ?4";
static const char sql_insert_people_game[] =
    "INSERT INTO games (id, game, level, human_side, start, token_hash, seed, created_ms,"
    " updated_ms, result, reason, plies, people, white_hash, black_hash, white_name,"
    " black_name, clock_initial_ms, clock_increment_ms, days, rated, white_rating, black_rating,"
    " club_id, rated_capped) VALUES (?1, ?2, 0, ?3, ?4, ?5, 0, ?6, ?6, 0, 0, 0, 1, ?7, ?8, ?9,"
    " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";

int sqlite_insert_people_game(struct store *s, const struct store_game *g)
{
    return sq_done(sq_bind(s, sql_insert_people_game, "ttittIttttIIiiiiti", g->id, g->game,
                           g->human_side, g->start, g->token_hash, g->created_ms, g->white_hash,
                           g->black_hash, g->white_name, g->black_name, g->clock_initial_ms,
                           g->clock_increment_ms, g->days, g->rated, g->white_rating,
                           g->black_rating, g->club_id, g->rated_capped));
}

static int accept_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    struct accept_ctx *a = ctx;
    if (sq_done(sq_bind(s, sql_take, "ttIt", a->id, a->g->id, a->now, a->acceptor)) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1;
    return sqlite_insert_people_game(s, a->g);
}

int sqlite_store_accept_challenge(struct store *s, const char *id, const char *acceptor_hash,
                                  const struct store_game *game, int64_t now_ms, char *err,
                                  size_t err_size)
{
    struct accept_ctx a = {id, acceptor_hash, game, now_ms};
    return sqlite_store_write(s, accept_challenge, &a, "accept challenge", err, err_size);
}

static const char sql_cancel[] =
    "UPDATE challenges SET status = 2"
    " WHERE id = ?1 AND status = 0 AND creator_hash = ?2 AND expires_ms > ?3";

struct cancel_ctx {
    const char *id, *creator_hash;
    int64_t now_ms;
};

/* Only an open challenge is withdrawn: not one taken, withdrawn or expired (API.md). */
static int cancel_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    const struct cancel_ctx *a = ctx;
    if (sq_done(sq_bind(s, sql_cancel, "ttI", a->id, a->creator_hash, a->now_ms)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_cancel_challenge(struct store *s, const char *id, const char *creator_hash,
                                  int64_t now_ms, char *err, size_t err_size)
{
    struct cancel_ctx a = {id, creator_hash, now_ms};
    return sqlite_store_write(s, cancel_challenge, &a, "cancel challenge", err, err_size);
}

struct seeks_ctx {
    int64_t now;
    int limit;
    store_challenge_fn fn;
    void *ctx;
};

/* Newest first, the creators in turn: every creator's newest seek, then every creator's
 * second newest..., so one creator's many seeks cannot hide the others'. */
static const char sql_seeks[] =
    "SELECT " CHALLENGE_COLUMNS " FROM (SELECT " CHALLENGE_COLUMNS ","
    " row_number() OVER (PARTITION BY creator_hash ORDER BY created_ms DESC, id) AS turn"
    " FROM challenges WHERE lobby = 1 AND status = 0 AND expires_ms > ?1 AND club_id = '')"
    " ORDER BY turn, created_ms DESC, id LIMIT ?2";

static int list_seeks(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct seeks_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_seeks, "Ii", q->now, q->limit);
    int row;
    struct store_challenge c;
    while ((row = sq_row(st)) > 0) {
        read_challenge(st, &c);
        q->fn(q->ctx, &c);
    }
    return row;
}

int sqlite_store_list_seeks(struct store *s, int64_t now_ms, int limit, store_challenge_fn fn,
                            void *ctx, char *err, size_t err_size)
{
    struct seeks_ctx q = {now_ms, limit, fn, ctx};
    return sqlite_store_read(s, list_seeks, &q, "list seeks", err, err_size);
}

/* ---- people's games ---- */

struct move_ctx {
    const char *id, *move;
    int ply, result, reason;
    int64_t now, deadline;
};

/* A people game's plies column keeps the most plies it ever had (a takeback does not
 * lower it): store_game.plies_max, "both sides have moved" even after takebacks. */
static const char sql_people_row[] =
    "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4, plies = max(plies, ?5),"
    " deadline_ms = ?6, draw_offer = 0, takeback_offer = 0"
    " WHERE id = ?1 AND people = 1 AND result = 0";
/* Only the next ply after the last one stored (one writer a game: a ply stored already
 * or one past a gap is no row). */
static const char sql_people_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) SELECT ?1, ?2, ?3, ?4"
    " WHERE ?2 = 1 + COALESCE((SELECT max(ply) FROM moves WHERE game_id = ?1), 0)";

static int add_people_move(struct store *s, sqlite3 *db, void *ctx)
{
    struct move_ctx *m = ctx;
    if (sq_done(sq_bind(s, sql_people_row, "tiiIiI", m->id, m->result, m->reason, m->now, m->ply,
                        m->deadline)) != 0 ||
        sqlite3_changes(db) != 1)
        return -1; /* unknown, not a people game, or over */
    /* Refused when the ply is stored already (another writer was first) or is not
     * the next. */
    if (sq_done(sq_bind(s, sql_people_move, "titI", m->id, m->ply, m->move, m->now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1
               ? 0
               : sqlite_store_why("ply %d is not the next of game %.32s", m->ply, m->id);
}

int sqlite_store_add_people_move(struct store *s, const char *id, int ply, const char *move,
                                 int result, int reason, int64_t now_ms, int64_t deadline_ms,
                                 char *err, size_t err_size)
{
    struct move_ctx m = {id, move, ply, result, reason, now_ms, deadline_ms};
    return sqlite_store_write(s, add_people_move, &m, "store move", err, err_size);
}

static const char sql_end_people[] =
    "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4, deadline_ms = 0,"
    " draw_offer = 0, takeback_offer = 0 WHERE id = ?1 AND people = 1 AND result = 0";

static int end_people_game(struct store *s, sqlite3 *db, void *ctx)
{
    struct move_ctx *m = ctx;
    if (sq_done(sq_bind(s, sql_end_people, "tiiI", m->id, m->result, m->reason, m->now)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : 1;
}

int sqlite_store_end_people_game(struct store *s, const char *id, int result, int reason,
                                 int64_t at_ms, char *err, size_t err_size)
{
    struct move_ctx m = {.id = id, .result = result, .reason = reason, .now = at_ms};
    return sqlite_store_write(s, end_people_game, &m, "end game", err, err_size);
}

struct offers_ctx {
    const char *id, *rematch_id;
    int draw, takeback, rematch;
};

static const char sql_offers[] =
    "UPDATE games SET draw_offer = ?2, takeback_offer = ?3, rematch_offer = ?4, rematch_id = ?5"
    " WHERE id = ?1 AND people = 1";

static int set_offers(struct store *s, sqlite3 *db, void *ctx)
{
    struct offers_ctx *o = ctx;
    if (sq_done(sq_bind(s, sql_offers, "tiiit", o->id, o->draw, o->takeback, o->rematch,
                        o->rematch_id)) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : -1;
}

int sqlite_store_set_offers(struct store *s, const char *id, int draw, int takeback, int rematch,
                            const char *rematch_id, int64_t now_ms, char *err, size_t err_size)
{
    (void)now_ms;
    struct offers_ctx o = {id, rematch_id, draw, takeback, rematch};
    return sqlite_store_write(s, set_offers, &o, "store offers", err, err_size);
}

struct times_ctx {
    const char *id;
    int64_t *times;
    int n, cap;
};

static const char sql_times[] = "SELECT ply, created_ms FROM moves WHERE game_id = ?1 ORDER BY ply";

static int load_times(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct times_ctx *t = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_times, "t", t->id);
    int row;
    while ((row = sq_row(st)) > 0) {
        if (t->n == t->cap) {
            int cap = t->cap ? 2 * t->cap : 64;
            int64_t *m = realloc(t->times, sizeof *m * (size_t)cap);
            if (!m) {
                sq_end(st);
                return -1;
            }
            t->times = m;
            t->cap = cap;
        }
        t->times[t->n++] = sqlite3_column_int64(st, 1);
    }
    return row;
}

int sqlite_store_load_move_times(struct store *s, const char *id, int64_t **times, int *count,
                                 char *err, size_t err_size)
{
    struct times_ctx t = {id, NULL, 0, 0};
    int rc = sqlite_store_read(s, load_times, &t, "load move times", err, err_size);
    if (rc != 0) {
        free(t.times);
        t.times = NULL;
        t.n = 0;
    }
    *times = t.times;
    *count = t.n;
    return rc;
}

static const char sql_next_deadline[] = "SELECT deadline_ms FROM games"
                                        " WHERE deadline_ms > 0 AND result = 0"
                                        " ORDER BY deadline_ms LIMIT 1";

static int next_deadline(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    sqlite3_stmt *st = sq_bind(s, sql_next_deadline, "");
    int row = sq_row(st);
    if (row > 0)
        *(int64_t *)ctx = sqlite3_column_int64(st, 0);
    sq_end(st);
    return sq_found(row);
}

int sqlite_store_next_deadline(struct store *s, int64_t *when, char *err, size_t err_size)
{
    return sqlite_store_read(s, next_deadline, when, "next deadline", err, err_size);
}

static const char sql_due[] = "SELECT id FROM games WHERE deadline_ms > 0 AND result = 0"
                              " AND deadline_ms <= ?1 ORDER BY deadline_ms LIMIT 256";

static int due_games(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct sqlite_ids *d = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_due, "I", d->now);
    int row;
    while ((row = sq_row(st)) > 0 && d->n < SQLITE_IDS_MAX)
        sq_text(st, 0, d->ids[d->n++], sizeof d->ids[0]);
    sq_end(st);
    return row < 0 ? -1 : 0;
}

int sqlite_store_due_games(struct store *s, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                           size_t err_size)
{
    /* Ids first, the callbacks after the connection's mutex is given back: a callback
     * uses the store itself. */
    struct sqlite_ids d = {now_ms, malloc(SQLITE_IDS_MAX * sizeof *d.ids), 0};
    if (!d.ids)
        return fail(err, err_size, "out of memory");
    int rc = sqlite_store_read(s, due_games, &d, "due games", err, err_size);
    for (int i = 0; rc == 0 && i < d.n; i++)
        fn(ctx, d.ids[i]);
    free(d.ids);
    return rc;
}
