/* Notifications (issue 28 item 7) against a real server on loopback: a challenge of
 * mine accepted, a challenge made to me, my turn in a correspondence game and a club
 * challenge, each kept until read and told at once on the player's event stream (two
 * streams of one player: two devices); bad input refused, nothing changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* GET /api/me/notifications: the answer (caller decrefs), NULL unless 200. */
static json_t *notices(int port, const char *token)
{
    json_t *j = NULL;
    if (api_call(port, "GET", "/api/me/notifications", token, NULL, &j) != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static const char *first_kind(json_t *list)
{
    return fx_str(json_array_get(json_object_get(list, "notifications"), 0), "kind");
}

/* The player's stream, with the token in Authorization. */
static int open_stream(struct sse_reader *r, int port, const char *token)
{
    char h[128];
    snprintf(h, sizeof h, "Authorization: Bearer %s\r\n", token);
    return sse_get(r, port, "/api/me/events", h);
}

TEST(server_notices_accepted_told_on_every_stream)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char cid[40], ann[40];
    CHECK_EQ_INT(
        fx_create(port, "/api/challenges", "{\"game\":\"chess\",\"name\":\"Ann\"}", cid, ann), 201);
    /* Two devices of Ann's: two streams; each says the unread count first. */
    struct sse_reader a, b;
    CHECK_EQ_INT(open_stream(&a, port, ann), 200);
    CHECK_EQ_INT(open_stream(&b, port, ann), 200);
    json_t *e = fx_event(&a, "unread", 3000);
    CHECK_EQ_INT(fx_int(e, "unread"), 0);
    json_decref(e);
    e = fx_event(&b, "unread", 3000);
    json_decref(e);
    /* No token, a bad one: 403, as every route of the player's. */
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/events", NULL, NULL, NULL), 403);
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/notifications", "nothex", NULL, NULL), 403);
    /* Bob accepts: Ann hears it on both. */
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j), 200);
    char game[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    json_decref(j);
    struct sse_reader *rs[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        e = fx_event(rs[i], "notice", 3000);
        CHECK_STR(fx_str(e, "kind"), "accepted");
        CHECK_STR(fx_str(json_object_get(e, "data"), "game_id"), game);
        CHECK_STR(fx_str(json_object_get(e, "data"), "name"), "Bob");
        json_decref(e);
        e = fx_event(rs[i], "unread", 3000);
        CHECK_EQ_INT(fx_int(e, "unread"), 1);
        json_decref(e);
    }
    /* Kept until read. */
    j = notices(port, ann);
    CHECK_EQ_INT(fx_int(j, "unread"), 1);
    CHECK_STR(first_kind(j), "accepted");
    long long nid = fx_int(json_array_get(json_object_get(j, "notifications"), 0), "id");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/notifications/read", ann, "{\"upto\":\"x\"}", &j),
                 400);
    json_decref(j);
    j = notices(port, ann);
    CHECK_EQ_INT(fx_int(j, "unread"), 1); /* nothing changed */
    json_decref(j);
    char body[64];
    snprintf(body, sizeof body, "{\"upto\":%lld}", nid);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/notifications/read", ann, body, &j), 200);
    CHECK_EQ_INT(fx_int(j, "marked"), 1);
    CHECK_EQ_INT(fx_int(j, "unread"), 0);
    json_decref(j);
    /* Read on one device: the other's count follows. */
    e = fx_event(&b, "unread", 3000);
    CHECK_EQ_INT(fx_int(e, "unread"), 0);
    json_decref(e);
    sse_close(&a);
    sse_close(&b);
    server_stop(srv);
}

TEST(server_notices_challenge_to_a_player_and_turns)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, "{\"name\":\"Bea\"}", &j), 200);
    char bea[40], bea_id[40];
    snprintf(bea, sizeof bea, "%s", fx_str(j, "token"));
    snprintf(bea_id, sizeof bea_id, "%s", fx_str(j, "id"));
    json_decref(j);
    /* Bad "to": refused, no challenge made. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"name\":\"Cy\",\"to\":\"zz\"}", &j),
                 400);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"name\":\"Cy\",\"to\":\"0123456789abcdef\"}", &j),
                 404);
    CHECK_STR(fx_str(j, "code"), "no_player");
    json_decref(j);
    j = notices(port, bea);
    CHECK_EQ_INT(fx_int(j, "unread"), 0);
    json_decref(j);
    /* A correspondence challenge to Bea, with Cy white. */
    char body[200], cid[40], cy[40];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"name\":\"Cy\",\"to\":\"%s\",\"days\":1,\"side\":\"white\"}",
             bea_id);
    CHECK_EQ_INT(fx_create(port, "/api/challenges", body, cid, cy), 201);
    j = notices(port, bea);
    CHECK_EQ_INT(fx_int(j, "unread"), 1);
    CHECK_STR(first_kind(j), "challenge");
    json_t *d = json_object_get(json_array_get(json_object_get(j, "notifications"), 0), "data");
    CHECK_STR(fx_str(d, "challenge"), cid);
    CHECK_STR(fx_str(d, "name"), "Cy");
    json_decref(j);
    /* Bea accepts; Cy moves: Bea's turn is news. */
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, bea, "{}", &j), 200);
    char game[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    json_decref(j);
    CHECK_EQ_INT(fx_move(port, game, cy, "e2e4"), 200);
    j = notices(port, bea);
    CHECK_EQ_INT(fx_int(j, "unread"), 2);
    CHECK_STR(first_kind(j), "your_turn");
    d = json_object_get(json_array_get(json_object_get(j, "notifications"), 0), "data");
    CHECK_STR(fx_str(d, "game_id"), game);
    json_decref(j);
    /* Cy heard of the accept; all read at once with no "upto". */
    j = notices(port, cy);
    CHECK_STR(first_kind(j), "accepted");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/notifications/read", bea, NULL, &j), 200);
    CHECK_EQ_INT(fx_int(j, "marked"), 2);
    json_decref(j);
    server_stop(srv);
}

TEST(server_notices_club_challenge)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Rooks\",\"languages\":[\"en\"],\"name\":\"Dee\"}", &j),
                 201);
    char club[40], dee[40], invite[40];
    snprintf(club, sizeof club, "%s", fx_str(j, "id"));
    snprintf(dee, sizeof dee, "%s", fx_str(j, "token"));
    snprintf(invite, sizeof invite, "%s", fx_str(j, "invite"));
    json_decref(j);
    char path[128], body[200];
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Eli\"}", invite);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, body, &j), 200);
    char eli[40];
    snprintf(eli, sizeof eli, "%s", fx_str(j, "token"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/clubs/%s/challenges", club);
    CHECK_EQ_INT(api_call(port, "POST", path, dee, "{\"game\":\"agon\",\"name\":\"Dee\"}", NULL),
                 201);
    j = notices(port, eli);
    CHECK_EQ_INT(fx_int(j, "unread"), 1);
    CHECK_STR(first_kind(j), "club_challenge");
    CHECK_STR(
        fx_str(json_object_get(json_array_get(json_object_get(j, "notifications"), 0), "data"),
               "club"),
        club);
    json_decref(j);
    j = notices(port, dee); /* not told of one's own */
    CHECK_EQ_INT(fx_int(j, "unread"), 0);
    json_decref(j);
    server_stop(srv);
}
