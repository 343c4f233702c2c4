/* The SQLite backend of the store: one connection in WAL mode, prepared statements,
 * one mutex.  SQLite serialises writers anyway, and the server keeps the active games
 * in memory, so reads here are rare (loading a game, listing a visitor's games): one
 * connection under a mutex is simpler than a pool and not slower.
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

#include "checkpoint.h"
#include "core/error.h"
#include "sqlite_private.h"
#include "store.h"
#include "store_puzzles.h"

enum stmt_id {
    ST_INSERT_GAME,
    ST_INSERT_MOVE,
    ST_UPDATE_GAME,
    ST_SELECT_GAME,
    ST_SELECT_MOVES,
    ST_SELECT_BY_TOKEN,
    ST_GAME_EXISTS,
    ST_PUT_REVIEW,
    ST_GET_REVIEW,
    ST_DELETE_MOVES,
    ST_COUNT_TAKEBACK,
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_COUNT
};

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
    " black_rating_after"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_INSERT_GAME] = "INSERT INTO games (id, game, level, human_side, start, token_hash, seed,"
                       " created_ms, updated_ms, result, reason, plies)"
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0)",
    [ST_INSERT_MOVE] = "INSERT INTO moves (game_id, ply, move, created_ms) VALUES (?1, ?2, ?3, ?4)",
    [ST_UPDATE_GAME] = "UPDATE games SET result = ?2, reason = ?3, updated_ms = ?4,"
                       " plies = COALESCE(?5, plies) WHERE id = ?1",
    [ST_SELECT_GAME] = "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1",
    [ST_SELECT_MOVES] = "SELECT ply, move FROM moves WHERE game_id = ?1 ORDER BY ply",
    [ST_SELECT_BY_TOKEN] = "SELECT " GAME_COLUMNS " FROM games"
                           " WHERE token_hash = ?1 OR white_hash = ?1 OR black_hash = ?1"
                           " ORDER BY created_ms DESC, id LIMIT ?2",
    [ST_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = ?1",
    [ST_PUT_REVIEW] = "INSERT OR REPLACE INTO reviews (id, game, created_ms, body)"
                      " VALUES (?1, ?2, ?3, ?4)",
    [ST_GET_REVIEW] = "SELECT body FROM reviews WHERE id = ?1",
    [ST_DELETE_MOVES] = "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
    [ST_COUNT_TAKEBACK] =
        "UPDATE games SET takebacks = takebacks + 1, updated_ms = ?2 WHERE id = ?1"
        " AND result = 0",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT w",
    [ST_RELEASE] = "RELEASE w",
    [ST_ROLLBACK_TO] = "ROLLBACK TO w",
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
    /* 3 -> 4: puzzles: ratings of players and puzzles, and the attempts (store_puzzles.c) */
    STORE_PUZZLES_SCHEMA,
    /* 4 -> 5: the puzzles served to each token, when (issue 25: issued tokens only) */
    STORE_PUZZLES_SERVED_SCHEMA,
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

