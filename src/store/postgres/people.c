/* The PostgreSQL backend's part for games between people (store.h "People"):
 * challenges and seeks taken exactly once by a conditional UPDATE (under READ
 * COMMITTED the second of two concurrent takers waits for the first, re-reads the row
 * and finds it taken), people's moves with their receipt times and the clock's
 * deadline, endings only of games still on, offers, deadlines for the clock's timer. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

#define CHALLENGE_COLUMNS                                                                          \
    "id, game, clock_initial_ms, clock_increment_ms, days, side, rated, lobby, creator_hash,"      \
    " creator_name, status, game_id, created_ms, expires_ms, creator_rating, club_id"

void pg_read_challenge(const PGresult *r, int i, struct store_challenge *c)
{
    memset(c, 0, sizeof *c);
    pg_col_text(r, i, 0, c->id, sizeof c->id);
    pg_col_text(r, i, 1, c->game, sizeof c->game);
    c->clock_initial_ms = pg_col_int64(r, i, 2);
    c->clock_increment_ms = pg_col_int64(r, i, 3);
    c->days = pg_col_int(r, i, 4);
    c->side = pg_col_int(r, i, 5);
    c->rated = pg_col_int(r, i, 6);
    c->lobby = pg_col_int(r, i, 7);
    pg_col_text(r, i, 8, c->creator_hash, sizeof c->creator_hash);
    pg_col_text(r, i, 9, c->creator_name, sizeof c->creator_name);
    c->status = pg_col_int(r, i, 10);
    pg_col_text(r, i, 11, c->game_id, sizeof c->game_id);
    c->created_ms = pg_col_int64(r, i, 12);
    c->expires_ms = pg_col_int64(r, i, 13);
    c->creator_rating = pg_col_int(r, i, 14);
    pg_col_text(r, i, 15, c->club_id, sizeof c->club_id);
}

const char pg_club_challenges_sql[] =
    "SELECT " CHALLENGE_COLUMNS " FROM challenges WHERE club_id = $1 AND status = 0"
    " AND expires_ms > $2 ORDER BY created_ms, id LIMIT 200";

/* The challenges of r, to fn. */
static void each_challenge(PGresult *r, store_challenge_fn fn, void *ctx)
{
    struct store_challenge c;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_challenge(r, i, &c);
        fn(ctx, &c);
    }
    PQclear(r);
}

/* ---- challenges ---- */

static const char sql_put_challenge[] =
    "INSERT INTO challenges (" CHALLENGE_COLUMNS ")"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";

static int put_challenge(struct pg_conn *c, void *ctx)
{
    const struct store_challenge *q = ctx;
    return pg_do(c, sql_put_challenge, "ttIIiiiittitIIit", q->id, q->game, q->clock_initial_ms,
                 q->clock_increment_ms, q->days, q->side, q->rated, q->lobby, q->creator_hash,
                 q->creator_name, q->status, q->game_id, q->created_ms, q->expires_ms,
                 q->creator_rating, q->club_id) == 1
               ? 0
               : -1;
}

int pg_store_put_challenge(struct store *s, const struct store_challenge *c, char *err,
                           size_t err_size)
{
    return pg_store_write(s, put_challenge, (void *)c, "store challenge", err, err_size);
}

static const char sql_get_challenge[] =
    "SELECT " CHALLENGE_COLUMNS " FROM challenges WHERE id = $1";

static void read_first_challenge(void *ctx, const PGresult *r)
{
    pg_read_challenge(r, 0, ctx);
}

int pg_store_get_challenge(struct store *s, const char *id, struct store_challenge *c, char *err,
                           size_t err_size)
{
    return pg_one(pg_store_query(s, "load challenge", err, err_size, sql_get_challenge, "t", id),
                  read_first_challenge, c);
}

struct accept_ctx {
    const char *id, *acceptor;
    const struct store_game *g;
    int64_t now;
};

static const char sql_take[] =
    "UPDATE challenges SET status = 1, game_id = $2 WHERE id = $1 AND status = 0"
    " AND expires_ms > $3 AND creator_hash <> $4";
static const char sql_insert_people_game[] =
    "INSERT INTO games (id, game, level, human_side, start, token_hash, seed, created_ms,"
    " updated_ms, result, reason, plies, people, white_hash, black_hash, white_name,"
    " black_name, clock_initial_ms, clock_increment_ms, days, rated, white_rating, black_rating,"
    " club_id, rated_capped) VALUES ($1, $2, 0, $3, $4, $5, 0, $6, $6, 0, 0, 0, 1, $7, $8, $9,"
    " $10, $11, $12, $13, $14, $15, $16, $17, $18)";

