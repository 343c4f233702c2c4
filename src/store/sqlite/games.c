/* The SQLite backend's part for games (store.h "Games"): a game's row, its moves, its
 * result and takebacks, and the lists of games.  Writes go through the group commit
 * (sqlite_store_write: the human's move and the computer's reply in one commit),
 * reads under the connection's mutex (sqlite_store_read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/private.h"

/* A game's row as read_game_row takes it.  A move commit writes only the moves table
 * (one b-tree page, not two: the games row changes only when the game ends), so the
 * ply count and the time of the last change are read from the moves. */
#define GAME_COLUMNS                                                                               \
    "id, game, level, human_side, start, token_hash, seed, created_ms,"                            \
    " max(updated_ms, COALESCE((SELECT max(created_ms) FROM moves WHERE game_id = games.id), 0))," \
    " result, reason, (SELECT count(*) FROM moves WHERE game_id = games.id), takebacks,"           \
    " people, white_hash, black_hash, white_name, black_name, clock_initial_ms,"                   \
    " clock_increment_ms, days, rated, draw_offer, takeback_offer, rematch_offer, rematch_id,"     \
    " deadline_ms, white_rating, black_rating, rated_done, club_id, white_rating_after,"           \
    " black_rating_after, plies, rated_capped, tournament_id, round, berserk"

const char sqlite_select_game_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1";
const char sqlite_club_games_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE club_id = ?1"
                                     " ORDER BY created_ms DESC, id LIMIT ?2";
const char sqlite_tournament_games_sql[] = "SELECT " GAME_COLUMNS " FROM games"
                                           " WHERE tournament_id = ?1 ORDER BY created_ms, id";

void sqlite_read_game_row(sqlite3_stmt *st, struct store_game *row)
{
    memset(row, 0, sizeof *row);
    sq_text(st, 0, row->id, sizeof row->id);
    sq_text(st, 1, row->game, sizeof row->game);
    row->level = sqlite3_column_int(st, 2);
    row->human_side = sqlite3_column_int(st, 3);
    sq_text(st, 4, row->start, sizeof row->start);
    sq_text(st, 5, row->token_hash, sizeof row->token_hash);
    row->seed = (uint64_t)sqlite3_column_int64(st, 6);
    row->created_ms = sqlite3_column_int64(st, 7);
    row->updated_ms = sqlite3_column_int64(st, 8);
    row->result = sqlite3_column_int(st, 9);
    row->reason = sqlite3_column_int(st, 10);
    row->plies = sqlite3_column_int(st, 11);
    row->takebacks = sqlite3_column_int(st, 12);
    row->people = sqlite3_column_int(st, 13);
    sq_text(st, 14, row->white_hash, sizeof row->white_hash);
    sq_text(st, 15, row->black_hash, sizeof row->black_hash);
    sq_text(st, 16, row->white_name, sizeof row->white_name);
    sq_text(st, 17, row->black_name, sizeof row->black_name);
    row->clock_initial_ms = sqlite3_column_int64(st, 18);
    row->clock_increment_ms = sqlite3_column_int64(st, 19);
    row->days = sqlite3_column_int(st, 20);
    row->rated = sqlite3_column_int(st, 21);
    row->draw_offer = sqlite3_column_int(st, 22);
    row->takeback_offer = sqlite3_column_int(st, 23);
    row->rematch_offer = sqlite3_column_int(st, 24);
    sq_text(st, 25, row->rematch_id, sizeof row->rematch_id);
    row->deadline_ms = sqlite3_column_int64(st, 26);
    row->white_rating = sqlite3_column_int(st, 27);
    row->black_rating = sqlite3_column_int(st, 28);
    row->rated_done = sqlite3_column_int(st, 29);
    sq_text(st, 30, row->club_id, sizeof row->club_id);
    row->white_rating_after = sqlite3_column_int(st, 31);
    row->black_rating_after = sqlite3_column_int(st, 32);
    row->plies_max = sqlite3_column_int(st, 33);
    row->rated_capped = sqlite3_column_int(st, 34);
    sq_text(st, 35, row->tournament_id, sizeof row->tournament_id);
    row->round = sqlite3_column_int(st, 36);
    row->berserk = sqlite3_column_int(st, 37);
}

