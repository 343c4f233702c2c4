/* Games between two people (API.md "People"), against real servers on loopback: the
 * challenge contract (create, read, accept once, never by its creator), each side's
 * own token (the other's or none: 403), both players and a spectator hearing every
 * move on their event streams, the viewer count, clocks (a flag that falls with
 * nobody connected ends the game in the store; a restart keeps the clocks and ends a
 * game whose time ran out meanwhile, at that moment), the lobby (two accepts of one
 * seek at once: one wins), expiry, offers, takebacks, abort, rematch, abandonment,
 * and bad input refused with nothing changed. */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

struct pp_opts {
    const char *db;
    int64_t seek_ms, abandon_ms;
};

static struct server *pp_start(const struct pp_opts *o)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.db_path = o && o->db ? o->db : ":memory:";
    cfg.seek_ms = o ? o->seek_ms : 0;
    cfg.abandon_ms = o ? o->abandon_ms : 0;
    cfg.ping_ms = 100; /* a closed stream is noticed at its next write */
    return fx_start(&cfg);
}

static int pp_accept(int port, const char *base, const char *id, const char *token,
                     const char *name, char *game, char *my_token)
{
    char path[160], body[96];
    snprintf(path, sizeof path, "%s/%.40s/accept", base, id);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, token, body, &j);
    if (game)
        snprintf(game, 40, "%s", fx_str(j, "id"));
    if (my_token)
        snprintf(my_token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

/* A game of `clock` (JSON) between A (white) and B (black): ids and tokens. */
static int pp_game(int port, const char *clock, char *game, char *ta, char *tb)
{
    char body[256];
    snprintf(
        body, sizeof body,
        "{\"game\":\"chess\",\"clock\":%s,\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
        clock);
    return fx_people_game(port, body, game, ta, tb);
}

static const char *pp_reason(json_t *st)
{
    return fx_str(json_object_get(st, "status"), "reason");
}

TEST(server_people_challenge_contract)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char cid[40], ta[40], game[40], tb[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges",
                           "{\"game\":\"chess\",\"clock\":{\"initial\":300,\"increment\":3},"
                           "\"days\":null,\"side\":\"white\",\"rated\":true,\"name\":\"Ann\"}",
                           cid, ta),
                 201);
    CHECK_EQ_INT(strlen(cid), 32);
    CHECK_EQ_INT(strlen(ta), 32);
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s", cid);
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    CHECK_STR(fx_str(c, "status"), "open");
    CHECK_STR(fx_str(c, "game"), "chess");
    CHECK_STR(fx_str(c, "side"), "white");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(c, "clock"), "initial")), 300);
    CHECK(json_is_null(json_object_get(c, "game_id")));
    json_decref(c);
    /* The creator's own accept: 409, and the challenge stays open. */
    CHECK_EQ_INT(pp_accept(port, "/api/challenges", cid, ta, "Ann", NULL, NULL), 409);
    CHECK_EQ_INT(pp_accept(port, "/api/challenges", cid, NULL, "Bob", game, tb), 200);
    CHECK_EQ_INT(strlen(tb), 32);
    CHECK(strcmp(ta, tb) != 0);
    CHECK_EQ_INT(pp_accept(port, "/api/challenges", cid, NULL, "Cy", NULL, NULL), 409);
    c = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    CHECK_STR(fx_str(c, "status"), "accepted");
    CHECK_STR(fx_str(c, "game_id"), game);
    json_decref(c);

    /* Each side with its own token; the other's, a stranger's or none: 403. */
    CHECK_EQ_INT(fx_move(port, game, NULL, "e2e4"), 403);
    CHECK_EQ_INT(fx_move(port, game, "0123456789abcdef0123456789abcdef", "e2e4"), 403);
    CHECK_EQ_INT(fx_move(port, game, tb, "e2e4"), 403); /* Bob is black: not his move */
    CHECK_EQ_INT(fx_game_post(port, game, "resign", NULL, NULL, NULL), 403);
    CHECK_EQ_INT(fx_game_post(port, game, "draw", tb, "{\"answer\":\"maybe\"}", NULL), 400);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e5"), 400);

    /* Both players' streams (seat keys) and a spectator's hear every move at once. */
    json_t *sa = fx_state(port, game, ta), *sb = fx_state(port, game, tb);
    CHECK_STR(fx_str(sa, "you"), "white");
    CHECK_STR(fx_str(sb, "you"), "black");
    CHECK(json_is_true(json_object_get(sa, "your_turn")));
    CHECK(json_is_false(json_object_get(sb, "your_turn")));
    CHECK_STR(fx_str(json_object_get(json_object_get(sa, "players"), "black"), "name"), "Bob");
    char pa[200], pb[200], pw[200];
    snprintf(pa, sizeof pa, "/api/games/%s/events?seat=%s", game, fx_str(sa, "seat"));
    snprintf(pb, sizeof pb, "/api/games/%s/events?seat=%s", game, fx_str(sb, "seat"));
    snprintf(pw, sizeof pw, "/api/games/%s/events", game);
    json_decref(sa);
    json_decref(sb);
    struct sse_reader ra, rb, rw;
    CHECK_EQ_INT(sse_get(&ra, port, pa, NULL), 200);
    CHECK_EQ_INT(sse_get(&rb, port, pb, NULL), 200);
    CHECK_EQ_INT(sse_get(&rw, port, pw, NULL), 200);
    usleep(100 * 1000);
    json_t *spect = fx_state(port, game, NULL);
    CHECK(spect && json_is_null(json_object_get(spect, "you")));
    CHECK_EQ_INT(json_integer_value(json_object_get(spect, "viewers")), 1);
    json_decref(spect);
    const char *line[] = {"e2e4", "e7e5", "g1f3"};
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? tb : ta, line[i]), 200);
        struct sse_reader *rs[3] = {&ra, &rb, &rw};
        for (int k = 0; k < 3; k++) {
            json_t *ev = fx_event(rs[k], "move", 3000);
            CHECK_MSG(ev != NULL, "stream %d missed move %d", k, i + 1);
            CHECK_STR(fx_str(ev, "move"), line[i]);
            CHECK(json_is_object(json_object_get(ev, "clock")));
            json_decref(ev);
        }
    }
    /* A spectator changes nothing. */
    CHECK_EQ_INT(fx_move(port, game, NULL, "b8c6"), 403);
    /* A closed stream is noticed when it is next written to (news, or the pings). */
    sse_close(&rw);
    CHECK_EQ_INT(fx_move(port, game, tb, "b8c6"), 200);
    usleep(600 * 1000);
    spect = fx_state(port, game, NULL);
    CHECK_EQ_INT(json_integer_value(json_object_get(spect, "viewers")), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(spect, "ply")), 4);
    json_decref(spect);
    /* Resign: the stream ends with the result. */
    CHECK_EQ_INT(fx_game_post(port, game, "resign", tb, NULL, NULL), 200);
    json_t *end = fx_event(&ra, "end", 3000);
    CHECK(end != NULL);
    CHECK_STR(fx_str(end, "result"), "white-wins");
    json_decref(end);
    CHECK_EQ_INT(fx_move(port, game, ta, "f1c4"), 409);
    sse_close(&ra);
    sse_close(&rb);
    /* The game is in both players' histories. */
    json_t *list = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", tb, NULL, &list), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(list, "games")), 1);
    json_decref(list);
    server_stop(srv);
}

