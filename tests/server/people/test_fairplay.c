/* Fair play between people (issue 25) against a real server on loopback: text is UTF-8
 * end to end (names, club texts and challenge names in Bengali, Assamese, Finnish and
 * with emoji come back exactly as sent, in the API's answers, a game's state and its
 * record; text that is not UTF-8 is refused with 400 naming the field); every answer of
 * a game between people is its whole state, whatever the operation; a clock of 0+N
 * starts with a floor, and its class is that of the clock played. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "core/json_out.h"
#include "server/server.h"

#define BN_CLUB "আমার ক্লাব"
#define AS_NAME "অসমীয়া খেলুৱৈ" /* 40 bytes, 14 characters */
#define FI_CLUB "Jyväskylän Shakki"
#define FI_NAME "Jyväskylä আমি"
#define EMOJI "♟️🙂"

static struct server *fp_start_abandon(int64_t abandon_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 32;
    cfg.abandon_ms = abandon_ms;
    return fx_start(&cfg);
}

static struct server *fp_start(void)
{
    return fp_start_abandon(0);
}

/* A call whose raw answer must be valid UTF-8 JSON holding `expect` as it is (not
 * escaped); its status, the parsed body into *out. */
static int fp_call(struct test_ctx *t__, int port, const char *method, const char *path,
                   const char *token, const char *body, const char *expect, json_t **out)
{
    struct http_reply r;
    *out = NULL;
    if (http_call(port, method, path, token, body, body ? strlen(body) : 0, NULL, &r) != 0)
        return 0;
    CHECK_MSG(utf8_valid(r.body, r.body_len), "%s %s: the answer is not UTF-8", method, path);
    CHECK_MSG(!expect || strstr(r.body, expect), "%s %s: \"%s\" not in %.300s", method, path,
              expect ? expect : "", r.body);
    *out = http_json(&r);
    CHECK_MSG(*out != NULL, "%s %s: not JSON: %.300s", method, path, r.body);
    int status = r.status;
    http_reply_free(&r);
    return status;
}

