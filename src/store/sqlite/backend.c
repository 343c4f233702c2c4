/* The SQLite backend of the store: one connection in WAL mode, prepared statements,
 * one mutex.  This file holds the connection (its schema and migrations, the group
 * commit, the statement cache, the table of operations); the operations are in one
 * file a concern beside it (games.c, reviews.c, people.c, ratings.c, clubs.c,
 * players.c, puzzles.c), over the statement helper (stmt.c).  SQLite serialises writers anyway, and
 * the server keeps the active games in memory, so reads here are rare (loading a game, listing a
 * visitor's games): one connection under a mutex is simpler than a pool and not slower.
 *
 * Writes use group commit: a writer queues its write and waits; whoever finds no
 * commit under way becomes the leader, takes every queued write, applies each inside
 * its own savepoint (one bad write fails alone) and commits them all with one fsync.
 * Writers arriving meanwhile queue up for the next leader.  Each write still returns
 * only after the COMMIT that holds it, so "acknowledged after commit" is kept, while
 * synchronous=FULL costs one fsync per batch instead of one per move. */
#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "store/sqlite/checkpoint.h"
#include "store/sqlite/private.h"
#include "store/sqlite/puzzles.h"
#include "store/sqlite/sqlite.h"
#include "store/store.h"

/* The group commit's own statements (the operations' are in the cache, extra[]). */
enum stmt_id {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE", [ST_COMMIT] = "COMMIT",     [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT w", [ST_RELEASE] = "RELEASE w", [ST_ROLLBACK_TO] = "ROLLBACK TO w",
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, level INTEGER NOT NULL,"
    " human_side INTEGER NOT NULL, start TEXT NOT NULL, token_hash TEXT NOT NULL,"
    " seed INTEGER NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"
    " result INTEGER NOT NULL, reason INTEGER NOT NULL, plies INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_by_token ON games (token_hash, created_ms);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game_id TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,"
    " created_ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;";

/* Migrations, by PRAGMA user_version: migration[v] takes a database of version v to
 * v + 1, in one transaction.  A database made before versions were kept is version 0
 * (the schema above, which every version has); only add to the end. */
static const char *const migration[] = {
    /* 0 -> 1: reviews of games and of imported records */
    "CREATE TABLE IF NOT EXISTS reviews ("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, created_ms INTEGER NOT NULL,"
    " body TEXT NOT NULL);",
    /* 1 -> 2: the count of takebacks of a game */
    "ALTER TABLE games ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 0;",
    /* 2 -> 3: games between people (store.h struct store_game), challenges and seeks,
     * players' display names */
    "ALTER TABLE games ADD COLUMN people INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN white_hash TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN black_hash TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN white_name TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN black_name TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN days INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN draw_offer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN takeback_offer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rematch_offer INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rematch_id TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN deadline_ms INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN white_rating INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN black_rating INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN rated_done INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN white_rating_after INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN black_rating_after INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN club_id TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX games_by_club ON games (club_id, created_ms) WHERE club_id <> '';"
    "CREATE INDEX games_by_white ON games (white_hash);"
    "CREATE INDEX games_by_black ON games (black_hash);"
    "CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms > 0 AND result = 0;"
    "CREATE TABLE challenges ("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, clock_initial_ms INTEGER NOT NULL,"
    " clock_increment_ms INTEGER NOT NULL, days INTEGER NOT NULL, side INTEGER NOT NULL,"
    " rated INTEGER NOT NULL, lobby INTEGER NOT NULL, creator_hash TEXT NOT NULL,"
    " creator_name TEXT NOT NULL, status INTEGER NOT NULL, game_id TEXT NOT NULL,"
    " created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL,"
    " creator_rating INTEGER NOT NULL DEFAULT 0, club_id TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX challenges_by_club ON challenges (club_id, status) WHERE club_id <> '';"
    "CREATE TABLE clubs ("
    " id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL,"
    " languages TEXT NOT NULL, invite TEXT NOT NULL, creator_hash TEXT NOT NULL,"
    " created_ms INTEGER NOT NULL);"
    "CREATE TABLE club_members ("
    " club_id TEXT NOT NULL, token_hash TEXT NOT NULL, member_id TEXT NOT NULL,"
    " name TEXT NOT NULL, role INTEGER NOT NULL, joined_ms INTEGER NOT NULL,"
    " PRIMARY KEY (club_id, token_hash)) WITHOUT ROWID;"
    "CREATE INDEX club_members_by_token ON club_members (token_hash);"
    "CREATE INDEX challenges_seeks ON challenges (lobby, status, expires_ms);"
    "CREATE TABLE players ("
    " token_hash TEXT PRIMARY KEY, name TEXT NOT NULL, created_ms INTEGER NOT NULL,"
    " updated_ms INTEGER NOT NULL);"
    "CREATE TABLE ratings ("
    " token_hash TEXT NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL, rating REAL NOT NULL,"
    " deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
    " updated_ms INTEGER NOT NULL, PRIMARY KEY (token_hash, game, class)) WITHOUT ROWID;",
    /* 3 -> 4: puzzles: ratings of players and puzzles, and the attempts (sqlite/puzzles.c) */
    STORE_PUZZLES_SCHEMA,
    /* 4 -> 5: a game asked rated and played unrated (the cap of rated games per pair) */
    "ALTER TABLE games ADD COLUMN rated_capped INTEGER NOT NULL DEFAULT 0;",
    /* 5 -> 6: the puzzles served to each token, when (issue 25: issued tokens only) */
    STORE_PUZZLES_SERVED_SCHEMA,
    /* 6 -> 7: players' public ids and hiding, their rating histories (the points of the
     * games rated before, without their deviations: 0), the leaderboards' index, and
     * what players did in the browser (progress: stars, bests, the repertoire) */
    "ALTER TABLE players ADD COLUMN id TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE players ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;"
    "UPDATE players SET id = lower(hex(randomblob(8)));"
    "CREATE UNIQUE INDEX players_by_id ON players (id);"
    "CREATE TABLE rating_history ("
    " token_hash TEXT NOT NULL, game_id TEXT NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL,"
    " rating REAL NOT NULL, deviation REAL NOT NULL, at_ms INTEGER NOT NULL,"
    " PRIMARY KEY (token_hash, game_id)) WITHOUT ROWID;"
    "CREATE INDEX rating_history_by_time ON rating_history (token_hash, at_ms);"
    "INSERT OR IGNORE INTO rating_history SELECT h, id, game, CASE WHEN days > 0 THEN"
    " 'correspondence' WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 480 THEN"
    " 'blitz' WHEN (clock_initial_ms + 40 * clock_increment_ms) / 1000 < 1500 THEN 'rapid'"
    " ELSE 'classical' END, after, 0, updated_ms FROM (SELECT white_hash AS h,"
    " white_rating_after AS after, * FROM games UNION ALL SELECT black_hash AS h,"
    " black_rating_after AS after, * FROM games) WHERE people = 1 AND rated_done = 1"
    " AND after <> 0;"
    "CREATE INDEX ratings_board ON ratings (game, class, rating);"
    "CREATE TABLE progress ("
    " token_hash TEXT PRIMARY KEY, body TEXT NOT NULL, version INTEGER NOT NULL,"
    " updated_ms INTEGER NOT NULL) WITHOUT ROWID;",
    /* 7 -> 8: tournaments (sqlite/tournaments.c), their entrants, and a game's
     * tournament, Swiss round and berserks */
    "ALTER TABLE games ADD COLUMN tournament_id TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE games ADD COLUMN round INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN berserk INTEGER NOT NULL DEFAULT 0;"
    "CREATE INDEX games_by_tournament ON games (tournament_id, created_ms)"
    " WHERE tournament_id <> '';"
    "CREATE TABLE tournaments ("
    " id TEXT PRIMARY KEY, kind INTEGER NOT NULL, name TEXT NOT NULL, game TEXT NOT NULL,"
    " clock_initial_ms INTEGER NOT NULL, clock_increment_ms INTEGER NOT NULL,"
    " days INTEGER NOT NULL, rated INTEGER NOT NULL, starts_ms INTEGER NOT NULL,"
    " duration_ms INTEGER NOT NULL, rounds INTEGER NOT NULL, min_rating INTEGER NOT NULL,"
    " max_rating INTEGER NOT NULL, club_id TEXT NOT NULL, creator_hash TEXT NOT NULL,"
    " creator_name TEXT NOT NULL, status INTEGER NOT NULL, round INTEGER NOT NULL,"
    " created_ms INTEGER NOT NULL);"
    "CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);"
    "CREATE INDEX tournaments_by_club ON tournaments (club_id, starts_ms) WHERE club_id <> '';"
    "CREATE TABLE tournament_entrants ("
    " tournament_id TEXT NOT NULL, token_hash TEXT NOT NULL, name TEXT NOT NULL,"
    " rating INTEGER NOT NULL, state INTEGER NOT NULL, joined_ms INTEGER NOT NULL,"
    " active_ms INTEGER NOT NULL, PRIMARY KEY (tournament_id, token_hash)) WITHOUT ROWID;",
};
#define SCHEMA_VERSION ((int)(sizeof migration / sizeof migration[0]))

static int user_version(sqlite3 *db)
{
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Bring the database to SCHEMA_VERSION; 0, or -1 with *msg (sqlite3_free). */
static int migrate(sqlite3 *db, char **msg)
{
    int v = user_version(db);
    if (v < 0)
        return -1;
    if (v > SCHEMA_VERSION) {
        *msg = sqlite3_mprintf("the database is of a newer version (%d, this server knows %d)", v,
                               SCHEMA_VERSION);
        return -1;
    }
    for (; v < SCHEMA_VERSION; v++) {
        char bump[64];
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d;", v + 1);
        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, msg) != SQLITE_OK)
            return -1;
        if (sqlite3_exec(db, migration[v], NULL, NULL, msg) != SQLITE_OK ||
            sqlite3_exec(db, bump, NULL, NULL, msg) != SQLITE_OK ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, msg) != SQLITE_OK) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return 0;
}

