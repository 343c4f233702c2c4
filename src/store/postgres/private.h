/* Between the files of the PostgreSQL backend (src/store/postgres/): a connection of
 * the pool, a write in one transaction, a read in one snapshot, a single statement,
 * the statements prepared once per connection, the columns of a row.  Not for anyone
 * above the store.
 *
 * An operation is written as in the SQLite backend, in PostgreSQL's dialect ($1, $2...
 * for the parameters, GREATEST for SQLite's scalar max, INSERT ... ON CONFLICT for
 * INSERT OR REPLACE / OR IGNORE):
 *
 *   static const char sql_get[] = "SELECT name FROM players WHERE token_hash = $1";
 *   PGresult *r = pg_store_query(s, "load name", err, err_size, sql_get, "t", hash);
 *
 * or, for more than one statement, a function run by pg_store_write (one transaction)
 * or pg_store_read (one snapshot) over pg_exec / pg_do. */
#pragma once

#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* One connection of the pool, lent to one operation at a time. */
struct pg_conn;

/* A write or read on a lent connection: 0 done, 1 refused (a write is then rolled
 * back, changing nothing, and reported as 1 without an error), -1 failed (the failing
 * statement's message, or pg_why's). */
typedef int (*pg_fn)(struct pg_conn *c, void *ctx);

/* fn in one transaction (READ COMMITTED; the conditional UPDATEs decide who wins),
 * returning after its COMMIT.  A deadlock or serialisation failure is retried. */
int pg_store_write(struct store *s, pg_fn fn, void *ctx, const char *what, char *err,
                   size_t err_size);
/* fn in one read-only snapshot (REPEATABLE READ): its statements see one state. */
int pg_store_read(struct store *s, pg_fn fn, void *ctx, const char *what, char *err,
                  size_t err_size);
/* One statement on a lent connection, outside any transaction of ours: its result
 * (the caller PQclears it), or NULL with "database: what: message" in err.  The
 * connection is given back before the caller reads the rows, so a callback may use
 * the store.  `fmt` as pg_exec's. */
PGresult *pg_store_query(struct store *s, const char *what, char *err, size_t err_size,
                         const char *sql, const char *fmt, ...);

/* Inside a pg_fn: the statement `sql` (a string constant, known by its address,
 * prepared on its first use on each connection) with parameters from `fmt`, one letter
 * a parameter $1, $2...: 't' const char * (text, NULL as ""), 'i' int, 'I' int64_t,
 * 'd' double.  Its result (PQclear), or NULL when it failed (the message kept for the
 * operation's error). */
PGresult *pg_exec(struct pg_conn *c, const char *sql, const char *fmt, ...);
/* A statement that returns no rows: the number of rows it changed, or -1. */
int pg_do(struct pg_conn *c, const char *sql, const char *fmt, ...);
/* A failure that is not the database's, as the operation's error: -1. */
int pg_why(struct pg_conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The columns of row `row`: text (copied, cut to size), integers, doubles. */
void pg_col_text(const PGresult *r, int row, int col, char *dst, size_t size);
int pg_col_int(const PGresult *r, int row, int col);
int64_t pg_col_int64(const PGresult *r, int row, int col);
double pg_col_double(const PGresult *r, int row, int col);
/* A single row's answer as the operations give it (and the result cleared): 1 when
 * there is no row, -1 when r is NULL; else 0, after read(ctx, r) of row 0. */
int pg_one(PGresult *r, void (*read)(void *ctx, const PGresult *r), void *ctx);

/* An event of the outbox to append in a write's transaction (store.h put_event). */
struct pg_event {
    const char *game_id, *kind, *body;
    int64_t now_ms;
};
/* pg_store_write with the event `ev` (not the attached one) appended and committed
 * with fn's change when fn returned 0, *seq its number. */
int pg_store_write_event(struct store *s, pg_fn fn, void *ctx, const struct pg_event *ev,
                         int64_t *seq, const char *what, char *err, size_t err_size);
/* The end of a write with an event (events.c; in_transaction calls it instead of its
 * COMMIT): the event numbered, inserted and notified, and the COMMIT, in one message:
 * 0 (*seq its number) or -1 (the transaction to roll back). */
int pg_events_commit(struct pg_conn *c, const struct pg_event *e, int64_t *seq);
/* Statements without parameters, the last one COMMIT, sent in one message (the simple
 * protocol: each statement sees what was committed before it began): 0 when the COMMIT
 * was done, with the last rows returned in *rows (NULL if none; PQclear), else -1. */
int pg_exec_commit(struct pg_conn *c, const char *sql, PGresult **rows);
/* `text` as an SQL literal for pg_exec_commit (PQfreemem), or NULL (the error kept). */
char *pg_quote(struct pg_conn *c, const char *text);

/* libpq's message `msg` as one line into dst: newlines and tabs become spaces, runs of
 * spaces one, the end trimmed ("unknown error" when empty). */
void pg_one_line(char *dst, size_t size, const char *msg);

/* The channels of LISTEN/NOTIFY: the outbox's events (events.c: a NOTIFY an event,
 * its number the payload) and the engine jobs (jobs.c: a NOTIFY a job queued). */
#define PG_EVENTS_CHANNEL "agora_events"
#define PG_JOBS_CHANNEL "agora_jobs"
enum pg_channel { PG_CHANNEL_EVENTS, PG_CHANNEL_JOBS, PG_CHANNELS };

/* The store's LISTEN connection of `channel` (one a channel, none of the pool's),
 * connected and LISTENing again when it broke: held by the caller until
 * pg_listener_done (one waiter a channel at a time).  NULL or not CONNECTION_OK when
 * the database does not answer. */
PGconn *pg_listener(struct store *s, enum pg_channel channel);
void pg_listener_done(struct store *s, enum pg_channel channel);
/* A number the channel's waiter keeps with its connection while it holds it (events.c:
 * the newest event heard of), -1 whenever the connection is new. */
int64_t *pg_listener_mark(struct store *s, enum pg_channel channel);

/* A row of "SELECT <the game columns>" (games.c). */
void pg_read_game(const PGresult *r, int row, struct store_game *g);
/* "SELECT <the game columns> FROM games WHERE id = $1". */
extern const char pg_select_game_sql[];
/* The games of club $1, newest first, at most $2. */
extern const char pg_club_games_sql[];
/* The games of tournament $1, by creation. */
extern const char pg_tournament_games_sql[];
/* A tournament's entrants ($1) with their players' public ids, by arrival. */
extern const char pg_entrants_sql[];
/* Insert a people game's row (a challenge's or a tournament's) inside a write: 0, -1. */
int pg_insert_people_game(struct pg_conn *c, const struct store_game *g);
/* The open challenges of club $1 at $2 (people.c). */
extern const char pg_club_challenges_sql[];
void pg_read_challenge(const PGresult *r, int row, struct store_challenge *c);

/* The backend's function for each operation of store_ops.def, one file a concern
 * (games.c, reviews.c, people.c, ratings.c, clubs.c, players.c, puzzles.c, events.c,
 * identity.c, notices.c, devices.c, tournaments.c), gathered into its table by backend.c. */
#define STORE_OP(name, params, args)                                                               \
    int pg_store_##name(struct store *s, STORE_LIST params, char *err, size_t err_size);
#include "store/store_ops.def"
#undef STORE_OP
