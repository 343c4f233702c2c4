/* The SQLite backend's part for games between people (store.h "People"): challenges
 * and seeks taken exactly once by a conditional UPDATE, people's moves with their
 * receipt times and the clock's deadline, endings only of games still on, offers,
 * deadlines for the clock's timer, display names.  Writes go through the backend's
 * group commit (sqlite_store_write), reads under its mutex (sqlite_store_read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

static void text(char *dst, size_t size, const unsigned char *src)
{
    snprintf(dst, size, "%s", src ? (const char *)src : "");
}

/* Step a statement that returns no rows and reset it: 0, or -1. */
static int done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

#define CHALLENGE_COLUMNS                                                                          \
    "id, game, clock_initial_ms, clock_increment_ms, days, side, rated, lobby, creator_hash,"      \
    " creator_name, status, game_id, created_ms, expires_ms, creator_rating, club_id"

static void read_challenge(sqlite3_stmt *st, struct store_challenge *c)
{
    memset(c, 0, sizeof *c);
    text(c->id, sizeof c->id, sqlite3_column_text(st, 0));
    text(c->game, sizeof c->game, sqlite3_column_text(st, 1));
    c->clock_initial_ms = sqlite3_column_int64(st, 2);
    c->clock_increment_ms = sqlite3_column_int64(st, 3);
    c->days = sqlite3_column_int(st, 4);
    c->side = sqlite3_column_int(st, 5);
    c->rated = sqlite3_column_int(st, 6);
    c->lobby = sqlite3_column_int(st, 7);
    text(c->creator_hash, sizeof c->creator_hash, sqlite3_column_text(st, 8));
    text(c->creator_name, sizeof c->creator_name, sqlite3_column_text(st, 9));
    c->status = sqlite3_column_int(st, 10);
    text(c->game_id, sizeof c->game_id, sqlite3_column_text(st, 11));
    c->created_ms = sqlite3_column_int64(st, 12);
    c->expires_ms = sqlite3_column_int64(st, 13);
    c->creator_rating = sqlite3_column_int(st, 14);
    text(c->club_id, sizeof c->club_id, sqlite3_column_text(st, 15));
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_put_challenge);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, c->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, c->game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, c->clock_initial_ms);
    sqlite3_bind_int64(st, 4, c->clock_increment_ms);
    sqlite3_bind_int(st, 5, c->days);
    sqlite3_bind_int(st, 6, c->side);
    sqlite3_bind_int(st, 7, c->rated);
    sqlite3_bind_int(st, 8, c->lobby);
    sqlite3_bind_text(st, 9, c->creator_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, c->creator_name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 11, c->status);
    sqlite3_bind_text(st, 12, c->game_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 13, c->created_ms);
    sqlite3_bind_int64(st, 14, c->expires_ms);
    sqlite3_bind_int(st, 15, c->creator_rating);
    sqlite3_bind_text(st, 16, c->club_id, -1, SQLITE_STATIC);
    return done(st);
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_get_challenge);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        read_challenge(st, g->c);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return step == SQLITE_ROW ? 0 : step == SQLITE_DONE ? 1 : -1;
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
    " club_id) VALUES (?1, ?2, 0, ?3, ?4, ?5, 0, ?6, ?6, 0, 0, 0, 1, ?7, ?8, ?9, ?10, ?11, ?12,"
    " ?13, ?14, ?15, ?16, ?17)";

static int insert_people_game(struct store *s, const struct store_game *g)
{
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_insert_people_game);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, g->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, g->human_side);
    sqlite3_bind_text(st, 4, g->start, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, g->token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, g->created_ms);
    sqlite3_bind_text(st, 7, g->white_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, g->black_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, g->white_name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 10, g->black_name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 11, g->clock_initial_ms);
    sqlite3_bind_int64(st, 12, g->clock_increment_ms);
    sqlite3_bind_int(st, 13, g->days);
    sqlite3_bind_int(st, 14, g->rated);
    sqlite3_bind_int(st, 15, g->white_rating);
    sqlite3_bind_int(st, 16, g->black_rating);
    sqlite3_bind_text(st, 17, g->club_id, -1, SQLITE_STATIC);
    return done(st);
}

static int accept_challenge(struct store *s, sqlite3 *db, void *ctx)
{
    struct accept_ctx *a = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_take);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, a->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, a->g->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, a->now);
    sqlite3_bind_text(st, 4, a->acceptor, -1, SQLITE_STATIC);
    if (done(st) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1;
    return insert_people_game(s, a->g);
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_cancel);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, a->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, a->creator_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, a->now_ms);
    if (done(st) != 0)
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

static const char sql_seeks[] =
    "SELECT " CHALLENGE_COLUMNS " FROM challenges"
    " WHERE lobby = 1 AND status = 0 AND expires_ms > ?1 AND club_id = ''"
    " ORDER BY created_ms, id LIMIT ?2";

