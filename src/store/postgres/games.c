/* The PostgreSQL backend's part for games (store.h "Games"): a game's row, its moves,
 * its result and takebacks, and the lists of games.  As in SQLite's (sqlite/games.c),
 * a move writes only the moves table: the key (game_id, ply) refuses a ply stored
 * twice, so two writers of one game (two servers) never both store a move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/postgres/private.h"

/* The ply count and the time of the last change are read from the moves. */
#define GAME_COLUMNS                                                                               \
    "id, game, level, human_side, start, token_hash, seed, created_ms,"                            \
    " GREATEST(updated_ms, COALESCE((SELECT max(created_ms) FROM moves"                            \
    " WHERE game_id = games.id), 0)),"                                                             \
    " result, reason, (SELECT count(*) FROM moves WHERE game_id = games.id), takebacks,"           \
    " people, white_hash, black_hash, white_name, black_name, clock_initial_ms,"                   \
    " clock_increment_ms, days, rated, draw_offer, takeback_offer, rematch_offer, rematch_id,"     \
    " deadline_ms, white_rating, black_rating, rated_done, club_id, white_rating_after,"           \
    " black_rating_after, plies, rated_capped, tournament_id, round, berserk"

const char pg_select_game_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE id = $1";
const char pg_club_games_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE club_id = $1"
                                 " ORDER BY created_ms DESC, id LIMIT $2";
const char pg_tournament_games_sql[] = "SELECT " GAME_COLUMNS " FROM games"
                                       " WHERE tournament_id = $1 ORDER BY created_ms, id";

void pg_read_game(const PGresult *r, int i, struct store_game *row)
{
    memset(row, 0, sizeof *row);
    pg_col_text(r, i, 0, row->id, sizeof row->id);
    pg_col_text(r, i, 1, row->game, sizeof row->game);
    row->level = pg_col_int(r, i, 2);
    row->human_side = pg_col_int(r, i, 3);
    pg_col_text(r, i, 4, row->start, sizeof row->start);
    pg_col_text(r, i, 5, row->token_hash, sizeof row->token_hash);
    row->seed = (uint64_t)pg_col_int64(r, i, 6);
    row->created_ms = pg_col_int64(r, i, 7);
    row->updated_ms = pg_col_int64(r, i, 8);
    row->result = pg_col_int(r, i, 9);
    row->reason = pg_col_int(r, i, 10);
    row->plies = pg_col_int(r, i, 11);
    row->takebacks = pg_col_int(r, i, 12);
    row->people = pg_col_int(r, i, 13);
    pg_col_text(r, i, 14, row->white_hash, sizeof row->white_hash);
    pg_col_text(r, i, 15, row->black_hash, sizeof row->black_hash);
    pg_col_text(r, i, 16, row->white_name, sizeof row->white_name);
    pg_col_text(r, i, 17, row->black_name, sizeof row->black_name);
    row->clock_initial_ms = pg_col_int64(r, i, 18);
    row->clock_increment_ms = pg_col_int64(r, i, 19);
    row->days = pg_col_int(r, i, 20);
    row->rated = pg_col_int(r, i, 21);
    row->draw_offer = pg_col_int(r, i, 22);
    row->takeback_offer = pg_col_int(r, i, 23);
    row->rematch_offer = pg_col_int(r, i, 24);
    pg_col_text(r, i, 25, row->rematch_id, sizeof row->rematch_id);
    row->deadline_ms = pg_col_int64(r, i, 26);
    row->white_rating = pg_col_int(r, i, 27);
    row->black_rating = pg_col_int(r, i, 28);
    row->rated_done = pg_col_int(r, i, 29);
    pg_col_text(r, i, 30, row->club_id, sizeof row->club_id);
    row->white_rating_after = pg_col_int(r, i, 31);
    row->black_rating_after = pg_col_int(r, i, 32);
    row->plies_max = pg_col_int(r, i, 33);
    row->rated_capped = pg_col_int(r, i, 34);
    pg_col_text(r, i, 35, row->tournament_id, sizeof row->tournament_id);
    row->round = pg_col_int(r, i, 36);
    row->berserk = pg_col_int(r, i, 37);
}

/* ---- writes ---- */

static const char sql_insert_game[] =
    "INSERT INTO games (id, game, level, human_side, start, token_hash, seed, created_ms,"
    " updated_ms, result, reason, plies) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0)";

static int insert_game(struct pg_conn *c, void *ctx)
{
    const struct store_game *row = ctx;
    return pg_do(c, sql_insert_game, "ttiittIIIii", row->id, row->game, row->level, row->human_side,
                 row->start, row->token_hash, (int64_t)row->seed, row->created_ms, row->updated_ms,
                 row->result, row->reason) == 1
               ? 0
               : -1;
}

int pg_store_create_game(struct store *s, const struct store_game *row, char *err, size_t err_size)
{
    return pg_store_write(s, insert_game, (void *)row, "create game", err, err_size);
}

struct game_write {
    const char *id;
    const char *const *moves; /* add_moves: `count` of them from ply `ply` */
    int ply, count, result, reason;
    int64_t now_ms;
};