TEST(server_fairplay_json_out_utf8)
{
    struct jout j;
    jout_init(&j, 16);
    jout_str(&j, "a\"\\\n\t\x01\x1f\x7f\xc2\x85" EMOJI "\xff\xc0\xaf\xed\xa0\x80x");
    char *text = jout_finish(&j);
    /* Only '"', '\\' and C0 escaped; DEL, C1 and UTF-8 as they are; stray bytes U+FFFD. */
    CHECK_STR(text, "\"a\\\"\\\\\\n\\t\\u0001\\u001f\x7f\xc2\x85" EMOJI
                    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx\"");
    free(text);
    CHECK(utf8_valid(BN_CLUB AS_NAME FI_CLUB EMOJI "\xf4\x8f\xbf\xbf",
                     strlen(BN_CLUB AS_NAME FI_CLUB EMOJI) + 4));
    static const char *const bad[] = {
        "\xe4",     "\xc0\xaf", "\xe0\x80\xaf",        "\xed\xa0\x80", "\xf4\x90\x80\x80",
        "\xe0\xa6", "\x80",     "\xf8\x88\x80\x80\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_MSG(!utf8_valid(bad[i], strlen(bad[i])), "bad[%zu] taken as UTF-8", i);
}

TEST(server_fairplay_utf8_round_trip)
{
    struct server *srv = fp_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j;

    /* A name, and the name as read back. */
    CHECK_EQ_INT(
        fp_call(TEST_CTX, port, "POST", "/api/me", NULL, "{\"name\":\"" FI_NAME "\"}", FI_NAME, &j),
        200);
    CHECK_STR(fx_str(j, "name"), FI_NAME);
    char me[40];
    snprintf(me, sizeof me, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "GET", "/api/me", me, NULL, FI_NAME, &j), 200);
    CHECK_STR(fx_str(j, "name"), FI_NAME);
    json_decref(j);

    /* A club in Bengali, its description in Finnish with an emoji and a line break, its
     * creator's name in Assamese. */
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "POST", "/api/clubs", NULL,
                         "{\"club\":\"" BN_CLUB "\",\"description\":\"" FI_CLUB " " EMOJI
                         "\\n" BN_CLUB "\",\"languages\":[\"bn\",\"as\",\"fi\"],\"name\":\"" AS_NAME
                         "\"}",
                         BN_CLUB, &j),
                 201);
    CHECK_STR(fx_str(j, "name"), BN_CLUB);
    CHECK_STR(fx_str(j, "description"), FI_CLUB " " EMOJI "\n" BN_CLUB);
    CHECK_STR(fx_str(json_array_get(json_object_get(j, "members"), 0), "name"), AS_NAME);
    char club[40], owner[40], path[160];
    snprintf(club, sizeof club, "%s", fx_str(j, "id"));
    snprintf(owner, sizeof owner, "%s", fx_str(j, "token"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/clubs/%s", club);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "GET", path, owner, NULL, AS_NAME, &j), 200);
    CHECK_STR(fx_str(j, "name"), BN_CLUB);
    CHECK_STR(fx_str(j, "description"), FI_CLUB " " EMOJI "\n" BN_CLUB);
    json_decref(j);

    /* A club challenge named with an emoji, as the club lists it and as it reads. */
    snprintf(path, sizeof path, "/api/clubs/%s/challenges", club);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "POST", path, owner,
                         "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"" EMOJI
                         " " FI_CLUB "\"}",
                         NULL, &j),
                 201);
    char cid[40];
    snprintf(cid, sizeof cid, "%s", fx_str(j, "id"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s", cid);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "GET", path, NULL, NULL, EMOJI " " FI_CLUB, &j), 200);
    CHECK_STR(fx_str(j, "name"), EMOJI " " FI_CLUB);
    json_decref(j);

    /* A challenge in Assamese, accepted by a Finnish name: the game's players, in its
     * state, its accept and its record. */
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "POST", "/api/challenges", NULL,
                         "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"" AS_NAME
                         "\"}",
                         NULL, &j),
                 201);
    snprintf(cid, sizeof cid, "%s", fx_str(j, "id"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s", cid);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "GET", path, NULL, NULL, AS_NAME, &j), 200);
    CHECK_STR(fx_str(j, "name"), AS_NAME);
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(
        fp_call(TEST_CTX, port, "POST", path, me, "{\"name\":\"" FI_NAME "\"}", AS_NAME, &j), 200);
    char game[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    json_t *players = json_object_get(j, "players");
    CHECK_STR(fx_str(json_object_get(players, "white"), "name"), AS_NAME);
    CHECK_STR(fx_str(json_object_get(players, "black"), "name"), FI_NAME);
    json_decref(j);
    snprintf(path, sizeof path, "/api/games/%s", game);
    CHECK_EQ_INT(fp_call(TEST_CTX, port, "GET", path, NULL, NULL, FI_NAME, &j), 200);
    players = json_object_get(j, "players");
    CHECK_STR(fx_str(json_object_get(players, "white"), "name"), AS_NAME);
    CHECK_STR(fx_str(json_object_get(players, "black"), "name"), FI_NAME);
    json_decref(j);
    snprintf(path, sizeof path, "/api/games/%s/record", game);
    struct http_reply rec;
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &rec), 0);
    CHECK_EQ_INT(rec.status, 200);
    CHECK_MSG(rec.body && strstr(rec.body, "[White \"" AS_NAME "\"]") &&
                  strstr(rec.body, "[Black \"" FI_NAME "\"]"),
              "record: %.300s", rec.body ? rec.body : "");
    http_reply_free(&rec);
    server_stop(srv);
}

