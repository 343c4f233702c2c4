/* A Swiss's tie-breaks as the server shows them (issue 27 item 7: "tie-breaks against
 * hand-computed values"), through the API: four players, three rounds, the results set
 * board by board, and the finished standings' points, Buchholz cut 1, Buchholz,
 * Sonneborn-Berger and wins against values worked out by hand below (FIDE C.07). */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The tournament, pairing numbers by joining (equal ratings): Ann 1, Bob 2, Cy 3, Di 4.
 *   round 1: Ann-Cy 1-0, Bob-Di 1/2      round 2: Ann-Bob 1/2, Cy-Di 0-1
 *   round 3: Ann-Di 0-1, Bob-Cy 1-0
 * Points: Ann 1.5, Bob 2, Cy 0, Di 2.5.
 * Buchholz (the opponents' points): Ann 0 + 2 + 2.5 = 4.5; Bob 2.5 + 1.5 + 0 = 4;
 *   Cy 1.5 + 2.5 + 2 = 6; Di 2 + 0 + 1.5 = 3.5.
 * Buchholz cut 1 (less the lowest): Ann 4.5 - 0 = 4.5; Bob 4 - 0 = 4; Cy 6 - 1.5 = 4.5;
 *   Di 3.5 - 0 = 3.5.
 * Sonneborn-Berger (each opponent's points times the score against them): Ann 1 x 0
 *   + 1/2 x 2 + 0 = 1; Bob 1/2 x 2.5 + 1/2 x 1.5 + 1 x 0 = 2; Cy 0; Di 1/2 x 2 + 1 x 0
 *   + 1 x 1.5 = 2.5.
 * Wins: Ann 1, Bob 1, Cy 0, Di 2.
 * Ranks: Di 2.5, Bob 2, Ann 1.5, Cy 0. */
static const struct board {
    int round;
    const char *x, *y;
    char result; /* 'x' x wins, 'y' y wins, '=' a draw */
} boards[] = {
    {1, "Ann", "Cy", 'x'}, {1, "Bob", "Di", '='}, {2, "Ann", "Bob", '='},
    {2, "Cy", "Di", 'y'},  {3, "Ann", "Di", 'y'}, {3, "Bob", "Cy", 'x'},
};
static const struct expected {
    const char *name, *points, *bh_c1, *bh, *sb;
    int wins;
} expected[] = {
    {"Di", "2.5", "3.5", "3.5", "2.5", 2},
    {"Bob", "2", "4", "4", "2", 1},
    {"Ann", "1.5", "4.5", "4.5", "1", 1},
    {"Cy", "0", "4.5", "6", "0", 0},
};
static const char *const names[4] = {"Ann", "Bob", "Cy", "Di"};

static json_t *tb_view(int port, const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s", id);
    json_t *j = NULL;
    api_call(port, "GET", path, NULL, NULL, &j);
    return j;
}

static int token_of(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(names[i], name))
            return i;
    return 0;
}

/* Round `round`'s games, once both are made, played to the table's results. */
static int play_round(struct test_ctx *t__, int port, const char *id, int round, char tok[][40])
{
    int64_t until = fx_now_ms() + 8000;
    json_t *v = NULL;
    int made = 0;
    for (;;) {
        v = tb_view(port, id);
        made = 0;
        json_t *g;
        size_t i;
        json_array_foreach(json_object_get(v, "games"), i, g) made += fx_int(g, "round") == round;
        if (made == 2 || fx_now_ms() > until)
            break;
        json_decref(v);
        fx_sleep_ms(30);
    }
    CHECK_EQ_INT(made, 2);
    int played = 0;
    json_t *g;
    size_t i;
    json_array_foreach(json_object_get(v, "games"), i, g)
    {
        if (fx_int(g, "round") != round)
            continue;
        const char *w = fx_str(json_object_get(g, "white"), "name");
        const char *b = fx_str(json_object_get(g, "black"), "name");
        const struct board *bd = NULL;
        for (size_t k = 0; k < sizeof boards / sizeof boards[0]; k++)
            if (boards[k].round == round && ((!strcmp(boards[k].x, w) && !strcmp(boards[k].y, b)) ||
                                             (!strcmp(boards[k].x, b) && !strcmp(boards[k].y, w))))
                bd = &boards[k];
        CHECK_MSG(bd != NULL, "round %d paired %s-%s, not as worked out", round, w, b);
        if (!bd)
            continue;
        const char *gid = fx_str(g, "id");
        int wi = token_of(w), bi = token_of(b);
        CHECK_EQ_INT(fx_move(port, gid, tok[wi], "e2e4"), 200);
        CHECK_EQ_INT(fx_move(port, gid, tok[bi], "e7e5"), 200);
        if (bd->result == '=') {
            CHECK_EQ_INT(fx_game_post(port, gid, "draw", tok[wi], NULL, NULL), 200);
            CHECK_EQ_INT(fx_game_post(port, gid, "draw", tok[bi], NULL, NULL), 200);
        } else {
            const char *winner = bd->result == 'x' ? bd->x : bd->y;
            int loser = !strcmp(winner, w) ? bi : wi;
            CHECK_EQ_INT(fx_game_post(port, gid, "resign", tok[loser], NULL, NULL), 200);
        }
        played++;
    }
    json_decref(v);
    return played == 2 ? 0 : -1;
}

TEST(server_tournament_swiss_tiebreaks_as_worked_by_hand)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.tournament_tick_ms = 50;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char body[512], id[40], tok[4][40], path[128];
    snprintf(body, sizeof body,
             "{\"kind\":\"swiss\",\"tournament\":\"Hand\",\"game\":\"chess\",\"clock\":{"
             "\"initial\":600,\"increment\":0},\"rounds\":3,\"starts\":%lld,\"name\":\"Org\"}",
             (long long)fx_wall_ms() + 3000); /* all four in before it starts */
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/tournaments", NULL, body, &j), 201);
    snprintf(id, sizeof id, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    for (int i = 0; i < 4; i++) {
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", names[i]);
        CHECK_EQ_INT(api_call(port, "POST", path, NULL, body, &j), 200);
        snprintf(tok[i], sizeof tok[i], "%s", fx_str(j, "token"));
        json_decref(j);
        fx_sleep_ms(5); /* joined one after another: the pairing numbers in this order */
    }
    for (int r = 1; r <= 3; r++)
        CHECK_EQ_INT(play_round(t__, port, id, r, tok), 0);
    int64_t until = fx_now_ms() + 5000;
    json_t *v = NULL;
    do {
        json_decref(v);
        fx_sleep_ms(30);
        v = tb_view(port, id);
    } while (strcmp(fx_str(json_object_get(v, "tournament"), "status"), "finished") &&
             fx_now_ms() < until);
    CHECK_STR(fx_str(json_object_get(v, "tournament"), "status"), "finished");
    CHECK_STR(fx_str(v, "tiebreaks"), "BH-C1,BH,SB,WIN");
    json_t *st = json_object_get(v, "standings");
    CHECK_EQ_INT(json_array_size(st), 4);
    for (int k = 0; k < 4 && k < (int)json_array_size(st); k++) {
        json_t *row = json_array_get(st, (size_t)k);
        const struct expected *x = &expected[k];
        CHECK_STR(fx_str(row, "name"), x->name);
        CHECK_EQ_INT(fx_int(row, "rank"), k + 1);
        CHECK_STR(fx_str(row, "points"), x->points);
        CHECK_STR(fx_str(row, "bh_c1"), x->bh_c1);
        CHECK_STR(fx_str(row, "bh"), x->bh);
        CHECK_STR(fx_str(row, "sb"), x->sb);
        CHECK_EQ_INT(fx_int(row, "wins"), x->wins);
    }
    json_decref(v);
    server_stop(srv);
}
