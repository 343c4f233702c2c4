/* Tournaments on two servers sharing one PostgreSQL (issue 27 item 4): a berserk taken
 * through one server is the game's on the other too (the store's outbox drops the game
 * from the other's cache, which reads it again): the berserker's clock halved and
 * without increment there, whichever server the moves go through.  On SQLite a
 * database has one server: skipped there. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The two servers: 4 HTTP threads each, the tournaments' director every 50 ms. */
static int tc_pair(char *url, size_t url_size, struct server **a, struct server **b)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.tournament_tick_ms = 50;
    return fx_start_pair(&cfg, url, url_size, a, b);
}

static int tc_join(int port, const char *id, const char *name, char *token)
{
    char path[128], body[128];
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, NULL, body, &j);
    snprintf(token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

/* The game of the token's player in tournament id, with their side. */
static int tc_game(int port, const char *id, const char *token, char *game, char *side)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s", id);
    int64_t until = fx_now_ms() + 5000;
    do {
        json_t *j = NULL;
        api_call(port, "GET", path, token, NULL, &j);
        json_t *g = json_object_get(json_object_get(j, "me"), "game");
        snprintf(game, 40, "%s", fx_str(g, "id"));
        snprintf(side, 8, "%s", fx_str(g, "side"));
        json_decref(j);
        if (game[0])
            return 0;
        fx_sleep_ms(30);
    } while (fx_now_ms() < until);
    return -1;
}

/* Wait until server `port` tells game at ply `ply`: 0, or -1 after 5 s. */
static int wait_ply(int port, const char *game, int ply)
{
    int64_t until = fx_now_ms() + 5000;
    do {
        json_t *st = fx_state(port, game, NULL);
        long long now = fx_int(st, "ply");
        json_decref(st);
        if (now == ply)
            return 0;
        fx_sleep_ms(20);
    } while (fx_now_ms() < until);
    return -1;
}

static long long clock_of(json_t *st, const char *side)
{
    return fx_int(json_object_get(st, "clock"), side);
}

TEST(server_cluster_tournament_berserk_reaches_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (tc_pair(url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char body[512], id[40], ta[40], tb[40], game[40], side[8];
    snprintf(body, sizeof body,
             "{\"kind\":\"arena\",\"tournament\":\"Twin\",\"game\":\"chess\",\"clock\":{"
             "\"initial\":600,\"increment\":5},\"minutes\":30,\"starts\":%lld,\"name\":\"Org\"}",
             (long long)fx_wall_ms());
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", "/api/tournaments", NULL, body, &j), 201);
    snprintf(id, sizeof id, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    json_decref(j);
    CHECK_EQ_INT(tc_join(pa, id, "Ann", ta), 200);
    CHECK_EQ_INT(tc_join(pb, id, "Bob", tb), 200);
    CHECK_EQ_INT(tc_game(pa, id, ta, game, side), 0);
    const char *wt = !strcmp(side, "white") ? ta : tb, *bt = wt == ta ? tb : ta;
    /* B has the game in its cache, unberserked. */
    json_t *st = fx_state(pb, game, NULL);
    CHECK(json_is_false(json_object_get(json_object_get(st, "tournament"), "berserk_white")));
    CHECK_EQ_INT(clock_of(st, "white"), 600000);
    json_decref(st);
    /* White berserks through A; B tells it. */
    char path[200];
    snprintf(path, sizeof path, "/api/tournaments/%s/games/%s/berserk", id, game);
    CHECK_EQ_INT(api_call(pa, "POST", path, wt, NULL, NULL), 200);
    int64_t until = fx_now_ms() + 5000;
    bool seen = false;
    do {
        st = fx_state(pb, game, NULL);
        seen = json_is_true(json_object_get(json_object_get(st, "tournament"), "berserk_white"));
        if (seen) {
            CHECK_EQ_INT(clock_of(st, "white"), 300000);
            CHECK_EQ_INT(clock_of(st, "black"), 600000);
        }
        json_decref(st);
        if (!seen)
            fx_sleep_ms(30);
    } while (!seen && fx_now_ms() < until);
    CHECK_MSG(seen, "server B never told white's berserk");
    /* A second berserk of white's, through B, is refused: B knows of the first. */
    CHECK_EQ_INT(api_call(pb, "POST", path, wt, NULL, &j), 409);
    CHECK_STR(fx_str(j, "code"), "no_berserk");
    json_decref(j);
    /* White moves through B, black through A: white gets no increment on either. */
    const char *line[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++) {
        /* The next mover's server has heard of the last move (the outbox) first. */
        int port = i % 2 ? pa : pb;
        CHECK_EQ_INT(wait_ply(port, game, i), 0);
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? bt : wt, line[i]), 200);
    }
    for (int k = 0; k < 2; k++) {
        CHECK_MSG(wait_ply(k ? pb : pa, game, 4) == 0, "server %c never told the fourth ply",
                  'A' + k);
        st = fx_state(k ? pb : pa, game, NULL);
        CHECK_MSG(clock_of(st, "white") <= 300000, "white %lld ms on server %c",
                  clock_of(st, "white"), 'A' + k);
        CHECK_MSG(clock_of(st, "black") > 600000, "black %lld ms on server %c",
                  clock_of(st, "black"), 'A' + k);
        json_decref(st);
    }
    server_stop(b);
    server_stop(a);
}

/* A tournament's stream on A hears a join made through B at once (the outbox), not at
 * its next ping (15 s by default, which reads the store again). */
TEST(server_cluster_tournament_join_heard_on_the_other_servers_stream)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (tc_pair(url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char body[512], id[40], tb[40], path[128];
    snprintf(body, sizeof body,
             "{\"kind\":\"arena\",\"tournament\":\"Later\",\"game\":\"chess\",\"clock\":{"
             "\"initial\":600,\"increment\":5},\"minutes\":30,\"starts\":%lld,\"name\":\"Org\"}",
             (long long)fx_wall_ms() + 3600 * 1000);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", "/api/tournaments", NULL, body, &j), 201);
    snprintf(id, sizeof id, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    json_decref(j);
    struct sse_reader r;
    snprintf(path, sizeof path, "/api/tournaments/%s/events", id);
    CHECK_EQ_INT(sse_get(&r, pa, path, NULL), 200);
    json_t *e = fx_event(&r, "tournament", 3000);
    CHECK_EQ_INT(fx_int(e, "players"), 0);
    json_decref(e);
    CHECK_EQ_INT(tc_join(pb, id, "Bob", tb), 200);
    e = fx_event(&r, "tournament", 3000);
    CHECK_MSG(e != NULL, "A's stream missed the join through B");
    CHECK_EQ_INT(fx_int(e, "players"), 1);
    json_decref(e);
    sse_close(&r);
    server_stop(b);
    server_stop(a);
}
