/* The PostgreSQL backend's part for the outbox of events (store.h "Events"), for
 * several servers on one database: an event is numbered max + 1 while its transaction
 * holds an advisory lock to its COMMIT, so numbers follow the commit order without
 * gaps (a reader that has seen up to n and reads after n never skips one still to
 * commit with a lower number); its NOTIFY is sent by that COMMIT.  A waiter LISTENs on
 * a connection of its own; one that lost it connects again and reads the newest
 * number, so nothing committed meanwhile is missed (events_since replays it); after
 * that it learns of each new event from its NOTIFY's payload, its number, with no query.
 *
 * The lock makes one event commit at a time on the whole database, so what matters is
 * how long it is held.  The change is made first, without it; then the lock, the
 * insert with its NOTIFY (one statement) and the COMMIT go to the database in one
 * message (pg_events_commit): the lock is held for the statements' own work and the
 * commit's WAL flush, no round trip to the server (which, on loaded cores, waits for
 * a core each: with the lock, the insert, the NOTIFY and the COMMIT as four round
 * trips, two servers committed about 140 events a second; deploy/README.md
 * "Measured").  The lock is taken by a statement of its own before the insert, so the
 * insert's snapshot (READ COMMITTED: one a statement) sees every event committed
 * before the lock was granted.
 *
 * Why not no lock (a sequence, and readers that take only the events of transactions
 * older than their snapshot's xmin, by (transaction, number)): a transaction that
 * sent NOTIFY takes PostgreSQL's own lock for all notifiers as it commits and holds it
 * through its WAL flush, so notifying commits go one at a time anyway; without the
 * advisory lock they would queue on that one, for the same bound (one flush an
 * event), while readers would be held back by any long write anywhere in the database
 * and the server's numbers would no longer be one counter without gaps (its way to
 * tell that it missed events).  Past one flush an event, the NOTIFY leaves the
 * transaction first (deploy/README.md "Growth"). */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "store/postgres/private.h"

/* The lock, the event and its NOTIFY, the COMMIT: a write's last message.  The lock
 * a statement of its own (its snapshot taken before the lock is granted would not see
 * the event committed just before). */
static const char sql_commit[] =
    "SELECT pg_advisory_xact_lock(7021001);"
    "WITH e AS (INSERT INTO events (seq, game_id, kind, body, created_ms)"
    " SELECT COALESCE(max(seq), 0) + 1, %s, %s, %s, %" PRId64 " FROM events RETURNING seq)"
    " SELECT seq, pg_notify('" PG_EVENTS_CHANNEL "', seq::text) FROM e;"
    "COMMIT";

int pg_events_commit(struct pg_conn *c, const struct pg_event *e, int64_t *seq)
{
    char *game = pg_quote(c, e->game_id), *kind = pg_quote(c, e->kind);
    char *body = pg_quote(c, e->body);
    int rc = -1;
    if (game && kind && body) {
        size_t size = sizeof sql_commit + strlen(game) + strlen(kind) + strlen(body) + 24;
        char *sql = malloc(size);
        PGresult *r = NULL;
        if (!sql)
            pg_why(c, "out of memory");
        else {
            snprintf(sql, size, sql_commit, game, kind, body, e->now_ms);
            rc = pg_exec_commit(c, sql, &r);
        }
        if (rc == 0 && r && PQntuples(r) == 1)
            *seq = pg_col_int64(r, 0, 0);
        else if (rc == 0)
            rc = pg_why(c, "committed without the event's number"); /* cannot happen */
        PQclear(r);
        free(sql);
    }
    PQfreemem(game);
    PQfreemem(kind);
    PQfreemem(body);
    return rc;
}

/* put_event alone: no change beside the event. */
static int nothing(struct pg_conn *c, void *ctx)
{
    (void)c;
    (void)ctx;
    return 0;
}

int pg_store_put_event(struct store *s, const char *game_id, const char *kind, const char *body,
                       int64_t now_ms, int64_t *seq, char *err, size_t err_size)
{
    if (strlen(kind) >= STORE_EVENT_KIND_MAX)
        return fail(err, err_size, "event: kind '%.40s' is too long", kind);
    struct pg_event ev = {game_id, kind, body, now_ms};
    return pg_store_write_event(s, nothing, NULL, &ev, seq, "store event", err, err_size);
}

