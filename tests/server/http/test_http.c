/* What the HTTP room answers for the whole API: the error codes (with a JSON error,
 * nothing changed), static files from web/ and the installable app's files. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

struct move_job {
    int port;
    const char *id, *token, *move;
    int code;
};

static void *move_thread(void *arg)
{
    struct move_job *job = arg;
    json_t *j;
    job->code = api_post_move(job->port, job->id, job->token, job->move, &j);
    json_decref(j);
    return NULL;
}

TEST(server_error_codes)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 2;
    cfg.new_games_per_minute = 3;
    cfg.test_think_ms = 300;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], path[128];
    json_t *j = fx_new_game(port, "egara", "white", NULL, id, token), *e = NULL;
    CHECK(j != NULL);
    json_decref(j);
    char *before = fx_fingerprint_of(port, id);
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
#define EXPECT(code, method, p, tok, body)                                                         \
    do {                                                                                           \
        CHECK_EQ_INT(api_call(port, method, p, tok, body, &e), code);                              \
        CHECK_MSG(json_is_string(json_object_get(e, "error")), "no JSON error (%d)", code);        \
        json_decref(e);                                                                            \
    } while (0)
    /* 400: malformed JSON, wrong shapes, illegal and malformed moves. */
    EXPECT(400, "POST", path, token, "{\"move\":");
    EXPECT(400, "POST", path, token, "[\"d3-d4\"]");
    EXPECT(400, "POST", path, token, "{\"move\":42}");
    EXPECT(400, "POST", path, token, "");
    EXPECT(400, "POST", path, token, "{\"move\":\"d3-d4\",\"move\":\"c3-d4\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"a1-a7\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"zz\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"d3-d4\\u0000x\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"go\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"level\":9}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"side\":\"red\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"position\":\"W/B\"}");
    EXPECT(400, "POST", "/api/games", NULL,
           "{\"game\":\"egara\",\"position\":\"5/3/3/1/3/3/1W3 w 0\"}");
    /* 403: missing or wrong token. */
    EXPECT(403, "POST", path, NULL, "{\"move\":\"d3-d4\"}");
    EXPECT(403, "POST", path, "00000000000000000000000000000000", "{\"move\":\"d3-d4\"}");
    EXPECT(403, "GET", "/api/games", NULL, NULL);
    /* 404: unknown games and paths. */
    EXPECT(404, "GET", "/api/games/0123456789abcdef0123456789abcdef", NULL, NULL);
    EXPECT(404, "GET", "/api/games/nope", NULL, NULL);
    EXPECT(404, "POST", "/api/games/0123456789abcdef0123456789abcdef/moves", token,
           "{\"move\":\"d3-d4\"}");
    EXPECT(404, "GET", "/api/nothing", NULL, NULL);
    snprintf(path, sizeof path, "/api/games/%.40s/fly", id);
    EXPECT(404, "POST", path, token, "{}");
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    EXPECT(405, "GET", path, NULL, NULL);
    /* 409: no claim here. */
    snprintf(path, sizeof path, "/api/games/%.40s/claim", id);
    EXPECT(409, "POST", path, token, NULL);
    char *after = fx_fingerprint_of(port, id);
    CHECK_STR(after, before);
    free(after);
    free(before);

    /* 413: a body over 16 KiB, refused, nothing changed. */
    size_t big = 20000;
    char *body = malloc(big + 1);
    memset(body, ' ', big);
    memcpy(body, "{\"move\":\"d3-d4\"", 15);
    body[big - 1] = '}';
    body[big] = 0;
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "POST", path, token, body, big, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 413);
    http_reply_free(&r);
    free(body);
    before = fx_fingerprint_of(port, id);
    CHECK(strstr(before, "\"moves\":[]") != NULL);

    /* 409: not your turn while the computer thinks (300 ms here). */
    struct move_job job = {port, id, token, "d3-d4", 0};
    pthread_t th;
    pthread_create(&th, NULL, move_thread, &job);
    usleep(100 * 1000);
    EXPECT(409, "POST", path, token, "{\"move\":\"c3-d4\"}");
    json_t *mid = api_get_state(port, id);
    CHECK(mid && json_is_true(json_object_get(mid, "thinking")));
    CHECK(mid && json_array_size(json_object_get(mid, "legal_moves")) > 0);
    json_decref(mid);
    pthread_join(th, NULL);
    CHECK_EQ_INT(job.code, 200);
    /* 409: the game is over (resigned). */
    snprintf(path, sizeof path, "/api/games/%.40s/resign", id);
    CHECK_EQ_INT(api_call(port, "POST", path, token, NULL, &e), 200);
    CHECK_STR(fx_str(json_object_get(e, "status"), "reason"), "resignation");
    CHECK_STR(fx_str(json_object_get(e, "status"), "result"), "black-wins");
    json_decref(e);
    EXPECT(409, "POST", path, token, NULL);
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    EXPECT(409, "POST", path, token, "{\"move\":\"c3-d4\"}");
    free(before);

    /* 429: the fourth new game within a minute from one address (limit 3). */
    json_t *g2 = fx_new_game(port, "egara", "white", NULL, id, token);
    json_t *g3 = fx_new_game(port, "egara", "white", NULL, id, token);
    CHECK(g2 && g3);
    json_decref(g2);
    json_decref(g3);
    EXPECT(429, "POST", "/api/games", NULL, "{\"game\":\"egara\"}");
