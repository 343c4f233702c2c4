/* Arenas against a real server on loopback (issue 27 items 1, 3, 4, 7): bad terms
 * refused with their codes and nothing made; four players paired at once, never two
 * games of one player at once, a result scored and the winner paired again with
 * someone else; the first-move forfeit (the idle player loses and is paused); the
 * event stream; a restart in the middle; a club's arena closed to outsiders, its
 * members told when it starts (and an open one's entrants).  The
 * server's minute is shortened (tournament_minute_ms) and the director looks every
 * 50 ms, so nothing sleeps for minutes. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define MINUTE_MS 2000

static void tcfg(struct server_config *cfg)
{
    fx_config(cfg);
    cfg->tournament_tick_ms = 50;
    cfg->tournament_minute_ms = MINUTE_MS;
    cfg->first_move_ms = 60000;
}

/* Create an arena (`extra`: more JSON members, "" for none); its id into id. */
static int create(int port, const char *token, const char *name, long long starts, int minutes,
                  const char *extra, char *id, json_t **out)
{
    char body[1024];
    snprintf(body, sizeof body,
             "{\"kind\":\"arena\",\"tournament\":\"%s\",\"game\":\"chess\",\"clock\":{\"initial\":"
             "60,\"increment\":0},\"minutes\":%d,\"starts\":%lld,\"name\":\"Org\"%s}",
             name, minutes, starts, extra);
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/tournaments", token, body, &j);
    if (id)
        snprintf(id, 40, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    if (out)
        *out = j;
    else
        json_decref(j);
    return st;
}

/* Join as a new visitor named `name`: the token into token. */
static int join(int port, const char *id, const char *name, char *token)
{
    char path[128], body[128];
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, token[0] ? token : NULL, body, &j);
    if (st == 200 && !token[0])
        snprintf(token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

static json_t *view(int port, const char *id, const char *token)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s", id);
    json_t *j = NULL;
    if (api_call(port, "GET", path, token, NULL, &j) != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The game the token's player is in now ("" none), with their side. */
static void my_game(int port, const char *id, const char *token, char *game, char *side)
{
    json_t *v = view(port, id, token);
    json_t *g = json_object_get(json_object_get(v, "me"), "game");
    snprintf(game, 40, "%s", fx_str(g, "id"));
    if (side)
        snprintf(side, 8, "%s", fx_str(g, "side"));
    json_decref(v);
}

static int wait_game(int port, const char *id, const char *token, char *game, char *side)
{
    int64_t until = fx_now_ms() + 5000;
    do {
        my_game(port, id, token, game, side);
        if (game[0])
            return 0;
        fx_sleep_ms(30);
    } while (fx_now_ms() < until);
    return -1;
}

static json_t *standing_of(json_t *v, const char *name)
{
    json_t *s = json_object_get(v, "standings"), *row;
    size_t i;
    json_array_foreach(s, i, row) if (!strcmp(fx_str(row, "name"), name)) return row;
    return NULL;
}

static int count_list(int port, const char *query)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments%s", query);
    json_t *j = NULL;
    int n = api_call(port, "GET", path, NULL, NULL, &j) == 200
                ? (int)json_array_size(json_object_get(j, "tournaments"))
                : -1;
    json_decref(j);
    return n;
}

TEST(server_tournament_bad_terms_refused)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    long long now = fx_wall_ms();
    json_t *j = NULL;
    CHECK_EQ_INT(create(port, NULL, "Past", now - 3600 * 1000LL, 10, "", NULL, &j), 400);
    CHECK_STR(fx_str(j, "code"), "tournament_in_past");
    json_decref(j);
    CHECK_EQ_INT(create(port, NULL, "Zero", now + 60000, 0, "", NULL, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_duration");
    json_decref(j);
    char long_name[200];
    memset(long_name, 'x', 100);
    long_name[100] = 0;
    CHECK_EQ_INT(create(port, NULL, long_name, now + 60000, 10, "", NULL, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_text");
    json_decref(j);
    CHECK_EQ_INT(create(port, NULL, "   ", now + 60000, 10, "", NULL, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_text");
    json_decref(j);
    char body[256];
    snprintf(body, sizeof body,
             "{\"kind\":\"arena\",\"tournament\":\"Clockless\",\"game\":\"chess\","
             "\"minutes\":10,\"starts\":%lld}",
             now + 60000);
    CHECK_EQ_INT(api_call(port, "POST", "/api/tournaments", NULL, body, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_clock");
    json_decref(j);
    /* Nothing was made. */
    CHECK_EQ_INT(count_list(port, ""), 0);
    CHECK_EQ_INT(count_list(port, "?status=bogus"), -1);
    /* An unknown tournament. */
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/tournaments/0123456789abcdef0123456789abcdef", NULL, NULL, &j),
        404);
    CHECK_STR(fx_str(j, "code"), "no_such_tournament");
    json_decref(j);
    server_stop(srv);
}

TEST(server_tournament_arena_pairs_scores_and_repairs)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40];
    /* Starts in a moment, lasts 30 (short) minutes: a minute. */
    CHECK_EQ_INT(create(port, NULL, "Evening arena", fx_wall_ms() + 300, 30, "", id, NULL), 201);
    CHECK_EQ_INT(count_list(port, "?status=upcoming"), 1);
    const char *names[4] = {"Ann", "Bob", "Cy", "Di"};
    char tok[4][40] = {{0}};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(join(port, id, names[i], tok[i]), 200);
    /* Joining twice is refused. */
    CHECK_EQ_INT(join(port, id, "Ann", tok[0]), 409);
    /* Everyone is paired once it starts: two games, each player in one. */
    char game[4][40], side[4][8];
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(wait_game(port, id, tok[i], game[i], side[i]), 0);
    int a = 0, b = -1;
    for (int i = 1; i < 4; i++)
        if (!strcmp(game[i], game[0]))
            b = i;
    CHECK(b > 0);
    if (b < 0) {
        server_stop(srv);
        return;
    }
    json_t *v = view(port, id, NULL);
    CHECK_STR(fx_str(json_object_get(v, "tournament"), "status"), "running");
    CHECK_EQ_INT(json_array_size(json_object_get(v, "games")), 2);
    json_decref(v);
    /* The two play a move each, then black resigns: white scores 2. */
    int w = !strcmp(side[a], "white") ? a : b, bl = w == a ? b : a;
    CHECK_EQ_INT(fx_move(port, game[w], tok[w], "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game[bl], tok[bl], "e7e5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game[bl], "resign", tok[bl], NULL, NULL), 200);
    /* Both are paired again, with each other only when nobody else is free: the other
     * two are still playing, so they wait; never two games of theirs at once. */
    fx_sleep_ms(300);
    char again[40];
    my_game(port, id, tok[w], again, NULL);
    CHECK_STR(again, "");
    v = view(port, id, NULL);
    CHECK_EQ_INT(fx_int(standing_of(v, names[w]), "score"), 2);
    CHECK_EQ_INT(fx_int(standing_of(v, names[w]), "rank"), 1);
    CHECK_EQ_INT(fx_int(standing_of(v, names[bl]), "score"), 0);
    json_decref(v);
    /* The other game's black resigns too: all four are free, and nobody meets their
     * last opponent. */
    int c = -1, d = -1;
    for (int i = 0; i < 4; i++)
        if (i != a && i != b)
            *(c < 0 ? &c : &d) = i;
    int cw = !strcmp(side[c], "white") ? c : d, cb = cw == c ? d : c;
    CHECK_EQ_INT(fx_move(port, game[cw], tok[cw], "d2d4"), 200);
    CHECK_EQ_INT(fx_move(port, game[cb], tok[cb], "d7d5"), 200);
    CHECK_EQ_INT(fx_game_post(port, game[cb], "resign", tok[cb], NULL, NULL), 200);
    char g2[4][40], s2[4][8];
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(wait_game(port, id, tok[i], g2[i], s2[i]), 0);
    CHECK(strcmp(g2[w], g2[bl]) != 0);
    CHECK(strcmp(g2[cw], g2[cb]) != 0);
    /* Colours: of two who had different colours, the one who had black has white. */
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            if (k != i && !strcmp(g2[i], g2[k]) && strcmp(side[i], side[k]) != 0)
                CHECK_MSG(strcmp(side[i], "black") || !strcmp(s2[i], "white"),
                          "%s had black, then black again against %s", names[i], names[k]);
    server_stop(srv);
}

TEST(server_tournament_first_move_forfeit_pauses)
{
    struct server_config cfg;
    tcfg(&cfg);
    cfg.first_move_ms = 600;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40] = "", tb[40] = "";
    CHECK_EQ_INT(create(port, NULL, "Quick", fx_wall_ms(), 30, "", id, NULL), 201);
    CHECK_EQ_INT(join(port, id, "Ann", ta), 200);
    CHECK_EQ_INT(join(port, id, "Bob", tb), 200);
    char ga[40], sa[8];
    CHECK_EQ_INT(wait_game(port, id, ta, ga, sa), 0);
    const char *white_tok = !strcmp(sa, "white") ? ta : tb;
    const char *white_name = white_tok == ta ? "Ann" : "Bob";
    const char *black_name = white_tok == ta ? "Bob" : "Ann";
    (void)white_tok;
    /* White never moves: after 600 ms white loses and is paused, black scores 2. */
    fx_sleep_ms(1200);
    json_t *st = fx_state(port, ga, NULL);
    json_t *status = json_object_get(st, "status");
    CHECK(json_is_true(json_object_get(status, "over")));
    CHECK_STR(fx_str(status, "winner"), "black");
    json_decref(st);
    json_t *v = view(port, id, NULL);
    CHECK_STR(fx_str(standing_of(v, white_name), "state"), "paused");
    CHECK_EQ_INT(fx_int(standing_of(v, black_name), "score"), 2);
    CHECK_EQ_INT(fx_int(standing_of(v, white_name), "losses"), 1);
    json_decref(v);
    /* Paused: no new game for either (the other has nobody to play). */
    char none[40];
    my_game(port, id, tb, none, NULL);
    CHECK_STR(none, "");
    /* Coming back: joining again makes the player active and paired. */
    char tok_white[40];
    snprintf(tok_white, sizeof tok_white, "%s", white_tok);
    CHECK_EQ_INT(join(port, id, white_name, tok_white), 200);
    CHECK_EQ_INT(wait_game(port, id, tok_white, none, NULL), 0);
    server_stop(srv);
}

TEST(server_tournament_stream_and_pause)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40] = "", path[128];
    CHECK_EQ_INT(create(port, NULL, "Streamed", fx_wall_ms() + 60000, 30, "", id, NULL), 201);
    struct sse_reader r;
    snprintf(path, sizeof path, "/api/tournaments/%s/events", id);
    CHECK_EQ_INT(sse_get(&r, port, path, NULL), 200);
    json_t *e = fx_event(&r, "tournament", 3000);
    CHECK_STR(fx_str(e, "status"), "upcoming");
    CHECK_EQ_INT(fx_int(e, "players"), 0);
    json_decref(e);
    CHECK_EQ_INT(join(port, id, "Ann", ta), 200);
    e = fx_event(&r, "tournament", 3000);
    CHECK_EQ_INT(fx_int(e, "players"), 1);
    json_decref(e);
    snprintf(path, sizeof path, "/api/tournaments/%s/pause", id);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, ta, NULL, &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "me"), "state"), "paused");
    json_decref(j);
    e = fx_event(&r, "tournament", 3000);
    CHECK(e != NULL);
    json_decref(e);
    /* Pausing someone who is not in it. */
    CHECK_EQ_INT(api_call(port, "POST", path, "0123456789abcdef0123456789abcdef", NULL, &j), 409);
    CHECK_STR(fx_str(j, "code"), "not_entrant");
    json_decref(j);
    sse_close(&r);
    server_stop(srv);
}

