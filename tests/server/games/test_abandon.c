/* Abandonment judged fairly (issue 25 item 4), against a real server on loopback: the
 * time away restarts with a takeback, a player whose page streams or who was seen in
 * the last moments is not away, and the state says when the claim is available
 * ("away", "claim_win"), so the page offers it only then. */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define AB_GAME "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"Ann\"}"

static struct server *ab_start(int64_t abandon_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.abandon_ms = abandon_ms;
    cfg.ping_ms = 100; /* a closed stream is noticed at its next write */
    return fx_start(&cfg);
}

/* The state's claim_win as the player of `token` sees it: 1, 0, or -1 when absent. */
static int ab_claim_win(int port, const char *game, const char *token)
{
    json_t *st = fx_state(port, game, token);
    json_t *c = json_object_get(st, "claim_win");
    int v = json_is_boolean(c) ? json_is_true(c) : -1;
    json_decref(st);
    return v;
}

TEST(server_abandon_restarts_with_a_takeback)
{
    struct server *srv = ab_start(1500);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port, AB_GAME, game, ta, tb), 0);
    const char *line[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? tb : ta, line[i]), 200);
    /* Right after one's own move the claim is not offered (the opponent was just here). */
    CHECK_EQ_INT(ab_claim_win(port, game, tb), 0);
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", tb, NULL, NULL), 200);
    fx_sleep_ms(1700); /* longer than the abandonment time since white's move */
    CHECK_EQ_INT(fx_game_post(port, game, "takeback", ta, "{\"answer\":\"accept\"}", NULL), 200);
    /* Black is to move again, from now: not away yet. */
    json_t *j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", ta, NULL, &j), 409);
    json_decref(j);
    json_t *st = fx_state(port, game, ta);
    CHECK_STR(fx_str(st, "side_to_move"), "black");
    CHECK(json_is_false(json_object_get(st, "claim_win")));
    json_decref(st);
    fx_sleep_ms(1700);
    st = fx_state(port, game, ta);
    json_t *away = json_object_get(st, "away");
    CHECK_STR(fx_str(away, "side"), "black");
    CHECK_MSG(fx_int(away, "ms") >= 1500, "away %lld ms", fx_int(away, "ms"));
    CHECK_EQ_INT(fx_int(away, "claim_in"), 0);
    CHECK(json_is_true(json_object_get(st, "claim_win")));
    json_decref(st);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", ta, NULL, &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "status"), "reason"), "abandoned");
    json_decref(j);
    server_stop(srv);
}

TEST(server_abandon_not_while_the_page_streams)
{
    struct server *srv = ab_start(1000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port, AB_GAME, game, ta, tb), 0);
    json_t *sa = fx_state(port, game, ta);
    char path[200];
    snprintf(path, sizeof path, "/api/games/%s/events?seat=%s", game, fx_str(sa, "seat"));
    json_decref(sa);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    /* White's page stays open (its event stream, by seat key) without a move. */
    struct sse_reader ra;
    CHECK_EQ_INT(sse_get(&ra, port, path, NULL), 200);
    fx_sleep_ms(1600);
    json_t *st = fx_state(port, game, tb);
    CHECK(json_is_null(json_object_get(st, "away")));
    CHECK(json_is_false(json_object_get(st, "claim_win")));
    json_decref(st);
    json_t *j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, &j), 409);
    json_decref(j);
    /* The page goes: away from then on, and claimable only a full second later. */
    sse_close(&ra);
    fx_sleep_ms(400); /* the ping notices the hang-up */
    CHECK_EQ_INT(ab_claim_win(port, game, tb), 0);
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, NULL), 409);
    fx_sleep_ms(1100);
    st = fx_state(port, game, tb);
    json_t *away = json_object_get(st, "away");
    CHECK_STR(fx_str(away, "side"), "white");
    CHECK_MSG(fx_int(away, "ms") >= 1000 && fx_int(away, "ms") < 2000, "away %lld ms",
              fx_int(away, "ms"));
    CHECK(json_is_true(json_object_get(st, "claim_win")));
    json_decref(st);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "status"), "reason"), "abandoned");
    CHECK_STR(fx_str(json_object_get(j, "status"), "result"), "black-wins");
    json_decref(j);
    server_stop(srv);
}

TEST(server_abandon_not_while_the_player_polls)
{
    struct server *srv = ab_start(1000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port, AB_GAME, game, ta, tb), 0);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);
    /* White's page polls its state (no stream) and offers a draw, never moving. */
    for (int i = 0; i < 6; i++) {
        fx_sleep_ms(300);
        json_t *st = fx_state(port, game, ta);
        json_decref(st);
        if (i == 3)
            CHECK_EQ_INT(fx_game_post(port, game, "draw", ta, NULL, NULL), 200);
    }
    CHECK_EQ_INT(ab_claim_win(port, game, tb), 0);
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, NULL), 409);
    fx_sleep_ms(1200);
    CHECK_EQ_INT(ab_claim_win(port, game, tb), 1);
    CHECK_EQ_INT(fx_game_post(port, game, "claim-win", tb, NULL, NULL), 200);
    server_stop(srv);
}