/* A POST of `body` (bytes, perhaps not UTF-8): 400, a JSON error naming `field`. */
static void refused(struct test_ctx *t__, int port, const char *path, const char *body,
                    const char *field)
{
    json_t *j = NULL;
    int st = fp_call(t__, port, "POST", path, NULL, body, NULL, &j);
    CHECK_MSG(st == 400, "POST %s %s: %d, expected 400", path, body, st);
    const char *err = fx_str(j, "error");
    char want[48];
    snprintf(want, sizeof want, "\"%s\"", field);
    CHECK_MSG(strstr(err, want), "POST %s: error \"%s\" does not name %s", path, err, want);
    json_decref(j);
}

TEST(server_fairplay_not_utf8_refused)
{
    struct server *srv = fp_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* Latin-1, a lone continuation byte, overlong forms, a surrogate, past U+10FFFF, a
     * sequence cut short: each in a name, a club's texts and a challenge's name. */
    static const char *const bad[] = {"Jyv\xe4skyl\xe4", "a\x80",        "\xc0\xaf",
                                      "\xe0\x80\xaf",    "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                      "\xe0\xa6"};
    char body[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", bad[i]);
        refused(TEST_CTX, port, "/api/me", body, "name");
        snprintf(body, sizeof body,
                 "{\"club\":\"ok\",\"description\":\"x%s\",\"languages\":[\"fi\"],\"name\":\"A\"}",
                 bad[i]);
        refused(TEST_CTX, port, "/api/clubs", body, "description");
        snprintf(body, sizeof body, "{\"club\":\"%s\",\"languages\":[\"fi\"],\"name\":\"A\"}",
                 bad[i]);
        refused(TEST_CTX, port, "/api/clubs", body, "club");
        snprintf(body, sizeof body,
                 "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"%s\"}", bad[i]);
        refused(TEST_CTX, port, "/api/challenges", body, "name");
    }
    /* A surrogate escaped, alone: jansson refuses it; the answer is a clear 400. */
    json_t *j = NULL;
    CHECK_EQ_INT(
        fp_call(TEST_CTX, port, "POST", "/api/me", NULL, "{\"name\":\"\\ud800\"}", NULL, &j), 400);
    CHECK(strstr(fx_str(j, "error"), "malformed JSON") != NULL);
    json_decref(j);
    server_stop(srv);
}

/* A game between people without a clock, A white: its id and both tokens. */
static int fp_game(int port, char *game, char *ta, char *tb)
{
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/challenges", NULL,
                      "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"A\"}", &j);
    char path[160];
    snprintf(path, sizeof path, "/api/challenges/%.40s/accept", fx_str(j, "id"));
    snprintf(ta, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    if (st != 201 || api_call(port, "POST", path, NULL, "{\"name\":\"B\"}", &j) != 200) {
        json_decref(j);
        return -1;
    }
    snprintf(game, 40, "%s", fx_str(j, "id"));
    snprintf(tb, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return 0;
}

/* The top-level keys of an object, sorted, comma-separated; `draw` left out (the one
 * key API.md adds to the answers of POST .../draw). */
static void fp_keys(json_t *j, char *out, size_t size)
{
    const char *names[64], *key;
    json_t *v;
    size_t n = 0;
    json_object_foreach(j, key, v)
    {
        if (n < 64 && strcmp(key, "draw"))
            names[n++] = key;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            const char *x = names[k];
            names[k] = names[k - 1];
            names[k - 1] = x;
        }
    out[0] = 0;
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? "," : "", names[i]);
}

/* POST .../op with `token`: 200, and the answer's keys are those of GET with the same
 * token (the game's whole state, as the page reads it), the board among them. */
static void fp_op(struct test_ctx *t__, int port, const char *game, const char *op,
                  const char *token, const char *body)
{
    char path[160], got[1024], want[1024];
    snprintf(path, sizeof path, "/api/games/%s/%s", game, op);
    json_t *answer = NULL, *state = NULL;
    int st = api_call(port, "POST", path, token, body, &answer);
    CHECK_MSG(st == 200, "%s %s: %d %s", op, body, st, fx_str(answer, "error"));
    snprintf(path, sizeof path, "/api/games/%s", game);
    CHECK_EQ_INT(api_call(port, "GET", path, token, NULL, &state), 200);
    fp_keys(answer, got, sizeof got);
    fp_keys(state, want, sizeof want);
    CHECK_MSG(!strcmp(got, want), "%s %s answers {%s}, the state is {%s}", op, body, got, want);
    CHECK_MSG(strstr(got, "board") && strstr(got, "legal_moves") && strstr(got, "players"),
              "%s: {%s}", op, got);
    json_decref(answer);
    json_decref(state);
}

TEST(server_fairplay_every_people_answer_is_the_state)
{
    struct server *srv = fp_start_abandon(1);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fp_game(port, game, ta, tb), 0);
    fp_op(TEST_CTX, port, game, "moves", ta, "{\"move\":\"e2e4\"}");
    fp_op(TEST_CTX, port, game, "moves", tb, "{\"move\":\"e7e5\"}");
    fp_op(TEST_CTX, port, game, "draw", ta, "{}");
    fp_op(TEST_CTX, port, game, "draw", tb, "{\"answer\":\"decline\"}");
    fp_op(TEST_CTX, port, game, "moves", ta, "{\"move\":\"g1f3\"}");
    fp_op(TEST_CTX, port, game, "takeback", ta, "{}");
    fp_op(TEST_CTX, port, game, "takeback", tb, "{\"answer\":\"decline\"}");
    fp_op(TEST_CTX, port, game, "takeback", ta, "{}");
    fp_op(TEST_CTX, port, game, "takeback", tb, "{\"answer\":\"accept\"}");
    fp_op(TEST_CTX, port, game, "draw", tb, "{}");
    fp_op(TEST_CTX, port, game, "draw", ta, "{\"answer\":\"accept\"}");
    fp_op(TEST_CTX, port, game, "rematch", ta, "{}");
    fp_op(TEST_CTX, port, game, "rematch", tb, "{}");

    CHECK_EQ_INT(fp_game(port, game, ta, tb), 0);
    fp_op(TEST_CTX, port, game, "abort", tb, "{}");
    CHECK_EQ_INT(fp_game(port, game, ta, tb), 0);
    fp_op(TEST_CTX, port, game, "resign", ta, "{}");
    CHECK_EQ_INT(fp_game(port, game, ta, tb), 0);
    fp_op(TEST_CTX, port, game, "moves", ta, "{\"move\":\"f2f3\"}");
    fp_op(TEST_CTX, port, game, "moves", tb, "{\"move\":\"e7e5\"}");
    fp_op(TEST_CTX, port, game, "moves", ta, "{\"move\":\"g2g4\"}");
    usleep(20 * 1000); /* black away longer than the 1 ms this server allows */
    fp_op(TEST_CTX, port, game, "claim-win", ta, "{}");
    server_stop(srv);
}