/* ---- writes ---- */

static const char sql_insert_game[] =
    "INSERT INTO games (id, game, level, human_side, start, token_hash, seed, created_ms,"
    " updated_ms, result, reason, plies) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0)";

static int insert_game(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    const struct store_game *row = ctx;
    return sq_done(sq_bind(s, sql_insert_game, "ttiittIIIii", row->id, row->game, row->level,
                           row->human_side, row->start, row->token_hash, (int64_t)row->seed,
                           row->created_ms, row->updated_ms, row->result, row->reason));
}

int sqlite_store_create_game(struct store *s, const struct store_game *row, char *err,
                             size_t err_size)
{
    return sqlite_store_write(s, insert_game, (void *)row, "create game", err, err_size);
}

struct game_write {
    const char *id;
    const char *const *moves; /* add_moves: `count` of them from ply `ply` */
    int ply, count, result, reason;
    int64_t now_ms;
};

static const char sql_end_game[] = "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4"
                                   " WHERE id = ?1";
static const char sql_end_game_at[] = "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4,"
                                      " plies = ?5 WHERE id = ?1";

/* The games row's result (and, with plies >= 0, its ply count); the row must exist. */
static int update_game(struct store *s, sqlite3 *db, const struct game_write *w, int plies)
{
    sqlite3_stmt *st =
        plies >= 0
            ? sq_bind(s, sql_end_game_at, "tiiIi", w->id, w->result, w->reason, w->now_ms, plies)
            : sq_bind(s, sql_end_game, "tiiI", w->id, w->result, w->reason, w->now_ms);
    if (sq_done(st) != 0)
        return -1;
    return sqlite3_changes(db) == 1 ? 0 : -1;
}

/* The game's last stored ply (0: none); no row when there is no such game. */
static const char sql_last_ply[] =
    "SELECT COALESCE((SELECT max(ply) FROM moves WHERE game_id = ?1), 0) FROM games WHERE id = ?1";
static const char sql_insert_move[] =
    "INSERT INTO moves (game_id, ply, move, created_ms) VALUES (?1, ?2, ?3, ?4)";

static int insert_moves(struct store *s, sqlite3 *db, void *ctx)
{
    const struct game_write *w = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_last_ply, "t", w->id);
    int found = sq_row(st);
    int last = found > 0 ? sqlite3_column_int(st, 0) : 0;
    sq_end(st);
    if (found < 0)
        return -1;
    if (found == 0)
        return sqlite_store_why("no game %.32s", w->id);
    /* One writer a game (sqlite/private.h's note on add_moves): the moves go on
     * from the last one stored, or not at all. */
    if (w->ply != last + 1)
        return sqlite_store_why("ply %d is not the next of game %.32s (it has %d)", w->ply, w->id,
                                last);
    for (int i = 0; i < w->count; i++)
        if (sq_done(sq_bind(s, sql_insert_move, "titI", w->id, w->ply + i, w->moves[i],
                            w->now_ms)) != 0)
            return -1;
    /* The games row only when the game ends (see GAME_COLUMNS); it must exist. */
    if (w->result != 0)
        return update_game(s, db, w, w->ply + w->count - 1);
    return 0;
}

int sqlite_store_add_moves(struct store *s, const char *id, int first_ply, int count,
                           const char *const *moves, int result, int reason, int64_t now_ms,
                           char *err, size_t err_size)
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
    return sqlite_store_write(s, insert_moves, &w, "store moves", err, err_size);
}

static int end_game(struct store *s, sqlite3 *db, void *ctx)
{
    return update_game(s, db, ctx, -1);
}