TEST(server_people_bad_input_changes_nothing)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static const char *const bad[] = {
        "{\"game\":\"go\"}",
        "{\"game\":\"chess\",\"clock\":{\"initial\":-1,\"increment\":0}}",
        "{\"game\":\"chess\",\"clock\":{\"initial\":0,\"increment\":0}}",
        "{\"game\":\"chess\",\"clock\":{\"initial\":99999,\"increment\":0}}",
        "{\"game\":\"chess\",\"clock\":\"5+3\"}",
        "{\"game\":\"chess\",\"days\":2}",
        "{\"game\":\"chess\",\"days\":3,\"clock\":{\"initial\":60,\"increment\":0}}",
        "{\"game\":\"chess\",\"side\":\"red\",\"name\":\"x\"}",
        "{\"game\":\"chess\",\"rated\":\"yes\",\"name\":\"x\"}",
        "{\"game\":\"chess\",\"name\":\"\"}",
        "{\"game\":\"chess\",\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}",
        "{\"game\":\"chess\",\"name\":\"tab\\there\"}",
        "[1]",
        "not json",
    };
    char id[40], tok[40];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(fx_create(port, "/api/seeks", bad[i], id, tok) == 400, "accepted: %s", bad[i]);
    }
    json_t *seeks = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &seeks), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(seeks, "seeks")), 0);
    json_decref(seeks);
    CHECK_EQ_INT(api_call(port, "GET", "/api/challenges/nothex", NULL, NULL, NULL), 404);
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/challenges/0123456789abcdef0123456789abcdef", NULL, NULL, NULL),
        404);
    CHECK_EQ_INT(api_call(port, "DELETE", "/api/challenges", NULL, NULL, NULL), 405);
    /* A good one, then a bad accept (a bad name) leaves it open. */
    CHECK_EQ_INT(
        fx_create(port, "/api/challenges", "{\"game\":\"egara\",\"name\":\"Ann\"}", id, tok), 201);
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":7}", NULL), 400);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":", NULL), 400);
    json_t *c = NULL;
    snprintf(path, sizeof path, "/api/challenges/%s", id);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    CHECK_STR(fx_str(c, "status"), "open");
    json_decref(c);
    /* Withdrawn by its creator only. */
    snprintf(path, sizeof path, "/api/challenges/%s/cancel", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, NULL, NULL), 403);
    CHECK_EQ_INT(api_call(port, "POST", path, tok, NULL, NULL), 200);
    CHECK_EQ_INT(pp_accept(port, "/api/challenges", id, NULL, "Bob", NULL, NULL), 409);
    server_stop(srv);
}

