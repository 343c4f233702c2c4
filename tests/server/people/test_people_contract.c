/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: display and club names refuse C1 control characters as well
 * as C0 ones; a challenge's clock may leave out its increment (0), as API.md now
 * says; the end and takeback events of a game between people carry the clock; an
 * expired invite link cannot be accepted or withdrawn (its status stays "expired"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static int64_t ct_challenge_ms; /* an invite link's life for the next ct_start (0: 7 days) */

static struct server *ct_start(const char *db, const char *puzzles)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.db_path = db;
    cfg.puzzles_dir = puzzles;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.challenge_ms = ct_challenge_ms;
    return fx_start(&cfg);
}

TEST(server_contract_names_refuse_c1_controls)
{
    struct server *srv = ct_start(":memory:", NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* U+0085 (NEL, UTF-8 C2 85) and U+009F are controls; U+00A0 (C2 A0) is not. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"name\":\"a\\u0085b\"}", NULL),
                 400);
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, "{\"name\":\"x\\u009f\"}", NULL), 400);
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"name\":\"a\\u00a0b\"}", NULL),
                 201);
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"C\\u0085\",\"languages\":[\"en\"],\"name\":\"A\"}", NULL),
                 400);
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"C\",\"description\":\"one\\u0080\",\"languages\":[\"en\"],"
                          "\"name\":\"A\"}",
                          NULL),
                 400);
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Caf\\u00e9\",\"description\":\"l\\u00e0\\nok\","
                          "\"languages\":[\"en\"],\"name\":\"A\"}",
                          NULL),
                 201);
    server_stop(srv);
}

TEST(server_contract_clock_increment_may_be_left_out)
{
    struct server *srv = ct_start(":memory:", NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"agon\",\"clock\":{\"initial\":60},\"name\":\"Ann\"}", &j),
                 201);
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s", fx_str(j, "id"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    json_t *clock = json_object_get(j, "clock");
    CHECK_EQ_INT(fx_int(clock, "initial"), 60);
    CHECK(json_is_integer(json_object_get(clock, "increment")));
    CHECK_EQ_INT(fx_int(clock, "increment"), 0);
    json_decref(j);
    /* Left out is 0, but a wrong type is not: a 400. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"agon\",\"clock\":{\"initial\":60,\"increment\":null},"
                          "\"name\":\"Ann\"}",
                          NULL),
                 400);
    server_stop(srv);
}

/* A game between people (white Ann, black Bob) of `clock` (JSON): its id and tokens. */
static int ct_people_game(int port, const char *clock, char *game, char *ta, char *tb)
{
    char body[200];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"side\":\"white\",\"clock\":%s,\"name\":\"Ann\"}", clock);
    return fx_people_game(port, body, game, ta, tb);
}

/* Issue 17: "both clocks are in every state and event": the end and takeback events
 * of a game between people carry the clock too (null without one). */
TEST(server_contract_every_people_event_has_the_clock)
{
    struct server *srv = ct_start(":memory:", NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40], path[128];
    CHECK_EQ_INT(ct_people_game(port, "{\"initial\":60,\"increment\":0}", game, ta, tb), 0);
    struct sse_reader r;
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    CHECK_EQ_INT(sse_get(&r, port, path, NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"e2e4\"}", NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", tb, "{\"move\":\"e7e5\"}", NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "resign", ta, NULL, NULL), 200);
    json_t *end = fx_event(&r, "end", 3000);
    CHECK(end != NULL);
    CHECK_STR(fx_str(end, "result"), "black-wins");
    json_t *clock = json_object_get(end, "clock");
    CHECK(json_is_object(clock));
    CHECK(json_is_null(json_object_get(clock, "running")));
    CHECK(fx_int(clock, "white") > 0 && fx_int(clock, "white") <= 60000);
    CHECK_EQ_INT(fx_int(clock, "black"), 60000);
    json_decref(end);
    sse_close(&r);

    /* Without a clock: a takeback's event says "clock": null. */
    CHECK_EQ_INT(ct_people_game(port, "null", game, ta, tb), 0);
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    CHECK_EQ_INT(sse_get(&r, port, path, NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"e2e4\"}", NULL), 200);
    json_t *mv = fx_event(&r, "move", 3000);
    CHECK(mv && json_is_null(json_object_get(mv, "clock")));
    json_decref(mv);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", ta, NULL, NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, "{\"answer\":\"accept\"}", NULL), 200);
    json_t *tk = fx_event(&r, "takeback", 3000);
    CHECK(tk != NULL);
    CHECK_EQ_INT(fx_int(tk, "ply"), 0);
    CHECK_EQ_INT(fx_int(tk, "takebacks"), 1);
    CHECK(json_object_get(tk, "clock") && json_is_null(json_object_get(tk, "clock")));
    json_decref(tk);
    sse_close(&r);
    server_stop(srv);
}

/* An invite link expires too (API.md: 7 days; 300 ms here), not only a seek: its status
 * reads "expired" and it can be neither accepted nor cancelled. */
TEST(server_contract_challenges_expire)
{
    ct_challenge_ms = 300;
    struct server *srv = ct_start(":memory:", NULL);
    ct_challenge_ms = 0;
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"egara-guti\",\"name\":\"Ann\"}", &j),
                 201);
    char id[40], tok[40], path[128];
    snprintf(id, sizeof id, "%s", fx_str(j, "id"));
    snprintf(tok, sizeof tok, "%s", fx_str(j, "token"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s", id);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "open");
    json_decref(j);
    usleep(450 * 1000);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "expired");
    CHECK(json_is_null(json_object_get(j, "game_id")));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", NULL), 409);
    snprintf(path, sizeof path, "/api/challenges/%s/cancel", id);
    CHECK_EQ_INT(api_call(port, "POST", path, tok, NULL, NULL), 409);
    server_stop(srv);
}