static const char sql_since[] = "SELECT seq, game_id, kind, body, created_ms FROM events"
                                " WHERE seq > $1 ORDER BY seq LIMIT $2";

int pg_store_events_since(struct store *s, int64_t after_seq, int limit, store_event_fn fn,
                          void *ctx, char *err, size_t err_size)
{
    PGresult *r = pg_store_query(s, "events", err, err_size, sql_since, "Ii", after_seq, limit);
    if (!r)
        return -1;
    struct store_event e;
    for (int i = 0; i < PQntuples(r); i++) {
        memset(&e, 0, sizeof e);
        e.seq = pg_col_int64(r, i, 0);
        pg_col_text(r, i, 1, e.game_id, sizeof e.game_id);
        pg_col_text(r, i, 2, e.kind, sizeof e.kind);
        e.body = PQgetvalue(r, i, 3);
        e.created_ms = pg_col_int64(r, i, 4);
        fn(ctx, &e);
    }
    PQclear(r);
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The newest event's number on the listener, or -1. */
static int64_t newest(PGconn *db)
{
    PGresult *r = PQexec(db, "SELECT COALESCE(max(seq), 0) FROM events");
    int64_t v = PQresultStatus(r) == PGRES_TUPLES_OK ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : -1;
    PQclear(r);
    return v;
}

/* The notifications received, each an event's number: the largest into *heard. */
static void hear(PGconn *db, int64_t *heard)
{
    PGnotify *n;
    while ((n = PQnotifies(db))) {
        int64_t v = strtoll(n->extra, NULL, 10);
        if (v > *heard)
            *heard = v;
        PQfreemem(n);
    }
}

int pg_store_wait_events(struct store *s, int64_t after_seq, int timeout_ms, int64_t *last,
                         char *err, size_t err_size)
{
    int64_t deadline = now_ms() + timeout_ms;
    int rc = 1;
    PGconn *db = pg_listener(s, PG_CHANNEL_EVENTS);
    for (int broken = 0; rc == 1;) {
        if (!db || PQstatus(db) != CONNECTION_OK) {
            /* Connect again (LISTEN first, then read): nothing is missed. */
            pg_listener_done(s, PG_CHANNEL_EVENTS);
            if (broken++ > 0 || !(db = pg_listener(s, PG_CHANNEL_EVENTS)) ||
                PQstatus(db) != CONNECTION_OK) {
                char why[ERROR_TEXT_MAX];
                snprintf(why, sizeof why, "%s", db ? PQerrorMessage(db) : "out of memory");
                for (char *p = why; *p; p++)
                    if (*p == '\n')
                        *p = ' ';
                pg_listener_done(s, PG_CHANNEL_EVENTS);
                return fail(err, err_size, "database: wait for events: %s", why);
            }
        }
        /* What is heard: the newest number read once a connection (the events before
         * its LISTEN), then each event's NOTIFY.  The notifications that came with an
         * answer wait in libpq's queue, not on the socket: taken before each poll. */
        int64_t *heard = pg_listener_mark(s, PG_CHANNEL_EVENTS);
        PQconsumeInput(db);
        if (*heard < 0) {
            int64_t v = newest(db);
            if (v < 0 && PQstatus(db) == CONNECTION_OK) {
                char why[ERROR_TEXT_MAX];
                snprintf(why, sizeof why, "%s", PQerrorMessage(db));
                pg_listener_done(s, PG_CHANNEL_EVENTS);
                return fail(err, err_size, "database: wait for events: %s", why);
            }
            if (v < 0)
                continue; /* the connection broke: again, connected anew */
            *heard = v;
        }
        hear(db, heard);
        if (*heard > after_seq) {
            *last = *heard;
            rc = 0;
            break;
        }
        int64_t left = deadline - now_ms();
        if (left <= 0)
            break;
        struct pollfd p = {.fd = PQsocket(db), .events = POLLIN};
        int ready = poll(&p, 1, (int)left);
        if (ready < 0 && errno != EINTR) {
            pg_listener_done(s, PG_CHANNEL_EVENTS);
            return fail(err, err_size, "database: wait for events: %s", strerror(errno));
        }
        if (ready > 0 && !PQconsumeInput(db))
            continue; /* broken: read the newest once connected again */
    }
    pg_listener_done(s, PG_CHANNEL_EVENTS);
    return rc;
}