TEST(server_people_flag_falls_with_nobody_connected)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(pp_game(port, "{\"initial\":1,\"increment\":0}", game, ta, tb), 0);
    /* The first move of each side takes no time. */
    usleep(1200 * 1000);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    usleep(1200 * 1000);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    json_t *st = fx_state(port, game, ta);
    json_t *clk = json_object_get(st, "clock");
    CHECK_STR(fx_str(clk, "running"), "white");
    CHECK(json_integer_value(json_object_get(clk, "white")) > 800);
    CHECK_EQ_INT(json_integer_value(json_object_get(clk, "black")), 1000);
    json_decref(st);
    /* Nobody asks: the server's timer ends the game in the store (the history list
     * reads the store's row, not the game in memory). */
    usleep(1600 * 1000);
    json_t *list = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", tb, NULL, &list), 200);
    json_t *row = json_array_get(json_object_get(list, "games"), 0);
    CHECK_STR(fx_str(json_object_get(row, "status"), "result"), "black-wins");
    CHECK_STR(fx_str(json_object_get(row, "status"), "reason"), "time");
    json_decref(list);
    st = fx_state(port, game, NULL);
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(st, "clock"), "white")), 0);
    json_decref(st);
    CHECK_EQ_INT(fx_move(port, game, ta, "g1f3"), 409);
    server_stop(srv);
}

