/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: a move or claim with the token of the player not to move is
 * refused like a stranger's (403, before the body is read) and changes nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../server_client.h"
#include "server/server.h"

static int64_t ct_challenge_ms; /* an invite link's life for the next ct_start (0: 7 days) */

static struct server *ct_start(const char *db, const char *puzzles)
{
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = db;
    cfg.web_dir = NULL;
    cfg.puzzles_dir = puzzles;
    cfg.http_threads = 2;
    cfg.engine_workers = 1;
    cfg.cache_games = 16;
    cfg.new_games_per_minute = 0;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.challenge_ms = ct_challenge_ms;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
}

static const char *ct_str(json_t *j, const char *key)
{
    const char *s = json_string_value(json_object_get(j, key));
    return s ? s : "";
}

static long long ct_int(json_t *j, const char *key)
{
    return json_integer_value(json_object_get(j, key));
}

static int ct_post(int port, const char *game, const char *op, const char *token, const char *body)
{
    char path[160];
    snprintf(path, sizeof path, "/api/games/%.40s/%s", game, op);
    return api_call(port, "POST", path, token, body, NULL);
}

TEST(server_contract_move_needs_the_movers_token)
{
    struct server *srv = ct_start(":memory:", NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"side\":\"white\",\"name\":\"Ann\"}", &j),
                 201);
    char cid[40], ta[40], tb[40], game[40], path[128];
    snprintf(cid, sizeof cid, "%s", ct_str(j, "id"));
    snprintf(ta, sizeof ta, "%s", ct_str(j, "token"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j), 200);
    snprintf(game, sizeof game, "%s", ct_str(j, "id"));
    snprintf(tb, sizeof tb, "%s", ct_str(j, "token"));
    json_decref(j);

    /* White is to move: Bob's (black's) token may not move or claim, whatever the body. */
    CHECK_EQ_INT(ct_post(port, game, "moves", tb, "{\"move\":\"e2e4\"}"), 403);
    CHECK_EQ_INT(ct_post(port, game, "moves", tb, "{}"), 403);
    CHECK_EQ_INT(ct_post(port, game, "claim", tb, "{\"claim\":\"threefold\"}"), 403);
    j = api_get_state(port, game);
    CHECK_EQ_INT(ct_int(j, "ply"), 0);
    json_decref(j);
    /* The side to move is served as before: its own token moves; then the turn passes. */
    CHECK_EQ_INT(ct_post(port, game, "moves", ta, "{}"), 400);
    CHECK_EQ_INT(ct_post(port, game, "moves", ta, "{\"move\":\"e2e4\"}"), 200);
    CHECK_EQ_INT(ct_post(port, game, "moves", ta, "{\"move\":\"d2d4\"}"), 403);
    CHECK_EQ_INT(ct_post(port, game, "claim", tb, "{\"claim\":\"threefold\"}"), 409);
    CHECK_EQ_INT(ct_post(port, game, "moves", tb, "{\"move\":\"e7e5\"}"), 200);
    /* Either player may still resign; once over, a move is 409 for both. */
    CHECK_EQ_INT(ct_post(port, game, "resign", tb, NULL), 200);
    CHECK_EQ_INT(ct_post(port, game, "moves", ta, "{\"move\":\"g1f3\"}"), 409);
    CHECK_EQ_INT(ct_post(port, game, "moves", tb, "{\"move\":\"g8f6\"}"), 409);
    j = api_get_state(port, game);
    CHECK_EQ_INT(ct_int(j, "ply"), 2);
    json_decref(j);
    server_stop(srv);
}