static int list_seeks(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct seeks_ctx *q = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_seeks);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, q->now);
    sqlite3_bind_int(st, 2, q->limit);
    int step;
    struct store_challenge c;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        read_challenge(st, &c);
        q->fn(q->ctx, &c);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return step == SQLITE_DONE ? 0 : -1;
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

static const char sql_people_row[] =
    "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4, plies = ?5, deadline_ms = ?6,"
    " draw_offer = 0, takeback_offer = 0 WHERE id = ?1 AND people = 1 AND result = 0";
static const char sql_people_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) VALUES (?1, ?2, ?3, ?4)";

static int add_people_move(struct store *s, sqlite3 *db, void *ctx)
{
    struct move_ctx *m = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_people_row);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, m->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, m->result);
    sqlite3_bind_int(st, 3, m->reason);
    sqlite3_bind_int64(st, 4, m->now);
    sqlite3_bind_int(st, 5, m->ply);
    sqlite3_bind_int64(st, 6, m->deadline);
    if (done(st) != 0 || sqlite3_changes(db) != 1)
        return -1; /* unknown, not a people game, or over */
    if (!(st = sqlite_store_stmt(s, sql_people_move)))
        return -1;
    sqlite3_bind_text(st, 1, m->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, m->ply);
    sqlite3_bind_text(st, 3, m->move, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, m->now);
    return done(st); /* fails when the ply is stored already: another writer was first */
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_end_people);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, m->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, m->result);
    sqlite3_bind_int(st, 3, m->reason);
    sqlite3_bind_int64(st, 4, m->now);
    if (done(st) != 0)
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_offers);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, o->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, o->draw);
    sqlite3_bind_int(st, 3, o->takeback);
    sqlite3_bind_int(st, 4, o->rematch);
    sqlite3_bind_text(st, 5, o->rematch_id ? o->rematch_id : "", -1, SQLITE_STATIC);
    if (done(st) != 0)
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_times);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
    int step, rc = 0;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        if (t->n == t->cap) {
            int cap = t->cap ? 2 * t->cap : 64;
            int64_t *m = realloc(t->times, sizeof *m * (size_t)cap);
            if (!m) {
                rc = -1;
                break;
            }
            t->times = m;
            t->cap = cap;
        }
        t->times[t->n++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == 0 && step == SQLITE_DONE ? 0 : -1;
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_next_deadline);
    if (!st)
        return -1;
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *(int64_t *)ctx = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    return step == SQLITE_ROW ? 0 : step == SQLITE_DONE ? 1 : -1;
}

int sqlite_store_next_deadline(struct store *s, int64_t *when, char *err, size_t err_size)
{
    return sqlite_store_read(s, next_deadline, when, "next deadline", err, err_size);
}

struct due_ctx {
    int64_t now;
    char (*ids)[STORE_ID_LEN + 1];
    int n;
};

#define DUE_MAX 256
static const char sql_due[] = "SELECT id FROM games WHERE deadline_ms > 0 AND result = 0"
                              " AND deadline_ms <= ?1 ORDER BY deadline_ms LIMIT 256";

static int due_games(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct due_ctx *d = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_due);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, d->now);
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && d->n < DUE_MAX)
        text(d->ids[d->n++], sizeof d->ids[0], sqlite3_column_text(st, 0));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : -1;
}

int sqlite_store_due_games(struct store *s, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                           size_t err_size)
{
    /* Ids first, the callbacks after the connection's mutex is given back: a callback
     * uses the store itself. */
    struct due_ctx d = {now_ms, malloc(DUE_MAX * sizeof *d.ids), 0};
    if (!d.ids)
        return fail(err, err_size, "out of memory");
    int rc = sqlite_store_read(s, due_games, &d, "due games", err, err_size);
    for (int i = 0; rc == 0 && i < d.n; i++)
        fn(ctx, d.ids[i]);
    free(d.ids);
    return rc;
}

/* ---- ratings ---- */

struct rating_ctx {
    const char *hash, *game, *klass;
    struct store_rating *out;
};

static const char sql_get_rating[] = "SELECT rating, deviation, volatility, games FROM ratings"
                                     " WHERE token_hash = ?1 AND game = ?2 AND class = ?3";

static int get_rating(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct rating_ctx *r = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_get_rating);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, r->hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, r->klass, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    memset(r->out, 0, sizeof *r->out);
    if (step == SQLITE_ROW) {
        r->out->rating = sqlite3_column_double(st, 0);
        r->out->deviation = sqlite3_column_double(st, 1);
        r->out->volatility = sqlite3_column_double(st, 2);
        r->out->games = sqlite3_column_int(st, 3);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return step == SQLITE_ROW ? 0 : step == SQLITE_DONE ? 1 : -1;
}

int sqlite_store_get_rating(struct store *s, const char *token_hash, const char *game,
                            const char *klass, struct store_rating *out, char *err, size_t err_size)
{
    struct rating_ctx r = {token_hash, game, klass, out};
    return sqlite_store_read(s, get_rating, &r, "load rating", err, err_size);
}

struct rate_ctx {
    const char *id;
    const struct store_rater *rater;
    int64_t now;
    int *white_after, *black_after;
};