int pg_insert_people_game(struct pg_conn *c, const struct store_game *g)
{
    return pg_do(c, sql_insert_people_game, "ttittIttttIIiiiiti", g->id, g->game, g->human_side,
                 g->start, g->token_hash, g->created_ms, g->white_hash, g->black_hash,
                 g->white_name, g->black_name, g->clock_initial_ms, g->clock_increment_ms, g->days,
                 g->rated, g->white_rating, g->black_rating, g->club_id, g->rated_capped) == 1
               ? 0
               : -1;
}

static int accept_challenge(struct pg_conn *c, void *ctx)
{
    struct accept_ctx *a = ctx;
    int n = pg_do(c, sql_take, "ttIt", a->id, a->g->id, a->now, a->acceptor);
    if (n < 0)
        return -1;
    if (n != 1)
        return 1;
    return pg_insert_people_game(c, a->g);
}

int pg_store_accept_challenge(struct store *s, const char *id, const char *acceptor_hash,
                              const struct store_game *game, int64_t now_ms, char *err,
                              size_t err_size)
{
    struct accept_ctx a = {id, acceptor_hash, game, now_ms};
    return pg_store_write(s, accept_challenge, &a, "accept challenge", err, err_size);
}

static const char sql_cancel[] =
    "UPDATE challenges SET status = 2"
    " WHERE id = $1 AND status = 0 AND creator_hash = $2 AND expires_ms > $3";

struct cancel_ctx {
    const char *id, *creator_hash;
    int64_t now_ms;
};

static int cancel_challenge(struct pg_conn *c, void *ctx)
{
    const struct cancel_ctx *a = ctx;
    int n = pg_do(c, sql_cancel, "ttI", a->id, a->creator_hash, a->now_ms);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_cancel_challenge(struct store *s, const char *id, const char *creator_hash,
                              int64_t now_ms, char *err, size_t err_size)
{
    struct cancel_ctx a = {id, creator_hash, now_ms};
    return pg_store_write(s, cancel_challenge, &a, "cancel challenge", err, err_size);
}

/* Newest first, the creators in turn (sqlite/people.c). */
static const char sql_seeks[] =
    "SELECT " CHALLENGE_COLUMNS " FROM (SELECT " CHALLENGE_COLUMNS ","
    " row_number() OVER (PARTITION BY creator_hash ORDER BY created_ms DESC, id) AS turn"
    " FROM challenges WHERE lobby = 1 AND status = 0 AND expires_ms > $1 AND club_id = '')"
    " AS open ORDER BY turn, created_ms DESC, id LIMIT $2";

int pg_store_list_seeks(struct store *s, int64_t now_ms, int limit, store_challenge_fn fn,
                        void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "list seeks", err, err_size, sql_seeks, "Ii", now_ms, limit);
    if (!r)
        return -1;
    each_challenge(r, fn, ctx);
    return 0;
}

/* ---- people's games ---- */

struct move_ctx {
    const char *id, *move;
    int ply, result, reason;
    int64_t now, deadline;
};

static const char sql_people_row[] =
    "UPDATE games SET result = $2, reason = $3, updated_ms = $4, plies = GREATEST(plies, $5),"
    " deadline_ms = $6, draw_offer = 0, takeback_offer = 0"
    " WHERE id = $1 AND people = 1 AND result = 0";
/* Only the next ply after the last one stored (the UPDATE above holds the game's row,
 * so this statement sees every move committed before it). */
static const char sql_people_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) SELECT $1::text, $2::bigint, $3::text,"
    " $4::bigint WHERE $2::bigint = 1 + COALESCE((SELECT max(ply) FROM moves"
    " WHERE game_id = $1::text), 0)";

static int add_people_move(struct pg_conn *c, void *ctx)
{
    struct move_ctx *m = ctx;
    int n = pg_do(c, sql_people_row, "tiiIiI", m->id, m->result, m->reason, m->now, m->ply,
                  m->deadline);
    if (n < 0)
        return -1;
    if (n != 1)
        return pg_why(c, "game %.32s is over, unknown or not between people", m->id);
    /* Refused when the ply is stored already (another writer was first) or is not
     * the next. */
    n = pg_do(c, sql_people_move, "titI", m->id, m->ply, m->move, m->now);
    if (n < 0)
        return -1;
    return n == 1 ? 0 : pg_why(c, "ply %d is not the next of game %.32s", m->ply, m->id);
}