/* One queued write. */
enum write_kind { W_GAME, W_MOVE, W_RESULT, W_TAKEBACK, W_CUSTOM };
struct write {
    enum write_kind kind;
    sqlite_fn fn; /* W_CUSTOM: the write (sqlite_private.h), its context and name */
    void *ctx;
    const char *what;
    const struct store_game *row; /* W_GAME */
    const char *id;
    const char *const *moves; /* W_MOVE: `count` of them from ply `ply`; W_TAKEBACK: keep `ply` */
    int ply, count, result, reason;
    int64_t now_ms;
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

static void copy_text(char *dst, size_t size, const unsigned char *src)
{
    snprintf(dst, size, "%s", src ? (const char *)src : "");
}

static void read_game_row(sqlite3_stmt *st, struct store_game *row)
{
    memset(row, 0, sizeof *row);
    copy_text(row->id, sizeof row->id, sqlite3_column_text(st, 0));
    copy_text(row->game, sizeof row->game, sqlite3_column_text(st, 1));
    row->level = sqlite3_column_int(st, 2);
    row->human_side = sqlite3_column_int(st, 3);
    copy_text(row->start, sizeof row->start, sqlite3_column_text(st, 4));
    copy_text(row->token_hash, sizeof row->token_hash, sqlite3_column_text(st, 5));
    row->seed = (uint64_t)sqlite3_column_int64(st, 6);
    row->created_ms = sqlite3_column_int64(st, 7);
    row->updated_ms = sqlite3_column_int64(st, 8);
    row->result = sqlite3_column_int(st, 9);
    row->reason = sqlite3_column_int(st, 10);
    row->plies = sqlite3_column_int(st, 11);
    row->takebacks = sqlite3_column_int(st, 12);
    row->people = sqlite3_column_int(st, 13);
    copy_text(row->white_hash, sizeof row->white_hash, sqlite3_column_text(st, 14));
    copy_text(row->black_hash, sizeof row->black_hash, sqlite3_column_text(st, 15));
    copy_text(row->white_name, sizeof row->white_name, sqlite3_column_text(st, 16));
    copy_text(row->black_name, sizeof row->black_name, sqlite3_column_text(st, 17));
    row->clock_initial_ms = sqlite3_column_int64(st, 18);
    row->clock_increment_ms = sqlite3_column_int64(st, 19);
    row->days = sqlite3_column_int(st, 20);
    row->rated = sqlite3_column_int(st, 21);
    row->draw_offer = sqlite3_column_int(st, 22);
    row->takeback_offer = sqlite3_column_int(st, 23);
    row->rematch_offer = sqlite3_column_int(st, 24);
    copy_text(row->rematch_id, sizeof row->rematch_id, sqlite3_column_text(st, 25));
    row->deadline_ms = sqlite3_column_int64(st, 26);
    row->white_rating = sqlite3_column_int(st, 27);
    row->black_rating = sqlite3_column_int(st, 28);
    row->rated_done = sqlite3_column_int(st, 29);
    copy_text(row->club_id, sizeof row->club_id, sqlite3_column_text(st, 30));
    row->white_rating_after = sqlite3_column_int(st, 31);
    row->black_rating_after = sqlite3_column_int(st, 32);
}

const char sqlite_select_game_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1";
const char sqlite_club_games_sql[] = "SELECT " GAME_COLUMNS " FROM games WHERE club_id = ?1"
                                     " ORDER BY created_ms DESC, id LIMIT ?2";

void sqlite_read_game_row(sqlite3_stmt *st, struct store_game *row)
{
    read_game_row(st, row);
}

static int insert_game(struct sqlite_store *s, const struct store_game *row)
{
    sqlite3_stmt *st = s->stmt[ST_INSERT_GAME];
    sqlite3_bind_text(st, 1, row->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, row->game, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, row->level);
    sqlite3_bind_int(st, 4, row->human_side);
    sqlite3_bind_text(st, 5, row->start, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, row->token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)row->seed);
    sqlite3_bind_int64(st, 8, row->created_ms);
    sqlite3_bind_int64(st, 9, row->updated_ms);
    sqlite3_bind_int(st, 10, row->result);
    sqlite3_bind_int(st, 11, row->reason);
    return run(s, st);
}

static int update_game(struct sqlite_store *s, const char *id, int result, int reason,
                       int64_t now_ms, int plies)
{
    sqlite3_stmt *st = s->stmt[ST_UPDATE_GAME];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, result);
    sqlite3_bind_int(st, 3, reason);
    sqlite3_bind_int64(st, 4, now_ms);
    if (plies >= 0)
        sqlite3_bind_int(st, 5, plies);
    else
        sqlite3_bind_null(st, 5);
    if (run(s, st) != 0)
        return -1;
    return sqlite3_changes(s->db) == 1 ? 0 : -1;
}

