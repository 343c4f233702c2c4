/* Takeback against the computer (POST /api/games/{id}/takeback): the player's last move
 * and the computer's reply undone, refused when there is nothing of the player's to
 * take back, the game is over or the computer is thinking, or the token is wrong;
 * stored in one transaction (a restart shows the game as after the takeback), told to
 * event streams, counted in the state and the record. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static struct server *start_tb(const char *db, int think_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.db_path = db;
    cfg.test_think_ms = think_ms;
    return fx_start(&cfg);
}

/* Play the first legal move; the state after the computer's reply (caller decrefs). */
static json_t *play_first(int port, const char *id, const char *token, json_t *st)
{
    const char *mv = fx_first_legal(st);
    json_t *next = NULL;
    if (api_post_move(port, id, token, mv, &next) != 200) {
        json_decref(next);
        return NULL;
    }
    return next;
}

struct mover {
    int port;
    const char *id, *token;
    json_t *st;
    int ok;
};

static void *takeback_in_thread(void *arg)
{
    struct mover *m = arg;
    usleep(250 * 1000);
    json_t *e = NULL;
    m->ok = fx_game_post(m->port, m->id, "takeback", m->token, NULL, &e) == 200;
    json_decref(e);
    return NULL;
}

TEST(server_takeback_undoes_the_move_and_the_reply)
{
    char dir[64], db[128], id[40], token[40];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/takeback.db", dir);
    struct server *srv = start_tb(db, 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = fx_new_game(port, "egara", "white", NULL, id, token), *e = NULL;
    CHECK(st != NULL);
    if (!st) {
        server_stop(srv);
        return;
    }
    /* Nothing of the player's yet: 409; another token or none: 403. */
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", token, NULL, &e), 409);
    json_decref(e);
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", NULL, NULL, &e), 403);
    json_decref(e);
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", "0123456789abcdef0123456789abcdef", NULL, &e),
                 403);
    json_decref(e);
    json_t *start = st;
    st = play_first(port, id, token, start);
    CHECK(st && fx_int(st, "ply") == 2);
    json_decref(st);
    /* The move and the reply go: the start again, the player to move. */
    json_t *back = NULL;
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", token, NULL, &back), 200);
    CHECK_EQ_INT(fx_int(back, "ply"), 0);
    CHECK_EQ_INT(fx_int(back, "takebacks"), 1);
    CHECK_STR(fx_str(back, "position"), fx_str(start, "position"));
    CHECK_STR(fx_str(back, "side_to_move"), "white");
    CHECK(json_array_size(json_object_get(back, "legal_moves")) > 0);
    json_decref(start);
    /* Two rounds, one taken back: ply 2. */
    st = back ? play_first(port, id, token, back) : NULL;
    json_decref(back);
    json_t *two = st;
    st = st ? play_first(port, id, token, st) : NULL;
    CHECK(st && fx_int(st, "ply") == 4);
    json_decref(st);
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", token, NULL, &back), 200);
    CHECK_EQ_INT(fx_int(back, "ply"), 2);
    CHECK_EQ_INT(fx_int(back, "takebacks"), 2);
    CHECK_STR(fx_str(back, "position"), fx_str(two, "position"));
    json_decref(back);
    /* A stream that had read to ply 4 hears of the takeback: the game is at ply 2. */
    char req[256];
    snprintf(req, sizeof req,
             "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 4\r\n\r\n",
             id);
    size_t len;
    char *got = http_raw(port, req, strlen(req), 300, &len);
    CHECK(got && strstr(got, "id: 2\nevent: takeback\ndata: {\"ply\":2,\"takebacks\":2}"));
    CHECK(got && !strstr(got, "event: move"));
    free(got);
    /* The record says so. */
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s/record", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.body && strstr(r.body, "[Takebacks \"2\"]"));
    http_reply_free(&r);
    server_stop(srv);
    /* After a restart: the game as after the takeback, its count kept. */
    srv = start_tb(db, 0);
    CHECK(srv != NULL);
    if (srv) {
        port = server_port(srv);
        json_t *again = api_get_state(port, id);
        CHECK(again != NULL);
        CHECK_EQ_INT(fx_int(again, "ply"), 2);
        CHECK_EQ_INT(fx_int(again, "takebacks"), 2);
        CHECK_STR(fx_str(again, "position"), fx_str(two, "position"));
        /* Play on from there: ply 3 is free again. */
        json_t *on = again ? play_first(port, id, token, again) : NULL;
        CHECK(on && fx_int(on, "ply") == 4);
        json_decref(on);
        json_decref(again);
        /* A live stream, at the game's end (ply 4), hears of a takeback made meanwhile. */
        struct mover tb = {.port = port, .id = id, .token = token};
        pthread_t th;
        pthread_create(&th, NULL, takeback_in_thread, &tb);
        snprintf(
            req, sizeof req,
            "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 4\r\n\r\n",
            id);
        got = http_raw(port, req, strlen(req), 800, &len);
        pthread_join(th, NULL);
        CHECK(tb.ok);
        CHECK(got && strstr(got, "id: 2\nevent: takeback\ndata: {\"ply\":2,\"takebacks\":3}"));
        free(got);
        /* Over: 409. */
        snprintf(path, sizeof path, "/api/games/%.40s/resign", id);
        CHECK_EQ_INT(api_call(port, "POST", path, token, NULL, &e), 200);
        json_decref(e);
        CHECK_EQ_INT(fx_game_post(port, id, "takeback", token, NULL, &e), 409);
        json_decref(e);
    }
    json_decref(two);
    server_stop(srv);
    test_rmdir(dir);
}

static void *move_in_thread(void *arg)
{
    struct mover *m = arg;
    json_t *next = play_first(m->port, m->id, m->token, m->st);
    m->ok = next != NULL;
    json_decref(next);
    return NULL;
}

TEST(server_takeback_refused_while_the_computer_thinks)
{
    struct server *srv = start_tb(":memory:", 1500);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40];
    json_t *st = fx_new_game(port, "egara", "white", NULL, id, token), *e = NULL;
    CHECK(st != NULL);
    /* The move waits for the computer's reply (1.5 s); meanwhile: 409. */
    struct mover m = {.port = port, .id = id, .token = token, .st = st};
    pthread_t th;
    pthread_create(&th, NULL, move_in_thread, &m);
    usleep(400 * 1000);
    CHECK_EQ_INT(fx_game_post(port, id, "takeback", token, NULL, &e), 409);
    CHECK(e && strstr(fx_str(e, "error"), "thinking"));
    json_decref(e);
    pthread_join(th, NULL);
    CHECK(m.ok);
    json_decref(st);
    server_stop(srv);
}