TEST(server_people_restart_keeps_the_clocks)
{
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/people.db", dir);
    struct pp_opts o = {db, 0, 0};
    struct server *srv = pp_start(&o);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char g1[40], g2[40], ta[40], tb[40], ta2[40], tb2[40];
    CHECK_EQ_INT(pp_game(port, "{\"initial\":2,\"increment\":0}", g1, ta, tb), 0);
    CHECK_EQ_INT(pp_game(port, "{\"initial\":60,\"increment\":5}", g2, ta2, tb2), 0);
    CHECK_EQ_INT(fx_move(port, g1, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, g1, tb, "e7e5"), 200);
    CHECK_EQ_INT(fx_move(port, g2, ta2, "d2d4"), 200);
    CHECK_EQ_INT(fx_move(port, g2, tb2, "d7d5"), 200);
    usleep(300 * 1000);
    CHECK_EQ_INT(fx_move(port, g2, ta2, "c2c4"), 200); /* white spent ~300 ms, gained 5 s */
    json_t *before = fx_state(port, g1, NULL);
    const char *updated_before = fx_str(before, "updated");
    (void)updated_before;
    json_decref(before);
    server_stop(srv);
    /* Down for longer than g1's white has left. */
    usleep(2500 * 1000);
    srv = pp_start(&o);
    CHECK(srv != NULL);
    if (!srv) {
        test_rmdir(dir);
        return;
    }
    port = server_port(srv);
    json_t *st = fx_state(port, g1, NULL);
    CHECK(st != NULL);
    CHECK_STR(fx_str(json_object_get(st, "status"), "result"), "black-wins");
    CHECK_STR(pp_reason(st), "time");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(st, "clock"), "white")), 0);
    json_decref(st);
    /* g2: black's clock ran from c2c4 on, through the outage; white's stands where it was. */
    st = fx_state(port, g2, NULL);
    json_t *clk = json_object_get(st, "clock");
    long long w = json_integer_value(json_object_get(clk, "white"));
    long long b = json_integer_value(json_object_get(clk, "black"));
    CHECK_MSG(w > 64000 && w <= 65000, "white %lld", w);
    CHECK_MSG(b < 57600 && b > 50000, "black %lld", b);
    CHECK_STR(fx_str(clk, "running"), "black");
    json_decref(st);
    CHECK_EQ_INT(fx_move(port, g2, tb2, "e7e6"), 200);
    server_stop(srv);
    test_rmdir(dir);
}

struct pp_racer {
    int port;
    const char *id;
    pthread_barrier_t *go;
    int status;
};

static void *pp_race(void *arg)
{
    struct pp_racer *r = arg;
    pthread_barrier_wait(r->go);
    r->status = pp_accept(r->port, "/api/seeks", r->id, NULL, "Racer", NULL, NULL);
    return NULL;
}

TEST(server_people_seek_taken_exactly_once)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    for (int round = 0; round < 12; round++) {
        char id[40], tok[40];
        CHECK_EQ_INT(fx_create(port, "/api/seeks",
                               "{\"game\":\"agon\",\"clock\":{\"initial\":180,\"increment\":2},"
                               "\"name\":\"Seeker\"}",
                               id, tok),
                     201);
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, 2);
        struct pp_racer a = {port, id, &go, 0}, b = {port, id, &go, 0};
        pthread_t ta, tb;
        pthread_create(&ta, NULL, pp_race, &a);
        pthread_create(&tb, NULL, pp_race, &b);
        pthread_join(ta, NULL);
        pthread_join(tb, NULL);
        pthread_barrier_destroy(&go);
        CHECK_MSG((a.status == 200 && b.status == 409) || (a.status == 409 && b.status == 200),
                  "round %d: %d and %d", round, a.status, b.status);
    }
    json_t *seeks = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &seeks), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(seeks, "seeks")), 0);
    json_decref(seeks);
    server_stop(srv);
}

TEST(server_people_seeks_expire)
{
    struct pp_opts o = {NULL, 300, 0};
    struct server *srv = pp_start(&o);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], tok[40];
    CHECK_EQ_INT(fx_create(port, "/api/seeks", "{\"game\":\"chess\",\"name\":\"Early\"}", id, tok),
                 201);
    json_t *seeks = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &seeks), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(seeks, "seeks")), 1);
    json_decref(seeks);
    usleep(450 * 1000);
    seeks = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &seeks), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(seeks, "seeks")), 0);
    json_decref(seeks);
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s", id);
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    CHECK_STR(fx_str(c, "status"), "expired");
    json_decref(c);
    CHECK_EQ_INT(pp_accept(port, "/api/seeks", id, NULL, "Late", NULL, NULL), 409);
    server_stop(srv);
}

