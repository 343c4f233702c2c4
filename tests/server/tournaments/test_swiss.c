/* A Swiss in the server against a real server on loopback (issue 27 item 2): five
 * players, three rounds; round 1 paired at the start with a pairing-allocated bye; the
 * next round paired when the last game ends; a late entrant taken in round 2 and
 * refused once half the rounds are played; a withdrawn player not paired; the TRF
 * download read back by the library and paired again as `agora swiss pair` would: the
 * server's round 2; the end after the last round, with tie-breaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "swiss/swiss.h"

static int sw_create_rounds(int port, int rounds, const char *extra, char *id)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"kind\":\"swiss\",\"tournament\":\"Club Swiss\",\"game\":\"chess\",\"clock\":"
             "{\"initial\":600,\"increment\":0},\"rounds\":%d,\"starts\":%lld,\"name\":\"Org\"%s}",
             rounds, (long long)fx_wall_ms() + 1500, extra);
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/tournaments", NULL, body, &j);
    snprintf(id, 40, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    json_decref(j);
    return st;
}

static int sw_create(int port, const char *extra, char *id)
{
    return sw_create_rounds(port, 3, extra, id);
}

static int sw_join(int port, const char *id, const char *name, char *token)
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

static json_t *sw_view(int port, const char *id, const char *token)
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

static int round_of(int port, const char *id)
{
    json_t *v = sw_view(port, id, NULL);
    int r = (int)fx_int(json_object_get(v, "tournament"), "round");
    json_decref(v);
    return r;
}

static int wait_round(int port, const char *id, int round)
{
    int64_t until = fx_now_ms() + 5000;
    while (fx_now_ms() < until) {
        if (round_of(port, id) >= round)
            return 0;
        fx_sleep_ms(30);
    }
    return -1;
}

/* Every game on: black resigns after a move each (white wins). */
static void finish_round(int port, const char *id, char tok[][40], int n)
{
    for (int i = 0; i < n; i++) {
        json_t *v = sw_view(port, id, tok[i]);
        json_t *g = json_object_get(json_object_get(v, "me"), "game");
        if (g && !strcmp(fx_str(g, "side"), "white")) {
            char gid[40];
            snprintf(gid, sizeof gid, "%s", fx_str(g, "id"));
            int b = -1;
            for (int k = 0; k < n && b < 0; k++) {
                json_t *w = sw_view(port, id, tok[k]);
                json_t *h = json_object_get(json_object_get(w, "me"), "game");
                if (k != i && h && !strcmp(fx_str(h, "id"), gid))
                    b = k;
                json_decref(w);
            }
            if (b >= 0) {
                fx_move(port, gid, tok[i], "e2e4");
                fx_move(port, gid, tok[b], "e7e5");
                fx_game_post(port, gid, "resign", tok[b], NULL, NULL);
            }
        }
        json_decref(v);
    }
}

/* The round-`round` boards of the view's games as "W-B" by pairing number. */
static void boards_of(json_t *v, int round, char *out, size_t size)
{
    json_t *st = json_object_get(v, "standings"), *g, *row;
    size_t i, k;
    out[0] = 0;
    json_t *games = json_object_get(v, "games");
    /* The games are newest first; list them oldest first. */
    for (size_t n = json_array_size(games); n-- > 0;) {
        g = json_array_get(games, n);
        if (fx_int(g, "round") != round)
            continue;
        int w = 0, b = 0;
        json_array_foreach(st, i, row)
        {
            if (!strcmp(fx_str(row, "name"), fx_str(json_object_get(g, "white"), "name")))
                w = (int)fx_int(row, "number");
            if (!strcmp(fx_str(row, "name"), fx_str(json_object_get(g, "black"), "name")))
                b = (int)fx_int(row, "number");
        }
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%d-%d ", w, b);
    }
    (void)k;
}

