/* A game's players always get their stream (issue 25, point 6), against a real server on
 * loopback: the per-game stream cap counts spectators only, so streams from other
 * addresses that fill it never lock a player out of their own game's stream (by seat
 * key or by token), and the viewer count counts addresses, not sockets.  Clients come
 * from other loopback addresses (127.0.0.x). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The status of a reply's head (an event stream's head is enough), read within 3 s. */
static int ps_head(int fd, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int waited = 0; waited < 3000;) {
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
            break;
        char *cl = strstr(buf, "Content-Length:");
        if (end && cl && cl < end && (long)(buf + len - (end + 4)) >= strtol(cl + 15, NULL, 10))
            break;
    }
    int status = 0;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        return 0;
    return status;
}

/* An event stream of `path` from 127.0.0.`last` (with `token` as Bearer, or none): its
 * socket, kept open, and its status. */
static int ps_open(struct test_ctx *t__, int port, int last, const char *path, const char *token,
                   int *status)
{
    char req[512], buf[4096], auth[128] = "";
    *status = 0;
    int fd = fx_connect_from(port, last);
    if (fd < 0)
        return -1;
    if (token)
        snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", token);
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", path, auth);
    send(fd, req, (size_t)n, MSG_NOSIGNAL);
    *status = ps_head(fd, buf, sizeof buf);
    if (*status != 200 && *status != 0)
        CHECK_MSG(strstr(buf, "{\"error\":"), "a refused stream's body is JSON: %s", buf);
    return fd;
}

static long long ps_viewers(int port, const char *game)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", game);
    json_t *j = NULL;
    long long n = api_call(port, "GET", path, NULL, NULL, &j) == 200 ? fx_int(j, "viewers") : -1;
    json_decref(j);
    return n;
}

/* 64 streams from two other addresses took a game's 64 slots and the player's own stream
 * then got 429: here 6 from two addresses fill a cap of 6. */
TEST(server_player_streams_never_refused_for_spectators)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.ping_ms = 600000;
    cfg.streams_per_address = 16;
    cfg.streams_per_game = 6;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port,
                                "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\","
                                "\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    char path[128], seat_path[200];
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    json_t *st = NULL;
    snprintf(seat_path, sizeof seat_path, "/api/games/%s", game);
    CHECK_EQ_INT(api_call(port, "GET", seat_path, ta, NULL, &st), 200);
    snprintf(seat_path, sizeof seat_path, "/api/games/%s/events?seat=%s", game, fx_str(st, "seat"));
    json_decref(st);

    int fds[16], n = 0, status;
    for (int i = 0; i < 6; i++) {
        fds[n++] = ps_open(TEST_CTX, port, 21 + i % 2, path, NULL, &status);
        CHECK_EQ_INT(status, 200);
    }
    /* The spectators' slots are full: one more spectator waits ... */
    fds[n++] = ps_open(TEST_CTX, port, 23, path, NULL, &status);
    CHECK_EQ_INT(status, 429);
    /* ... the players do not: by seat key (a browser's EventSource) or by token. */
    fds[n++] = ps_open(TEST_CTX, port, 1, seat_path, NULL, &status);
    CHECK_EQ_INT(status, 200);
    fds[n++] = ps_open(TEST_CTX, port, 2, path, tb, &status);
    CHECK_EQ_INT(status, 200);
    /* A seat key that is not this game's is a spectator's. */
    char wrong[200];
    snprintf(wrong, sizeof wrong, "/api/games/%s/events?seat=0123456789abcdef", game);
    fds[n++] = ps_open(TEST_CTX, port, 1, wrong, NULL, &status);
    CHECK_EQ_INT(status, 429);
    /* Six spectators' streams from two addresses are two viewers. */
    fx_sleep_ms(100);
    CHECK_EQ_INT(ps_viewers(port, game), 2);
    /* The players' streams hear the moves. */
    CHECK_EQ_INT(fx_game_post(port, game, "moves", ta, "{\"move\":\"e2e4\"}", NULL), 200);
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    server_stop(srv);
}

/* Many streams from one address are one viewer; a second address is a second. */
TEST(server_player_streams_viewers_are_addresses)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.ping_ms = 100; /* a closed stream is noticed at its next write */
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40], path[128];
    CHECK_EQ_INT(fx_people_game(port,
                                "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\","
                                "\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    int fds[8], status;
    for (int i = 0; i < 5; i++) {
        fds[i] = ps_open(TEST_CTX, port, 31, path, NULL, &status);
        CHECK_EQ_INT(status, 200);
    }
    fx_sleep_ms(100);
    CHECK_EQ_INT(ps_viewers(port, game), 1);
    fds[5] = ps_open(TEST_CTX, port, 32, path, NULL, &status);
    CHECK_EQ_INT(status, 200);
    fx_sleep_ms(100);
    CHECK_EQ_INT(ps_viewers(port, game), 2);
    /* Four of the first address's five go: it still watches. */
    for (int i = 0; i < 4; i++)
        close(fds[i]);
    fx_sleep_ms(400);
    CHECK_EQ_INT(ps_viewers(port, game), 2);
    close(fds[4]);
    close(fds[5]);
    fx_sleep_ms(400);
    CHECK_EQ_INT(ps_viewers(port, game), 0);
    server_stop(srv);
}
