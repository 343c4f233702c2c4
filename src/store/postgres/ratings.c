/* The PostgreSQL backend's part for the ratings of games between people (store.h
 * "Ratings"): a player's rating, a finished rated game put into both players' ratings
 * (and their histories) exactly once (the conditional UPDATE of rated_done: a second
 * server's try finds it done), the rated games not yet in them, a player's ratings and
 * history, and the leaderboards (as sqlite/ratings.c; names, games and classes ordered
 * byte by byte, COLLATE "C"). */
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

static const char sql_get_rating[] = "SELECT rating, deviation, volatility, games FROM ratings"
                                     " WHERE token_hash = $1 AND game = $2 AND class = $3";

static void read_rating(void *ctx, const PGresult *r)
{
    struct store_rating *out = ctx;
    out->rating = pg_col_double(r, 0, 0);
    out->deviation = pg_col_double(r, 0, 1);
    out->volatility = pg_col_double(r, 0, 2);
    out->games = pg_col_int(r, 0, 3);
}

int pg_store_get_rating(struct store *s, const char *token_hash, const char *game,
                        const char *klass, struct store_rating *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    return pg_one(pg_store_query(s, "load rating", err, err_size, sql_get_rating, "ttt", token_hash,
                                 game, klass),
                  read_rating, out);
}

struct rate_ctx {
    const char *id;
    const struct store_rater *rater;
    int64_t now;
    int *white_after, *black_after;
};

static const char sql_mark_rated[] =
    "UPDATE games SET rated_done = 1 WHERE id = $1 AND people = 1 AND rated = 1"
    " AND rated_done = 0 AND result <> 0";
static const char sql_rating_after[] =
    "UPDATE games SET white_rating_after = $2, black_rating_after = $3 WHERE id = $1";
static const char sql_put_rating[] =
    "INSERT INTO ratings (token_hash, game, class, rating, deviation, volatility, games,"
    " updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (token_hash, game, class)"
    " DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation,"
    " volatility = excluded.volatility, games = excluded.games, updated_ms = excluded.updated_ms";

static const char sql_put_point[] =
    "INSERT INTO rating_history (token_hash, game_id, game, class, rating, deviation, at_ms)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (token_hash, game_id) DO UPDATE SET"
    " game = excluded.game, class = excluded.class, rating = excluded.rating,"
    " deviation = excluded.deviation, at_ms = excluded.at_ms";

/* The player's rating after game `id`, and its point in their history. */
static int put_rating(struct pg_conn *c, const char *hash, const char *id, const char *game,
                      const char *klass, const struct store_rating *r, int64_t now)
{
    if (pg_do(c, sql_put_rating, "tttdddiI", hash, game, klass, r->rating, r->deviation,
              r->volatility, r->games, now) != 1)
        return -1;
    return pg_do(c, sql_put_point, "ttttddI", hash, id, game, klass, r->rating, r->deviation,
                 now) == 1
               ? 0
               : -1;
}

/* A player's rating inside the transaction: 0 (none yet: zeroes) or -1. */
static int rating_in(struct pg_conn *c, const char *hash, const char *game, const char *klass,
                     struct store_rating *out)
{
    memset(out, 0, sizeof *out);
    PGresult *r = pg_exec(c, sql_get_rating, "ttt", hash, game, klass);
    return pg_one(r, read_rating, out) < 0 ? -1 : 0;
}

static void read_first_game(void *ctx, const PGresult *r)
{
    pg_read_game(r, 0, ctx);
}

static int rate_game(struct pg_conn *c, void *ctx)
{
    struct rate_ctx *q = ctx;
    int n = pg_do(c, sql_mark_rated, "t", q->id);
    if (n < 0)
        return -1;
    if (n != 1)
        return 1; /* rated already, or not a finished rated game */
    struct store_game row;
    if (pg_one(pg_exec(c, pg_select_game_sql, "t", q->id), read_first_game, &row) != 0)
        return -1;
    const char *klass = q->rater->klass(&row);
    if (!klass)
        return 0; /* no rating class (an aborted game): marked, nothing rated */
    struct store_rating w, b, w2, b2;
    if (rating_in(c, row.white_hash, row.game, klass, &w) != 0 ||
        rating_in(c, row.black_hash, row.game, klass, &b) != 0)
        return -1;
    q->rater->update(&row, &w, &b, &w2, &b2);
    if (put_rating(c, row.white_hash, row.id, row.game, klass, &w2, q->now) != 0 ||
        put_rating(c, row.black_hash, row.id, row.game, klass, &b2, q->now) != 0)
        return -1;
    if (pg_do(c, sql_rating_after, "tii", q->id, (int)(w2.rating + 0.5), (int)(b2.rating + 0.5)) !=
        1)
        return -1;
    if (q->white_after) {
        *q->white_after = (int)(w2.rating + 0.5);
        *q->black_after = (int)(b2.rating + 0.5);
    }
    return 0;
}

int pg_store_rate_game(struct store *s, const char *id, const struct store_rater *rater,
                       int64_t now_ms, int *white_after, int *black_after, char *err,
                       size_t err_size)
{
    struct rate_ctx q = {id, rater, now_ms, white_after, black_after};
    return pg_store_write(s, rate_game, &q, "rate game", err, err_size);
}

static const char sql_unrated[] = "SELECT id FROM games WHERE people = 1 AND rated = 1"
                                  " AND rated_done = 0 AND result <> 0 LIMIT 256";