TEST(server_tournament_survives_restart)
{
    char dir[512], db[600];
    fx_tmpdb(dir, sizeof dir, db, sizeof db, "t.db");
    struct server_config cfg;
    tcfg(&cfg);
    cfg.db_path = db;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40] = "", tb[40] = "", ga[40], sa[8];
    CHECK_EQ_INT(create(port, NULL, "Long", fx_wall_ms(), 30, "", id, NULL), 201);
    CHECK_EQ_INT(join(port, id, "Ann", ta), 200);
    CHECK_EQ_INT(join(port, id, "Bob", tb), 200);
    CHECK_EQ_INT(wait_game(port, id, ta, ga, sa), 0);
    const char *wt = !strcmp(sa, "white") ? ta : tb, *bt = wt == ta ? tb : ta;
    CHECK_EQ_INT(fx_move(port, ga, wt, "e2e4"), 200);
    server_stop(srv);

    srv = fx_start(&cfg);
    CHECK(srv != NULL);
    if (!srv) {
        test_rmdir(dir);
        return;
    }
    port = server_port(srv);
    /* The same game, still on, the same entrants; play on and the result counts. */
    char again[40];
    my_game(port, id, ta, again, NULL);
    CHECK_STR(again, ga);
    CHECK_EQ_INT(fx_move(port, ga, bt, "e7e5"), 200);
    CHECK_EQ_INT(fx_game_post(port, ga, "resign", bt, NULL, NULL), 200);
    fx_sleep_ms(200);
    json_t *v = view(port, id, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "standings")), 2);
    CHECK_EQ_INT(fx_int(json_array_get(json_object_get(v, "standings"), 0), "score"), 2);
    json_decref(v);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_tournament_ends_and_late_games_do_not_count)
{
    struct server_config cfg;
    tcfg(&cfg);
    cfg.tournament_minute_ms = 400; /* one "minute" of 400 ms */
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40] = "", tb[40] = "", ga[40], sa[8];
    CHECK_EQ_INT(create(port, NULL, "Short", fx_wall_ms(), 2, "", id, NULL), 201);
    CHECK_EQ_INT(join(port, id, "Ann", ta), 200);
    CHECK_EQ_INT(join(port, id, "Bob", tb), 200);
    CHECK_EQ_INT(wait_game(port, id, ta, ga, sa), 0);
    const char *wt = !strcmp(sa, "white") ? ta : tb, *bt = wt == ta ? tb : ta;
    CHECK_EQ_INT(fx_move(port, ga, wt, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, ga, bt, "e7e5"), 200);
    fx_sleep_ms(1200); /* past the end */
    json_t *v = view(port, id, NULL);
    CHECK_STR(fx_str(json_object_get(v, "tournament"), "status"), "finished");
    json_decref(v);
    /* The game is played out; its result does not count. */
    CHECK_EQ_INT(fx_game_post(port, ga, "resign", bt, NULL, NULL), 200);
    v = view(port, id, NULL);
    CHECK_EQ_INT(fx_int(json_array_get(json_object_get(v, "standings"), 0), "score"), 0);
    json_t *g0 = json_array_get(json_object_get(v, "games"), 0);
    CHECK(json_is_false(json_object_get(g0, "counts")));
    json_decref(v);
    /* Joining a finished tournament. */
    char tc[40] = "";
    CHECK_EQ_INT(join(port, id, "Cy", tc), 409);
    server_stop(srv);
}

