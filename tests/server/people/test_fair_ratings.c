/* Ratings mean what they say (issue 25, point 3), against a real server on loopback:
 * before both players have moved a game can only be aborted and is never rated (a
 * resignation there aborts it, a draw offer is refused), and takebacks do not reopen
 * the abort. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define BLITZ "{\"initial\":180,\"increment\":2}"

static struct server *fr_start(void)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    return fx_start(&cfg);
}

/* A challenge of `clock` (JSON), rated or not, made with token `ta` (or none: then a new
 * one into ta) as white and accepted with `tb` (or none: into tb): the game's id; 0, or
 * the failing status. */
static int fr_game(int port, const char *clock, bool rated, char *ta, char *tb, char *game)
{
    char body[256], cid[40], tok[40], path[128];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":%s,\"side\":\"white\",\"rated\":%s,\"name\":\"Ann\"}",
             clock, rated ? "true" : "false");
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/challenges", ta[0] ? ta : NULL, body, &j);
    snprintf(cid, sizeof cid, "%s", fx_str(j, "id"));
    snprintf(tok, sizeof tok, "%s", fx_str(j, "token"));
    json_decref(j);
    if (st != 201)
        return st;
    snprintf(ta, 40, "%s", tok);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    j = NULL;
    st = api_call(port, "POST", path, tb[0] ? tb : NULL, "{\"name\":\"Bob\"}", &j);
    snprintf(game, 40, "%s", fx_str(j, "id"));
    if (st == 200)
        snprintf(tb, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st == 200 ? 0 : st;
}

static int fr_post(int port, const char *game, const char *op, const char *token, const char *body,
                   json_t **out)
{
    return fx_game_post(port, game, op, token, body, out);
}

static int fr_move(int port, const char *game, const char *token, const char *move)
{
    char body[64];
    snprintf(body, sizeof body, "{\"move\":\"%s\"}", move);
    return fr_post(port, game, "moves", token, body, NULL);
}

/* The blitz rating of the token's player, as a new rated challenge of theirs says. */
static long long fr_rating(int port, const char *token)
{
    char body[256];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":" BLITZ ",\"rated\":true,\"name\":\"Ann\"}");
    json_t *j = NULL;
    long long r = -1;
    if (api_call(port, "POST", "/api/challenges", token, body, &j) == 201) {
        char path[128];
        snprintf(path, sizeof path, "/api/challenges/%s", fx_str(j, "id"));
        json_decref(j);
        j = NULL;
        if (api_call(port, "GET", path, NULL, NULL, &j) == 200)
            r = fx_int(j, "rating");
        if (api_call(port, "POST", strcat(path, "/cancel"), token, NULL, NULL) != 200)
            r = -2;
    }
    json_decref(j);
    return r;
}

static const char *fr_reason(json_t *st)
{
    return fx_str(json_object_get(st, "status"), "reason");
}

/* 21 resignations at ply 0 of rated games between two tokens moved their ratings to
 * 1893 and 1107: now each is an abort, and the ratings stay 1500. */
TEST(server_fair_resign_before_both_moved_aborts_unrated)
{
    struct server *srv = fr_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ta[40] = "", tb[40] = "", game[40];
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(fr_game(port, BLITZ, true, ta, tb, game), 0);
        json_t *st = NULL;
        if (i % 2) /* white has moved, black not yet */
            CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
        CHECK_EQ_INT(fr_post(port, game, "resign", i % 3 ? tb : ta, NULL, &st), 200);
        CHECK_STR(fr_reason(st), "aborted");
        CHECK_STR(fx_str(json_object_get(st, "status"), "result"), "draw");
        CHECK(json_is_false(json_object_get(st, "can_abort")));
        json_t *white = json_object_get(json_object_get(st, "players"), "white");
        CHECK(json_is_null(json_object_get(white, "rating_after")));
        json_decref(st);
    }
    CHECK_EQ_INT(fr_rating(port, ta), 1500);
    CHECK_EQ_INT(fr_rating(port, tb), 1500);
    /* Once both have moved a resignation is a rated loss, as before. */
    CHECK_EQ_INT(fr_game(port, BLITZ, true, ta, tb, game), 0);
    json_t *st = NULL;
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", game);
    CHECK_EQ_INT(api_call(port, "GET", path, ta, NULL, &st), 200);
    CHECK(json_is_true(json_object_get(st, "can_abort")));
    json_decref(st);
    CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fr_move(port, game, tb, "e7e5"), 200);
    st = NULL;
    CHECK_EQ_INT(fr_post(port, game, "resign", tb, NULL, &st), 200);
    CHECK_STR(fr_reason(st), "resignation");
    json_decref(st);
    CHECK(fr_rating(port, ta) > 1600);
    CHECK(fr_rating(port, tb) < 1400);
    server_stop(srv);
}

