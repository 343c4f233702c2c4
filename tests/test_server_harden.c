/* The server's defences against other sites and stray paths: cross-site requests
 * refused, the security headers on every answer, static files kept inside web/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "server/server.h"
#include "server_client.h"

static struct server *start_plain(const char *web_dir)
{
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = ":memory:";
    cfg.web_dir = web_dir;
    cfg.http_threads = 2;
    cfg.engine_workers = 1;
    cfg.cache_games = 64;
    cfg.new_games_per_minute = 0;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
}

static const char new_game_body[] = "{\"game\":\"egara\",\"level\":1,\"side\":\"white\"}";

/* POST /api/games with extra headers; the status, and whether the error is JSON. */
static int post_game(int port, const char *headers, int *json_error)
{
    struct http_reply r;
    if (http_call(port, "POST", "/api/games", NULL, new_game_body, strlen(new_game_body), headers,
                  &r) != 0)
        return 0;
    json_t *j = http_json(&r);
    *json_error = json_is_string(json_object_get(j, "error"));
    json_decref(j);
    int status = r.status;
    http_reply_free(&r);
    return status;
}

TEST(server_refuses_cross_site_requests)
{
    struct server *srv = start_plain(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv), jerr = 0;
    /* A form of another site: text/plain with a foreign Origin. */
    CHECK_EQ_INT(
        post_game(port, "Origin: http://evil.example\r\nContent-Type: text/plain\r\n", &jerr), 403);
    CHECK(jerr);
    /* A foreign Origin even with JSON; "null" (sandboxed frames, files) is foreign too. */
    jerr = 0;
    CHECK_EQ_INT(
        post_game(port, "Origin: http://evil.example\r\nContent-Type: application/json\r\n", &jerr),
        403);
    CHECK(jerr);
    CHECK_EQ_INT(post_game(port, "Origin: null\r\nContent-Type: application/json\r\n", &jerr), 403);
    /* A lookalike host is not this one. */
    CHECK_EQ_INT(post_game(port, "Origin: http://127.0.0.1.evil.example\r\n", &jerr), 403);
    /* No Origin with a form's content type. */
    jerr = 0;
    CHECK_EQ_INT(post_game(port, "Content-Type: application/x-www-form-urlencoded\r\n", &jerr),
                 403);
    CHECK(jerr);
    CHECK_EQ_INT(post_game(port, "Content-Type: text/plain\r\n", &jerr), 403);
    /* The site's own pages (Origin = Host) and curl-like clients go through. */
    CHECK_EQ_INT(
        post_game(port, "Origin: http://127.0.0.1\r\nContent-Type: application/json\r\n", &jerr),
        201);
    CHECK_EQ_INT(post_game(port, "Content-Type: application/json; charset=utf-8\r\n", &jerr), 201);
    CHECK_EQ_INT(post_game(port, NULL, &jerr), 201);
    /* GET is never refused for its Origin. */
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", "/api/catalog", NULL, NULL, 0,
                           "Origin: http://evil.example\r\n", &r),
                 0);
    CHECK_EQ_INT(r.status, 200);
    http_reply_free(&r);
    /* A move with a foreign Origin changes nothing. */
    json_t *g;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, new_game_body, &g), 201);
    const char *id = json_string_value(json_object_get(g, "id"));
    const char *tok = json_string_value(json_object_get(g, "token"));
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s/resign", id ? id : "");
    CHECK_EQ_INT(http_call(port, "POST", path, tok, "{}", 2,
                           "Origin: http://evil.example\r\nContent-Type: text/plain\r\n", &r),
                 0);
    CHECK_EQ_INT(r.status, 403);
    http_reply_free(&r);
    json_t *st = api_get_state(port, id ? id : "");
    CHECK(st && !json_is_true(json_object_get(json_object_get(st, "status"), "over")));
    json_decref(st);
    json_decref(g);
    server_stop(srv);
}
