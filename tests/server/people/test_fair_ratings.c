/* Ratings mean what they say (issue 25, point 3), against a real server on loopback:
 * before both players have moved a game can only be aborted and is never rated (a
 * resignation there aborts it, a draw offer is refused), and takebacks do not reopen
 * the abort; challenges, accepts and draw offers have limits a minute per token and per
 * address (429 JSON); the same two players' rated games count at most 5 times a day. */
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

/* A challenge from an address of its own (X-Forwarded-For, with --trust-proxy): the
 * status; its id and token into cid and tok when given. */
static int fr_challenge_from(int port, const char *addr, const char *token, const char *path,
                             char *cid, char *tok)
{
    char headers[96];
    snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\n", addr);
    const char *body = "{\"game\":\"chess\",\"clock\":" BLITZ ",\"name\":\"Ann\"}";
    struct http_reply r;
    if (http_call(port, "POST", path, token, body, strlen(body), headers, &r) != 0)
        return 0;
    json_t *j = http_json(&r);
    if (cid)
        snprintf(cid, 40, "%s", fx_str(j, "id"));
    if (tok)
        snprintf(tok, 40, "%s", fx_str(j, "token"));
    int status = r.status;
    if (status == 429 && !json_is_string(json_object_get(j, "error")))
        status = -429; /* a refusal is JSON */
    json_decref(j);
    http_reply_free(&r);
    return status;
}