TEST(server_tournament_swiss_rounds_byes_late_entry_trf)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.tournament_tick_ms = 50;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40];
    json_t *j = NULL;
    /* Bad terms: no rounds. */
    char body[256];
    snprintf(body, sizeof body,
             "{\"kind\":\"swiss\",\"tournament\":\"X\",\"game\":\"chess\",\"clock\":{\"initial\":"
             "60},\"rounds\":0,\"starts\":%lld}",
             (long long)fx_wall_ms());
    CHECK_EQ_INT(api_call(port, "POST", "/api/tournaments", NULL, body, &j), 400);
    CHECK_STR(fx_str(j, "code"), "bad_duration");
    json_decref(j);
    /* Joined before the start: five players, round 1 at once with a bye. */
    CHECK_EQ_INT(sw_create(port, "", id), 201);
    char tok[6][40] = {{0}};
    const char *names[6] = {"Ann", "Bob", "Cy", "Di", "Ed", "Flo"};
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(sw_join(port, id, names[i], tok[i]), 200);
    CHECK_EQ_INT(wait_round(port, id, 1), 0);
    json_t *v = sw_view(port, id, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "games")), 2);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "byes")), 1);
    json_decref(v);
    /* A late entrant in round 1 (before half the rounds): paired from round 2. */
    CHECK_EQ_INT(sw_join(port, id, names[5], tok[5]), 200);
    /* Round 2 comes only once round 1's games are over. */
    fx_sleep_ms(200);
    CHECK_EQ_INT(round_of(port, id), 1);
    finish_round(port, id, tok, 6);
    CHECK_EQ_INT(wait_round(port, id, 2), 0);
    v = sw_view(port, id, NULL);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "games")), 5); /* 2 + 3: six players */
    /* The standings: the winners and the bye on 1 point. */
    json_t *top = json_array_get(json_object_get(v, "standings"), 0);
    CHECK_STR(fx_str(top, "points"), "1");
    char served[128];
    boards_of(v, 2, served, sizeof served);
    json_decref(v);

    /* The TRF (the rounds played: round 1) read back by the library and paired again:
     * the same boards as the server's round 2 (one code path with `agora swiss pair`). */
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s/trf", id);
    struct http_reply rep;
    http_call(port, "GET", path, NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 200);
    char err[256] = "";
    struct swiss_tournament *t = swiss_trf_read(rep.body, rep.body_len, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (t) {
        CHECK_EQ_INT(t->n_players, 6);
        CHECK_EQ_INT(t->rounds_played, 1); /* round 2 is on: not in the file yet */
        struct swiss_tournament *one = t;
        struct swiss_pair pairs[8];
        int np = 0;
        CHECK_EQ_INT(swiss_pair_next(one, pairs, &np, err, sizeof err), SWISS_OK);
        char again[128] = "";
        for (int i = 0; i < np; i++) {
            size_t len = strlen(again);
            snprintf(again + len, sizeof again - len, "%d-%d ", pairs[i].white, pairs[i].black);
        }
        /* The server lists its boards in the order it made them: compare as sets. */
        for (char *p = strtok(again, " "); p; p = strtok(NULL, " ")) {
            char needle[16];
            snprintf(needle, sizeof needle, "%s ", p);
            CHECK_MSG(strstr(served, needle) != NULL, "board %s not served: %s", p, served);
        }
        swiss_free(t);
    }
    http_reply_free(&rep);

    /* Half the rounds played: too late to join. */
    char late[40] = "";
    CHECK_EQ_INT(api_call(port, "POST", "/api/tournaments/x/join", NULL, "{}", &j), 404);
    json_decref(j);
    finish_round(port, id, tok, 6);
    CHECK_EQ_INT(wait_round(port, id, 3), 0);
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Gus\"}", &j), 409);
    CHECK_STR(fx_str(j, "code"), "swiss_too_late");
    json_decref(j);
    (void)late;
    /* The last round; then it is over, with tie-breaks. */
    finish_round(port, id, tok, 6);
    int64_t until = fx_now_ms() + 5000;
    const char *status = "";
    do {
        v = sw_view(port, id, NULL);
        status = fx_str(json_object_get(v, "tournament"), "status");
        if (!strcmp(status, "finished"))
            break;
        json_decref(v);
        v = NULL;
        fx_sleep_ms(50);
    } while (fx_now_ms() < until);
    CHECK(v != NULL);
    if (v) {
        CHECK_EQ_INT(json_array_size(json_object_get(v, "podium")), 3);
        CHECK_STR(fx_str(v, "tiebreaks"), "BH-C1,BH,SB,WIN");
        json_t *first = json_array_get(json_object_get(v, "standings"), 0);
        CHECK(fx_str(first, "bh")[0] != 0);
        json_decref(v);
    }
    server_stop(srv);
}