/* One queued write: an operation's (private.h), its context and name. */
struct write {
    sqlite_fn fn;
    void *ctx;
    const char *what;
    int rc;
    bool done;
    char err[ERROR_TEXT_MAX];
    struct write *next;
};

struct sqlite_store {
    struct store base; /* first: a struct store * is a struct sqlite_store * */
    sqlite3 *db;
    pthread_mutex_t mu; /* the connection */
    sqlite3_stmt *stmt[ST_COUNT];
    /* Group commit: the queue and whether a leader is committing. */
    pthread_mutex_t q_mu;
    pthread_cond_t q_cv;
    struct write *q_head, *q_tail;
    bool committing;
    struct checkpointer *ckpt; /* NULL: SQLite's own checkpoints (in-memory databases) */
    /* Statements of the backend's other files (sqlite_store_stmt), by their SQL. */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } extra[SQLITE_EXTRA_STMTS];
};

static int db_fail(struct sqlite_store *s, char *err, size_t err_size, const char *what)
{
    return fail(err, err_size, "database: %s: %s", what, sqlite3_errmsg(s->db));
}

/* Run a prepared statement that returns no rows, and reset it. */
static int run(struct sqlite_store *s, sqlite3_stmt *st)
{
    (void)s;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

static int write_one(struct sqlite_store *s, struct write *w)
{
    int rc = w->fn(&s->base, s->db, w->ctx);
    if (rc > 0)
        w->rc = 1; /* refused: rolled back like a failure, without an error */
    return rc;
}

/* One write inside the open transaction, in its own savepoint when it shares the
 * transaction with others (alone, a failure rolls the transaction back instead). */
static void apply_write(struct sqlite_store *s, struct write *w, bool alone)
{
    const char *name = w->what ? w->what : "write";
    if (alone) {
        int rc = write_one(s, w);
        if (rc < 0)
            w->rc = db_fail(s, w->err, sizeof w->err, name);
        else if (rc > 0)
            w->err[0] = 0;
        return;
    }
    if (run(s, s->stmt[ST_SAVEPOINT]) != 0) {
        w->rc = db_fail(s, w->err, sizeof w->err, "savepoint");
        return;
    }
    int rc = write_one(s, w);
    if (rc != 0) {
        if (rc < 0)
            w->rc = db_fail(s, w->err, sizeof w->err, name);
        else
            w->err[0] = 0;
        run(s, s->stmt[ST_ROLLBACK_TO]);
    }
    run(s, s->stmt[ST_RELEASE]);
}

/* Commit a batch (a list of writes) in one transaction. */
static void commit_batch(struct sqlite_store *s, struct write *batch)
{
    pthread_mutex_lock(&s->mu);
    char err[ERROR_TEXT_MAX];
    int rc = run(s, s->stmt[ST_BEGIN]) == 0 ? 0 : db_fail(s, err, sizeof err, "begin");
    bool alone = batch && !batch->next;
    for (struct write *w = batch; w && rc == 0; w = w->next)
        apply_write(s, w, alone);
    if (alone && batch->rc != 0) {
        run(s, s->stmt[ST_ROLLBACK]);
        pthread_mutex_unlock(&s->mu);
        return;
    }
    if (rc == 0 && run(s, s->stmt[ST_COMMIT]) != 0) {
        rc = db_fail(s, err, sizeof err, "commit");
        run(s, s->stmt[ST_ROLLBACK]);
    }
    if (rc != 0)
        for (struct write *w = batch; w; w = w->next) {
            w->rc = -1; /* a refused write (rc 1) was rolled back too: now an error */
            snprintf(w->err, sizeof w->err, "%s", err);
        }
    pthread_mutex_unlock(&s->mu);
}

static int submit(struct sqlite_store *s, struct write *w, char *err, size_t err_size)
{
    w->next = NULL;
    w->rc = 0;
    w->done = false;
    pthread_mutex_lock(&s->q_mu);
    if (s->q_tail)
        s->q_tail->next = w;
    else
        s->q_head = w;
    s->q_tail = w;
    while (!w->done) {
        if (s->committing) {
            pthread_cond_wait(&s->q_cv, &s->q_mu);
            continue;
        }
        /* Lead: take the whole queue (this write is in it). */
        struct write *batch = s->q_head;
        s->q_head = s->q_tail = NULL;
        s->committing = true;
        pthread_mutex_unlock(&s->q_mu);
        commit_batch(s, batch);
        pthread_mutex_lock(&s->q_mu);
        for (struct write *b = batch, *next; b; b = next) {
            next = b->next; /* b may go as soon as done is seen */
            b->done = true;
        }
        s->committing = false;
        pthread_cond_broadcast(&s->q_cv);
    }
    pthread_mutex_unlock(&s->q_mu);
    if (w->rc != 0)
        fail(err, err_size, "%s", w->err);
    return w->rc;
}

int sqlite_store_write(struct store *base, sqlite_fn fn, void *ctx, const char *what, char *err,
                       size_t err_size)
{
    struct write w = {.fn = fn, .ctx = ctx, .what = what};
    return submit((struct sqlite_store *)base, &w, err, err_size);
}

int sqlite_store_read(struct store *base, sqlite_fn fn, void *ctx, const char *what, char *err,
                      size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    pthread_mutex_lock(&s->mu);
    int rc = fn(base, s->db, ctx);
    if (rc < 0)
        db_fail(s, err, err_size, what);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

sqlite3_stmt *sqlite_store_stmt(struct store *base, const char *sql)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    for (int i = 0; i < SQLITE_EXTRA_STMTS; i++) {
        if (s->extra[i].sql == sql)
            return s->extra[i].st;
        if (!s->extra[i].sql) {
            if (sqlite3_prepare_v2(s->db, sql, -1, &s->extra[i].st, NULL) != SQLITE_OK)
                return NULL;
            s->extra[i].sql = sql;
            return s->extra[i].st;
        }
    }
    return NULL;
}

static void sq_close(struct store *base)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    if (!s)
        return;
    checkpointer_stop(s->ckpt);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    for (int i = 0; i < SQLITE_EXTRA_STMTS; i++)
        sqlite3_finalize(s->extra[i].st);
    sqlite3_close(s->db);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->q_mu);
    pthread_cond_destroy(&s->q_cv);
    free(s);
}