static int fr_accept_from(int port, const char *addr, const char *cid)
{
    char headers[96], path[128];
    snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\n", addr);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    const char *body = "{\"name\":\"Bob\"}";
    struct http_reply r;
    if (http_call(port, "POST", path, NULL, body, strlen(body), headers, &r) != 0)
        return 0;
    int status = r.status;
    http_reply_free(&r);
    return status;
}

/* 1488 challenge/accept pairs from one address in a minute passed: with the defaults an
 * address makes at most 60 a minute (20 per token), and the refusal is 429 JSON. */
TEST(server_fair_challenges_and_accepts_are_limited)
{
    struct server_config cfg;
    fx_config(&cfg); /* the default limits of games between people */
    cfg.trust_proxy = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char cid[40], tok[40] = "", keep[40] = "";
    /* One token: 20 a minute. */
    int made = 0, st;
    int64_t t0 = fx_now_ms();
    while ((st = fr_challenge_from(port, "10.0.0.1", tok[0] ? tok : NULL, "/api/challenges", cid,
                                   tok)) == 201 &&
           made < 100)
        made++;
    CHECK_EQ_INT(st, 429);
    CHECK_EQ_INT(made, 20);
    snprintf(keep, sizeof keep, "%s", cid);
    /* New tokens from the same address: 60 a minute in all, accepts counted too. */
    int pairs = 0;
    for (int i = 0; i < 100; i++) {
        if ((st = fr_challenge_from(port, "10.0.0.1", NULL, "/api/challenges", cid, NULL)) != 201)
            break;
        made++;
        if ((st = fr_accept_from(port, "10.0.0.1", cid)) != 200)
            break;
        made++, pairs++;
    }
    CHECK_EQ_INT(st, 429);
    /* 60, and the address's bucket refills one a second meanwhile (a slower database,
     * PostgreSQL under the sanitizers, takes over a second for these 120 requests). */
    int refilled = (int)((fx_now_ms() - t0) / 1000);
    CHECK_MSG(made >= 60 && made <= 60 + refilled, "%d made in %d s", made, refilled);
    CHECK_MSG(pairs >= 19 && pairs <= 20 + refilled, "%d pairs", pairs);
    /* Another address is not held back, nor a seek from it. */
    CHECK_EQ_INT(fr_challenge_from(port, "10.0.0.2", NULL, "/api/challenges", cid, NULL), 201);
    CHECK_EQ_INT(fr_accept_from(port, "10.0.0.3", cid), 200);
    CHECK_EQ_INT(fr_challenge_from(port, "10.0.0.2", NULL, "/api/seeks", cid, NULL), 201);
    server_stop(srv);
}

/* 100 offer/decline cycles in 0.2 s, each an event to the opponent: at most 10 offers a
 * minute per player (30 per address) by default. */
TEST(server_fair_draw_offers_are_limited)
{
    struct server *srv = fr_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ta[40] = "", tb[40] = "", game[40];
    CHECK_EQ_INT(fr_game(port, BLITZ, false, ta, tb, game), 0);
    CHECK_EQ_INT(fr_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fr_move(port, game, tb, "e7e5"), 200);
    int offers = 0, st = 0;
    for (int i = 0; i < 40; i++) {
        json_t *j = NULL;
        if ((st = fr_post(port, game, "draw", ta, NULL, &j)) != 200) {
            CHECK(json_is_string(json_object_get(j, "error")));
            json_decref(j);
            break;
        }
        json_decref(j);
        offers++;
        CHECK_EQ_INT(fr_post(port, game, "draw", tb, "{\"answer\":\"decline\"}", NULL), 200);
    }
    CHECK_EQ_INT(st, 429);
    CHECK_EQ_INT(offers, 10);
    /* The opponent's own offers are theirs to make, and answering is not limited. */
    CHECK_EQ_INT(fr_post(port, game, "draw", tb, NULL, NULL), 200);
    json_t *j = NULL;
    CHECK_EQ_INT(fr_post(port, game, "draw", ta, "{\"answer\":\"accept\"}", &j), 200);
    CHECK_STR(fr_reason(j), "agreement");
    json_decref(j);
    server_stop(srv);
}

/* Two tokens cannot farm a rating: the same two players' rated games count at most 5
 * times in 24 hours; later ones are played unrated and say so (rated_capped). */
TEST(server_fair_rated_games_per_pair_are_capped)
{
    struct server *srv = fr_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ta[40] = "", tb[40] = "", tc[40] = "", game[40];
    /* An aborted rated game counts for nothing, not even the cap. */
    CHECK_EQ_INT(fr_game(port, BLITZ, true, ta, tb, game), 0);
    CHECK_EQ_INT(fr_post(port, game, "abort", ta, NULL, NULL), 200);
    long long last = 1500;
    for (int i = 0; i < 7; i++) {
        /* Either may be the challenge's creator: the pair is the same. */
        char *first = i % 2 ? tb : ta, *second = i % 2 ? ta : tb;
        CHECK_EQ_INT(fr_game(port, BLITZ, true, first, second, game), 0);
        char path[128];
        snprintf(path, sizeof path, "/api/games/%s", game);
        json_t *st = NULL;
        CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &st), 200);
        CHECK_MSG(json_is_boolean(json_object_get(st, "rated")) &&
                      json_is_true(json_object_get(st, "rated")) == (i < 5),
                  "game %d rated: %s", i + 1,
                  json_is_true(json_object_get(st, "rated")) ? "yes" : "no");
        CHECK(json_is_true(json_object_get(st, "rated_capped")) == (i >= 5));
        json_decref(st);
        /* Ann (ta) loses every game. */
        const char *white = first, *black = second;
        CHECK_EQ_INT(fr_move(port, game, white, "e2e4"), 200);
        CHECK_EQ_INT(fr_move(port, game, black, "e7e5"), 200);
        CHECK_EQ_INT(fr_post(port, game, "resign", ta, NULL, NULL), 200);
        long long now = fr_rating(port, ta);
        CHECK_MSG(i < 5 ? now < last : now == last, "game %d: Ann %lld after %lld", i + 1, now,
                  last);
        last = now;
    }
    /* Another opponent's rated game counts as ever. */
    CHECK_EQ_INT(fr_game(port, BLITZ, true, tc, ta, game), 0);
    CHECK_EQ_INT(fr_move(port, game, tc, "e2e4"), 200);
    CHECK_EQ_INT(fr_move(port, game, ta, "e7e5"), 200);
    CHECK_EQ_INT(fr_post(port, game, "resign", ta, NULL, NULL), 200);
    CHECK(fr_rating(port, ta) < last);
    server_stop(srv);
}
