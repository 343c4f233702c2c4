/* What one client may hold (issue 19, point 1): connections and event streams per
 * address, streams per game, a deadline for a request to arrive (slow senders are cut
 * with a 408), and streams whose client went noticed at once.  Real servers on loopback;
 * clients from other loopback addresses (127.0.0.x) where the address matters. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* Read a reply (its head only for an event stream) or until the connection's end, for at most
 * timeout_ms; the status, 0 when the connection ended without a reply, -1 on timeout.  What was
 * read is in buf. */
static int read_head(int fd, int timeout_ms, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int waited = 0; waited < timeout_ms;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 50) <= 0) {
            waited += 50;
            continue;
        }
        ssize_t r = recv(fd, buf + len, size - len - 1, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (end && strstr(buf, "event-stream"))
            break; /* a stream's head is enough */
        char *cl = strstr(buf, "Content-Length:");
        if (end && cl && cl < end && (long)(buf + len - (end + 4)) >= strtol(cl + 15, NULL, 10))
            break; /* the whole body */
    }
    int status = 0;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        return 0;
    return status;
}

static int get_from(int port, int last, const char *path, char *buf, size_t size)
{
    int fd = fx_connect_from(port, last);
    if (fd < 0)
        return 0;
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
    send(fd, req, (size_t)n, MSG_NOSIGNAL);
    int status = read_head(fd, 3000, buf, size);
    close(fd);
    return status;
}

static struct server *start_limited(int conns, int streams, int per_game, int header_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.ping_ms = 600000; /* no ping ends a dropped stream in these tests */
    cfg.connections_per_address = conns;
    cfg.streams_per_address = streams;
    cfg.streams_per_game = per_game;
    cfg.header_ms = header_ms;
    return fx_start(&cfg);
}

static void new_game(int port, char *id, size_t size)
{
    json_t *j = NULL;
    id[0] = 0;
    if (api_call(port, "POST", "/api/games", NULL, "{\"game\":\"agon\",\"level\":1}", &j) == 201)
        snprintf(id, size, "%s", json_string_value(json_object_get(j, "id")));
    json_decref(j);
}

/* An event stream of game `id` from 127.0.0.`last`: its socket (kept open) and status. */
static int open_stream(struct test_ctx *t__, int port, int last, const char *id, int *status)
{
    char req[256], buf[4096];
    *status = 0;
    int fd = fx_connect_from(port, last);
    if (fd < 0)
        return -1;
    int n = snprintf(req, sizeof req,
                     "GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", id);
    send(fd, req, (size_t)n, MSG_NOSIGNAL);
    *status = read_head(fd, 3000, buf, sizeof buf);
    if (*status != 200 && *status != 0)
        CHECK_MSG(strstr(buf, "{\"error\":"), "a refused stream's body is JSON: %s", buf);
    return fd;
}

TEST(server_caps_connections_per_address)
{
    struct server *srv = start_limited(8, 32, 64, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* Eight kept-alive connections from 127.0.0.5, each served once (so all are in). */
    int held[8];
    static char buf[1 << 17];
    for (int i = 0; i < 8; i++) {
        held[i] = fx_connect_from(port, 5);
        const char req[] = "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        send(held[i], req, sizeof req - 1, MSG_NOSIGNAL);
        CHECK_EQ_INT(read_head(held[i], 3000, buf, sizeof buf), 200);
    }
    /* A ninth from the same address is closed without an answer ... */
    CHECK_EQ_INT(get_from(port, 5, "/api/catalog", buf, sizeof buf), 0);
    /* ... while another address is served at once. */
    CHECK_EQ_INT(get_from(port, 6, "/api/catalog", buf, sizeof buf), 200);
    close(held[0]);
    fx_sleep_ms(200);
    CHECK_EQ_INT(get_from(port, 5, "/api/catalog", buf, sizeof buf), 200);
    for (int i = 1; i < 8; i++)
        close(held[i]);
    server_stop(srv);
}

/* Connections at once in all (issue 26, item 7): the limit on open files is raised to
 * its hard limit at start (4000 players hold 8000 connections), and --max-connections
 * caps what the server holds below it: one over is closed unanswered, and a place that
 * frees is taken again. */
TEST(server_caps_connections_in_all)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.connections_per_address = 0;
    cfg.max_connections = 16;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur == rl.rlim_max);
    int port = server_port(srv);
    int held[16];
    static char buf[1 << 17];
    for (int i = 0; i < 16; i++) {
        held[i] = fx_connect_from(port, 7);
        const char req[] = "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        send(held[i], req, sizeof req - 1, MSG_NOSIGNAL);
        CHECK_EQ_INT(read_head(held[i], 3000, buf, sizeof buf), 200);
    }
    /* The seventeenth, from any address, is closed without an answer. */
    CHECK_EQ_INT(get_from(port, 8, "/api/catalog", buf, sizeof buf), 0);
    close(held[0]);
    fx_sleep_ms(200);
    CHECK_EQ_INT(get_from(port, 8, "/api/catalog", buf, sizeof buf), 200);
    for (int i = 1; i < 16; i++)
        close(held[i]);
    server_stop(srv);
}

