/* Engine time shared between addresses (issue 19, point 3): one queue of computer moves
 * per address served in turn, and a cap on the moves one address may have queued (429
 * JSON beyond).  A real server on loopback with one engine worker and every computer
 * move made to take 300 ms, so the order of the replies shows the queue's order. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* A new game's id, token and first legal move (Egara-guti, level 1, the human white). */
static int new_game(int port, char *id, char *token, char *move)
{
    json_t *j = NULL;
    int code = api_call(port, "POST", "/api/games", NULL,
                        "{\"game\":\"egara\",\"level\":1,\"side\":\"white\"}", &j);
    if (code == 201) {
        snprintf(id, 64, "%s", json_string_value(json_object_get(j, "id")));
        snprintf(token, 64, "%s", json_string_value(json_object_get(j, "token")));
        json_t *lm = json_array_get(json_object_get(j, "legal_moves"), 0);
        snprintf(move, 64, "%s", json_string_value(json_object_get(lm, "move")));
    }
    json_decref(j);
    return code;
}

/* Send a move from 127.0.0.`last` without waiting for the answer: the socket. */
static int send_move(int port, int last, const char *id, const char *token, const char *move)
{
    int fd = fx_connect_from(port, last);
    if (fd < 0)
        return -1;
    char body[128], req[512];
    int bn = snprintf(body, sizeof body, "{\"move\":\"%s\"}", move);
    int n = snprintf(req, sizeof req,
                     "POST /api/games/%s/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                     "Bearer %s\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     "Content-Length: %d\r\n\r\n%s",
                     id, token, bn, body);
    send(fd, req, (size_t)n, MSG_NOSIGNAL);
    return fd;
}

#define N_A 12

/* The answers so far, in the order they came. */
struct tally {
    int order, a_ok, a_429, a_json, b_status, a_ok_before_b;
    bool answered[N_A + 1];
};

/* Read the answers that are there (waiting up to wait_ms for the first). */
static void collect(struct test_ctx *t__, struct pollfd *p, struct tally *t, int wait_ms)
{
    (void)t__;
    if (poll(p, N_A + 1, wait_ms) <= 0)
        return;
    for (int i = 0; i <= N_A; i++) {
        if (t->answered[i] || p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
            continue;
        char buf[16384];
        size_t len = 0;
        ssize_t r;
        while (len + 1 < sizeof buf && (r = recv(p[i].fd, buf + len, sizeof buf - len - 1, 0)) > 0)
            len += (size_t)r;
        buf[len] = 0;
        int status = 0;
        sscanf(buf, "HTTP/1.%*d %d", &status);
        t->answered[i] = true;
        p[i].events = 0;
        t->order++;
        if (i == N_A) {
            t->b_status = status;
            t->a_ok_before_b = t->a_ok;
        } else if (status == 200) {
            t->a_ok++;
        } else if (status == 429) {
            t->a_429++;
            t->a_json += strstr(buf, "{\"error\":\"too many computer moves") != NULL;
        }
    }
}

TEST(server_shares_engine_time_between_addresses)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.test_think_ms = 300;
    cfg.queued_per_address = 6;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ids[N_A + 1][64], tokens[N_A + 1][64], moves[N_A + 1][64];
    for (int i = 0; i <= N_A; i++)
        CHECK_EQ_INT(new_game(port, ids[i], tokens[i], moves[i]), 201);
    /* Address A (127.0.0.20) asks for twelve computer moves at once, one by one so that
     * each is queued before the next; B (127.0.0.21) asks for one after them. */
    struct pollfd p[N_A + 1];
    struct tally t = {0};
    for (int i = 0; i < N_A; i++) {
        p[i] = (struct pollfd){.fd = send_move(port, 20, ids[i], tokens[i], moves[i]),
                               .events = POLLIN};
        poll(NULL, 0, 5);
    }
    p[N_A] = (struct pollfd){.fd = -1, .events = 0};
    /* What A has had answered before B asks (on a loaded machine a move may be done
     * while the others are still being sent). */
    collect(TEST_CTX, p, &t, 0);
    int a_done_before = t.a_ok;
    p[N_A] = (struct pollfd){.fd = send_move(port, 21, ids[N_A], tokens[N_A], moves[N_A]),
                             .events = POLLIN};
    for (int rounds = 0; t.order <= N_A && rounds < 600; rounds++)
        collect(TEST_CTX, p, &t, 50);
    /* One of A's is thinking, six wait: the seventh on is refused (fewer when some
     * were done meanwhile). */
    CHECK_MSG(t.a_429 >= N_A - 7 - a_done_before, "%d of A's %d moves refused, expected %d",
              t.a_429, N_A, N_A - 7 - a_done_before);
    CHECK_EQ_INT(t.a_json, t.a_429);
    CHECK_EQ_INT(t.a_ok + t.a_429, N_A);
    /* B's reply comes after at most two more of A's (the one thinking, the one whose
     * turn came first), not after all of them. */
    CHECK_MSG(t.b_status == 200 && t.a_ok_before_b <= a_done_before + 2,
              "B (status %d) answered after %d of A's moves (%d done before it asked)", t.b_status,
              t.a_ok_before_b, a_done_before);
    for (int i = 0; i <= N_A; i++)
        if (p[i].fd >= 0)
            close(p[i].fd);
    server_stop(srv);
}