TEST(server_tournament_swiss_withdrawn_not_paired)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.tournament_tick_ms = 50;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40];
    CHECK_EQ_INT(sw_create(port, "", id), 201);
    char tok[4][40] = {{0}};
    const char *names[4] = {"Ann", "Bob", "Cy", "Di"};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(sw_join(port, id, names[i], tok[i]), 200);
    CHECK_EQ_INT(wait_round(port, id, 1), 0);
    /* Di withdraws; after round 1, three are paired: one game and a bye. */
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s/withdraw", id);
    CHECK_EQ_INT(api_call(port, "POST", path, tok[3], NULL, NULL), 200);
    finish_round(port, id, tok, 4);
    CHECK_EQ_INT(wait_round(port, id, 2), 0);
    json_t *v = sw_view(port, id, NULL);
    int in_round2 = 0;
    json_t *g;
    size_t i;
    json_array_foreach(json_object_get(v, "games"), i, g)
    {
        if (fx_int(g, "round") != 2)
            continue;
        in_round2++;
        CHECK(strcmp(fx_str(json_object_get(g, "white"), "name"), "Di") != 0);
        CHECK(strcmp(fx_str(json_object_get(g, "black"), "name"), "Di") != 0);
    }
    CHECK_EQ_INT(in_round2, 1);
    CHECK_EQ_INT(json_array_size(json_object_get(v, "byes")), 1);
    json_decref(v);
    server_stop(srv);
}

/* A player paused (as a forfeit or a no-show pauses) comes back after half the rounds,
 * when a newcomer is refused, and is paired in the next round. */
TEST(server_tournament_swiss_paused_player_returns_after_half)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.tournament_tick_ms = 50;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], path[128];
    CHECK_EQ_INT(sw_create_rounds(port, 4, "", id), 201);
    char tok[6][40] = {{0}};
    const char *names[6] = {"Ann", "Bob", "Cy", "Di", "Ed", "Flo"};
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(sw_join(port, id, names[i], tok[i]), 200);
    CHECK_EQ_INT(wait_round(port, id, 1), 0);
    snprintf(path, sizeof path, "/api/tournaments/%s/pause", id);
    CHECK_EQ_INT(api_call(port, "POST", path, tok[3], NULL, NULL), 200);
    finish_round(port, id, tok, 6);
    CHECK_EQ_INT(wait_round(port, id, 2), 0);
    finish_round(port, id, tok, 6);
    CHECK_EQ_INT(wait_round(port, id, 3), 0); /* 2 of 4 played: half */
    /* A newcomer is too late; Di, entered already, comes back. */
    char gus[40] = "";
    json_t *j = NULL;
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Gus\"}", &j), 409);
    CHECK_STR(fx_str(j, "code"), "swiss_too_late");
    json_decref(j);
    (void)gus;
    CHECK_EQ_INT(api_call(port, "POST", path, tok[3], "{\"name\":\"Di\"}", &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "me"), "state"), "active");
    json_decref(j);
    /* Joining again while active is still refused. */
    CHECK_EQ_INT(api_call(port, "POST", path, tok[3], "{\"name\":\"Di\"}", &j), 409);
    CHECK_STR(fx_str(j, "code"), "already_joined");
    json_decref(j);
    /* Round 4: Di is paired (six players, three games, no bye). */
    finish_round(port, id, tok, 6);
    CHECK_EQ_INT(wait_round(port, id, 4), 0);
    json_t *v = sw_view(port, id, tok[3]);
    json_t *g = json_object_get(json_object_get(v, "me"), "game");
    CHECK_MSG(g != NULL && fx_str(g, "id")[0], "Di is not paired in round 4");
    int in_round4 = 0;
    json_t *row;
    size_t i;
    json_array_foreach(json_object_get(v, "games"), i, row) in_round4 += fx_int(row, "round") == 4;
    CHECK_EQ_INT(in_round4, 3);
    json_decref(v);
    server_stop(srv);
}
