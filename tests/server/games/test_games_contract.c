/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: a move or claim with the token of the player not to move is
 * refused like a stranger's (403, before the body is read) and changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

TEST(server_contract_move_needs_the_movers_token)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"side\":\"white\",\"name\":\"Ann\"}", &j),
                 201);
    char cid[40], ta[40], tb[40], game[40], path[128];
    snprintf(cid, sizeof cid, "%s", fx_str(j, "id"));
    snprintf(ta, sizeof ta, "%s", fx_str(j, "token"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j), 200);
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    snprintf(tb, sizeof tb, "%s", fx_str(j, "token"));
    json_decref(j);

    /* White is to move: Bob's (black's) token may not move or claim, whatever the body. */
    CHECK_EQ_INT(fx_game_post(port, game, "moves", tb, "{\"move\":\"e2e4\"}", NULL), 403);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", tb, "{}", NULL), 403);
    CHECK_EQ_INT(fx_game_post(port, game, "claim", tb, "{\"claim\":\"threefold\"}", NULL), 403);
    j = api_get_state(port, game);
    CHECK_EQ_INT(fx_int(j, "ply"), 0);
    json_decref(j);
    /* The side to move is served as before: its own token moves; then the turn passes. */
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{}", NULL), 400);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"e2e4\"}", NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"d2d4\"}", NULL), 403);
    CHECK_EQ_INT(fx_game_post(port, game, "claim", tb, "{\"claim\":\"threefold\"}", NULL), 409);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", tb, "{\"move\":\"e7e5\"}", NULL), 200);
    /* Either player may still resign; once over, a move is 409 for both. */
    CHECK_EQ_INT(fx_game_post(port, game, "resign", tb, NULL, NULL), 200);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"g1f3\"}", NULL), 409);
    CHECK_EQ_INT(fx_game_post(port, game, "moves", tb, "{\"move\":\"g8f6\"}", NULL), 409);
    j = api_get_state(port, game);
    CHECK_EQ_INT(fx_int(j, "ply"), 2);
    json_decref(j);
    server_stop(srv);
}
