/* The PostgreSQL backend of the store: a pool of libpq connections, each lent to one
 * operation at a time, with the operations' statements prepared once per connection.
 * This file holds the pool, the migrations, the transactions and the statement helper
 * (private.h); the operations are in one file a concern beside it, as in the SQLite
 * backend (games.c, reviews.c, people.c, ratings.c, clubs.c, players.c, puzzles.c,
 * events.c).
 *
 * Unlike SQLite, PostgreSQL runs writers side by side, so there is no group commit:
 * each write is its own transaction on its own connection, and the rules that make a
 * thing happen once (a challenge taken, a ply stored, a game rated) are the same
 * conditional UPDATEs and keys, decided by the database's row locks; READ COMMITTED
 * re-reads a row a concurrent transaction changed before it updates it. */
#include "store/postgres/postgres.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "store/migrations.h"
#include "store/postgres/private.h"

/* Statements prepared per connection (every operation's, a few each). */
#define PG_STMTS_MAX 256
/* Parameters of one statement. */
#define PG_PARAMS_MAX 24
/* Tries of a write that met a deadlock or a serialisation failure. */
#define PG_WRITE_TRIES 3
/* The advisory lock that serialises migrations of servers starting together. */
#define PG_MIGRATE_LOCK 0x61676f7261 /* "agora" */

struct pg_conn {
    PGconn *db;
    const char *prepared[PG_STMTS_MAX]; /* by the SQL's address: its name is "a<index>" */
    int n_prepared;
    char why[ERROR_TEXT_MAX]; /* the last failure */
    char state[6];            /* its SQLSTATE, "" when not the database's */
    struct pg_conn *next;     /* the pool's free list */
};

struct pg_store {
    struct store base; /* first: a struct store * is a struct pg_store * */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pg_conn *conns, *free;
    int size;
    bool power_loss;
    char *url;
    /* The LISTEN connections, apart from the pool, one a channel: wait_events'
     * (events.c) and wait_jobs' (jobs.c); one waiter at a time holds each. */
    struct pg_listen {
        pthread_mutex_t mu;
        PGconn *db;
        int64_t mark; /* the waiter's own note, -1 on each new connection */
    } listen[PG_CHANNELS];
};

/* The channels' names, by enum pg_channel. */
static const char *const channel_names[PG_CHANNELS] = {
    [PG_CHANNEL_EVENTS] = PG_EVENTS_CHANNEL,
    [PG_CHANNEL_JOBS] = PG_JOBS_CHANNEL,
};

/* libpq's messages as one line (private.h). */
void pg_one_line(char *dst, size_t size, const char *msg)
{
    snprintf(dst, size, "%s", msg && msg[0] ? msg : "unknown error");
    size_t n = 0;
    for (char *p = dst; *p; p++) {
        if (*p == '\n' || *p == '\t' || *p == '\r')
            *p = ' ';
    }
    n = strlen(dst);
    while (n > 0 && dst[n - 1] == ' ')
        dst[--n] = 0;
    char *w = dst; /* runs of spaces as one */
    for (const char *r = dst; *r; r++)
        if (!(*r == ' ' && w > dst && w[-1] == ' '))
            *w++ = *r;
    *w = 0;
}

static void keep_error(struct pg_conn *c, const PGresult *r)
{
    pg_one_line(c->why, sizeof c->why, r ? PQresultErrorMessage(r) : PQerrorMessage(c->db));
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    snprintf(c->state, sizeof c->state, "%s", st ? st : "");
}

int pg_why(struct pg_conn *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    c->state[0] = 0;
    return -1;
}