int sqlite_store_set_result(struct store *s, const char *id, int result, int reason, int64_t now_ms,
                            char *err, size_t err_size)
{
    struct game_write w = {.id = id, .result = result, .reason = reason, .now_ms = now_ms};
    return sqlite_store_write(s, end_game, &w, "end game", err, err_size);
}

static const char sql_count_takeback[] =
    "UPDATE games SET takebacks = takebacks + 1, updated_ms = ?2 WHERE id = ?1 AND result = 0";
static const char sql_delete_moves[] = "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2";

/* A takeback: the moves after ply w->ply go and the game's count of takebacks grows,
 * in the one transaction (of an unfinished game: none is taken back after the end). */
static int take_back(struct store *s, sqlite3 *db, void *ctx)
{
    const struct game_write *w = ctx;
    if (sq_done(sq_bind(s, sql_count_takeback, "tI", w->id, w->now_ms)) != 0 ||
        sqlite3_changes(db) != 1)
        return -1;
    return sq_done(sq_bind(s, sql_delete_moves, "ti", w->id, w->ply));
}

int sqlite_store_take_back(struct store *s, const char *id, int keep_plies, int64_t now_ms,
                           char *err, size_t err_size)
{
    if (keep_plies < 0)
        return fail(err, err_size, "take back: no ply given");
    struct game_write w = {.id = id, .ply = keep_plies, .now_ms = now_ms};
    return sqlite_store_write(s, take_back, &w, "take back", err, err_size);
}

/* ---- reads ---- */

struct load_ctx {
    const char *id;
    struct store_game *row;
    char (*moves)[MOVE_TEXT_MAX];
    int n;
    char why[ERROR_TEXT_MAX]; /* a failure that is not the database's */
};

static const char sql_select_moves[] =
    "SELECT ply, move FROM moves WHERE game_id = ?1 ORDER BY ply";

static int load_game(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct load_ctx *l = ctx;
    sqlite3_stmt *st = sq_bind(s, sqlite_select_game_sql, "t", l->id);
    int row = sq_row(st);
    if (row > 0)
        sqlite_read_game_row(st, l->row);
    sq_end(st);
    if (row <= 0)
        return sq_found(row);
    if (!(l->moves = malloc(MOVE_TEXT_MAX * (size_t)(l->row->plies + 1)))) {
        snprintf(l->why, sizeof l->why, "out of memory");
        return -1;
    }
    st = sq_bind(s, sql_select_moves, "t", l->id);
    while (l->n < l->row->plies && (row = sq_row(st)) > 0) {
        if (sqlite3_column_int(st, 0) != l->n + 1)
            break;
        sq_text(st, 1, l->moves[l->n++], MOVE_TEXT_MAX);
    }
    sq_end(st);
    if (l->n != l->row->plies) {
        snprintf(l->why, sizeof l->why, "database: game %s has %d of its %d moves", l->id, l->n,
                 l->row->plies);
        return -1;
    }
    return 0;
}

int sqlite_store_load_game(struct store *s, const char *id, struct store_game *row,
                           char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size)
{
    struct load_ctx l = {.id = id, .row = row};
    int rc = sqlite_store_read(s, load_game, &l, "load game", err, err_size);
    if (rc < 0 && l.why[0])
        fail(err, err_size, "%s", l.why);
    if (rc != 0) {
        free(l.moves);
        l.moves = NULL;
        l.n = 0;
    }
    *moves = l.moves;
    *count = l.n;
    return rc;
}

struct list_ctx {
    const char *token_hash;
    int limit;
    store_game_fn fn;
    void *ctx;
};

static const char sql_select_by_token[] =
    "SELECT " GAME_COLUMNS " FROM games WHERE token_hash = ?1 OR white_hash = ?1 OR"
    " black_hash = ?1 ORDER BY created_ms DESC, id LIMIT ?2";

static int list_games(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct list_ctx *l = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_select_by_token, "ti", l->token_hash, l->limit);
    int row;
    struct store_game game;
    while ((row = sq_row(st)) > 0) {
        sqlite_read_game_row(st, &game);
        l->fn(l->ctx, &game);
    }
    return row;
}

