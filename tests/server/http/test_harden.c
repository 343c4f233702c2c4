/* The server's defences against other sites and stray paths: cross-site requests
 * refused, the security headers on every answer, static files kept inside web/; and the
 * store's write-ahead log kept small on disk. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "store/sqlite/checkpoint.h"
#include "store/store.h"

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
    struct server *srv = fx_start(NULL);
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

/* The reply's head has every security header. */
static int has_security_headers(const struct http_reply *r)
{
    return r->head && strstr(r->head, "Content-Security-Policy: default-src 'self'; ") &&
           strstr(r->head, "script-src 'self';") && strstr(r->head, "frame-ancestors 'none'") &&
           strstr(r->head, "X-Frame-Options: DENY") &&
           strstr(r->head, "Referrer-Policy: no-referrer") &&
           strstr(r->head, "X-Content-Type-Options: nosniff");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

TEST(server_security_headers_on_every_answer)
{
    char dir[64], path[160];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    write_file(path, "<!doctype html><title>hall</title>");
    snprintf(path, sizeof path, "%s/app.js", dir);
    write_file(path, "export {};\n");
    struct server_config cfg;
    fx_config(&cfg);
    cfg.web_dir = dir;
    struct server *srv = fx_start(&cfg);
    if (!srv) {
        test_rmdir(dir);
        SKIP("no server");
    }
    int port = server_port(srv);
    const char *paths[] = {"/", "/app.js", "/nope.css", "/api/catalog", "/api/games/nope"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        struct http_reply r;
        CHECK_EQ_INT(http_call(port, "GET", paths[i], NULL, NULL, 0, NULL, &r), 0);
        CHECK_MSG(has_security_headers(&r), "%s: headers\n%s", paths[i], r.head ? r.head : "");
        http_reply_free(&r);
    }
    struct http_reply r;
    CHECK_EQ_INT(
        http_call(port, "POST", "/api/games", NULL, new_game_body, strlen(new_game_body), NULL, &r),
        0);
    CHECK_EQ_INT(r.status, 201);
    CHECK(has_security_headers(&r));
    http_reply_free(&r);
    server_stop(srv);
    test_rmdir(dir);
}

/* A symbolic link inside web/ is not followed, whether it leads out of web/ or not. */
TEST(server_static_files_stay_inside_web)
{
    char dir[64], outside[64], path[200], target[200];
    test_tmpdir(dir, sizeof dir);
    test_tmpdir(outside, sizeof outside);
    snprintf(path, sizeof path, "%s/index.html", dir);
    write_file(path, "<!doctype html><title>hall</title>");
    snprintf(target, sizeof target, "%s/secret.txt", outside);
    write_file(target, "the secret outside web\n");
    snprintf(path, sizeof path, "%s/leak.txt", dir);
    int linked = symlink(target, path) == 0;
    snprintf(path, sizeof path, "%s/sub", dir);
    linked = linked && symlink(outside, path) == 0;
    snprintf(path, sizeof path, "%s/again.html", dir);
    linked = linked && symlink("index.html", path) == 0;
    struct server_config cfg;
    fx_config(&cfg);
    cfg.web_dir = dir;
    struct server *srv = linked ? fx_start(&cfg) : NULL;
    if (srv) {
        int port = server_port(srv);
        const char *refused[] = {"/leak.txt", "/sub/secret.txt", "/again.html", "/./index.html"};
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
            struct http_reply r;
            CHECK_EQ_INT(http_call(port, "GET", refused[i], NULL, NULL, 0, NULL, &r), 0);
            CHECK_MSG(r.status == 404, "%s: %d", refused[i], r.status);
            CHECK(!r.body || !strstr(r.body, "secret outside"));
            json_t *j = http_json(&r);
            CHECK(json_is_string(json_object_get(j, "error")));
            json_decref(j);
            http_reply_free(&r);
        }
        struct http_reply r;
        CHECK_EQ_INT(http_call(port, "GET", "/index.html", NULL, NULL, 0, NULL, &r), 0);
        CHECK_EQ_INT(r.status, 200);
        CHECK(r.body && strstr(r.body, "<title>hall</title>"));
        http_reply_free(&r);
        server_stop(srv);
    }
    test_rmdir(dir);
    test_rmdir(outside);
    if (!linked)
        SKIP("cannot make symbolic links here");
}

