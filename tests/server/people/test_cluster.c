/* Several servers on one database (issue 26): two servers on one PostgreSQL, a game
 * between people whose players stream from different servers.  A move made through
 * one server reaches the other's streams (the store's outbox of events, outbox.c); a
 * move through the second server after one through the first is accepted (its cache
 * dropped the changed game); two moves of one ply sent to both at once: exactly one is
 * accepted and both servers then tell the same game; a challenge accepted through the
 * other server is heard on its creator's stream.  On SQLite a database has one
 * server and the outbox is off: skipped there. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static struct server *cl_start(const char *url)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.db_path = url;
    cfg.ping_ms = 100;
    return fx_start(&cfg);
}

struct cl_move {
    int port;
    const char *game, *token, *move;
    int status;
};

static void *cl_send(void *arg)
{
    struct cl_move *m = arg;
    m->status = fx_move(m->port, m->game, m->token, m->move);
    return NULL;
}

TEST(server_cluster_moves_reach_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    snprintf(url, sizeof url, "%s", fx_store_url());
    struct server *a = cl_start(url);
    struct server *b = a ? cl_start(url) : NULL;
    if (!a || !b) {
        server_stop(a);
        SKIP("no servers");
    }
    int pa = server_port(a), pb = server_port(b);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(pa,
                                "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                                "\"side\":\"white\","
                                "\"rated\":false,\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    /* White streams from A, black from B (B reads the game into its cache now). */
    json_t *sa = fx_state(pa, game, ta), *sb = fx_state(pb, game, tb);
    CHECK(sa && sb);
    char patha[200], pathb[200];
    snprintf(patha, sizeof patha, "/api/games/%s/events?seat=%s", game, fx_str(sa, "seat"));
    snprintf(pathb, sizeof pathb, "/api/games/%s/events?seat=%s", game, fx_str(sb, "seat"));
    json_decref(sa);
    json_decref(sb);
    struct sse_reader ra, rb;
    CHECK_EQ_INT(sse_get(&ra, pa, patha, NULL), 200);
    CHECK_EQ_INT(sse_get(&rb, pb, pathb, NULL), 200);

    /* Through A, heard on B; through B (its cache reloaded), heard on A. */
    const char *line[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++) {
        int port = i % 2 ? pb : pa;
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? tb : ta, line[i]), 200);
        struct sse_reader *rs[2] = {&ra, &rb};
        for (int k = 0; k < 2; k++) {
            json_t *ev = fx_event(rs[k], "move", 5000);
            CHECK_MSG(ev != NULL, "stream %d (server %c) missed move %d", k, 'A' + k, i + 1);
            CHECK_STR(fx_str(ev, "move"), line[i]);
            json_decref(ev);
        }
    }

    /* White's fifth ply sent to A and to B at once: one is accepted. */
    struct cl_move m[2] = {{pa, game, ta, "f1c4", 0}, {pb, game, ta, "d2d4", 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, cl_send, &m[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK_MSG((m[0].status == 200) + (m[1].status == 200) == 1, "statuses %d and %d", m[0].status,
              m[1].status);
    const char *won = m[0].status == 200 ? "f1c4" : "d2d4";
    for (int k = 0; k < 2; k++) {
        json_t *ev = fx_event(k ? &rb : &ra, "move", 5000);
        CHECK_MSG(ev != NULL, "server %c's stream missed the fifth move", 'A' + k);
        CHECK_STR(fx_str(ev, "move"), won);
        json_decref(ev);
    }
    /* Both servers tell the same game, and black plays on through either. */
    for (int k = 0; k < 2; k++) {
        json_t *st = fx_state(k ? pb : pa, game, NULL);
        CHECK_EQ_INT(fx_int(st, "ply"), 5);
        json_decref(st);
    }
    CHECK_EQ_INT(fx_move(m[0].status == 200 ? pb : pa, game, tb, "g8f6"), 200);
    json_t *ev = fx_event(&ra, "move", 5000);
    CHECK(ev != NULL);
    CHECK_STR(fx_str(ev, "move"), "g8f6");
    json_decref(ev);

    sse_close(&ra);
    sse_close(&rb);
    server_stop(b);
    server_stop(a);
}

/* A challenge made and streamed on A, accepted through B: A's stream hears it. */
TEST(server_cluster_challenge_accepted_on_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    snprintf(url, sizeof url, "%s", fx_store_url());
    struct server *a = cl_start(url);
    struct server *b = a ? cl_start(url) : NULL;
    if (!a || !b) {
        server_stop(a);
        SKIP("no servers");
    }
    int pa = server_port(a), pb = server_port(b);
    char cid[40], ta[40], path[128];
    CHECK_EQ_INT(fx_create(pa, "/api/challenges",
                           "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                           "\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
                           cid, ta),
                 201);
    struct sse_reader r;
    snprintf(path, sizeof path, "/api/challenges/%s/events", cid);
    CHECK_EQ_INT(sse_get(&r, pa, path, NULL), 200);
    json_t *e = fx_event(&r, "challenge", 5000); /* at once: open */
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    json_t *st = NULL;
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(pb, "POST", path, NULL, "{\"name\":\"Bob\"}", &st), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_MSG(e != NULL, "A's stream did not hear the accept made through B");
    CHECK_STR(fx_str(e, "status"), "accepted");
    CHECK_STR(fx_str(e, "game_id"), fx_str(st, "id"));
    json_decref(e);
    json_decref(st);
    sse_close(&r);
    server_stop(b);
    server_stop(a);
}