int sqlite_store_list_games(struct store *s, const char *token_hash, int limit, store_game_fn fn,
                            void *ctx, char *err, size_t err_size)
{
    struct list_ctx l = {token_hash, limit, fn, ctx};
    return sqlite_store_read(s, list_games, &l, "list games", err, err_size);
}

/* ---- a player's archive and results against the computer ---- */

struct archive_ctx {
    const struct store_archive *q;
    store_game_fn fn;
    void *ctx;
};

/* The player's side: a game against the computer's human_side, else their colour; the
 * outcome's number is enum store_outcome's. */
static const char sql_archive[] =
    "SELECT " GAME_COLUMNS " FROM games WHERE"
    " ((people = 0 AND token_hash = ?1) OR (people = 1 AND (white_hash = ?1 OR black_hash = ?1)))"
    " AND (?2 = '' OR game = ?2)"
    " AND (?3 = '' OR (people = 1 AND (white_hash = ?3 OR black_hash = ?3)))"
    " AND (?4 = 0 OR people = 0) AND created_ms >= ?5 AND (?6 = 0 OR created_ms < ?6)"
    " AND (?7 = 0 OR ?7 = CASE WHEN result = 0 THEN 4 WHEN result = 3 THEN 2"
    " WHEN result - 1 = (CASE WHEN people = 0 THEN human_side WHEN white_hash = ?1 THEN 0"
    " ELSE 1 END) THEN 1 ELSE 3 END)"
    " ORDER BY created_ms DESC, id LIMIT ?8 OFFSET ?9";

static int archive(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct archive_ctx *a = ctx;
    const struct store_archive *q = a->q;
    sqlite3_stmt *st =
        sq_bind(s, sql_archive, "tttiIIiii", q->token_hash, q->game, q->opponent_hash, q->computer,
                q->from_ms, q->to_ms, q->outcome, q->limit, q->offset);
    int row;
    struct store_game game;
    while ((row = sq_row(st)) > 0) {
        sqlite_read_game_row(st, &game);
        a->fn(a->ctx, &game);
    }
    return row;
}

int sqlite_store_archive_games(struct store *s, const struct store_archive *q, store_game_fn fn,
                               void *ctx, char *err, size_t err_size)
{
    struct archive_ctx a = {q, fn, ctx};
    return sqlite_store_read(s, archive, &a, "archive", err, err_size);
}

struct levels_ctx {
    const char *hash;
    store_level_fn fn;
    void *ctx;
};

/* Finished, not aborted (REASON_ABORTED, 18, core/game.h). */
static const char sql_computer_results[] =
    "SELECT game, level, sum(result - 1 = human_side), sum(result = 3),"
    " sum(result <> 3 AND result - 1 <> human_side) FROM games"
    " WHERE token_hash = ?1 AND people = 0 AND result <> 0 AND reason <> 18"
    " GROUP BY game, level ORDER BY game, level";

static int computer_results(struct store *s, sqlite3 *db, void *ctx)
{
    (void)db;
    struct levels_ctx *q = ctx;
    sqlite3_stmt *st = sq_bind(s, sql_computer_results, "t", q->hash);
    int row;
    char game[STORE_NAME_MAX];
    while ((row = sq_row(st)) > 0) {
        sq_text(st, 0, game, sizeof game);
        q->fn(q->ctx, game, sqlite3_column_int(st, 1), sqlite3_column_int(st, 2),
              sqlite3_column_int(st, 3), sqlite3_column_int(st, 4));
    }
    return row;
}

int sqlite_store_computer_results(struct store *s, const char *token_hash, store_level_fn fn,
                                  void *ctx, char *err, size_t err_size)
{
    struct levels_ctx q = {token_hash, fn, ctx};
    return sqlite_store_read(s, computer_results, &q, "results against the computer", err,
                             err_size);
}