static const char sql_end_game[] = "UPDATE games SET result = $2, reason = $3, updated_ms = $4"
                                   " WHERE id = $1";
static const char sql_end_game_at[] = "UPDATE games SET result = $2, reason = $3, updated_ms = $4,"
                                      " plies = $5 WHERE id = $1";

/* The games row's result (and, with plies >= 0, its ply count); the row must exist. */
static int update_game(struct pg_conn *c, const struct game_write *w, int plies)
{
    int n = plies >= 0
                ? pg_do(c, sql_end_game_at, "tiiIi", w->id, w->result, w->reason, w->now_ms, plies)
                : pg_do(c, sql_end_game, "tiiI", w->id, w->result, w->reason, w->now_ms);
    if (n < 0)
        return -1;
    return n == 1 ? 0 : pg_why(c, "no game %.32s", w->id);
}

/* The game's row, held to the end of the transaction: the writers of one game (on
 * any server) go one after another. */
static const char sql_hold_game[] = "SELECT 1 FROM games WHERE id = $1 FOR UPDATE";
/* Its last stored ply (0: none), read once the row is held: committed moves seen. */
static const char sql_last_ply[] = "SELECT COALESCE(max(ply), 0) FROM moves WHERE game_id = $1";
static const char sql_insert_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) VALUES ($1, $2, $3, $4)";

static int insert_moves(struct pg_conn *c, void *ctx)
{
    const struct game_write *w = ctx;
    PGresult *r = pg_exec(c, sql_hold_game, "t", w->id);
    if (!r)
        return -1;
    int found = PQntuples(r);
    PQclear(r);
    if (!found)
        return pg_why(c, "no game %.32s", w->id);
    if (!(r = pg_exec(c, sql_last_ply, "t", w->id)))
        return -1;
    int last = pg_col_int(r, 0, 0);
    PQclear(r);
    /* One writer a game: the moves go on from the last one stored, or not at all. */
    if (w->ply != last + 1)
        return pg_why(c, "ply %d is not the next of game %.32s (it has %d)", w->ply, w->id, last);
    for (int i = 0; i < w->count; i++)
        if (pg_do(c, sql_insert_move, "titI", w->id, w->ply + i, w->moves[i], w->now_ms) != 1)
            return -1;
    if (w->result != 0)
        return update_game(c, w, w->ply + w->count - 1);
    return 0;
}

int pg_store_add_moves(struct store *s, const char *id, int first_ply, int count,
                       const char *const *moves, int result, int reason, int64_t now_ms, char *err,
                       size_t err_size)
{
    if (count < 1 || first_ply < 1)
        return fail(err, err_size, "store move: no moves given");
    struct game_write w = {.id = id,
                           .ply = first_ply,
                           .count = count,
                           .moves = moves,
                           .result = result,
                           .reason = reason,
                           .now_ms = now_ms};
    return pg_store_write(s, insert_moves, &w, "store moves", err, err_size);
}

static int end_game(struct pg_conn *c, void *ctx)
{
    return update_game(c, ctx, -1);
}

int pg_store_set_result(struct store *s, const char *id, int result, int reason, int64_t now_ms,
                        char *err, size_t err_size)
{
    struct game_write w = {.id = id, .result = result, .reason = reason, .now_ms = now_ms};
    return pg_store_write(s, end_game, &w, "end game", err, err_size);
}

static const char sql_count_takeback[] =
    "UPDATE games SET takebacks = takebacks + 1, updated_ms = $2 WHERE id = $1 AND result = 0";
static const char sql_delete_moves[] = "DELETE FROM moves WHERE game_id = $1 AND ply > $2";

static int take_back(struct pg_conn *c, void *ctx)
{
    const struct game_write *w = ctx;
    int n = pg_do(c, sql_count_takeback, "tI", w->id, w->now_ms);
    if (n < 0)
        return -1;
    if (n != 1)
        return pg_why(c, "game %.32s is over or unknown", w->id);
    return pg_do(c, sql_delete_moves, "ti", w->id, w->ply) < 0 ? -1 : 0;
}

int pg_store_take_back(struct store *s, const char *id, int keep_plies, int64_t now_ms, char *err,
                       size_t err_size)
{
    if (keep_plies < 0)
        return fail(err, err_size, "take back: no ply given");
    struct game_write w = {.id = id, .ply = keep_plies, .now_ms = now_ms};
    return pg_store_write(s, take_back, &w, "take back", err, err_size);
}

/* ---- reads ---- */

/* The row and its moves in one statement (one snapshot, one round trip: a game is
 * read again on every server after each move made on another): the moves as lines
 * "ply move" (a move's text has no line break: it is the game's own print of it). */
static const char sql_load_game[] =
    "SELECT " GAME_COLUMNS ", (SELECT string_agg(ply || ' ' || move, E'\\n' ORDER BY ply)"
    " FROM moves WHERE game_id = games.id) FROM games WHERE id = $1";

/* The moves of a row of sql_load_game into moves[0 .. plies - 1]: their count, or -1
 * when a ply is missing or out of order. */