static int insert_moves(struct sqlite_store *s, const struct write *w)
{
    sqlite3_stmt *st = s->stmt[ST_GAME_EXISTS];
    sqlite3_bind_text(st, 1, w->id, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (!found)
        return -1;
    st = s->stmt[ST_INSERT_MOVE];
    for (int i = 0; i < w->count; i++) {
        sqlite3_bind_text(st, 1, w->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, w->ply + i);
        sqlite3_bind_text(st, 3, w->moves[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, w->now_ms);
        if (run(s, st) != 0)
            return -1;
    }
    /* The games row only when the game ends (see GAME_COLUMNS); it must exist. */
    if (w->result != 0)
        return update_game(s, w->id, w->result, w->reason, w->now_ms, w->ply + w->count - 1);
    return 0;
}

/* A takeback: the moves after ply w->ply go and the game's count of takebacks grows,
 * in the one transaction (of an unfinished game: none is taken back after the end). */
static int take_back(struct sqlite_store *s, const struct write *w)
{
    sqlite3_stmt *st = s->stmt[ST_COUNT_TAKEBACK];
    sqlite3_bind_text(st, 1, w->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, w->now_ms);
    if (run(s, st) != 0 || sqlite3_changes(s->db) != 1)
        return -1;
    st = s->stmt[ST_DELETE_MOVES];
    sqlite3_bind_text(st, 1, w->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, w->ply);
    return run(s, st);
}

static int write_one(struct sqlite_store *s, struct write *w)
{
    if (w->kind == W_CUSTOM) {
        int rc = w->fn(&s->base, s->db, w->ctx);
        if (rc > 0)
            w->rc = 1; /* refused: rolled back like a failure, without an error */
        return rc;
    }
    return w->kind == W_GAME       ? insert_game(s, w->row)
           : w->kind == W_MOVE     ? insert_moves(s, w)
           : w->kind == W_TAKEBACK ? take_back(s, w)
                                   : update_game(s, w->id, w->result, w->reason, w->now_ms, -1);
}

/* One write inside the open transaction, in its own savepoint when it shares the
 * transaction with others (alone, a failure rolls the transaction back instead). */
static void apply_write(struct sqlite_store *s, struct write *w, bool alone)
{
    static const char *const what[] = {"create game", "store moves", "end game", "take back",
                                       "write"};
    const char *name = w->kind == W_CUSTOM && w->what ? w->what : what[w->kind];
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
    struct write w = {.kind = W_CUSTOM, .fn = fn, .ctx = ctx, .what = what};
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

static int sq_create_game(struct store *base, const struct store_game *row, char *err,
                          size_t err_size)
{
    struct write w = {.kind = W_GAME, .row = row};
    return submit((struct sqlite_store *)base, &w, err, err_size);
}

static int sq_add_moves(struct store *base, const char *id, int first_ply, int count,
                        const char *const *moves, int result, int reason, int64_t now_ms, char *err,
                        size_t err_size)
{
    if (count < 1 || first_ply < 1)
        return fail(err, err_size, "store move: no moves given");
    struct write w = {.kind = W_MOVE,
                      .id = id,
                      .ply = first_ply,
                      .count = count,
                      .moves = moves,
                      .result = result,
                      .reason = reason,
                      .now_ms = now_ms};
    return submit((struct sqlite_store *)base, &w, err, err_size);
}

static int sq_set_result(struct store *base, const char *id, int result, int reason, int64_t now_ms,
                         char *err, size_t err_size)
{
    struct write w = {
        .kind = W_RESULT, .id = id, .result = result, .reason = reason, .now_ms = now_ms};
    return submit((struct sqlite_store *)base, &w, err, err_size);
}

static int sq_take_back(struct store *base, const char *id, int keep_plies, int64_t now_ms,
                        char *err, size_t err_size)
{
    if (keep_plies < 0)
        return fail(err, err_size, "take back: no ply given");
    struct write w = {.kind = W_TAKEBACK, .id = id, .ply = keep_plies, .now_ms = now_ms};
    return submit((struct sqlite_store *)base, &w, err, err_size);
}

static int sq_load_game(struct store *base, const char *id, struct store_game *row,
                        char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    *moves = NULL;
    *count = 0;
    pthread_mutex_lock(&s->mu);
    int rc = -1;
    sqlite3_stmt *st = s->stmt[ST_SELECT_GAME];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        read_game_row(st, row);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (step == SQLITE_DONE) {
        rc = 1;
        goto out;
    }
    if (step != SQLITE_ROW) {
        db_fail(s, err, err_size, "load game");
        goto out;
    }
    char(*list)[MOVE_TEXT_MAX] = malloc(MOVE_TEXT_MAX * (size_t)(row->plies + 1));
    if (!list) {
        fail(err, err_size, "out of memory");
        goto out;
    }
    int n = 0;
    st = s->stmt[ST_SELECT_MOVES];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    while ((step = sqlite3_step(st)) == SQLITE_ROW && n < row->plies) {
        if (sqlite3_column_int(st, 0) != n + 1)
            break;
        copy_text(list[n++], MOVE_TEXT_MAX, sqlite3_column_text(st, 1));
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (n != row->plies) {
        free(list);
        fail(err, err_size, "database: game %s has %d of its %d moves", id, n, row->plies);
        goto out;
    }
    *moves = list;
    *count = n;
    rc = 0;
out:
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static int sq_list_games(struct store *base, const char *token_hash, int limit, store_game_fn fn,
                         void *ctx, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st = s->stmt[ST_SELECT_BY_TOKEN];
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, limit);
    int step;
    struct store_game row;
    while ((step = sqlite3_step(st)) == SQLITE_ROW) {
        read_game_row(st, &row);
        fn(ctx, &row);
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    int rc = step == SQLITE_DONE ? 0 : db_fail(s, err, err_size, "list games");
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static int sq_put_review(struct store *base, const char *id, const char *game, const char *body,
                         int64_t now_ms, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    pthread_mutex_lock(&s->mu); /* one statement, its own transaction, between batches */
    sqlite3_stmt *st = s->stmt[ST_PUT_REVIEW];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, now_ms);
    sqlite3_bind_text(st, 4, body, -1, SQLITE_STATIC);
    int rc = run(s, st) == 0 ? 0 : db_fail(s, err, err_size, "store review");
    sqlite3_clear_bindings(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
}

static int sq_get_review(struct store *base, const char *id, char **body, char *err,
                         size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    *body = NULL;
    pthread_mutex_lock(&s->mu);
    sqlite3_stmt *st = s->stmt[ST_GET_REVIEW];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int step = sqlite3_step(st), rc;
    if (step == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        *body = strdup(t ? (const char *)t : "");
        rc = *body ? 0 : fail(err, err_size, "out of memory");
    } else {
        rc = step == SQLITE_DONE ? 1 : db_fail(s, err, err_size, "load review");
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    pthread_mutex_unlock(&s->mu);
    return rc;
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

static int sq_puzzle_player(struct store *base, const char *token_hash, const char *game,
                            struct store_puzzle_rating *out, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_player(s->db, &s->mu, token_hash, game, out, err, err_size);
}

static int sq_puzzle_ratings(struct store *base, store_puzzle_rating_fn fn, void *ctx, char *err,
                             size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_ratings(s->db, &s->mu, fn, ctx, err, err_size);
}

static int sq_puzzle_attempted(struct store *base, const char *token_hash, const char *game,
                               store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_attempted(s->db, &s->mu, token_hash, game, fn, ctx, err, err_size);
}

static int sq_puzzle_attempt(struct store *base, const struct store_puzzle_attempt *a, char *err,
                             size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_attempt(s->db, &s->mu, a, err, err_size);
}

static int sq_puzzle_serve(struct store *base, const char *token_hash, const char *puzzle_id,
                           int issued, int64_t now_ms, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_serve(s->db, &s->mu, token_hash, puzzle_id, issued, now_ms, err, err_size);
}

static int sq_puzzle_served(struct store *base, const char *token_hash, const char *puzzle_id,
                            int64_t *served_ms, char *err, size_t err_size)
{
    struct sqlite_store *s = (struct sqlite_store *)base;
    return store_puzzles_served(s->db, &s->mu, token_hash, puzzle_id, served_ms, err, err_size);
}

static const struct store_ops sqlite_ops = {
    .create_game = sq_create_game,
    .add_moves = sq_add_moves,
    .set_result = sq_set_result,
    .take_back = sq_take_back,
    .load_game = sq_load_game,
    .list_games = sq_list_games,
    .put_review = sq_put_review,
    .get_review = sq_get_review,
    SQLITE_PEOPLE_OPS,
    SQLITE_CLUB_OPS,
    .puzzle_player = sq_puzzle_player,
    .puzzle_ratings = sq_puzzle_ratings,
    .puzzle_attempted = sq_puzzle_attempted,
    .puzzle_attempt = sq_puzzle_attempt,
    .puzzle_serve = sq_puzzle_serve,
    .puzzle_served = sq_puzzle_served,
    .close = sq_close,
};

struct store *store_sqlite_open(const char *path, enum store_sync sync, char *err, size_t err_size)
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
             sync == STORE_SYNC_FULL ? "FULL" : "NORMAL", CKPT_WAL_LIMIT, CKPT_PAGES);
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
