/* Between the files of the SQLite backend (store_sqlite.c, store_people.c): a write
 * in the group commit, a read under the connection's mutex, cached statements, the
 * game row's reader.  Not for anyone above the store. */
#pragma once

#include <sqlite3.h>
#include <stddef.h>

#include "store.h"

#define SQLITE_EXTRA_STMTS 32

/* A write or read on the connection: 0 done, 1 refused (a write is then rolled back,
 * changing nothing, and reported as 1 without an error), -1 failed (sqlite3_errmsg). */
typedef int (*sqlite_fn)(struct store *s, sqlite3 *db, void *ctx);

/* In the group commit (its own savepoint), returning after the COMMIT that holds it. */
int sqlite_store_write(struct store *s, sqlite_fn fn, void *ctx, const char *what, char *err,
                       size_t err_size);
/* Under the connection's mutex, outside any write. */
int sqlite_store_read(struct store *s, sqlite_fn fn, void *ctx, const char *what, char *err,
                      size_t err_size);
/* The prepared statement of `sql` (a string constant, known by its address), made on
 * first use; only inside sqlite_store_write/read.  NULL when it does not prepare. */
sqlite3_stmt *sqlite_store_stmt(struct store *s, const char *sql);
/* A row of "SELECT <the game columns>" (store_sqlite.c's GAME_COLUMNS). */
void sqlite_read_game_row(sqlite3_stmt *st, struct store_game *row);
/* "SELECT <the game columns> FROM games WHERE id = ?1". */
extern const char sqlite_select_game_sql[];
/* The games of club ?1, newest first, at most ?2. */
extern const char sqlite_club_games_sql[];

/* A row of "SELECT <sqlite_challenge_columns> FROM challenges" (store_people.c). */
extern const char sqlite_challenge_columns[];
void sqlite_read_challenge(sqlite3_stmt *st, struct store_challenge *c);

/* store_clubs.c's ops. */
int sqc_create_club(struct store *s, const struct store_club *c, const struct store_member *m,
                    char *err, size_t err_size);
int sqc_get_club(struct store *s, const char *id, struct store_club *c, char *err, size_t err_size);
int sqc_list_members(struct store *s, const char *club_id, store_member_fn fn, void *ctx, char *err,
                     size_t err_size);
int sqc_join_club(struct store *s, const char *club_id, const struct store_member *m, char *err,
                  size_t err_size);
int sqc_set_member(struct store *s, const char *club_id, const char *member_id, int role, char *err,
                   size_t err_size);
int sqc_remove_member(struct store *s, const char *club_id, const char *member_id, int max_role,
                      const char *invite, char *err, size_t err_size);
int sqc_club_results(struct store *s, const char *club_id, store_result_fn fn, void *ctx, char *err,
                     size_t err_size);
int sqc_club_games(struct store *s, const char *club_id, int limit, store_game_fn fn, void *ctx,
                   char *err, size_t err_size);
int sqc_club_challenges(struct store *s, const char *club_id, int64_t now_ms, store_challenge_fn fn,
                        void *ctx, char *err, size_t err_size);
#define SQLITE_CLUB_OPS                                                                            \
    .create_club = sqc_create_club, .get_club = sqc_get_club, .list_members = sqc_list_members,    \
    .join_club = sqc_join_club, .set_member = sqc_set_member, .remove_member = sqc_remove_member,  \
    .club_results = sqc_club_results, .club_games = sqc_club_games,                                \
    .club_challenges = sqc_club_challenges

/* store_people.c's ops, for the backend's table. */
int sqp_put_challenge(struct store *s, const struct store_challenge *c, char *err, size_t err_size);
int sqp_get_challenge(struct store *s, const char *id, struct store_challenge *c, char *err,
                      size_t err_size);
int sqp_accept_challenge(struct store *s, const char *id, const char *acceptor_hash,
                         const struct store_game *game, int64_t now_ms, char *err, size_t err_size);
int sqp_cancel_challenge(struct store *s, const char *id, const char *creator_hash, int64_t now_ms,
                         char *err, size_t err_size);
int sqp_list_seeks(struct store *s, int64_t now_ms, int limit, store_challenge_fn fn, void *ctx,
                   char *err, size_t err_size);
int sqp_add_people_move(struct store *s, const char *id, int ply, const char *move, int result,
                        int reason, int64_t now_ms, int64_t deadline_ms, char *err,
                        size_t err_size);
int sqp_end_people_game(struct store *s, const char *id, int result, int reason, int64_t at_ms,
                        char *err, size_t err_size);
int sqp_set_offers(struct store *s, const char *id, int draw, int takeback, int rematch,
                   const char *rematch_id, int64_t now_ms, char *err, size_t err_size);
int sqp_load_move_times(struct store *s, const char *id, int64_t **times, int *count, char *err,
                        size_t err_size);
int sqp_next_deadline(struct store *s, int64_t *when, char *err, size_t err_size);
int sqp_due_games(struct store *s, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                  size_t err_size);
int sqp_put_player(struct store *s, const char *token_hash, const char *name, int64_t now_ms,
                   char *err, size_t err_size);
int sqp_get_rating(struct store *s, const char *token_hash, const char *game, const char *klass,
                   struct store_rating *out, char *err, size_t err_size);
int sqp_rate_game(struct store *s, const char *id, const struct store_rater *rater, int64_t now_ms,
                  int *white_after, int *black_after, char *err, size_t err_size);
int sqp_unrated_games(struct store *s, store_id_fn fn, void *ctx, char *err, size_t err_size);
int sqp_get_player(struct store *s, const char *token_hash, char *name, size_t name_size, char *err,
                   size_t err_size);

#define SQLITE_PEOPLE_OPS                                                                          \
    .put_challenge = sqp_put_challenge, .get_challenge = sqp_get_challenge,                        \
    .accept_challenge = sqp_accept_challenge, .cancel_challenge = sqp_cancel_challenge,            \
    .list_seeks = sqp_list_seeks, .add_people_move = sqp_add_people_move,                          \
    .end_people_game = sqp_end_people_game, .set_offers = sqp_set_offers,                          \
    .load_move_times = sqp_load_move_times, .next_deadline = sqp_next_deadline,                    \
    .due_games = sqp_due_games, .put_player = sqp_put_player, .get_player = sqp_get_player,        \
    .get_rating = sqp_get_rating, .rate_game = sqp_rate_game, .unrated_games = sqp_unrated_games