#undef EXPECT
    server_stop(srv);
}

TEST(server_static_files)
{
    char dir[64], path[160];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        SKIP("cannot write a temporary web folder");
    fputs("<!doctype html><title>hall</title>", f);
    fclose(f);
    struct server_config cfg;
    fx_config_defaults(&cfg);
    cfg.web_dir = dir;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.body && strstr(r.body, "<title>hall</title>"));
    CHECK(r.head && strstr(r.head, "text/html"));
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "GET", "/nope.js", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 404);
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "GET", "/../../../etc/passwd", NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.status == 404 || r.status == 400);
    CHECK(!r.body || !strstr(r.body, "root:"));
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "DELETE", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 405);
    http_reply_free(&r);
    server_stop(srv);
    test_rmdir(dir);
    /* No web/ folder: a placeholder page says so. */
    cfg.web_dir = "/nonexistent-agora-web";
    srv = fx_start(&cfg);
    if (!srv)
        return;
    CHECK_EQ_INT(http_call(server_port(srv), "GET", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.body && strstr(r.body, "not built yet"));
    http_reply_free(&r);
    server_stop(srv);
}

TEST(server_serves_the_installable_app)
{
    /* web/'s manifest as application/manifest+json, the worker as a script, the icons
     * as images, each with the security headers (the worker is 'self'). */
    struct server_config cfg;
    fx_config(&cfg);
    cfg.web_dir = "web";
    cfg.cache_games = 0; /* server_config_default's: from cache_mb */
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    static const struct {
        const char *path, *type;
    } files[] = {
        {"/manifest.webmanifest", "application/manifest+json"},
        {"/sw.js", "text/javascript"},
        {"/offline-files.json", "application/json"},
        {"/icons/icon.svg", "image/svg+xml"},
        {"/icons/icon-192.png", "image/png"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        struct http_reply r;
        CHECK_EQ_INT(http_call(server_port(srv), "GET", files[i].path, NULL, NULL, 0, NULL, &r), 0);
        CHECK_MSG(r.status == 200, "%s: %d", files[i].path, r.status);
        char want[128];
        snprintf(want, sizeof want, "Content-Type: %s", files[i].type);
        CHECK_MSG(r.head && strstr(r.head, want), "%s:\n%s", files[i].path, r.head ? r.head : "");
        CHECK(r.head && strstr(r.head, "Content-Security-Policy: default-src 'self'"));
        http_reply_free(&r);
    }
    server_stop(srv);
}