/* A game paired before the end that never gets its first move: after the end it still
 * ends (the player to move loses, as during the arena), it does not count, and nobody
 * is paused (there is nothing left to pause from). */
TEST(server_tournament_game_on_at_end_without_first_move_forfeited)
{
    struct server_config cfg;
    tcfg(&cfg);
    cfg.tournament_minute_ms = 400; /* the arena lasts 800 ms */
    cfg.first_move_ms = 1500;       /* longer: the game outlives the arena */
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40] = "", tb[40] = "", ga[40], sa[8];
    CHECK_EQ_INT(create(port, NULL, "Idle", fx_wall_ms(), 2, "", id, NULL), 201);
    CHECK_EQ_INT(join(port, id, "Ann", ta), 200);
    CHECK_EQ_INT(join(port, id, "Bob", tb), 200);
    CHECK_EQ_INT(wait_game(port, id, ta, ga, sa), 0);
    const char *white_name = !strcmp(sa, "white") ? "Ann" : "Bob";
    /* The arena ends with the game on and no move made. */
    int64_t until = fx_now_ms() + 5000;
    json_t *v = NULL;
    do {
        json_decref(v);
        fx_sleep_ms(50);
        v = view(port, id, NULL);
    } while (strcmp(fx_str(json_object_get(v, "tournament"), "status"), "finished") &&
             fx_now_ms() < until);
    CHECK_STR(fx_str(json_object_get(v, "tournament"), "status"), "finished");
    json_decref(v);
    json_t *st = fx_state(port, ga, NULL);
    CHECK(json_is_false(json_object_get(json_object_get(st, "status"), "over")));
    json_decref(st);
    /* White's first move does not come: white loses the game. */
    until = fx_now_ms() + 5000;
    bool over = false;
    do {
        fx_sleep_ms(100);
        st = fx_state(port, ga, NULL);
        json_t *status = json_object_get(st, "status");
        over = json_is_true(json_object_get(status, "over"));
        if (over)
            CHECK_STR(fx_str(status, "winner"), "black");
        json_decref(st);
    } while (!over && fx_now_ms() < until);
    CHECK_MSG(over, "the game on at the end without a first move was not forfeited");
    /* It does not count, and nobody is paused after the end. */
    v = view(port, id, NULL);
    CHECK_EQ_INT(fx_int(json_array_get(json_object_get(v, "standings"), 0), "score"), 0);
    CHECK(json_is_false(json_object_get(json_array_get(json_object_get(v, "games"), 0), "counts")));
    CHECK_STR(fx_str(standing_of(v, white_name), "state"), "active");
    json_decref(v);
    server_stop(srv);
}

