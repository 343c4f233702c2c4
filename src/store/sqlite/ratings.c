/* The SQLite backend's part for the ratings of games between people (store.h
 * "Ratings"): a player's rating, a finished rated game put into both players' ratings
 * (and their histories) exactly once, the rated games not yet in them, a player's
 * ratings and history, and the leaderboards. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

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
    sqlite3_stmt *st = sq_bind(s, sql_get_rating, "ttt", r->hash, r->game, r->klass);
    int row = sq_row(st);
    memset(r->out, 0, sizeof *r->out);
    if (row > 0) {
        r->out->rating = sqlite3_column_double(st, 0);
        r->out->deviation = sqlite3_column_double(st, 1);
        r->out->volatility = sqlite3_column_double(st, 2);
        r->out->games = sqlite3_column_int(st, 3);
    }
    sq_end(st);
    return sq_found(row);
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

static const char sql_put_point[] =
    "INSERT OR REPLACE INTO rating_history (token_hash, game_id, game, class, rating, deviation,"
    " at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/* The player's rating after game `id`, and its point in their history. */
static int put_rating(struct store *s, const char *hash, const char *id, const char *game,
                      const char *klass, const struct store_rating *r, int64_t now)
{
    if (sq_done(sq_bind(s, sql_put_rating, "tttdddiI", hash, game, klass, r->rating, r->deviation,
                        r->volatility, r->games, now)) != 0)
        return -1;
    return sq_done(
        sq_bind(s, sql_put_point, "ttttddI", hash, id, game, klass, r->rating, r->deviation, now));
}

static int rate_game(struct store *s, sqlite3 *db, void *ctx)
{
    struct rate_ctx *q = ctx;
    if (sq_done(sq_bind(s, sql_mark_rated, "t", q->id)) != 0)
        return -1;
    if (sqlite3_changes(db) != 1)
        return 1; /* rated already, or not a finished rated game */
    struct store_game row;
    sqlite3_stmt *st = sq_bind(s, sqlite_select_game_sql, "t", q->id);
    int found = sq_row(st);
    if (found > 0)
        sqlite_read_game_row(st, &row);
    sq_end(st);
    if (found <= 0)
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
    if (put_rating(s, row.white_hash, row.id, row.game, klass, &w2, q->now) != 0 ||
        put_rating(s, row.black_hash, row.id, row.game, klass, &b2, q->now) != 0)
        return -1;
    if (sq_done(sq_bind(s, sql_rating_after, "tii", q->id, (int)(w2.rating + 0.5),
                        (int)(b2.rating + 0.5))) != 0)
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
    struct sqlite_ids *d = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_unrated, "");
    int row;
    while ((row = sq_row(st)) > 0 && d->n < SQLITE_IDS_MAX)
        sq_text(st, 0, d->ids[d->n++], sizeof d->ids[0]);
    sq_end(st);
    return row < 0 ? -1 : 0;
}

int sqlite_store_unrated_games(struct store *s, store_id_fn fn, void *ctx, char *err,
                               size_t err_size)
{
    struct sqlite_ids d = {0, malloc(SQLITE_IDS_MAX * sizeof *d.ids), 0};
    if (!d.ids)
        return fail(err, err_size, "out of memory");
    int rc = sqlite_store_read(s, unrated, &d, "unrated games", err, err_size);
    for (int i = 0; rc == 0 && i < d.n; i++)
        fn(ctx, d.ids[i]);
    free(d.ids);
    return rc;
}

struct pair_ctx {
    const char *a, *b;
    int64_t since;
    int *count;
};

/* On, or over and put into the ratings (an aborted game is not: rate_game's class). */
static const char sql_rated_pair[] =
    "SELECT count(*) FROM games WHERE people = 1 AND rated = 1 AND created_ms > ?3"
    " AND (result = 0 OR white_rating_after <> 0) AND ((white_hash = ?1 AND black_hash = ?2)"
    " OR (white_hash = ?2 AND black_hash = ?1))";

static int rated_pair(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct pair_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_rated_pair, "ttI", q->a, q->b, q->since);
    int row = sq_row(st);
    *q->count = row > 0 ? sqlite3_column_int(st, 0) : 0;
    sq_end(st);
    return row > 0 ? 0 : -1;
}

int sqlite_store_count_rated_pair(struct store *s, const char *hash_a, const char *hash_b,
                                  int64_t since_ms, int *count, char *err, size_t err_size)
{
    struct pair_ctx q = {hash_a, hash_b, since_ms, count};
    return sqlite_store_read(s, rated_pair, &q, "count rated games of a pair", err, err_size);
}

/* ---- a player's ratings and history, the leaderboards ---- */

struct list_ctx {
    const char *hash;
    int limit;
    store_rating_fn rating_fn;
    store_point_fn point_fn;
    void *ctx;
};