/* A seek of `clock` (black) taken by another visitor (white): the game's state after
 * 1. e4 e5, when white's clock runs; the seek as the lobby listed it into *seek. */
static json_t *fp_seek_game(struct test_ctx *t__, int port, const char *clock, bool rated,
                            json_t **seek)
{
    char body[256], path[160], game[40], tw[40], tb[40];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":%s,\"side\":\"black\",\"rated\":%s,"
             "\"name\":\"Cy\"}",
             clock, rated ? "true" : "false");
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/seeks", NULL, body, &j), 201);
    char id[40];
    snprintf(id, sizeof id, "%s", fx_str(j, "id"));
    snprintf(tb, sizeof tb, "%s", fx_str(j, "token"));
    json_decref(j);
    *seek = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &j), 200);
    json_t *s;
    size_t i;
    json_array_foreach(json_object_get(j, "seeks"), i, s)
    {
        if (!strcmp(fx_str(s, "id"), id))
            *seek = json_incref(s);
    }
    json_decref(j);
    snprintf(path, sizeof path, "/api/seeks/%s/accept", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Di\"}", &j), 200);
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    snprintf(tw, sizeof tw, "%s", fx_str(j, "token"));
    CHECK_STR(fx_str(j, "you"), "white");
    json_decref(j);
    CHECK_EQ_INT(api_post_move(port, game, tw, "e2e4", NULL), 200);
    CHECK_EQ_INT(api_post_move(port, game, tb, "e7e5", NULL), 200);
    usleep(300 * 1000); /* the flag fell 0.2 s after this move when the clock began at 0 */
    return api_get_state(port, game);
}