TEST(server_tournament_club_only)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Knights\",\"languages\":[\"en\"],\"name\":\"Ann\"}", &j),
                 201);
    char club[40], admin[40], invite[40];
    snprintf(club, sizeof club, "%s", fx_str(j, "id"));
    snprintf(admin, sizeof admin, "%s", fx_str(j, "token"));
    snprintf(invite, sizeof invite, "%s", fx_str(j, "invite"));
    json_decref(j);
    char extra[128], id[40];
    snprintf(extra, sizeof extra, ",\"club\":\"%s\"", club);
    /* A visitor who is no admin of the club makes none. */
    CHECK_EQ_INT(create(port, NULL, "Ours", fx_wall_ms() + 60000, 10, extra, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "club_admins_only");
    json_decref(j);
    CHECK_EQ_INT(create(port, admin, "Ours", fx_wall_ms() + 60000, 10, extra, id, NULL), 201);
    /* Listed with the club's, not with everyone's. */
    char q[80];
    snprintf(q, sizeof q, "?club=%s", club);
    CHECK_EQ_INT(count_list(port, q), 1);
    CHECK_EQ_INT(count_list(port, ""), 0);
    /* An outsider may not join; nothing changes; a member may. */
    char out[40] = "";
    CHECK_EQ_INT(join(port, id, "Zed", out), 403);
    json_t *v = view(port, id, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "standings")), 0);
    json_decref(v);
    char path[128], body[128];
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Bob\"}", invite);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, body, &j), 200);
    char bob[40];
    snprintf(bob, sizeof bob, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(join(port, id, "Bob", bob), 200);
    server_stop(srv);
}