static const struct store_ops sqlite_ops = {
#define STORE_OP(name, params, args) .name = sqlite_store_##name,
#include "store/store_ops.def"
#undef STORE_OP
    .close = sq_close,
};

struct store *store_sqlite_open(const char *path, enum store_durability durability, char *err,
                                size_t err_size)
{
    struct sqlite_store *s = calloc(1, sizeof *s);
    if (!s) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    s->base.ops = &sqlite_ops;
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->q_mu, NULL);
    pthread_cond_init(&s->q_cv, NULL);
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        fail(err, err_size, "cannot open database '%s': %s", path,
             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sq_close(&s->base);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char pragmas[256];
    /* The WAL bounded (checkpoint.h): checkpoints at CKPT_PAGES (SQLite's own, when the
     * checkpointer thread is not running) and the file cut back to CKPT_WAL_LIMIT. */
    snprintf(pragmas, sizeof pragmas,
             "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s; PRAGMA journal_size_limit=%d; "
             "PRAGMA wal_autocheckpoint=%d;",
             durability == STORE_SURVIVES_POWER_LOSS ? "FULL" : "NORMAL", CKPT_WAL_LIMIT,
             CKPT_PAGES);
    char *msg = NULL;
    if (sqlite3_exec(s->db, pragmas, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK || migrate(s->db, &msg) != 0) {
        fail(err, err_size, "cannot set up database '%s': %s", path, msg ? msg : "?");
        sqlite3_free(msg);
        sq_close(&s->base);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, stmt_sql[i], -1, &s->stmt[i], NULL) != SQLITE_OK) {
            db_fail(s, err, err_size, "prepare");
            sq_close(&s->base);
            return NULL;
        }
    /* A file in WAL mode: checkpoints off the commit path (without the thread,
     * SQLite's own ones remain, which is correct, only slower). */
    if (strcmp(path, ":memory:") != 0 && path[0])
        s->ckpt = checkpointer_start(path, s->db, &s->mu);
    return &s->base;
}