static long long fp_int(json_t *j, const char *key)
{
    return json_integer_value(json_object_get(j, key));
}

TEST(server_fairplay_clock_floor)
{
    struct server *srv = fp_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *seek = NULL;
    /* 0+180 rated: played as 180+180, classical (E = 180 + 40 x 180 s). */
    json_t *st = fp_seek_game(TEST_CTX, port, "{\"initial\":0,\"increment\":180}", true, &seek);
    json_t *c = json_object_get(seek, "clock");
    CHECK_EQ_INT(fp_int(c, "initial"), 180);
    CHECK_EQ_INT(fp_int(c, "increment"), 180);
    CHECK_STR(fx_str(seek, "rating_class"), "classical");
    json_decref(seek);
    c = json_object_get(st, "clock");
    CHECK_STR(fx_str(json_object_get(st, "status"), "result"), "ongoing");
    CHECK_EQ_INT(fp_int(c, "initial"), 180);
    CHECK_STR(fx_str(c, "running"), "white");
    CHECK_MSG(fp_int(c, "white") > 170000 && fp_int(c, "white") <= 180000, "white has %lld ms",
              fp_int(c, "white"));
    CHECK_STR(fx_str(st, "rating_class"), "classical");
    json_decref(st);

    /* 0+1: played as 3+1 (blitz), white's clock from 3 s. */
    st = fp_seek_game(TEST_CTX, port, "{\"initial\":0,\"increment\":1}", false, &seek);
    c = json_object_get(seek, "clock");
    CHECK_EQ_INT(fp_int(c, "initial"), 3);
    CHECK_EQ_INT(fp_int(c, "increment"), 1);
    CHECK_STR(fx_str(seek, "rating_class"), "blitz");
    json_decref(seek);
    c = json_object_get(st, "clock");
    CHECK_STR(fx_str(json_object_get(st, "status"), "result"), "ongoing");
    CHECK_EQ_INT(fp_int(c, "initial"), 3);
    CHECK_MSG(fp_int(c, "white") > 2000 && fp_int(c, "white") <= 3000, "white has %lld ms",
              fp_int(c, "white"));
    json_decref(st);

    /* A clock with an initial time is played as asked. */
    st = fp_seek_game(TEST_CTX, port, "{\"initial\":1,\"increment\":0}", false, &seek);
    CHECK_EQ_INT(fp_int(json_object_get(seek, "clock"), "initial"), 1);
    json_decref(seek);
    json_decref(st);
    server_stop(srv);
}

/* A name's limit is 40 characters, not bytes: a 40-letter Bengali name (120 bytes)
 * comes back as written, in /api/me and in a challenge; 41 letters are refused. */
TEST(server_fairplay_names_count_characters)
{
    struct server *srv = fp_start();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char name[STORE_PLAYER_NAME_MAX + 8] = "", body[512];
    for (int i = 0; i < 40; i++)
        strcat(name, "\xe0\xa6\x95"); /* ক, 3 bytes */
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, body, &j), 200);
    CHECK_STR(fx_str(j, "name"), name);
    json_decref(j);
    snprintf(body, sizeof body, "{\"game\":\"chess\",\"side\":\"white\",\"name\":\"%s\"}", name);
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL, body, &j), 201);
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s", fx_str(j, "id"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "name"), name);
    json_decref(j);
    strcat(name, "\xe0\xa6\x95");
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, body, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_name");
    json_decref(j);
    server_stop(srv);
}
