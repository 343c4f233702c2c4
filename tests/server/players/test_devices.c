/* One player on two devices (issue 28 item 2) against a real server on loopback: the
 * personal link and its QR code, a second device signed in through it playing the
 * first device's games and seeing its notifications, the devices listed and revoked
 * (the revoked token is a stranger's), the link revoked and replaced, the first token
 * revoked (the player's data then under a key no token hashes to); bad input (a
 * malformed or revoked code, a foreign device) refused, nothing changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static int signin(int port, const char *code, const char *device, json_t **out)
{
    char body[200];
    snprintf(body, sizeof body, "{\"code\":\"%s\",\"device\":\"%s\"}", code, device);
    return api_call(port, "POST", "/api/signin", NULL, body, out);
}

TEST(server_devices_link_signs_in_a_second_device)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* The first device: a name, a game against the computer. */
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, "{\"name\":\"Ann\"}", &j), 200);
    char first[40], pid[40];
    snprintf(first, sizeof first, "%s", fx_str(j, "token"));
    snprintf(pid, sizeof pid, "%s", fx_str(j, "id"));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", first, "{\"game\":\"chess\"}", &j), 201);
    char game[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    CHECK_STR(fx_str(j, "token"), first);
    json_decref(j);
    /* The link and its QR code. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/link", NULL, "{}", NULL), 403);
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/link", first, "{\"base\":\"javascript:x\"}", NULL),
                 400);
    j = NULL;
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/me/link", first, "{\"base\":\"https://agora.example\"}", &j),
        201);
    char code[40];
    snprintf(code, sizeof code, "%s", fx_str(j, "code"));
    CHECK_EQ_INT((int)strlen(code), 32);
    char want[120];
    snprintf(want, sizeof want, "https://agora.example/#/signin/%s", code);
    CHECK_STR(fx_str(j, "url"), want);
    CHECK(strncmp(fx_str(j, "svg"), "<svg ", 5) == 0);
    CHECK(strstr(fx_str(j, "svg"), "<path") != NULL);
    json_decref(j);
    /* Bad codes: nothing signed in. */
    j = NULL;
    CHECK_EQ_INT(signin(port, "xyz", "phone", &j), 400);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(signin(port, "0123456789abcdef0123456789abcdef", "phone", &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_link");
    json_decref(j);
    /* The second device. */
    j = NULL;
    CHECK_EQ_INT(signin(port, code, "phone", &j), 200);
    char second[40], dev[40];
    snprintf(second, sizeof second, "%s", fx_str(j, "token"));
    snprintf(dev, sizeof dev, "%s", fx_str(j, "device"));
    CHECK(strcmp(second, first) != 0);
    CHECK_STR(fx_str(j, "name"), "Ann");
    CHECK_STR(fx_str(j, "id"), pid);
    json_decref(j);
    /* It is Ann: her name, her game (to move in), her list of games. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", second, NULL, &j), 200);
    CHECK_STR(fx_str(j, "id"), pid);
    json_decref(j);
    json_t *st = fx_state(port, game, second);
    const char *mv = fx_first_legal(st);
    char move[16];
    snprintf(move, sizeof move, "%s", mv);
    json_decref(st);
    CHECK_EQ_INT(fx_move(port, game, second, move), 200);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", second, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 1);
    json_decref(j);
    /* A new game from the second device keeps its token and is Ann's. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", second, "{\"game\":\"agon\"}", &j), 201);
    CHECK_STR(fx_str(j, "token"), second);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", first, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 2);
    json_decref(j);
    /* The devices, seen from either. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/devices", first, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "devices")), 1);
    CHECK_STR(fx_str(json_array_get(json_object_get(j, "devices"), 0), "name"), "phone");
    CHECK(json_is_null(json_object_get(j, "this")));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/devices", second, NULL, &j), 200);
    CHECK_STR(fx_str(j, "this"), dev);
    json_decref(j);
    /* Revoked: the second token is a stranger's. */
    char path[120];
    snprintf(path, sizeof path, "/api/me/devices/%s/revoke", "0123456789abcdef");
    CHECK_EQ_INT(api_call(port, "POST", path, first, NULL, NULL), 404);
    snprintf(path, sizeof path, "/api/me/devices/%s/revoke", dev);
    CHECK_EQ_INT(api_call(port, "POST", path, first, NULL, NULL), 200);
    CHECK_EQ_INT(fx_move(port, game, second, "e7e5"), 403);
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", second, NULL, NULL), 404);
    /* The link revoked: it signs no one in; a new one does, and replaces it. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/link/revoke", first, NULL, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(signin(port, code, "tablet", &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_link");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/link", first, NULL, &j), 201);
    char code2[40];
    snprintf(code2, sizeof code2, "%s", fx_str(j, "code"));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/link", first, NULL, &j), 201);
    char code3[40];
    snprintf(code3, sizeof code3, "%s", fx_str(j, "code"));
    json_decref(j);
    CHECK_EQ_INT(signin(port, code2, "tablet", NULL), 403); /* replaced */
    j = NULL;
    CHECK_EQ_INT(signin(port, code3, "tablet", &j), 200);
    char third[40];
    snprintf(third, sizeof third, "%s", fx_str(j, "token"));
    json_decref(j);
    /* The first token revoked from the third device: Ann is the third device's now,
     * with everything she had; the first token is no one's. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/devices/first/revoke", third, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "devices")), 1);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", first, NULL, NULL), 404);
    CHECK_EQ_INT(fx_move(port, game, first, "e7e5"), 403);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", third, NULL, &j), 200);
    CHECK_STR(fx_str(j, "id"), pid);
    CHECK_STR(fx_str(j, "name"), "Ann");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", third, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 2);
    json_decref(j);
    st = fx_state(port, game, third);
    CHECK(st != NULL && json_is_true(json_object_get(st, "your_turn")));
    json_decref(st);
    /* Signing out: the device revokes itself. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/devices", third, NULL, &j), 200);
    snprintf(path, sizeof path, "/api/me/devices/%s/revoke", fx_str(j, "this"));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, third, NULL, &j), 200);
    CHECK(json_is_true(json_object_get(j, "signed_out")));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", third, NULL, NULL), 404);
    server_stop(srv);
}