/* Before both have moved there is no draw by agreement either (a rated draw for free). */
TEST(server_fair_no_draw_offer_before_both_moved)
{
    struct server *srv = fr_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ta[40] = "", tb[40] = "", game[40];
    CHECK_EQ_INT(fr_game(port, BLITZ, true, ta, tb, game), 0);
    CHECK_EQ_INT(fr_post(port, game, "draw", ta, NULL, NULL), 409);
    CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fr_post(port, game, "draw", tb, NULL, NULL), 409);
    CHECK_EQ_INT(fr_move(port, game, tb, "e7e5"), 200);
    CHECK_EQ_INT(fr_post(port, game, "draw", ta, NULL, NULL), 200);
    server_stop(srv);
}

/* A game can be aborted only before both sides have ever moved: takebacks that bring
 * it back below two plies do not reopen the abort (nor make a resignation free). */
TEST(server_fair_takebacks_do_not_reopen_the_abort)
{
    struct server *srv = fr_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ta[40] = "", tb[40] = "", game[40];
    CHECK_EQ_INT(fr_game(port, "null", false, ta, tb, game), 0);
    CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fr_move(port, game, tb, "e7e5"), 200);
    CHECK_EQ_INT(fr_post(port, game, "takeback", tb, NULL, NULL), 200);
    CHECK_EQ_INT(fr_post(port, game, "takeback", ta, "{\"answer\":\"accept\"}", NULL), 200);
    CHECK_EQ_INT(fr_post(port, game, "takeback", ta, NULL, NULL), 200);
    json_t *st = NULL;
    CHECK_EQ_INT(fr_post(port, game, "takeback", tb, "{\"answer\":\"accept\"}", &st), 200);
    CHECK_EQ_INT(fx_int(st, "ply"), 0);
    CHECK(json_is_false(json_object_get(st, "can_abort")));
    json_decref(st);
    CHECK_EQ_INT(fr_post(port, game, "abort", ta, NULL, NULL), 409);
    CHECK_EQ_INT(fr_post(port, game, "abort", tb, NULL, NULL), 409);
    CHECK_EQ_INT(fr_move(port, game, ta, "d2d4"), 200);
    st = NULL;
    CHECK_EQ_INT(fr_post(port, game, "resign", ta, NULL, &st), 200);
    CHECK_STR(fr_reason(st), "resignation");
    json_decref(st);

    /* White's own first move taken back: nobody has moved both, the abort stands. */
    CHECK_EQ_INT(fr_game(port, "null", false, ta, tb, game), 0);
    CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fr_post(port, game, "takeback", ta, NULL, NULL), 200);
    CHECK_EQ_INT(fr_post(port, game, "takeback", tb, "{\"answer\":\"accept\"}", NULL), 200);
    CHECK_EQ_INT(fr_move(port, game, ta, "d2d4"), 200);
    st = NULL;
    CHECK_EQ_INT(fr_post(port, game, "abort", tb, NULL, &st), 200);
    CHECK_STR(fr_reason(st), "aborted");
    json_decref(st);
    server_stop(srv);
}