TEST(server_people_offers_takeback_abort_rematch_abandon)
{
    struct pp_opts o = {NULL, 0, 300};
    struct server *srv = pp_start(&o);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(pp_game(port, "null", game, ta, tb), 0);
    /* Abort before both have moved. */
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    json_t *j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "abort", tb, NULL, &j), 200);
    CHECK_STR(pp_reason(j), "aborted");
    json_decref(j);

    CHECK_EQ_INT(pp_game(port, "null", game, ta, tb), 0);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "abort", ta, NULL, NULL), 409);
    /* A draw offered, declined; offered again, accepted. */
    CHECK_EQ_INT(fx_game_post(port, game, "draw", tb, "{\"answer\":\"accept\"}", NULL), 409);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "draw", ta, NULL, &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "offers"), "draw"), "white");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "draw", tb, "{\"answer\":\"decline\"}", &j), 200);
    CHECK(json_is_null(json_object_get(json_object_get(j, "offers"), "draw")));
    json_decref(j);
    /* A takeback asked by the last mover, declined, asked again, accepted. */
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", ta, NULL, NULL), 409); /* white is to move */
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, NULL, NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, "{\"answer\":\"accept\"}", NULL), 409);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", ta, "{\"answer\":\"decline\"}", NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, NULL, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", ta, "{\"answer\":\"accept\"}", &j), 200);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "ply")), 1);
    CHECK_STR(fx_str(j, "side_to_move"), "black");
    json_decref(j);
    CHECK_EQ_INT(fx_move(port, game, tb, "c7c5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "draw", tb, NULL, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "draw", ta, "{\"answer\":\"accept\"}", &j), 200);
    CHECK_STR(pp_reason(j), "agreement");
    json_decref(j);
    /* Rematch: both ask; colours swapped. */
    CHECK_EQ_INT(fx_game_post(port, game, "rematch", ta, NULL, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "rematch", tb, NULL, &j), 200);
    char again[40];
    snprintf(again, sizeof again, "%s", fx_str(j, "rematch_id"));
    json_decref(j);
    CHECK_EQ_INT(strlen(again), 32);
    json_t *st = fx_state(port, again, tb);
    CHECK_STR(fx_str(st, "you"), "white");
    json_decref(st);
    /* Abandonment: white (Bob now) stays away; black may claim after 300 ms. */
    CHECK_EQ_INT(fx_move(port, again, tb, "d2d4"), 200);
    CHECK_EQ_INT(fx_move(port, again, ta, "d7d5"), 200);
    CHECK_EQ_INT(fx_game_post(port, again, "claim-win", ta, NULL, NULL), 409);
    CHECK_EQ_INT(fx_game_post(port, again, "claim-win", tb, NULL, NULL), 409); /* his own move */
    usleep(400 * 1000); /* since his last request (issue 25: a request is presence) */
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, again, "claim-win", ta, NULL, &j), 200);
    CHECK_STR(pp_reason(j), "abandoned");
    CHECK_STR(fx_str(json_object_get(j, "status"), "result"), "black-wins");
    json_decref(j);
    /* Takebacks are not for games on the clock; claim-win neither while it runs. */
    CHECK_EQ_INT(pp_game(port, "{\"initial\":60,\"increment\":0}", game, ta, tb), 0);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, NULL, NULL), 409);
    usleep(400 * 1000);
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, NULL), 409);
    /* The computer's games refuse the people's operations. */
    json_t *cg = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"egara\"}", &cg), 201);
    CHECK_EQ_INT(fx_game_post(port, fx_str(cg, "id"), "abort", fx_str(cg, "token"), NULL, NULL),
                 409);
    json_decref(cg);
    server_stop(srv);
}

/* Glicko-2 per game and class: a rated blitz game's result moves both players'
 * ratings (shown beside their names in the next challenge and game); a rated game
 * needs a clock; the computer's levels carry their measured Elo in the catalogue. */
