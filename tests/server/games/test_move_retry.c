/* A move's "ply" against the computer (API.md "Moves"): the same move posted again with
 * its ply is answered as it was (200, the state with the computer's reply) and made
 * once; a ply that is neither the next nor a move of the player's made there is 409
 * game_moved_on; without "ply" nothing changes.  A COMMIT whose answer is lost (the
 * store's test hook: the change stored, the answer an error) is retried into a 200. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "server/server_state.h"
#include "store/store.h"

/* POST a move with its ply: the status; *ply the answer's "ply", *code its "code". */
static int mr_move(int port, const char *id, const char *token, const char *move, int ply,
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

/* The moves the store holds of game id. */
static int mr_stored(struct server *srv, const char *id)
{
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL, err[256];
    int n = -1;
    if (store_load_game(srv->store, id, &row, &moves, &n, err, sizeof err) != 0)
        n = -1;
    free(moves);
    return n;
}

TEST(server_move_retry_against_the_computer_is_made_once)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], code[64];
    long long ply = 0;
    json_t *st = fx_new_game(port, "chess", "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    CHECK_EQ_INT(mr_move(port, id, token, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 2); /* with the computer's reply */
    /* The same again: the same answer, nothing made. */
    CHECK_EQ_INT(mr_move(port, id, token, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 2);
    CHECK_EQ_INT(mr_stored(srv, id), 2);
    char *before = fx_fingerprint_of(port, id);
    /* Another move at a ply already made, the computer's ply, one far ahead: 409. */
    CHECK_EQ_INT(mr_move(port, id, token, "d2d4", 1, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    json_t *now = fx_state(port, id, token);
    json_t *moves = json_object_get(now, "moves");
    json_t *reply = json_array_get(moves, 1);
    const char *reply_text = json_is_object(reply) ? fx_str(reply, "move") : "";
    char theirs[64];
    snprintf(theirs, sizeof theirs, "%s", reply_text);
    json_decref(now);
    CHECK_EQ_INT(mr_move(port, id, token, theirs, 2, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    CHECK_EQ_INT(mr_move(port, id, token, "d2d4", 7, &ply, code), 409);
    CHECK_STR(code, "game_moved_on");
    /* A malformed ply: 400. */
    json_t *j = NULL;
    CHECK_EQ_INT(fx_game_post(port, id, "moves", token, "{\"move\":\"d2d4\",\"ply\":\"3\"}", &j),
                 400);
    json_decref(j);
    char *after = fx_fingerprint_of(port, id);
    CHECK_STR(after, before);
    free(before);
    free(after);
    /* The next ply, then without a ply: as ever. */
    CHECK_EQ_INT(mr_move(port, id, token, "d2d4", 3, &ply, code), 200);
    CHECK_EQ_INT(ply, 4);
    CHECK_EQ_INT(fx_move(port, id, token, "g1f3"), 200);
    CHECK_EQ_INT(mr_stored(srv, id), 6);
    server_stop(srv);
}

TEST(server_move_retry_after_a_lost_commit_answer)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], code[64];
    long long ply = 0;
    json_t *st = fx_new_game(port, "chess", "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    /* The move and the reply are committed together; the answer of that COMMIT is lost. */
    store_test_lose_answers(srv->store, "add_moves", 1);
    CHECK_EQ_INT(mr_move(port, id, token, "e2e4", 1, &ply, code), 503);
    CHECK_STR(code, "busy");
    CHECK_EQ_INT(mr_stored(srv, id), 2); /* stored all the same */
    /* The retry finds the move made: 200 with the reply, and nothing more stored. */
    CHECK_EQ_INT(mr_move(port, id, token, "e2e4", 1, &ply, code), 200);
    CHECK_EQ_INT(ply, 2);
    CHECK_EQ_INT(mr_stored(srv, id), 2);
    CHECK_EQ_INT(mr_move(port, id, token, "d2d4", 3, &ply, code), 200);
    CHECK_EQ_INT(ply, 4);
    CHECK_EQ_INT(mr_stored(srv, id), 4);
    server_stop(srv);
}
