/* The PostgreSQL backend's hot reads use their indexes on a grown database: a game
 * read (its moves counted and dated by a correlated subquery), its moves, a move's
 * insert, and a tournament's entrants with their players.  A comparison between two
 * columns of different collations takes the non-default one, and an index in the
 * other cannot serve it: the game read once scanned every move of every game (3.3 ms
 * of PostgreSQL's CPU a move with 500 games under way).  Each plan is asked of the
 * statement as the backend sends it (its own text, prepared with a parameter) after
 * ANALYZE, with sequential scans priced out: a table read whole even then is one no
 * index can serve. */
#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/postgres/private.h"
#include "store/store.h"

/* Runs sql on c: 0 when it succeeded. */
static int run_sql(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

/* The plan of the prepared statement sql run with arg, its lines joined, into out. */
static void plan_of(PGconn *c, const char *sql, const char *arg, char *out, size_t size)
{
    out[0] = 0;
    run_sql(c, "DEALLOCATE ALL");
    PGresult *r = PQprepare(c, "plan_probe", sql, 0, NULL);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        snprintf(out, size, "not prepared: %s", PQerrorMessage(c));
        return;
    }
    char explain[256];
    snprintf(explain, sizeof explain, "EXPLAIN EXECUTE plan_probe('%s')", arg);
    r = PQexec(c, explain);
    size_t used = 0;
    for (int i = 0; PQresultStatus(r) == PGRES_TUPLES_OK && i < PQntuples(r); i++) {
        int n = snprintf(out + used, size - used, "%s\n", PQgetvalue(r, i, 0));
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    PQclear(r);
}

TEST(store_postgres_hot_reads_use_their_indexes)
{
    if (!fx_on_postgres())
        SKIP("PostgreSQL only (tests/pg-run): SQLite's plans are its own");
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "store_open: %s", err);
    if (!s)
        return;
    PGconn *c = PQconnectdb(url);
    CHECK(PQstatus(c) == CONNECTION_OK);
    /* 2000 games of 40 moves, 2000 players, one tournament of 20 entrants. */
    CHECK_EQ_INT(run_sql(c, "INSERT INTO games (id, game, level, human_side, start, token_hash,"
                            " seed, created_ms, updated_ms, result, reason, plies)"
                            " SELECT 'g' || i, 'chess', 0, 0, '', 't' || i, 0, i, i, 0, 0, 40"
                            " FROM generate_series(1, 2000) i"),
                 0);
    CHECK_EQ_INT(run_sql(c, "INSERT INTO moves (game_id, ply, move, created_ms)"
                            " SELECT 'g' || (i / 40 + 1), i % 40, 'e4', i"
                            " FROM generate_series(0, 79999) i"),
                 0);
    CHECK_EQ_INT(run_sql(c,
                         "INSERT INTO players (token_hash, name, created_ms, updated_ms, id)"
                         " SELECT 't' || i, 'p', 0, 0, 'p' || i FROM generate_series(1, 2000) i"),
                 0);
    CHECK_EQ_INT(run_sql(c, "INSERT INTO tournament_entrants (tournament_id, token_hash, name,"
                            " rating, state, joined_ms, active_ms)"
                            " SELECT 'T', 't' || i, 'p', 1500, 0, i, i"
                            " FROM generate_series(1, 20) i"),
                 0);
    CHECK_EQ_INT(run_sql(c, "ANALYZE"), 0);
    CHECK_EQ_INT(run_sql(c, "SET enable_seqscan = off"), 0);
    char plan[4096];
    plan_of(c, pg_select_game_sql, "g7", plan, sizeof plan);
    CHECK_MSG(strstr(plan, "moves_pkey") && !strstr(plan, "Seq Scan on moves"), "%s", plan);
    plan_of(c, "SELECT ply, move FROM moves WHERE game_id = $1 ORDER BY ply", "g7", plan,
            sizeof plan);
    CHECK_MSG(strstr(plan, "moves_pkey") && !strstr(plan, "Seq Scan on moves"), "%s", plan);
    plan_of(c, pg_entrants_sql, "T", plan, sizeof plan);
    CHECK_MSG(plan[0] && !strstr(plan, "Seq Scan on players") && !strstr(plan, "not prepared"),
              "%s", plan);
    PQfinish(c);
    store_close(s);
}
