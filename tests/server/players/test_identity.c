/* One identity (issue 28 item 1) against a real server on loopback: one token plays the
 * computer, solves puzzles and challenges people; a browser's old tokens (one per game
 * against the computer, the puzzle solver's) are merged into the player's token, so
 * their games and puzzles are the player's; bad input is refused changing nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define MATE1 "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"

static struct server *start(char *dir, size_t dir_size)
{
    char path[512];
    test_tmpdir(dir, dir_size);
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, "{\"id\":\"chess-mate1\",\"game\":\"chess\",\"position\":\"" MATE1 "\","
               "\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":900}\n");
    fclose(f);
    struct server_config cfg;
    fx_config(&cfg);
    static char puzzles[256];
    snprintf(puzzles, sizeof puzzles, "%s", dir);
    cfg.puzzles_dir = puzzles;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.puzzle_read_ms = -1; /* attempts at once */
    return fx_start(&cfg);
}

/* GET /api/games with the token: how many games it lists. */
static int games_of(int port, const char *token)
{
    json_t *j = NULL;
    int n = api_call(port, "GET", "/api/games", token, NULL, &j) == 200
                ? (int)json_array_size(json_object_get(j, "games"))
                : -1;
    json_decref(j);
    return n;
}

TEST(server_identity_one_token_for_everything)
{
    char dir[256];
    struct server *srv = start(dir, sizeof dir);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40];
    json_t *st = fx_new_game(port, "chess", "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    /* The puzzles take the same token: no new one. */
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", token, NULL, &j), 200);
    CHECK(!json_object_get(j, "token"));
    json_decref(j);
    /* A challenge keeps it too, and so does a second game. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", token,
                          "{\"game\":\"chess\",\"name\":\"Ann\"}", &j),
                 201);
    CHECK_STR(fx_str(j, "token"), token);
    json_decref(j);
    char id2[40], token2[40];
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", token, "{\"game\":\"agon\"}", &j), 201);
    CHECK_STR(fx_str(j, "token"), token);
    snprintf(id2, sizeof id2, "%s", fx_str(j, "id"));
    snprintf(token2, sizeof token2, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(games_of(port, token), 2);
    /* The player's page lists both games against the computer. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", token, NULL, &j), 200);
    char path[128];
    snprintf(path, sizeof path, "/api/players/%s/games", fx_str(j, "id"));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, token, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 2);
    json_decref(j);
    /* A made-up token is not a player: the puzzles give a new one (issue 25). */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess",
                          "0123456789abcdef0123456789abcdef", NULL, &j),
                 200);
    CHECK_EQ_INT((int)strlen(fx_str(j, "token")), 32);
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_identity_merge_takes_old_tokens)
{
    char dir[256];
    struct server *srv = start(dir, sizeof dir);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* A browser of before: a token per game, another for its puzzles. */
    char g1[40], t1[40], g2[40], t2[40];
    json_t *st = fx_new_game(port, "chess", "white", NULL, g1, t1);
    json_decref(st);
    st = fx_new_game(port, "agon", "white", NULL, g2, t2);
    json_decref(st);
    CHECK(strcmp(t1, t2) != 0);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", NULL, NULL, &j), 200);
    char pt[40];
    snprintf(pt, sizeof pt, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/puzzles/chess-mate1/attempts", pt,
                          "{\"moves\":[\"a1a8\"]}", NULL),
                 200);
    /* Bad input first: nothing changes. */
    const char *bad[] = {"{}", "{\"tokens\":\"x\"}", "{\"tokens\":[\"xyz\"]}", "{\"tokens\":[1]}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", "/api/me/merge", t1, bad[i], &j), 400);
        CHECK_STR(fx_str(j, "code"), "bad_request");
        json_decref(j);
    }
    CHECK_EQ_INT(games_of(port, t1), 1);
    /* The first game's token becomes the player's; the others are merged into it. */
    char body[200];
    snprintf(body, sizeof body, "{\"tokens\":[\"%s\",\"%s\",\"%s\"]}", t2, pt, t1);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/merge", t1, body, &j), 200);
    CHECK(!json_object_get(j, "token"));
    CHECK_EQ_INT(fx_int(j, "games"), 1);
    CHECK_EQ_INT(fx_int(j, "puzzles"), 1);
    json_decref(j);
    CHECK_EQ_INT(games_of(port, t1), 2);
    CHECK_EQ_INT(games_of(port, t2), 0);
    /* The merged game answers to the player's token, not to its old one. */
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, g2, "resign", t2, NULL, &j), 403);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(fx_game_post(port, g2, "resign", t1, NULL, &j), 200);
    json_decref(j);
    /* The puzzle rating came along: the puzzle is seen, its rating the player's. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", t1, NULL, &j), 200);
    CHECK(!json_object_get(j, "token"));
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "attempts"), 1);
    json_decref(j);
    /* Merging again changes nothing; a visitor without a token gets one. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/merge", t1, body, &j), 200);
    CHECK_EQ_INT(fx_int(j, "games"), 0);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/merge", NULL, "{\"tokens\":[]}", &j), 200);
    CHECK_EQ_INT((int)strlen(fx_str(j, "token")), 32);
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}