/* After many moves, once a checkpoint has caught up, the next commit cuts the -wal file
 * back to the limit (PRAGMA journal_size_limit); without it the file keeps its peak. */
TEST(server_store_wal_file_stays_bounded)
{
    char dir[64], db[128], wal[140], err[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/wal.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", db);
    struct store *store = store_open(db, NULL, err, sizeof err);
    CHECK_MSG(store != NULL, "%s", err);
    if (!store)
        return;
    struct store_game row;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "%032d", 9);
    snprintf(row.game, sizeof row.game, "egara-guti");
    row.level = 1;
    CHECK_EQ_INT(store_create_game(store, &row, err, sizeof err), 0);
    const char *move[] = {"c3-d4"};
    int ply = 1;
    off_t peak = 0;
    struct stat sb;
    for (; ply <= 6000; ply++) {
        if (store_add_moves(store, row.id, ply, 1, move, 0, 0, ply, err, sizeof err) != 0) {
            CHECK_MSG(0, "ply %d: %s", ply, err);
            break;
        }
        if (ply % 100 == 0 && stat(wal, &sb) == 0 && sb.st_size > peak)
            peak = sb.st_size;
    }
    /* Catch up with a checkpoint of our own, then commit once more: the WAL restarts. */
    sqlite3 *look = NULL;
    off_t size = -1;
    for (int tries = 0; tries < 50; tries++) {
        if (!look &&
            (sqlite3_open(db, &look) != SQLITE_OK ||
             sqlite3_exec(look, "SELECT count(*) FROM moves", NULL, NULL, NULL) != SQLITE_OK))
            break;
        int log = 0, done = 0;
        int rc = sqlite3_wal_checkpoint_v2(look, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
        if (rc == SQLITE_OK && done == log) {
            CHECK_EQ_INT(store_add_moves(store, row.id, ply, 1, move, 0, 0, ply, err, sizeof err),
                         0);
            ply++;
            if (stat(wal, &sb) == 0)
                size = sb.st_size;
            if (size >= 0 && size <= CKPT_WAL_LIMIT)
                break;
        }
        usleep(100 * 1000);
    }
    sqlite3_close(look);
    /* 6000 commits wrote some 12000 pages (48 MB) in all. */
    CHECK_MSG(size >= 0 && size <= CKPT_WAL_LIMIT, "the -wal file is %lld bytes (peak %lld)",
              (long long)size, (long long)peak);
    store_close(store);
    test_rmdir(dir);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A body over the limit is refused as soon as that is known: a declared length over it
 * at once (the body not waited for), a chunked one once it passes the limit. */
TEST(server_refuses_a_large_body_at_once)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* Content-Length over 16 KiB, and no body sent: the 413 does not wait for it. */
    const char head[] = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Content-Type: application/json\r\nContent-Length: 20000\r\n\r\n";
    double t0 = seconds_now();
    size_t len;
    char *reply = http_raw(port, head, strlen(head), 5000, &len);
    CHECK(reply && strstr(reply, " 413 ") && strstr(reply, "{\"error\""));
    CHECK_MSG(seconds_now() - t0 < 3, "the 413 took %.1f s", seconds_now() - t0);
    free(reply);
    /* Chunked, 20 KiB and never ended: the server closes once it passed 16 KiB. */
    size_t cap = 32768, n = 0;
    char *bytes = malloc(cap);
    n += (size_t)snprintf(bytes, cap,
                          "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < 20; i++) {
        n += (size_t)snprintf(bytes + n, cap - n, "400\r\n");
        memset(bytes + n, ' ', 1024);
        n += 1024;
        n += (size_t)snprintf(bytes + n, cap - n, "\r\n");
    }
    t0 = seconds_now();
    reply = http_raw(port, bytes, n, 5000, &len);
    CHECK_MSG(seconds_now() - t0 < 3, "the connection stayed open %.1f s", seconds_now() - t0);
    CHECK(reply && !strstr(reply, " 201 "));
    free(reply);
    free(bytes);
    /* A body within the limit still goes through, chunked too. */
    const char ok[] = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      "f\r\n{\"game\":\"egara\"\r\n1\r\n}\r\n0\r\n\r\n";
    reply = http_raw(port, ok, strlen(ok), 5000, &len);
    CHECK(reply && strstr(reply, " 201 "));
    free(reply);
    server_stop(srv);
}
