/* The Swiss pairer's own thread (issue 27 item 5: no pairing holds anything else): a
 * Swiss's round held in its pairing (a test hook stands for a round of 500 players,
 * seconds of work) while an arena's players are paired as usual; released, the round
 * is stored and its games made. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The gate the Swiss pairing waits at until the test lets it through (10 s at most, so
 * a director that waits for it fails the test rather than hangs it). */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int entered;
    bool open;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false};

static void held_pairing(void *ctx, const char *id)
{
    (void)ctx;
    (void)id;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&gate.mu);
    gate.entered++;
    pthread_cond_broadcast(&gate.cv);
    while (!gate.open && pthread_cond_timedwait(&gate.cv, &gate.mu, &until) == 0)
        ;
    pthread_mutex_unlock(&gate.mu);
}

static int entered(void)
{
    pthread_mutex_lock(&gate.mu);
    int n = gate.entered;
    pthread_mutex_unlock(&gate.mu);
    return n;
}

static void open_gate(bool open)
{
    pthread_mutex_lock(&gate.mu);
    gate.open = open;
    gate.entered = 0;
    pthread_cond_broadcast(&gate.cv);
    pthread_mutex_unlock(&gate.mu);
}

static int make(int port, const char *kind, const char *length, char *id)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"kind\":\"%s\",\"tournament\":\"T\",\"game\":\"chess\",\"clock\":{\"initial\":"
             "600,\"increment\":0},%s,\"starts\":%lld,\"name\":\"Org\"}",
             kind, length, (long long)fx_wall_ms());
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/tournaments", NULL, body, &j);
    snprintf(id, 40, "%s", fx_str(json_object_get(j, "tournament"), "id"));
    json_decref(j);
    return st;
}

static int enter(int port, const char *id, const char *name, char *token)
{
    char path[128], body[128];
    snprintf(path, sizeof path, "/api/tournaments/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, NULL, body, &j);
    snprintf(token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

/* The tournament's round and the token's game ("" none). */
static int looked(int port, const char *id, const char *token, char *game)
{
    char path[128];
    snprintf(path, sizeof path, "/api/tournaments/%s", id);
    json_t *j = NULL;
    api_call(port, "GET", path, token, NULL, &j);
    snprintf(game, 40, "%s", fx_str(json_object_get(json_object_get(j, "me"), "game"), "id"));
    int round = (int)fx_int(json_object_get(j, "tournament"), "round");
    json_decref(j);
    return round;
}

TEST(server_tournament_arena_paired_while_swiss_pairs)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.tournament_tick_ms = 50;
    cfg.test_swiss_pairing = held_pairing;
    open_gate(false);
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char swiss[40], arena[40], tok[4][40], game[40];
    CHECK_EQ_INT(make(port, "swiss", "\"rounds\":3", swiss), 201);
    CHECK_EQ_INT(enter(port, swiss, "Ann", tok[0]), 200);
    CHECK_EQ_INT(enter(port, swiss, "Bob", tok[1]), 200);
    /* Round 1's pairing starts and is held. */
    int64_t until = fx_now_ms() + 5000;
    while (!entered() && fx_now_ms() < until)
        fx_sleep_ms(20);
    CHECK_MSG(entered() > 0, "the Swiss's round 1 was never paired");
    /* Meanwhile an arena starts and its two players get their game. */
    CHECK_EQ_INT(make(port, "arena", "\"minutes\":30", arena), 201);
    CHECK_EQ_INT(enter(port, arena, "Cy", tok[2]), 200);
    CHECK_EQ_INT(enter(port, arena, "Di", tok[3]), 200);
    until = fx_now_ms() + 5000;
    do {
        fx_sleep_ms(30);
        looked(port, arena, tok[2], game);
    } while (!game[0] && fx_now_ms() < until);
    CHECK_MSG(game[0], "the arena was not paired while a Swiss round was being paired");
    CHECK_EQ_INT(looked(port, swiss, tok[0], game), 0); /* still held */
    CHECK_STR(game, "");
    /* Let go: round 1 is stored, with Ann's game. */
    open_gate(true);
    until = fx_now_ms() + 5000;
    int round = 0;
    do {
        fx_sleep_ms(30);
        round = looked(port, swiss, tok[0], game);
    } while ((round < 1 || !game[0]) && fx_now_ms() < until);
    CHECK_EQ_INT(round, 1);
    CHECK(game[0] != 0);
    server_stop(srv);
}