TEST(server_caps_event_streams)
{
    struct server *srv = start_limited(64, 3, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[64];
    new_game(port, id, sizeof id);
    int fds[8], n = 0, status;
    for (int i = 0; i < 3; i++) {
        fds[n++] = open_stream(TEST_CTX, port, 7, id, &status);
        CHECK_EQ_INT(status, 200);
    }
    /* The fourth from 127.0.0.7: 429 (JSON, checked in open_stream). */
    fds[n++] = open_stream(TEST_CTX, port, 7, id, &status);
    CHECK_EQ_INT(status, 429);
    /* Another address may: the game's fourth stream ... */
    fds[n++] = open_stream(TEST_CTX, port, 8, id, &status);
    CHECK_EQ_INT(status, 200);
    /* ... and no fifth on this game, from any address. */
    fds[n++] = open_stream(TEST_CTX, port, 9, id, &status);
    CHECK_EQ_INT(status, 429);
    static char buf[1 << 17];
    CHECK_EQ_INT(get_from(port, 7, "/api/catalog", buf, sizeof buf), 200);
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    server_stop(srv);
}

/* A client sending a header line every 100 ms is cut after the deadline (300 ms) with
 * a JSON 408, on a fresh connection and on a kept-alive one; others are served. */
TEST(server_cuts_slow_requests)
{
    struct server *srv = start_limited(64, 32, 64, 300);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static char buf[1 << 17];
    for (int kept_alive = 0; kept_alive < 2; kept_alive++) {
        int fd = fx_connect_from(port, 10);
        if (kept_alive) { /* one request answered (a short 404) on the connection first */
            const char req[] = "GET /api/games/none HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            send(fd, req, sizeof req - 1, MSG_NOSIGNAL);
            CHECK_EQ_INT(read_head(fd, 3000, buf, sizeof buf), 404);
        }
        const char line[] = "GET /api/catalog HTTP/1.1\r\n";
        send(fd, line, sizeof line - 1, MSG_NOSIGNAL);
        int sent = 0, status = -1;
        for (; sent < 40; sent++) { /* 4 s of header lines at most */
            if (send(fd, "X-Slow: 1\r\n", 11, MSG_NOSIGNAL) != 11)
                break;
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, 100) > 0) {
                status = read_head(fd, 1000, buf, sizeof buf);
                break;
            }
        }
        CHECK_MSG(sent < 40, "a slow client was not cut (kept alive: %d)", kept_alive);
        CHECK_MSG(status == 408, "status %d (kept alive: %d): %s", status, kept_alive, buf);
        CHECK_MSG(strstr(buf, "{\"error\":") != NULL, "the 408 is JSON: %s", buf);
        /* Written to the socket by the server itself, it carries every answer's headers. */
        CHECK_MSG(strstr(buf, "Content-Security-Policy: default-src 'self'; script-src 'self';") &&
                      strstr(buf, "X-Frame-Options: DENY\r\n") &&
                      strstr(buf, "Referrer-Policy: no-referrer\r\n") &&
                      strstr(buf, "X-Content-Type-Options: nosniff\r\n"),
                  "the 408 has the security headers: %s", buf);
        CHECK_EQ_INT(get_from(port, 11, "/api/catalog", buf, sizeof buf), 200);
        close(fd);
    }
    server_stop(srv);
}

/* A stream whose client hung up frees its place at once (one stream per game here, no
 * pings): a new stream is let in within a second, not at the next ping. */
