/* The cache of games (cache.c) when another server's news makes a copy stale while a
 * request holds it: the request may still change the game through its copy (the change
 * is stored), while a reader meanwhile took a fresh copy into the cache, read before
 * that change.  The cache must not go on serving that fresh copy: the game's streams
 * and its next reader see the change.  Driven from inside the server (cache_get,
 * cache_drop, people_move), on either store. */
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/games/cache.h"
#include "server/games/people.h"
#include "server/games/session.h"
#include "server/server_state.h"

TEST(server_cache_change_through_a_dropped_copy_is_seen)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40], err[256];
    CHECK_EQ_INT(fx_people_game(port,
                                "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                                "\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    char path[200];
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    struct sse_reader rs;
    CHECK_EQ_INT(sse_get(&rs, port, path, NULL), 200);

    /* A request holds the game; another server's news marks its copy stale. */
    struct session *held = NULL, *fresh = NULL;
    CHECK_EQ_INT(cache_get(srv, game, &held, err, sizeof err), 0);
    cache_drop(srv, game);
    /* A reader meanwhile: a fresh copy goes into the cache (the game at ply 0). */
    CHECK_EQ_INT(cache_get(srv, game, &fresh, err, sizeof err), 0);
    CHECK(fresh != held);
    cache_put(fresh);
    /* The holder's move is stored through its copy. */
    pthread_mutex_lock(&held->mu);
    Move m;
    CHECK_EQ_INT(held->g->parse_move(held->st, "e2e4", &m, err, sizeof err), 0);
    CHECK_EQ_INT(people_move(held, m, server_now_ms(), err, sizeof err), 0);
    pthread_mutex_unlock(&held->mu);
    cache_put(held);

    /* The game's stream hears it, and its next reader sees it. */
    json_t *ev = fx_event(&rs, "move", 5000);
    CHECK(ev != NULL);
    CHECK_STR(fx_str(ev, "move"), "e2e4");
    json_decref(ev);
    json_t *st = fx_state(port, game, NULL);
    CHECK_EQ_INT(fx_int(st, "ply"), 1);
    json_decref(st);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);

    sse_close(&rs);
    server_stop(srv);
}
