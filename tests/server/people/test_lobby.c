/* The lobby serves everyone (issue 25, point 5), against a real server on loopback: at
 * most 3 open seeks per token and 6 per address (429 JSON beyond, a place freed by a
 * withdrawal), and GET /api/seeks lists the newest first with the creators in turn, so
 * one client's many seeks cannot hide another's.  Addresses by X-Forwarded-For. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static struct server *lb_start(int per_token, int per_address)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.trust_proxy = 1;
    cfg.seeks_per_token = per_token;
    cfg.seeks_per_address = per_address;
    cfg.people_per_minute = 0; /* the lobby's own caps only */
    return fx_start(&cfg);
}

/* POST /api/seeks from `addr` with `token` (NULL: a new one): the status (-429 for a 429
 * that is not JSON naming the cap); the seek's id and token into id and tok. */
static int lb_seek(int port, const char *addr, const char *token, const char *name, char *id,
                   char *tok)
{
    char headers[96], body[160];
    snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\n", addr);
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":{\"initial\":300,\"increment\":3},\"name\":\"%s\"}",
             name);
    struct http_reply r;
    if (http_call(port, "POST", "/api/seeks", token, body, strlen(body), headers, &r) != 0)
        return 0;
    json_t *j = http_json(&r);
    if (id)
        snprintf(id, 40, "%s", fx_str(j, "id"));
    if (tok)
        snprintf(tok, 40, "%s", fx_str(j, "token"));
    int status = r.status;
    if (status == 429 && !strstr(fx_str(j, "error"), "open seeks"))
        status = -429;
    json_decref(j);
    http_reply_free(&r);
    return status;
}

TEST(server_lobby_open_seeks_per_token_and_address)
{
    struct server *srv = lb_start(3, 6);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], first[40], ta[40], tb[40], path[128];
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", NULL, "Ann", first, ta), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", ta, "Ann", id, NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", ta, "Ann", id, NULL), 201);
    /* A fourth of the same token's, even from another address: 429. */
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", ta, "Ann", id, NULL), 429);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.9", ta, "Ann", id, NULL), 429);
    /* New tokens from the same address: 6 in all, then 429. */
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", NULL, "Bob", id, tb), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", tb, "Bob", id, NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", NULL, "Cy", id, NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", NULL, "Di", id, NULL), 429);
    /* Another address seeks at once. */
    CHECK_EQ_INT(lb_seek(port, "10.0.1.2", NULL, "Eve", id, NULL), 201);
    /* A withdrawn seek frees its place (of the token and of the address) ... */
    snprintf(path, sizeof path, "/api/challenges/%s/cancel", first);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, NULL, NULL), 200);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", ta, "Ann", id, NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.1.1", ta, "Ann", id, NULL), 429);
    server_stop(srv);
}

TEST(server_lobby_taken_seek_frees_its_place)
{
    struct server *srv = lb_start(3, 6);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ids[3][40], id[40], ta[40], path[128];
    CHECK_EQ_INT(lb_seek(port, "10.0.2.1", NULL, "Ann", ids[0], ta), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.2.1", ta, "Ann", ids[1], NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.2.1", ta, "Ann", ids[2], NULL), 201);
    CHECK_EQ_INT(lb_seek(port, "10.0.2.1", ta, "Ann", id, NULL), 429);
    snprintf(path, sizeof path, "/api/seeks/%s/accept", ids[1]);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j), 200);
    json_decref(j);
    CHECK_EQ_INT(lb_seek(port, "10.0.2.1", ta, "Ann", id, NULL), 201);
    server_stop(srv);
}

/* 230 seeks from one token filled the lobby's 200 oldest: now the newest come first and
 * each creator's newest before anyone's second. */
TEST(server_lobby_lists_newest_first_creators_in_turn)
{
    struct server *srv = lb_start(16, 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char flood[16][40], ta[40] = "", b[40], c[40];
    for (int i = 0; i < 16; i++) {
        CHECK_EQ_INT(lb_seek(port, "10.0.3.1", ta[0] ? ta : NULL, "Flood", flood[i], ta), 201);
        fx_sleep_ms(2);
    }
    CHECK_EQ_INT(lb_seek(port, "10.0.3.2", NULL, "Bob", b, NULL), 201);
    fx_sleep_ms(2);
    CHECK_EQ_INT(lb_seek(port, "10.0.3.3", NULL, "Cy", c, NULL), 201);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &j), 200);
    json_t *seeks = json_object_get(j, "seeks");
    CHECK_EQ_INT(json_array_size(seeks), 18);
    /* Cy's (the newest), Bob's, the flood's newest, then the flood's others, newest first. */
    CHECK_STR(fx_str(json_array_get(seeks, 0), "id"), c);
    CHECK_STR(fx_str(json_array_get(seeks, 1), "id"), b);
    for (int i = 0; i < 16; i++)
        CHECK_STR(fx_str(json_array_get(seeks, (size_t)(2 + i)), "id"), flood[15 - i]);
    json_decref(j);
    server_stop(srv);
}