int pg_store_add_people_move(struct store *s, const char *id, int ply, const char *move, int result,
                             int reason, int64_t now_ms, int64_t deadline_ms, char *err,
                             size_t err_size)
{
    struct move_ctx m = {id, move, ply, result, reason, now_ms, deadline_ms};
    return pg_store_write(s, add_people_move, &m, "store move", err, err_size);
}

static const char sql_end_people[] =
    "UPDATE games SET result = $2, reason = $3, updated_ms = $4, deadline_ms = 0,"
    " draw_offer = 0, takeback_offer = 0 WHERE id = $1 AND people = 1 AND result = 0";

static int end_people_game(struct pg_conn *c, void *ctx)
{
    struct move_ctx *m = ctx;
    int n = pg_do(c, sql_end_people, "tiiI", m->id, m->result, m->reason, m->now);
    return n < 0 ? -1 : n == 1 ? 0 : 1;
}

int pg_store_end_people_game(struct store *s, const char *id, int result, int reason, int64_t at_ms,
                             char *err, size_t err_size)
{
    struct move_ctx m = {.id = id, .result = result, .reason = reason, .now = at_ms};
    return pg_store_write(s, end_people_game, &m, "end game", err, err_size);
}

struct offers_ctx {
    const char *id, *rematch_id;
    int draw, takeback, rematch;
};

static const char sql_offers[] =
    "UPDATE games SET draw_offer = $2, takeback_offer = $3, rematch_offer = $4, rematch_id = $5"
    " WHERE id = $1 AND people = 1";

static int set_offers(struct pg_conn *c, void *ctx)
{
    struct offers_ctx *o = ctx;
    int n = pg_do(c, sql_offers, "tiiit", o->id, o->draw, o->takeback, o->rematch, o->rematch_id);
    if (n < 0)
        return -1;
    return n == 1 ? 0 : pg_why(c, "no game %.32s between people", o->id);
}

int pg_store_set_offers(struct store *s, const char *id, int draw, int takeback, int rematch,
                        const char *rematch_id, int64_t now_ms, char *err, size_t err_size)
{
    (void)now_ms;
    struct offers_ctx o = {id, rematch_id, draw, takeback, rematch};
    return pg_store_write(s, set_offers, &o, "store offers", err, err_size);
}

static const char sql_times[] = "SELECT ply, created_ms FROM moves WHERE game_id = $1 ORDER BY ply";

int pg_store_load_move_times(struct store *s, const char *id, int64_t **times, int *count,
                             char *err, size_t err_size)
{
    *times = NULL;
    *count = 0;
    PGresult *r = pg_store_query(s, "load move times", err, err_size, sql_times, "t", id);
    if (!r)
        return -1;
    int n = PQntuples(r);
    int64_t *t = malloc(sizeof *t * (size_t)(n + 1));
    if (!t) {
        PQclear(r);
        return fail(err, err_size, "out of memory");
    }
    for (int i = 0; i < n; i++)
        t[i] = pg_col_int64(r, i, 1);
    PQclear(r);
    *times = t;
    *count = n;
    return 0;
}

static const char sql_next_deadline[] = "SELECT deadline_ms FROM games"
                                        " WHERE deadline_ms > 0 AND result = 0"
                                        " ORDER BY deadline_ms LIMIT 1";

static void read_deadline(void *ctx, const PGresult *r)
{
    *(int64_t *)ctx = pg_col_int64(r, 0, 0);
}

int pg_store_next_deadline(struct store *s, int64_t *when, char *err, size_t err_size)
{
    return pg_one(pg_store_query(s, "next deadline", err, err_size, sql_next_deadline, ""),
                  read_deadline, when);
}

static const char sql_due[] = "SELECT id FROM games WHERE deadline_ms > 0 AND result = 0"
                              " AND deadline_ms <= $1 ORDER BY deadline_ms LIMIT 256";

int pg_store_due_games(struct store *s, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                       size_t err_size)
{
    PGresult *r = pg_store_query(s, "due games", err, err_size, sql_due, "I", now_ms);
    if (!r)
        return -1;
    for (int i = 0; i < PQntuples(r); i++)
        fn(ctx, PQgetvalue(r, i, 0));
    PQclear(r);
    return 0;
}
