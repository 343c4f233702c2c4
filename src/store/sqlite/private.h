/* Between the files of the SQLite backend (src/store/sqlite/): a write
 * in the group commit, a read under the connection's mutex, cached statements, the
 * game row's reader.  Not for anyone above the store. */
#pragma once

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "store/store.h"

#define SQLITE_EXTRA_STMTS 128

/* A write or read on the connection: 0 done, 1 refused (a write is then rolled back,
 * changing nothing, and reported as 1 without an error), -1 failed (sqlite3_errmsg). */
typedef int (*sqlite_fn)(struct store *s, sqlite3 *db, void *ctx);
/* Inside a sqlite_fn: a failure that is not the database's, as the operation's error
 * (instead of sqlite3_errmsg): -1. */
int sqlite_store_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* In the group commit (its own savepoint), returning after the COMMIT that holds it. */
int sqlite_store_write(struct store *s, sqlite_fn fn, void *ctx, const char *what, char *err,
                       size_t err_size);
/* Under the connection's mutex, outside any write. */
int sqlite_store_read(struct store *s, sqlite_fn fn, void *ctx, const char *what, char *err,
                      size_t err_size);
/* The prepared statement of `sql` (a string constant, known by its address), made on
 * first use; only inside sqlite_store_write/read.  NULL when it does not prepare. */
sqlite3_stmt *sqlite_store_stmt(struct store *s, const char *sql);
/* The statement helper (stmt.c).  A statement of the cache (sqlite_store_stmt) bound
 * from `fmt`, one letter a parameter ?1, ?2...: 't' const char * (text, NULL as ""),
 * 'i' int, 'I' int64_t, 'd' double.  NULL when it does not prepare (or fmt is bad). */
sqlite3_stmt *sq_bind(struct store *s, const char *sql, const char *fmt, ...);
/* The next row of a bound statement: 1 (read its columns), 0 no more, -1 failed (a
 * NULL statement too); the statement is reset once it says 0 or -1. */
int sq_row(sqlite3_stmt *st);
/* Reset a statement left before its last row (NULL: nothing). */
void sq_end(sqlite3_stmt *st);
/* Run a bound statement that returns no rows: 0, or -1. */
int sq_done(sqlite3_stmt *st);
/* Column `col` as text into dst (NULL as ""). */
void sq_text(sqlite3_stmt *st, int col, char *dst, size_t size);
/* A single row's answer as the operations give it: read (1) is 0, none (0) is 1. */
static inline int sq_found(int row)
{
    return row > 0 ? 0 : row == 0 ? 1 : -1;
}

/* Ids read under the connection's mutex, called back after it is given back (a
 * callback may use the store itself): at most SQLITE_IDS_MAX a call. */
#define SQLITE_IDS_MAX 256
struct sqlite_ids {
    int64_t now;
    char (*ids)[STORE_ID_LEN + 1];
    int n;
};

/* The events this process committed (events.c; backend.c keeps the count): their
 * count now; the count grown, waking the waiters; waiting until the count is no
 * longer `generation` (true) or CLOCK_MONOTONIC's `deadline` passed (false). */
uint64_t sqlite_events_generation(struct store *s);
void sqlite_events_committed(struct store *s);
bool sqlite_events_wait(struct store *s, uint64_t generation, const struct timespec *deadline);
/* The same for the jobs this process queued (jobs.c, wait_jobs). */
uint64_t sqlite_jobs_generation(struct store *s);
void sqlite_jobs_queued(struct store *s);
bool sqlite_jobs_wait(struct store *s, uint64_t generation, const struct timespec *deadline);

/* Inside a write: append the attached event `e` (store.h) to the outbox, *seq its
 * number (events.c; sqlite_store_write calls it after the operation's statements):
 * 0 or -1. */
int sqlite_events_append(struct store *s, sqlite3 *db, const struct store_attached_event *e,
                         int64_t *seq);

/* A row of "SELECT <the game columns>" (games.c's GAME_COLUMNS). */
void sqlite_read_game_row(sqlite3_stmt *st, struct store_game *row);
/* "SELECT <the game columns> FROM games WHERE id = ?1". */
extern const char sqlite_select_game_sql[];
/* Insert a people game's row (a challenge's or a tournament's), inside a write. */
int sqlite_insert_people_game(struct store *s, const struct store_game *g);
/* The games of club ?1, newest first, at most ?2. */
extern const char sqlite_club_games_sql[];
/* The games of tournament ?1, by creation. */
extern const char sqlite_tournament_games_sql[];

/* A row of "SELECT <sqlite_challenge_columns> FROM challenges" (people.c). */
extern const char sqlite_challenge_columns[];
void sqlite_read_challenge(sqlite3_stmt *st, struct store_challenge *c);

/* The backend's function for each operation of store_ops.def, one file a concern
 * (games.c, reviews.c, people.c: challenges and people's games, ratings.c, clubs.c,
 * players.c, puzzles.c, events.c), gathered into its table by backend.c. */
#define STORE_OP(name, params, args)                                                               \
    int sqlite_store_##name(struct store *s, STORE_LIST params, char *err, size_t err_size);
#include "store/store_ops.def"
#undef STORE_OP