/* The notices of a player (their token) of kind "tournament" for tournament `id`. */
static int start_notices(int port, const char *token, const char *id)
{
    json_t *j = NULL, *n;
    int count = 0;
    size_t i;
    if (api_call(port, "GET", "/api/me/notifications", token, NULL, &j) == 200)
        json_array_foreach(json_object_get(j, "notifications"), i, n) count +=
            !strcmp(fx_str(n, "kind"), "tournament") &&
            !strcmp(fx_str(json_object_get(n, "data"), "tournament"), id);
    json_decref(j);
    return count;
}

TEST(server_tournament_club_start_notifies_members)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Rooks\",\"languages\":[\"en\"],\"name\":\"Ann\"}", &j),
                 201);
    char club[40], admin[40], invite[40], bob[40], path[128], body[128], extra[128], id[40];
    snprintf(club, sizeof club, "%s", fx_str(j, "id"));
    snprintf(admin, sizeof admin, "%s", fx_str(j, "token"));
    snprintf(invite, sizeof invite, "%s", fx_str(j, "invite"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"Bob\"}", invite);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, body, &j), 200);
    snprintf(bob, sizeof bob, "%s", fx_str(j, "token"));
    json_decref(j);
    /* Bob, a member who has not joined it, is told when it starts; so is Ann; Zed,
     * no member, is not. */
    snprintf(extra, sizeof extra, ",\"club\":\"%s\"", club);
    CHECK_EQ_INT(create(port, admin, "Club night", fx_wall_ms() + 300, 10, extra, id, NULL), 201);
    char zed[40];
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Pawns\",\"languages\":[\"en\"],\"name\":\"Zed\"}", &j),
                 201);
    snprintf(zed, sizeof zed, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(start_notices(port, bob, id), 0);
    int64_t until = fx_now_ms() + 5000;
    while (start_notices(port, bob, id) == 0 && fx_now_ms() < until)
        fx_sleep_ms(30);
    CHECK_EQ_INT(start_notices(port, bob, id), 1);
    CHECK_EQ_INT(start_notices(port, admin, id), 1);
    CHECK_EQ_INT(start_notices(port, zed, id), 0);
    server_stop(srv);
}

TEST(server_tournament_start_notifies_entrants)
{
    struct server_config cfg;
    tcfg(&cfg);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ann[40] = "";
    CHECK_EQ_INT(create(port, NULL, "Open night", fx_wall_ms() + 300, 10, "", id, NULL), 201);
    CHECK_EQ_INT(join(port, id, "Ann", ann), 200);
    int64_t until = fx_now_ms() + 5000;
    while (start_notices(port, ann, id) == 0 && fx_now_ms() < until)
        fx_sleep_ms(30);
    CHECK_EQ_INT(start_notices(port, ann, id), 1);
    server_stop(srv);
}