static int read_moves(const char *lines, char (*moves)[MOVE_TEXT_MAX], int plies)
{
    int n = 0;
    for (const char *p = lines; *p && n < plies;) {
        char *end;
        long ply = strtol(p, &end, 10);
        if (ply != n + 1 || *end != ' ')
            return -1;
        const char *text = end + 1;
        size_t len = strcspn(text, "\n");
        if (len == 0 || len >= MOVE_TEXT_MAX)
            return -1;
        memcpy(moves[n], text, len);
        moves[n++][len] = 0;
        p = text + len + (text[len] == '\n');
    }
    return n;
}

int pg_store_load_game(struct store *s, const char *id, struct store_game *row,
                       char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size)
{
    *moves = NULL;
    *count = 0;
    PGresult *r = pg_store_query(s, "load game", err, err_size, sql_load_game, "t", id);
    if (!r)
        return -1;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return 1;
    }
    pg_read_game(r, 0, row);
    char(*m)[MOVE_TEXT_MAX] = malloc(MOVE_TEXT_MAX * (size_t)(row->plies + 1));
    int n = m ? read_moves(PQgetvalue(r, 0, PQnfields(r) - 1), m, row->plies) : 0;
    PQclear(r);
    if (!m)
        return fail(err, err_size, "load game: out of memory");
    if (n != row->plies) {
        free(m);
        return fail(err, err_size, "load game: game %s has %d of its %d moves", id, n < 0 ? 0 : n,
                    row->plies);
    }
    *moves = m;
    *count = n;
    return 0;
}

static const char sql_select_by_token[] =
    "SELECT " GAME_COLUMNS " FROM games WHERE token_hash = $1 OR white_hash = $1 OR"
    " black_hash = $1 ORDER BY created_ms DESC, id LIMIT $2";

int pg_store_list_games(struct store *s, const char *token_hash, int limit, store_game_fn fn,
                        void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "list games", err, err_size, sql_select_by_token, "ti",
                                 token_hash, limit);
    if (!r)
        return -1;
    struct store_game game;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_game(r, i, &game);
        fn(ctx, &game);
    }
    PQclear(r);
    return 0;
}

/* ---- a player's archive and results against the computer ---- */

/* As SQLite's (sqlite/games.c): the player's side is a game against the computer's
 * human_side, else their colour; the outcome's number is enum store_outcome's.  A
 * negative limit is none and a negative offset 0, as in SQLite. */
static const char sql_archive[] =
    "SELECT " GAME_COLUMNS " FROM games WHERE"
    " ((people = 0 AND token_hash = $1::text)"
    " OR (people = 1 AND (white_hash = $1::text OR black_hash = $1::text)))"
    " AND ($2::text = '' OR game = $2::text)"
    " AND ($3::text = '' OR (people = 1 AND (white_hash = $3::text OR black_hash = $3::text)))"
    " AND ($4::bigint = 0 OR people = 0) AND created_ms >= $5::bigint"
    " AND ($6::bigint = 0 OR created_ms < $6::bigint)"
    " AND ($7::bigint = 0 OR $7::bigint = CASE WHEN result = 0 THEN 4 WHEN result = 3 THEN 2"
    " WHEN result - 1 = (CASE WHEN people = 0 THEN human_side WHEN white_hash = $1::text THEN 0"
    " ELSE 1 END) THEN 1 ELSE 3 END)"
    " ORDER BY created_ms DESC, id LIMIT NULLIF(GREATEST($8::bigint, -1), -1)"
    " OFFSET GREATEST($9::bigint, 0)";

int pg_store_archive_games(struct store *s, const struct store_archive *q, store_game_fn fn,
                           void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "archive", err, err_size, sql_archive, "tttiIIiii",
                                 q->token_hash, q->game, q->opponent_hash, q->computer, q->from_ms,
                                 q->to_ms, q->outcome, q->limit, q->offset);
    if (!r)
        return -1;
    struct store_game game;
    for (int i = 0; i < PQntuples(r); i++) {
        pg_read_game(r, i, &game);
        fn(ctx, &game);
    }
    PQclear(r);
    return 0;
}

/* Finished, not aborted (REASON_ABORTED, 18, core/game.h). */
static const char sql_computer_results[] =
    "SELECT game, level, count(*) FILTER (WHERE result - 1 = human_side),"
    " count(*) FILTER (WHERE result = 3),"
    " count(*) FILTER (WHERE result <> 3 AND result - 1 <> human_side) FROM games"
    " WHERE token_hash = $1 AND people = 0 AND result <> 0 AND reason <> 18"
    " GROUP BY game, level ORDER BY game COLLATE \"C\", level";

int pg_store_computer_results(struct store *s, const char *token_hash, store_level_fn fn, void *ctx,
                              char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "results against the computer", err, err_size,
                                 sql_computer_results, "t", token_hash);
    if (!r)
        return -1;
    char game[STORE_NAME_MAX];
    for (int i = 0; i < PQntuples(r); i++) {
        pg_col_text(r, i, 0, game, sizeof game);
        fn(ctx, game, pg_col_int(r, i, 1), pg_col_int(r, i, 2), pg_col_int(r, i, 3),
           pg_col_int(r, i, 4));
    }
    PQclear(r);
    return 0;
}
