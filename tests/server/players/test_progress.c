/* A player's progress kept by the server (issue 28 item 1), against a real server on
 * loopback: two browsers' copies merged (stars and bests the higher, the repertoire's
 * lines both, each card the one due later), a bad copy refused changing nothing, and
 * a token known by its progress alone kept by the other routes. */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static long long star(json_t *copy, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(copy, "stars"), key));
}

TEST(server_progress_merges_two_browsers)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* The first browser: no token yet. */
    json_t *j = NULL;
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/me/progress", NULL,
                 "{\"stars\":{\"agon/1/1\":3,\"agon/1/2\":1},\"coords\":{\"chess:white\":12},"
                 "\"repertoire\":{\"lines\":[{\"side\":\"white\",\"moves\":[\"e4\",\"e5\"]}],"
                 "\"cards\":{\"k1\":{\"reps\":1,\"interval\":1,\"ef\":2.5,\"due\":100}}}}",
                 &j),
        200);
    char token[40];
    snprintf(token, sizeof token, "%s", fx_str(j, "token"));
    CHECK_EQ_INT((int)strlen(token), 32);
    json_decref(j);
    /* The second browser of the same player sends its own copy. */
    j = NULL;
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/me/progress", token,
                 "{\"stars\":{\"agon/1/1\":2,\"agon/1/2\":3,\"chess/2/1\":1},"
                 "\"coords\":{\"chess:white\":9,\"agon:black\":4},"
                 "\"repertoire\":{\"lines\":[{\"side\":\"white\",\"moves\":[\"e4\",\"e5\"]},"
                 "{\"side\":\"black\",\"moves\":[\"d4\"]}],"
                 "\"cards\":{\"k1\":{\"reps\":0,\"interval\":1,\"ef\":2.5,\"due\":50},"
                 "\"k2\":{\"reps\":2,\"interval\":6,\"ef\":2.6,\"due\":900}}}}",
                 &j),
        200);
    CHECK(!json_object_get(j, "token")); /* the same player: no new token */
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/progress", token, NULL, &j), 200);
    CHECK_EQ_INT(star(j, "agon/1/1"), 3); /* the higher of each */
    CHECK_EQ_INT(star(j, "agon/1/2"), 3);
    CHECK_EQ_INT(star(j, "chess/2/1"), 1);
    json_t *coords = json_object_get(j, "coords");
    CHECK_EQ_INT(json_integer_value(json_object_get(coords, "chess:white")), 12);
    CHECK_EQ_INT(json_integer_value(json_object_get(coords, "agon:black")), 4);
    json_t *rep = json_object_get(j, "repertoire");
    CHECK_EQ_INT((int)json_array_size(json_object_get(rep, "lines")), 2); /* e4 e5 once */
    json_t *cards = json_object_get(rep, "cards");
    CHECK_EQ_INT((long long)json_number_value(json_object_get(json_object_get(cards, "k1"), "due")),
                 100);
    CHECK_EQ_INT((long long)json_number_value(json_object_get(json_object_get(cards, "k2"), "due")),
                 900);
    json_decref(j);
    /* A line removed later (its copy says so) stays removed; an older copy's lines do
     * not bring it back. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/progress", token,
                          "{\"repertoire\":{\"changed\":2000,\"lines\":[{\"side\":\"black\","
                          "\"moves\":[\"d4\"]}]}}",
                          NULL),
                 200);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/progress", token,
                          "{\"repertoire\":{\"changed\":1000,\"lines\":[{\"side\":\"white\","
                          "\"moves\":[\"e4\",\"e5\"]}]}}",
                          &j),
                 200);
    json_t *lines = json_object_get(json_object_get(j, "repertoire"), "lines");
    CHECK_EQ_INT((int)json_array_size(lines), 1);
    CHECK_STR(fx_str(json_array_get(lines, 0), "side"), "black");
    json_decref(j);
    server_stop(srv);
}

TEST(server_progress_refuses_a_bad_copy_changing_nothing)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/progress", NULL, "{\"stars\":{\"a\":2}}", &j),
                 200);
    char token[40];
    snprintf(token, sizeof token, "%s", fx_str(j, "token"));
    json_decref(j);
    const char *bad[] = {
        "{\"stars\":{\"a\":4}}",
        "{\"stars\":{\"a\":\"3\"}}",
        "{\"stars\":[3]}",
        "{\"coords\":{\"x\":-1}}",
        "{\"repertoire\":{\"lines\":[{\"side\":\"red\",\"moves\":[]}]}}",
        "{\"repertoire\":{\"lines\":[{\"side\":\"white\",\"moves\":[\"\"]}]}}",
        "{\"repertoire\":{\"cards\":{\"k\":{\"reps\":1}}}}",
        "{\"stars\":{\"a\":3},\"repertoire\":{\"lines\":7}}",
        "{\"repertoire\":{\"changed\":\"now\"}}",
        "[1]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = NULL;
        int st = api_call(port, "POST", "/api/me/progress", token, bad[i], &j);
        CHECK_MSG(st == 400, "%s: %d", bad[i], st);
        if (st == 400 && i < 9)
            CHECK_STR(fx_str(j, "code"), "bad_progress");
        json_decref(j);
    }
    /* Nothing changed, not even the star of the copy whose other part was bad. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/progress", token, NULL, &j), 200);
    CHECK_EQ_INT(star(j, "a"), 2);
    CHECK(!json_object_get(j, "repertoire"));
    json_decref(j);
    /* A bad copy without a token makes none. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/progress", NULL, "{\"stars\":{\"a\":9}}", &j),
                 400);
    CHECK(!json_object_get(j, "token"));
    json_decref(j);
    /* GET needs the token. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/progress", NULL, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "no_token");
    json_decref(j);
    server_stop(srv);
}

TEST(server_progress_token_is_one_identity)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/progress", NULL, "{\"stars\":{\"a\":1}}", &j),
                 200);
    char token[40];
    snprintf(token, sizeof token, "%s", fx_str(j, "token"));
    json_decref(j);
    /* A game against the computer and a name keep the learner's token. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", token,
                          "{\"game\":\"agon\",\"level\":1,\"side\":\"white\"}", &j),
                 201);
    CHECK_STR(fx_str(j, "token"), token);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", token, "{\"name\":\"Lea\"}", &j), 200);
    CHECK(!json_object_get(j, "token") || !strcmp(fx_str(j, "token"), token));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", token, NULL, &j), 200);
    CHECK_STR(fx_str(j, "name"), "Lea");
    json_decref(j);
    server_stop(srv);
}