TEST(server_people_ratings)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char cid[40], ta[40], tb[40], game[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges",
                           "{\"game\":\"chess\",\"rated\":true,\"name\":\"Ann\"}", cid, ta),
                 400);
    const char *blitz = "{\"game\":\"chess\",\"clock\":{\"initial\":180,\"increment\":2},"
                        "\"side\":\"white\",\"rated\":true,\"name\":\"Ann\"}";
    CHECK_EQ_INT(fx_create(port, "/api/challenges", blitz, cid, ta), 201);
    json_t *st = NULL;
    char path[160], body[96];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    snprintf(body, sizeof body, "{\"name\":\"Bob\"}");
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, body, &st), 200);
    snprintf(game, sizeof game, "%s", fx_str(st, "id"));
    snprintf(tb, sizeof tb, "%s", fx_str(st, "token"));
    CHECK_STR(fx_str(st, "rating_class"), "blitz");
    CHECK_EQ_INT(json_integer_value(json_object_get(
                     json_object_get(json_object_get(st, "players"), "white"), "rating")),
                 1500);
    json_decref(st);
    const char *line[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? tb : ta, line[i]), 200);
    /* The finished game shows the ratings after it too. */
    st = fx_state(port, game, NULL);
    json_t *pl = json_object_get(st, "players");
    long long wa =
        json_integer_value(json_object_get(json_object_get(pl, "white"), "rating_after"));
    long long ba =
        json_integer_value(json_object_get(json_object_get(pl, "black"), "rating_after"));
    CHECK_MSG(wa < 1400 && ba > 1600, "after: white %lld, black %lld", wa, ba);
    json_decref(st);
    /* Both challenge again, rated blitz: their ratings have moved apart. */
    char c2[40], c3[40], t2[40], t3[40];
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", tb, blitz, &c), 201);
    snprintf(c2, sizeof c2, "%s", fx_str(c, "id"));
    snprintf(t2, sizeof t2, "%s", fx_str(c, "token"));
    CHECK_STR(t2, tb); /* a known visitor keeps their token */
    json_decref(c);
    c = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", ta, blitz, &c), 201);
    snprintf(c3, sizeof c3, "%s", fx_str(c, "id"));
    snprintf(t3, sizeof t3, "%s", fx_str(c, "token"));
    json_decref(c);
    snprintf(path, sizeof path, "/api/challenges/%s", c2);
    c = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    long long bob = json_integer_value(json_object_get(c, "rating"));
    json_decref(c);
    snprintf(path, sizeof path, "/api/challenges/%s", c3);
    c = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &c), 200);
    long long ann = json_integer_value(json_object_get(c, "rating"));
    CHECK_STR(fx_str(c, "rating_class"), "blitz");
    json_decref(c);
    CHECK_MSG(bob > 1600 && ann < 1400 && bob + ann > 2990 && bob + ann < 3010,
              "Bob %lld, Ann %lld", bob, ann);
    /* Bob takes Ann's challenge: the game shows both ratings at its start. */
    snprintf(path, sizeof path, "/api/challenges/%s/accept", c3);
    st = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, tb, "{}", &st), 200);
    json_t *players = json_object_get(st, "players");
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(players, "white"), "rating")),
                 ann);
    CHECK_EQ_INT(json_integer_value(json_object_get(json_object_get(players, "black"), "rating")),
                 bob);
    json_decref(st);
    /* The catalogue: every game's levels with their Elo (chess on UCI_Elo's scale, the
     * others on their levels' own ladder, src/engines/NOTES.md). */
    json_t *cat = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/catalog", NULL, NULL, &cat), 200);
    json_t *g;
    size_t i;
    json_array_foreach(json_object_get(cat, "games"), i, g)
    {
        json_t *elo = json_object_get(g, "level_elo");
        CHECK(json_array_size(elo) == 8);
        if (!strcmp(fx_str(g, "name"), "chess"))
            CHECK(json_integer_value(json_array_get(elo, 7)) > 2000);
    }
    json_decref(cat);
    server_stop(srv);
}