/* The NOTICEs of CREATE ... IF NOT EXISTS and the like are nobody's business. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* The session's settings, after every (re)connection. */
static int session_setup(struct pg_store *s, struct pg_conn *c)
{
    c->n_prepared = 0; /* a new session has none */
    PQsetNoticeProcessor(c->db, quiet, NULL);
    const char *sql = s->power_loss ? "SET synchronous_commit = on" : "SELECT 1";
    PGresult *r = PQexec(c->db, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        keep_error(c, r);
    PQclear(r);
    return ok ? 0 : -1;
}

/* The connection broke (the database restarted, the session was ended): connect
 * again (true when that worked).  What ran on it before the break and was not
 * committed was rolled back by the database, so an operation may run again. */
static bool reconnected(struct pg_store *s, struct pg_conn *c)
{
    if (PQstatus(c->db) == CONNECTION_OK)
        return false;
    char why[ERROR_TEXT_MAX];
    memcpy(why, c->why, sizeof why);
    PQreset(c->db);
    bool ok = PQstatus(c->db) == CONNECTION_OK && session_setup(s, c) == 0;
    memcpy(c->why, why, sizeof why); /* the failure reported, should this one fail */
    return ok;
}

/* ---- the pool ---- */

static struct pg_conn *borrow(struct pg_store *s)
{
    pthread_mutex_lock(&s->mu);
    while (!s->free)
        pthread_cond_wait(&s->cv, &s->mu);
    struct pg_conn *c = s->free;
    s->free = c->next;
    pthread_mutex_unlock(&s->mu);
    c->why[0] = c->state[0] = 0;
    reconnected(s, c); /* lost earlier: try once to come back */
    return c;
}

static void give_back(struct pg_store *s, struct pg_conn *c)
{
    pthread_mutex_lock(&s->mu);
    c->next = s->free;
    s->free = c;
    pthread_cond_signal(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- statements ---- */

/* The prepared statement of `sql` on c, prepared now on its first use: its name. */
static const char *prepared(struct pg_conn *c, const char *sql, char *name, size_t size)
{
    int i = 0;
    while (i < c->n_prepared && c->prepared[i] != sql)
        i++;
    snprintf(name, size, "a%d", i);
    if (i < c->n_prepared)
        return name;
    if (i == PG_STMTS_MAX) {
        pg_why(c, "more than %d statements", PG_STMTS_MAX);
        return NULL;
    }
    PGresult *r = PQprepare(c->db, name, sql, 0, NULL);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        keep_error(c, r);
    PQclear(r);
    if (!ok)
        return NULL;
    c->prepared[c->n_prepared++] = sql;
    return name;
}

static PGresult *exec_va(struct pg_conn *c, const char *sql, const char *fmt, va_list ap)
{
    char name[16];
    const char *values[PG_PARAMS_MAX];
    char numbers[PG_PARAMS_MAX][32];
    int n = (int)strlen(fmt);
    if (n > PG_PARAMS_MAX) {
        pg_why(c, "too many parameters");
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        switch (fmt[i]) {
        case 't': {
            const char *t = va_arg(ap, const char *);
            values[i] = t ? t : "";
            break;
        }
        case 'i': snprintf(numbers[i], sizeof numbers[i], "%d", va_arg(ap, int)); break;
        case 'I':
            snprintf(numbers[i], sizeof numbers[i], "%lld", (long long)va_arg(ap, int64_t));
            break;
        case 'd': snprintf(numbers[i], sizeof numbers[i], "%.17g", va_arg(ap, double)); break;
        default: /* a typo in the backend: fail the statement rather than guess */
            pg_why(c, "bad parameter letter '%c'", fmt[i]);
            return NULL;
        }
        if (fmt[i] != 't')
            values[i] = numbers[i];
    }
    if (!prepared(c, sql, name, sizeof name))
        return NULL;
    PGresult *r = PQexecPrepared(c->db, name, n, values, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        keep_error(c, r);
        PQclear(r);
        return NULL;
    }
    return r;
}

PGresult *pg_exec(struct pg_conn *c, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PGresult *r = exec_va(c, sql, fmt, ap);
    va_end(ap);
    return r;
}

int pg_do(struct pg_conn *c, const char *sql, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PGresult *r = exec_va(c, sql, fmt, ap);
    va_end(ap);
    if (!r)
        return -1;
    int n = atoi(PQcmdTuples(r));
    PQclear(r);
    return n;
}

/* A statement without parameters, not prepared (BEGIN, COMMIT, migrations): 0 or -1. */
static int simple(struct pg_conn *c, const char *sql)
{
    PGresult *r = PQexec(c->db, sql);
    ExecStatusType st = PQresultStatus(r);
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : -1;
    if (rc)
        keep_error(c, r);
    PQclear(r);
    return rc;
}

static int db_fail(struct pg_conn *c, char *err, size_t err_size, const char *what)
{
    if (PQstatus(c->db) != CONNECTION_OK)
        store_note_away(); /* not the operation's fault: the database is away (503) */
    return fail(err, err_size, "database: %s: %s", what, c->why[0] ? c->why : "failed");
}

/* Retried: a deadlock (40P01) or a serialisation failure (40001). */
static bool retry(const struct pg_conn *c)
{
    return !strcmp(c->state, "40P01") || !strcmp(c->state, "40001");
}

char *pg_quote(struct pg_conn *c, const char *text)
{
    text = text ? text : "";
    char *q = PQescapeLiteral(c->db, text, strlen(text));
    if (!q)
        keep_error(c, NULL);
    return q;
}

int pg_exec_commit(struct pg_conn *c, const char *sql, PGresult **rows)
{
    *rows = NULL;
    if (!PQsendQuery(c->db, sql)) {
        keep_error(c, NULL);
        return -1;
    }
    bool failed = false, committed = false;
    PGresult *r;
    while ((r = PQgetResult(c->db))) {
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_TUPLES_OK && !failed) {
            PQclear(*rows); /* the last statement's rows are kept */
            *rows = r;
            continue;
        }
        if (st == PGRES_COMMAND_OK && !strcmp(PQcmdStatus(r), "COMMIT"))
            committed = true;
        else if (st != PGRES_COMMAND_OK && !failed) {
            failed = true;
            keep_error(c, r);
        }
        PQclear(r);
    }
    if (committed && !failed)
        return 0;
    if (!failed)
        pg_why(c, "not committed");
    PQclear(*rows);
    *rows = NULL;
    return -1;
}

/* fn in a transaction begun by `begin`, with the event `ev` (NULL: none) appended and
 * committed with it (pg_events_commit, one message) when fn changed something, *seq
 * its number. */
static int in_transaction(struct store *base, const char *begin, pg_fn fn, void *ctx,
                          const struct pg_event *ev, int64_t *seq, const char *what, char *err,
                          size_t err_size)
{
    struct pg_store *s = (struct pg_store *)base;
    struct pg_conn *c = borrow(s);
    int rc = -1;
    for (int tries = 0; tries < PG_WRITE_TRIES; tries++) {
        if (simple(c, begin) != 0) {
            if (reconnected(s, c))
                continue;
            break;
        }
        rc = fn(c, ctx);
        if (rc == 0 && (ev ? pg_events_commit(c, ev, seq) : simple(c, "COMMIT")) == 0)
            break;
        /* A broken connection before the COMMIT: nothing was done, run it again.
         * During the COMMIT it is unknown whether it was done: a failure. */
        bool committing = rc == 0;
        if (rc == 0)
            rc = -1; /* the COMMIT failed: rolled back already */
        if (rc < 0 && !committing && reconnected(s, c))
            continue;
        char why[ERROR_TEXT_MAX], state[6];
        memcpy(why, c->why, sizeof why);
        memcpy(state, c->state, sizeof state);
        simple(c, "ROLLBACK");
        memcpy(c->why, why, sizeof why);
        memcpy(c->state, state, sizeof state);
        if (rc > 0 || !retry(c))
            break;
    }
    if (rc < 0)
        db_fail(c, err, err_size, what);
    give_back(s, c);
    return rc;
}

int pg_store_write(struct store *s, pg_fn fn, void *ctx, const char *what, char *err,
                   size_t err_size)
{
    const struct store_attached_event *a = store_event_take();
    if (!a)
        return in_transaction(s, "BEGIN", fn, ctx, NULL, NULL, what, err, err_size);
    struct pg_event ev = {a->game_id, a->kind, a->body, a->now_ms};
    int64_t seq = 0;
    int rc = in_transaction(s, "BEGIN", fn, ctx, &ev, &seq, what, err, err_size);
    if (rc == 0)
        store_event_committed(a, seq);
    return rc;
}

int pg_store_write_event(struct store *s, pg_fn fn, void *ctx, const struct pg_event *ev,
                         int64_t *seq, const char *what, char *err, size_t err_size)
{
    store_event_take(); /* this operation's event is ev */
    return in_transaction(s, "BEGIN", fn, ctx, ev, seq, what, err, err_size);
}

int pg_store_read(struct store *s, pg_fn fn, void *ctx, const char *what, char *err,
                  size_t err_size)
{
    return in_transaction(s, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", fn, ctx, NULL, NULL,
                          what, err, err_size);
}

PGresult *pg_store_query(struct store *base, const char *what, char *err, size_t err_size,
                         const char *sql, const char *fmt, ...)
{
    struct pg_store *s = (struct pg_store *)base;
    struct pg_conn *c = borrow(s);
    va_list ap;
    va_start(ap, fmt);
    PGresult *r = exec_va(c, sql, fmt, ap);
    va_end(ap);
    if (!r && reconnected(s, c)) { /* one statement, not committed if it broke: again */
        va_start(ap, fmt);
        r = exec_va(c, sql, fmt, ap);
        va_end(ap);
    }
    if (!r)
        db_fail(c, err, err_size, what);
    give_back(s, c);
    return r;
}

/* ---- columns ---- */

void pg_col_text(const PGresult *r, int row, int col, char *dst, size_t size)
{
    snprintf(dst, size, "%s", PQgetvalue(r, row, col));
}

int pg_col_int(const PGresult *r, int row, int col)
{
    return (int)strtol(PQgetvalue(r, row, col), NULL, 10);
}

int64_t pg_col_int64(const PGresult *r, int row, int col)
{
    return (int64_t)strtoll(PQgetvalue(r, row, col), NULL, 10);
}

double pg_col_double(const PGresult *r, int row, int col)
{
    return strtod(PQgetvalue(r, row, col), NULL);
}

int pg_one(PGresult *r, void (*read)(void *ctx, const PGresult *r), void *ctx)
{
    if (!r)
        return -1;
    int rc = PQntuples(r) > 0 ? 0 : 1;
    if (rc == 0)
        read(ctx, r);
    PQclear(r);
    return rc;
}

/* ---- the listener ---- */

PGconn *pg_listener(struct store *base, enum pg_channel channel)
{
    struct pg_listen *l = &((struct pg_store *)base)->listen[channel];
    pthread_mutex_lock(&l->mu);
    if (l->db && PQstatus(l->db) == CONNECTION_OK)
        return l->db;
    PQfinish(l->db);
    l->mark = -1;
    l->db = PQconnectdb(((struct pg_store *)base)->url);
    if (l->db && PQstatus(l->db) == CONNECTION_OK) {
        PQsetNoticeProcessor(l->db, quiet, NULL);
        const char *name = channel_names[channel];
        char *quoted = PQescapeIdentifier(l->db, name, strlen(name));
        char sql[128];
        snprintf(sql, sizeof sql, "LISTEN %s", quoted ? quoted : "\"\"");
        PQfreemem(quoted);
        PGresult *r = PQexec(l->db, sql);
        bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        if (ok)
            return l->db;
    }
    return l->db; /* not CONNECTION_OK: the caller says why, then gives it back */
}

int64_t *pg_listener_mark(struct store *base, enum pg_channel channel)
{
    return &((struct pg_store *)base)->listen[channel].mark;
}

void pg_listener_done(struct store *base, enum pg_channel channel)
{
    pthread_mutex_unlock(&((struct pg_store *)base)->listen[channel].mu);
}

/* ---- the schema ---- */

static long long wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Bring the database to the last migration, all in one transaction under an advisory
 * lock (servers starting together on an empty database: one migrates, the others
 * then find it done): 0, or -1 with the reason in err. */
static int migrate(struct pg_conn *c, char *err, size_t err_size)
{
    char sql[200];
    snprintf(sql, sizeof sql, "BEGIN; SELECT pg_advisory_xact_lock(%lld)",
             (long long)PG_MIGRATE_LOCK);
    if (simple(c, sql) != 0 ||
        simple(c, "CREATE TABLE IF NOT EXISTS schema_version ("
                  " version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)") != 0) {
        simple(c, "ROLLBACK");
        return fail(err, err_size, "cannot set up the database: %s", c->why);
    }
    PGresult *r = PQexec(c->db, "SELECT COALESCE(max(version), 0) FROM schema_version");
    int v = PQresultStatus(r) == PGRES_TUPLES_OK ? pg_col_int(r, 0, 0) : -1;
    if (v < 0)
        keep_error(c, r);
    PQclear(r);
    if (v > store_migrations_count) {
        simple(c, "ROLLBACK");
        return store_migrations_newer(err, err_size, v);
    }
    for (; v >= 0 && v < store_migrations_count; v++) {
        const struct store_migration *m = &store_migrations[v];
        snprintf(sql, sizeof sql,
                 "INSERT INTO schema_version (version, applied_ms) VALUES (%d, %lld)", m->version,
                 wall_ms());
        if (simple(c, m->postgres) != 0 || simple(c, sql) != 0) {
            char why[ERROR_TEXT_MAX];
            snprintf(why, sizeof why, "%s", c->why);
            simple(c, "ROLLBACK");
            return fail(err, err_size, "cannot set up the database: migration %d (%s): %s",
                        m->version, m->what, why);
        }
    }
    if (v < 0 || simple(c, "COMMIT") != 0) {
        char why[ERROR_TEXT_MAX];
        snprintf(why, sizeof why, "%s", c->why);
        simple(c, "ROLLBACK");
        return fail(err, err_size, "cannot set up the database: %s", why);
    }
    return 0;
}

/* ---- open and close ---- */

static void pg_close(struct store *base)
{
    struct pg_store *s = (struct pg_store *)base;
    if (!s)
        return;
    for (int i = 0; i < s->size; i++)
        PQfinish(s->conns[i].db);
    free(s->conns);
    free(s->url);
    for (int i = 0; i < PG_CHANNELS; i++) {
        PQfinish(s->listen[i].db);
        pthread_mutex_destroy(&s->listen[i].mu);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}

static const struct store_ops pg_ops = {
#define STORE_OP(name, params, args) .name = pg_store_##name,
#include "store/store_ops.def"
#undef STORE_OP
    .close = pg_close,
};

struct store *store_postgres_open(const char *url, int pool, enum store_durability durability,
                                  char *err, size_t err_size)
{
    if (pool < 1)
        pool = 1;
    struct pg_store *s = calloc(1, sizeof *s);
    if (s) {
        s->conns = calloc((size_t)pool, sizeof *s->conns);
        s->url = strdup(url);
    }
    if (!s || !s->conns || !s->url) {
        if (s) {
            free(s->conns);
            free(s->url);
        }
        free(s);
        fail(err, err_size, "out of memory");
        return NULL;
    }
    s->base.ops = &pg_ops;
    s->power_loss = durability == STORE_SURVIVES_POWER_LOSS;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    for (int i = 0; i < PG_CHANNELS; i++)
        pthread_mutex_init(&s->listen[i].mu, NULL);
    for (; s->size < pool; s->size++) {
        struct pg_conn *c = &s->conns[s->size];
        c->db = PQconnectdb(url);
        if (!c->db) {
            fail(err, err_size, "out of memory");
            s->size++;
            pg_close(&s->base);
            return NULL;
        }
        if (PQstatus(c->db) != CONNECTION_OK || session_setup(s, c) != 0) {
            if (PQstatus(c->db) != CONNECTION_OK)
                keep_error(c, NULL);
            fail(err, err_size, "cannot connect to the database: %s", c->why);
            s->size++;
            pg_close(&s->base);
            return NULL;
        }
        if (s->size == 0 && migrate(c, err, err_size) != 0) {
            s->size++;
            pg_close(&s->base);
            return NULL;
        }
        c->next = s->free;
        s->free = c;
    }
    return &s->base;
}