TEST(server_notices_gone_streams)
{
    struct server *srv = start_limited(64, 32, 1, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[64];
    new_game(port, id, sizeof id);
    int status;
    int a = open_stream(TEST_CTX, port, 12, id, &status);
    CHECK_EQ_INT(status, 200);
    int b = open_stream(TEST_CTX, port, 13, id, &status);
    CHECK_EQ_INT(status, 429); /* the game's one stream is a's */
    close(b);
    close(a);
    int tries = 0;
    for (; tries < 20; tries++) {
        int c = open_stream(TEST_CTX, port, 13, id, &status);
        close(c);
        if (status == 200)
            break;
        fx_sleep_ms(50);
    }
    CHECK_MSG(tries < 20, "the dropped stream still held its place after 1 s");
    server_stop(srv);
}

/* Open event streams do not keep their games in memory (point 2): with room for 16
 * games, 20 streamed games and more new ones are all let in, and a stream whose game
 * left the cache gets its next move (the game loaded again). */
TEST(server_streams_do_not_pin_games)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.ping_ms = 600000;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ids[20][64], first_token[64] = "", first_move[64] = "";
    int fds[20], status;
    for (int i = 0; i < 20; i++) {
        json_t *j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL,
                              "{\"game\":\"egara\",\"level\":1,\"side\":\"white\"}", &j),
                     201);
        snprintf(ids[i], sizeof ids[i], "%s", json_string_value(json_object_get(j, "id")));
        if (i == 0) {
            snprintf(first_token, sizeof first_token, "%s",
                     json_string_value(json_object_get(j, "token")));
            json_t *lm = json_array_get(json_object_get(j, "legal_moves"), 0);
            snprintf(first_move, sizeof first_move, "%s",
                     json_string_value(json_object_get(lm, "move")));
        }
        json_decref(j);
        fds[i] = open_stream(TEST_CTX, port, 14, ids[i], &status);
        CHECK_EQ_INT(status, 200);
    }
    json_t *e = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"egara\"}", &e), 201);
    json_decref(e);
    /* Game 0 left the cache long ago: a move in it reaches its stream. */
    json_t *after = NULL;
    CHECK_EQ_INT(api_post_move(port, ids[0], first_token, first_move, &after), 200);
    json_decref(after);
    static char buf[1 << 16];
    size_t len = 0;
    for (int waited = 0; waited < 3000 && !strstr(buf, "event: move"); waited += 50) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        if (poll(&p, 1, 50) <= 0)
            continue;
        ssize_t r = recv(fds[0], buf + len, sizeof buf - len - 1, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = 0;
    }
    CHECK_MSG(strstr(buf, "event: move") != NULL, "the evicted game's stream got: %s", buf);
    for (int i = 0; i < 20; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    server_stop(srv);
}

/* libmicrohttpd's own 414 and 431 are HTML: our smaller limits answer first, in JSON
 * (point 7), for the 100 KB URL, 100 KB header and 2000 headers. */
TEST(server_answers_oversized_requests_in_json)
{
    struct server *srv = start_limited(64, 32, 64, 5000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    size_t big = 100000;
    char *req = malloc(big + 4096);
    for (int kind = 0; kind < 3; kind++) {
        size_t n = 0;
        if (kind == 0) {
            n = (size_t)sprintf(req, "GET /api/games/");
            memset(req + n, 'a', big);
            n += big;
            n += (size_t)sprintf(req + n, " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        } else if (kind == 1) {
            n = (size_t)sprintf(req, "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ");
            memset(req + n, 'a', big);
            n += big;
            n += (size_t)sprintf(req + n, "\r\n\r\n");
        } else {
            n = (size_t)sprintf(req, "GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            for (int i = 0; i < 2000; i++)
                n += (size_t)sprintf(req + n, "X-%d: a\r\n", i);
            n += (size_t)sprintf(req + n, "\r\n");
        }
        size_t len = 0;
        char *out = http_raw(port, req, n, 3000, &len);
        int status = 0;
        if (out)
            sscanf(out, "HTTP/1.%*d %d", &status);
        CHECK_EQ_INT(status, kind == 0 ? 414 : 431);
        char *body = out ? strstr(out, "\r\n\r\n") : NULL;
        CHECK_MSG(body && !strncmp(body + 4, "{\"error\":", 9), "not JSON (kind %d): %.200s", kind,
                  body ? body + 4 : "(no answer)");
        free(out);
    }
    free(req);
    server_stop(srv);
}
