/* Migration 10 (src/store/migrations.c: notifications, links, devices, passkeys, public
 * clubs) on a database of version 9 (main's before it): the tables are made, a player
 * known before is told of a challenge accepted.  The players' migration (9, main's
 * user_version 7: players' public ids, the rating history, the progress table) on a
 * database of main's user_version 6 (before schema_version) with players and a rated
 * game: every player gets an id, and the rated game becomes a point of both histories,
 * of its class, without a deviation (none was kept then). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The SQLite file itself, also under tests/pg-run: the test rewrites it. */
static struct server *start_at(const char *db)
{
    char url[300];
    snprintf(url, sizeof url, "sqlite:%s", db);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.db_path = url;
    return fx_start(&cfg);
}

/* Take a database of today's version back to main's user_version 6, as a server
 * before issue 28 left it: without the players' migration, the events (8) and the
 * schema_version table (SQLite 3.35 drops columns). */
static int back_to_six(const char *path)
{
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -1;
    int rc =
        sqlite3_exec(db,
                     /* 15's engine jobs, 14's seek places, 13's presence, 12's rate buckets (its
                      * index on the events goes with them), 11's tournaments, 10's identity */
                     "DROP TABLE engine_jobs; DROP TABLE seek_places;"
                     "DROP TABLE presence; DROP TABLE presence_beats;"
                     "DROP TABLE rate_buckets;"
                     "DROP INDEX games_by_tournament; DROP TABLE tournaments;"
                     "DROP TABLE tournament_entrants; DROP TABLE tournament_byes;"
                     "ALTER TABLE games DROP COLUMN tournament_id;"
                     "ALTER TABLE games DROP COLUMN round;"
                     "ALTER TABLE games DROP COLUMN berserk;"
                     "DROP TABLE notices; DROP TABLE club_bars; DROP INDEX clubs_public;"
                     "DROP TABLE links; DROP TABLE devices; DROP TABLE passkeys;"
                     "DROP TABLE passkey_challenges;"
                     "ALTER TABLE clubs DROP COLUMN public;"
                     "DROP INDEX players_by_id; DROP INDEX ratings_board;"
                     "DROP TABLE rating_history; DROP TABLE progress;"
                     "DROP TABLE events; DROP TABLE schema_version;"
                     "ALTER TABLE players DROP COLUMN id;"
                     "ALTER TABLE players DROP COLUMN hidden; PRAGMA user_version = 6;",
                     NULL, NULL, NULL);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

TEST(server_players_migration_7_gives_ids_and_histories)
{
    char dir[128], db[256], game[40], ta[40], tb[40], path[160];
    fx_tmpdb(dir, sizeof dir, db, sizeof db, "v6.db");
    struct server *srv = start_at(db);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    CHECK_EQ_INT(fx_people_game(port,
                                "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":5},"
                                "\"side\":\"white\",\"rated\":true,\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "resign", tb, NULL, NULL), 200);
    server_stop(srv);
    CHECK_EQ_INT(back_to_six(db), 0);
    srv = start_at(db);
    CHECK(srv != NULL);
    if (!srv) {
        test_rmdir(dir);
        return;
    }
    port = server_port(srv);
    const char *tokens[2] = {ta, tb};
    char ids[2][40];
    for (int i = 0; i < 2; i++) {
        json_t *me = NULL;
        CHECK_EQ_INT(api_call(port, "GET", "/api/me", tokens[i], NULL, &me), 200);
        snprintf(ids[i], sizeof ids[i], "%s", fx_str(me, "id"));
        CHECK_EQ_INT((int)strlen(ids[i]), 16);
        json_decref(me);
        json_t *p = NULL;
        snprintf(path, sizeof path, "/api/players/%s", ids[i]);
        CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &p), 200);
        json_t *point = json_array_get(json_object_get(p, "history"), 0);
        CHECK_EQ_INT((int)json_array_size(json_object_get(p, "history")), 1);
        CHECK_STR(fx_str(point, "class"), "rapid"); /* 600 + 40 x 5 s: 13 min 20 s */
        CHECK_STR(fx_str(point, "game_id"), game);
        CHECK(!json_object_get(point, "deviation"));
        CHECK(i == 0 ? fx_int(point, "rating") > 1500 : fx_int(point, "rating") < 1500);
        json_decref(p);
    }
    CHECK(strcmp(ids[0], ids[1]) != 0);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_notices_migration_10_on_version_9)
{
    char dir[128], db[256], cid[40], ann[40], path[160];
    fx_tmpdb(dir, sizeof dir, db, sizeof db, "v9.db");
    struct server *srv = start_at(db);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    CHECK_EQ_INT(
        fx_create(port, "/api/challenges", "{\"game\":\"chess\",\"name\":\"Ann\"}", cid, ann), 201);
    server_stop(srv);
    sqlite3 *h;
    CHECK(sqlite3_open(db, &h) == SQLITE_OK);
    CHECK(sqlite3_exec(h,
                       /* 15's to 11's first: 10 to 15 run again */
                       "DROP TABLE engine_jobs; DROP TABLE seek_places;"
                       "DROP TABLE presence; DROP TABLE presence_beats;"
                       "DROP TABLE rate_buckets; DROP INDEX events_by_time;"
                       "DROP INDEX games_by_tournament; DROP TABLE tournaments;"
                       "DROP TABLE tournament_entrants; DROP TABLE tournament_byes;"
                       "ALTER TABLE games DROP COLUMN tournament_id;"
                       "ALTER TABLE games DROP COLUMN round;"
                       "ALTER TABLE games DROP COLUMN berserk;"
                       "DROP TABLE notices; DROP TABLE club_bars; DROP INDEX clubs_public;"
                       "DROP TABLE links; DROP TABLE devices; DROP TABLE passkeys;"
                       "DROP TABLE passkey_challenges;"
                       "ALTER TABLE clubs DROP COLUMN public;"
                       "DELETE FROM schema_version WHERE version >= 10;"
                       "PRAGMA user_version = 8;",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    srv = start_at(db);
    CHECK(srv != NULL);
    if (!srv) {
        test_rmdir(dir);
        return;
    }
    port = server_port(srv);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", NULL), 200);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/notifications", ann, NULL, &j), 200);
    CHECK_EQ_INT(fx_int(j, "unread"), 1);
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}
