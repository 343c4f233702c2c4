/* A move's "ply" between people (API.md "A game between people"): a player's retry of
 * the move they just made is answered 200 though the turn is now the opponent's, and
 * made once; the opponent's token, a wrong ply or another move there is refused; a
 * move whose COMMIT's answer was lost (the store's test hook) is retried into a 200;
 * without "ply" the other player's move is 403 as ever. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "server/server_state.h"
#include "store/store.h"

#define MRP_GAME                                                                                   \
    "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},\"side\":\"white\","          \
    "\"rated\":false,\"name\":\"Ann\"}"

static int mrp_move(int port, const char *id, const char *token, const char *move, int ply,
                    long long *got_ply, char *code)
{
    char body[128];
    snprintf(body, sizeof body, "{\"move\":\"%s\",\"ply\":%d}", move, ply);
    json_t *j = NULL;
    int status = fx_game_post(port, id, "moves", token, body, &j);
    *got_ply = fx_int(j, "ply");
    snprintf(code, 64, "%s", fx_str(j, "code"));
    json_decref(j);
    return status;
}

static int mrp_stored(struct server *srv, const char *id)
{
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL, err[256];
    int n = -1;
    if (store_load_game(srv->store, id, &row, &moves, &n, err, sizeof err) != 0)
        n = -1;
    free(moves);
    return n;
}

TEST(server_people_move_retry_is_made_once)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40], code[64];
    long long ply = 0;
    CHECK_EQ_INT(fx_people_game(port, MRP_GAME, game, ta, tb), 0);
    CHECK_EQ_INT(mrp_move(port, game, ta, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 1);
    /* White's retry, the turn now Black's: the same answer, nothing made. */
    CHECK_EQ_INT(mrp_move(port, game, ta, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 1);
    CHECK_EQ_INT(mrp_stored(srv, game), 1);
    char *before = fx_fingerprint_of(port, game);
    /* Black naming White's move, White another move there or a ply ahead: 409. */
    CHECK_EQ_INT(mrp_move(port, game, tb, "e2e4", 1, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    CHECK_EQ_INT(mrp_move(port, game, ta, "d2d4", 1, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    CHECK_EQ_INT(mrp_move(port, game, ta, "d2d4", 3, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    /* White with the next ply, or without one: not their turn, as ever. */
    CHECK_EQ_INT(mrp_move(port, game, ta, "d2d4", 2, &ply, code), 403);
    CHECK_STR(code, "not_your_turn");
    CHECK_EQ_INT(fx_move(port, game, ta, "d2d4"), 403);
    char *after = fx_fingerprint_of(port, game);
    CHECK_STR(after, before);
    free(before);
    free(after);
    /* Black moves; White's retry of move 1 still finds it. */
    CHECK_EQ_INT(mrp_move(port, game, tb, "e7e5", 2, &ply, code), 200);
    CHECK_EQ_INT(ply, 2);
    CHECK_EQ_INT(mrp_move(port, game, ta, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 2);
    CHECK_EQ_INT(fx_move(port, game, ta, "g1f3"), 200);
    CHECK_EQ_INT(mrp_stored(srv, game), 3);
    server_stop(srv);
}

TEST(server_people_move_retry_after_a_lost_commit_answer)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40], code[64];
    long long ply = 0;
    CHECK_EQ_INT(fx_people_game(port, MRP_GAME, game, ta, tb), 0);
    store_test_lose_answers(srv->store, "add_people_move", 1);
    CHECK_EQ_INT(mrp_move(port, game, ta, "e2e4", 1, &ply, code), 503);
    CHECK_EQ_INT(mrp_stored(srv, game), 1); /* stored all the same */
    /* Without a ply the retry was refused (not White's turn); with it, 200. */
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 403);
    CHECK_EQ_INT(mrp_move(port, game, ta, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 1);
    CHECK_EQ_INT(mrp_stored(srv, game), 1);
    CHECK_EQ_INT(mrp_move(port, game, tb, "e7e5", 2, &ply, code), 200);
    CHECK_EQ_INT(ply, 2);
    CHECK_EQ_INT(mrp_stored(srv, game), 2);
    server_stop(srv);
}