static const char sql_player_ratings[] =
    "SELECT game, class, rating, deviation, volatility, games, updated_ms FROM ratings"
    " WHERE token_hash = ?1 ORDER BY game, class";

static void read_rating(sqlite3_stmt *st, int col, struct store_rating *r)
{
    r->rating = sqlite3_column_double(st, col);
    r->deviation = sqlite3_column_double(st, col + 1);
    r->volatility = sqlite3_column_double(st, col + 2);
    r->games = sqlite3_column_int(st, col + 3);
}

static int player_ratings(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *q = ctx;
    store_rating_fn fn = q->rating_fn;
    sqlite3_stmt *st = sq_bind(s, sql_player_ratings, "t", q->hash);
    int row;
    char game[STORE_NAME_MAX], klass[STORE_NAME_MAX];
    struct store_rating r;
    while ((row = sq_row(st)) > 0) {
        sq_text(st, 0, game, sizeof game);
        sq_text(st, 1, klass, sizeof klass);
        read_rating(st, 2, &r);
        fn(q->ctx, game, klass, &r, sqlite3_column_int64(st, 6));
    }
    return row;
}

int sqlite_store_player_ratings(struct store *s, const char *token_hash, store_rating_fn fn,
                                void *ctx, char *err, size_t err_size)
{
    struct list_ctx q = {token_hash, 0, fn, NULL, ctx};
    return sqlite_store_read(s, player_ratings, &q, "player's ratings", err, err_size);
}

static const char sql_history[] =
    "SELECT game, class, game_id, rating, deviation, at_ms FROM (SELECT * FROM rating_history"
    " WHERE token_hash = ?1 ORDER BY at_ms DESC, game_id DESC LIMIT ?2) ORDER BY at_ms, game_id";

static int history(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *q = ctx;
    store_point_fn fn = q->point_fn;
    sqlite3_stmt *st = sq_bind(s, sql_history, "ti", q->hash, q->limit);
    int row;
    char game[STORE_NAME_MAX], klass[STORE_NAME_MAX], id[STORE_ID_LEN + 1];
    while ((row = sq_row(st)) > 0) {
        sq_text(st, 0, game, sizeof game);
        sq_text(st, 1, klass, sizeof klass);
        sq_text(st, 2, id, sizeof id);
        fn(q->ctx, game, klass, id, sqlite3_column_double(st, 3), sqlite3_column_double(st, 4),
           sqlite3_column_int64(st, 5));
    }
    return row;
}

int sqlite_store_rating_history(struct store *s, const char *token_hash, int limit,
                                store_point_fn fn, void *ctx, char *err, size_t err_size)
{
    struct list_ctx q = {token_hash, limit, NULL, fn, ctx};
    return sqlite_store_read(s, history, &q, "rating history", err, err_size);
}

struct board_ctx {
    const char *game, *klass;
    const struct store_board_rule *rule;
    store_leader_fn fn;
    void *ctx;
};

/* ratings_board (game, class, rating) walks the class best first. */
static const char sql_leaderboard[] =
    "SELECT p.id, p.token_hash, p.name, p.hidden, p.created_ms, r.rating, r.deviation,"
    " r.volatility, r.games, r.updated_ms FROM ratings r JOIN players p"
    " ON p.token_hash = r.token_hash WHERE r.game = ?1 AND r.class = ?2 AND r.games >= ?3"
    " AND r.deviation < ?4 AND r.updated_ms >= ?5 AND p.hidden = 0 AND p.id <> ''"
    " ORDER BY r.rating DESC, r.games DESC, p.name, p.id LIMIT ?6";

static int board(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct board_ctx *q = ctx;
    const struct store_board_rule *u = q->rule;
    sqlite3_stmt *st = sq_bind(s, sql_leaderboard, "ttidIi", q->game, q->klass, u->min_games,
                               u->max_deviation, u->since_ms, u->limit);
    int row;
    struct store_player p;
    struct store_rating r;
    while ((row = sq_row(st)) > 0) {
        memset(&p, 0, sizeof p);
        sq_text(st, 0, p.id, sizeof p.id);
        sq_text(st, 1, p.token_hash, sizeof p.token_hash);
        sq_text(st, 2, p.name, sizeof p.name);
        p.hidden = sqlite3_column_int(st, 3);
        p.created_ms = sqlite3_column_int64(st, 4);
        read_rating(st, 5, &r);
        q->fn(q->ctx, &p, &r, sqlite3_column_int64(st, 9));
    }
    return row;
}

int sqlite_store_leaderboard(struct store *s, const char *game, const char *klass,
                             const struct store_board_rule *rule, store_leader_fn fn, void *ctx,
                             char *err, size_t err_size)
{
    struct board_ctx q = {game, klass, rule, fn, ctx};
    return sqlite_store_read(s, board, &q, "leaderboard", err, err_size);
}