int pg_store_unrated_games(struct store *s, store_id_fn fn, void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "unrated games", err, err_size, sql_unrated, "");
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++)
        fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}

/* On, or over and put into the ratings (an aborted game is not: rate_game's class). */
static const char sql_rated_pair[] =
    "SELECT count(*) FROM games WHERE people = 1 AND rated = 1 AND created_ms > $3"
    " AND (result = 0 OR white_rating_after <> 0) AND ((white_hash = $1 AND black_hash = $2)"
    " OR (white_hash = $2 AND black_hash = $1))";

static void read_count(void *ctx, const PGresult *r)
{
    *(int *)ctx = pg_col_int(r, 0, 0);
}

int pg_store_count_rated_pair(struct store *s, const char *hash_a, const char *hash_b,
                              int64_t since_ms, int *count, char *err, size_t err_size)
{
    *count = 0;
    int rc = pg_one(pg_store_query(s, "count rated games of a pair", err, err_size, sql_rated_pair,
                                   "ttI", hash_a, hash_b, since_ms),
                    read_count, count);
    return rc == 0 ? 0 : rc < 0 ? -1 : fail(err, err_size, "count rated games: no row");
}

/* ---- a player's ratings and history, the leaderboards ---- */

static void read_rating_at(const PGresult *r, int i, int col, struct store_rating *out)
{
    out->rating = pg_col_double(r, i, col);
    out->deviation = pg_col_double(r, i, col + 1);
    out->volatility = pg_col_double(r, i, col + 2);
    out->games = pg_col_int(r, i, col + 3);
}

static const char sql_player_ratings[] =
    "SELECT game, class, rating, deviation, volatility, games, updated_ms FROM ratings"
    " WHERE token_hash = $1 ORDER BY game COLLATE \"C\", class COLLATE \"C\"";

int pg_store_player_ratings(struct store *s, const char *token_hash, store_rating_fn fn, void *ctx,
                            char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "player's ratings", err, err_size, sql_player_ratings, "t", token_hash);
    if (!r)
        return -1;
    char game[STORE_NAME_MAX], klass[STORE_NAME_MAX];
    struct store_rating rating;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_col_text(r, i, 0, game, sizeof game);
        pg_col_text(r, i, 1, klass, sizeof klass);
        read_rating_at(r, i, 2, &rating);
        fn(ctx, game, klass, &rating, pg_col_int64(r, i, 6));
    }
    PQclear(r);
    return 0;
}

/* The newest `limit` points (a negative limit: all, as in SQLite), oldest first. */
static const char sql_history[] =
    "SELECT game, class, game_id, rating, deviation, at_ms FROM (SELECT * FROM rating_history"
    " WHERE token_hash = $1 ORDER BY at_ms DESC, game_id COLLATE \"C\" DESC"
    " LIMIT NULLIF(GREATEST($2::bigint, -1), -1)) AS h ORDER BY at_ms, game_id COLLATE \"C\"";

int pg_store_rating_history(struct store *s, const char *token_hash, int limit, store_point_fn fn,
                            void *ctx, char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "rating history", err, err_size, sql_history, "ti", token_hash, limit);
    if (!r)
        return -1;
    char game[STORE_NAME_MAX], klass[STORE_NAME_MAX], id[STORE_ID_LEN + 1];
    for (int i = 0; i < PQntuples(r); i++) {
        pg_col_text(r, i, 0, game, sizeof game);
        pg_col_text(r, i, 1, klass, sizeof klass);
        pg_col_text(r, i, 2, id, sizeof id);
        fn(ctx, game, klass, id, pg_col_double(r, i, 3), pg_col_double(r, i, 4),
           pg_col_int64(r, i, 5));
    }
    PQclear(r);
    return 0;
}

/* ratings_board (game, class, rating) walks the class best first. */
static const char sql_leaderboard[] =
    "SELECT p.id, p.token_hash, p.name, p.hidden, p.created_ms, r.rating, r.deviation,"
    " r.volatility, r.games, r.updated_ms FROM ratings r JOIN players p"
    " ON p.token_hash = r.token_hash WHERE r.game = $1 AND r.class = $2"
    " AND r.games >= $3::bigint AND r.deviation < $4::double precision"
    " AND r.updated_ms >= $5::bigint AND p.hidden = 0 AND p.id <> ''"
    " ORDER BY r.rating DESC, r.games DESC, p.name COLLATE \"C\", p.id COLLATE \"C\""
    " LIMIT NULLIF(GREATEST($6::bigint, -1), -1)";

int pg_store_leaderboard(struct store *s, const char *game, const char *klass,
                         const struct store_board_rule *rule, store_leader_fn fn, void *ctx,
                         char *err, size_t err_size)
{
    PGresult *r =
        pg_store_query(s, "leaderboard", err, err_size, sql_leaderboard, "ttidIi", game, klass,
                       rule->min_games, rule->max_deviation, rule->since_ms, rule->limit);
    if (!r)
        return -1;
    struct store_player p;
    struct store_rating rating;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&p, 0, sizeof p);
        pg_col_text(r, i, 0, p.id, sizeof p.id);
        pg_col_text(r, i, 1, p.token_hash, sizeof p.token_hash);
        pg_col_text(r, i, 2, p.name, sizeof p.name);
        p.hidden = pg_col_int(r, i, 3);
        p.created_ms = pg_col_int64(r, i, 4);
        read_rating_at(r, i, 5, &rating);
        fn(ctx, &p, &rating, pg_col_int64(r, i, 9));
    }
    PQclear(r);
    return 0;
}