/* kill -9 with games on the clock: no acknowledged move lost, a clock that ran out
 * while the server was down ends its game at once on restart, at the moment it ran
 * out, and a clock that did not keeps its time (the outage counted against the side
 * to move, as the receipt times say). */
TEST(server_people_kill9_keeps_the_clocks)
{
    if (access("./agora", X_OK) != 0)
        SKIP("./agora is not built (run from the repository root)");
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/kill.db", dir);
    int port = test_free_port();
    pid_t pid = test_spawn_agora(port, fx_db_for(db));
    CHECK(pid > 0);
    char g1[40], g2[40], a1[40], b1[40], a2[40], b2[40];
    CHECK_EQ_INT(pp_game(port, "{\"initial\":1,\"increment\":0}", g1, a1, b1), 0);
    CHECK_EQ_INT(pp_game(port, "{\"initial\":120,\"increment\":0}", g2, a2, b2), 0);
    CHECK_EQ_INT(fx_move(port, g1, a1, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, g1, b1, "e7e5"), 200);
    CHECK_EQ_INT(fx_move(port, g2, a2, "d2d4"), 200);
    CHECK_EQ_INT(fx_move(port, g2, b2, "d7d5"), 200);
    CHECK_EQ_INT(fx_move(port, g2, a2, "c2c4"), 200);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    usleep(1500 * 1000);
    pid = test_spawn_agora(port, fx_db_for(db));
    json_t *st = fx_state(port, g1, NULL);
    CHECK(st != NULL);
    CHECK_STR(pp_reason(st), "time");
    CHECK_STR(fx_str(json_object_get(st, "status"), "result"), "black-wins");
    json_decref(st);
    st = fx_state(port, g2, b2);
    CHECK_EQ_INT(json_integer_value(json_object_get(st, "ply")), 3);
    json_t *clk = json_object_get(st, "clock");
    long long w = json_integer_value(json_object_get(clk, "white"));
    long long b = json_integer_value(json_object_get(clk, "black"));
    CHECK_MSG(w > 119000 && w <= 120000, "white %lld", w);
    CHECK_MSG(b < 118600 && b > 110000, "black %lld (the outage counts)", b);
    json_decref(st);
    CHECK_EQ_INT(fx_move(port, g2, b2, "e7e6"), 200);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    test_rmdir(dir);
}

/* Correspondence: days a move, a fresh allowance after each move. */
TEST(server_people_correspondence_clock)
{
    struct server *srv = pp_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char cid[40], ta[40], game[40], tb[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges",
                           "{\"game\":\"egara\",\"days\":3,\"side\":\"white\","
                           "\"rated\":true,\"name\":\"Ann\"}",
                           cid, ta),
                 201);
    CHECK_EQ_INT(pp_accept(port, "/api/challenges", cid, NULL, "Bob", game, tb), 200);
    json_t *st = fx_state(port, game, ta);
    CHECK_STR(fx_str(st, "rating_class"), "correspondence");
    const char *mv = fx_str(json_array_get(json_object_get(st, "legal_moves"), 0), "move");
    CHECK_EQ_INT(fx_move(port, game, ta, mv), 200);
    json_decref(st);
    st = fx_state(port, game, tb);
    mv = fx_str(json_array_get(json_object_get(st, "legal_moves"), 0), "move");
    CHECK_EQ_INT(fx_move(port, game, tb, mv), 200);
    json_decref(st);
    st = fx_state(port, game, NULL);
    json_t *clk = json_object_get(st, "clock");
    CHECK_EQ_INT(json_integer_value(json_object_get(clk, "days")), 3);
    CHECK_STR(fx_str(clk, "running"), "white");
    long long w = json_integer_value(json_object_get(clk, "white"));
    CHECK_MSG(w > 3 * 86400000LL - 5000 && w <= 3 * 86400000LL, "white %lld", w);
    CHECK_EQ_INT(json_integer_value(json_object_get(clk, "black")), 3 * 86400000LL);
    json_decref(st);
    server_stop(srv);
}