static const char sql_mark_rated[] =
    "UPDATE games SET rated_done = 1 WHERE id = ?1 AND people = 1 AND rated = 1"
    " AND rated_done = 0 AND result <> 0";
static const char sql_rating_after[] =
    "UPDATE games SET white_rating_after = ?2, black_rating_after = ?3 WHERE id = ?1";
static const char sql_put_rating[] =
    "INSERT OR REPLACE INTO ratings (token_hash, game, class, rating, deviation, volatility,"
    " games, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

static int put_rating(struct store *s, const char *hash, const char *game, const char *klass,
                      const struct store_rating *r, int64_t now)
{
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_put_rating);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, klass, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 4, r->rating);
    sqlite3_bind_double(st, 5, r->deviation);
    sqlite3_bind_double(st, 6, r->volatility);
    sqlite3_bind_int(st, 7, r->games);
    sqlite3_bind_int64(st, 8, now);
    return done(st);
}

static int rate_game(struct store *s, sqlite3 *db, void *ctx)
{
    struct rate_ctx *q = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_mark_rated);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
    if (done(st) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1; /* rated already, or not a finished rated game */
    struct store_game row;
    if (!(st = sqlite_store_stmt(s, sqlite_select_game_sql)))
        return -1;
    sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        sqlite_read_game_row(st, &row);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (step != SQLITE_ROW)
        return -1;
    const char *klass = q->rater->klass(&row);
    if (!klass)
        return 0; /* no rating class (an aborted game): marked, nothing rated */
    struct store_rating w, b, w2, b2;
    struct rating_ctx rw = {row.white_hash, row.game, klass, &w};
    struct rating_ctx rb = {row.black_hash, row.game, klass, &b};
    if (get_rating(s, db, &rw) < 0 || get_rating(s, db, &rb) < 0)
        return -1;
    q->rater->update(&row, &w, &b, &w2, &b2);
    if (put_rating(s, row.white_hash, row.game, klass, &w2, q->now) != 0 ||
        put_rating(s, row.black_hash, row.game, klass, &b2, q->now) != 0)
        return -1;
    if (!(st = sqlite_store_stmt(s, sql_rating_after)))
        return -1;
    sqlite3_bind_text(st, 1, q->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)(w2.rating + 0.5));
    sqlite3_bind_int(st, 3, (int)(b2.rating + 0.5));
    if (done(st) != 0)
        return -1;
    if (q->white_after) {
        *q->white_after = (int)(w2.rating + 0.5);
        *q->black_after = (int)(b2.rating + 0.5);
    }
    return 0;
}

int sqlite_store_rate_game(struct store *s, const char *id, const struct store_rater *rater,
                           int64_t now_ms, int *white_after, int *black_after, char *err,
                           size_t err_size)
{
    struct rate_ctx q = {id, rater, now_ms, white_after, black_after};
    return sqlite_store_write(s, rate_game, &q, "rate game", err, err_size);
}

static const char sql_unrated[] = "SELECT id FROM games WHERE people = 1 AND rated = 1"
                                  " AND rated_done = 0 AND result <> 0 LIMIT 256";

static int unrated(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct due_ctx *d = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_unrated);
    if (!st)
        return -1;
    int step;
    while ((step = sqlite3_step(st)) == SQLITE_ROW && d->n < DUE_MAX)
        text(d->ids[d->n++], sizeof d->ids[0], sqlite3_column_text(st, 0));
    sqlite3_reset(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : -1;
}

int sqlite_store_unrated_games(struct store *s, store_id_fn fn, void *ctx, char *err,
                               size_t err_size)
{
    struct due_ctx d = {0, malloc(DUE_MAX * sizeof *d.ids), 0};
    if (!d.ids)
        return fail(err, err_size, "out of memory");
    int rc = sqlite_store_read(s, unrated, &d, "unrated games", err, err_size);
    for (int i = 0; rc == 0 && i < d.n; i++)
        fn(ctx, d.ids[i]);
    free(d.ids);
    return rc;
}

/* ---- display names ---- */

static const char sql_put_player[] =
    "INSERT INTO players (token_hash, name, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?3)"
    " ON CONFLICT (token_hash) DO UPDATE SET name = excluded.name, updated_ms = "
    "excluded.updated_ms";

static int put_player(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const void *const *a = ctx;
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_put_player);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, a[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, a[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, *(const int64_t *)a[2]);
    return done(st);
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
    sqlite3_stmt *st = sqlite_store_stmt(s, sql_get_player);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, p->hash, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        text(p->name, p->size, sqlite3_column_text(st, 0));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return step == SQLITE_ROW ? 0 : step == SQLITE_DONE ? 1 : -1;
}

int sqlite_store_get_player(struct store *s, const char *token_hash, char *name, size_t name_size,
                            char *err, size_t err_size)
{
    struct player_ctx p = {token_hash, name, name_size};
    return sqlite_store_read(s, get_player, &p, "load name", err, err_size);
}
