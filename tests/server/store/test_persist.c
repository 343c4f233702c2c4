/* The server's promises that need more than one request: restarts (clean and kill -9)
 * lose no acknowledged move, concurrent requests on one game apply each move once and
 * in order, event streams resume, malformed HTTP harms nothing. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "store/sqlite/checkpoint.h"
#include "store/store.h"

static struct server *start_at(const char *db, int think_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 2;
    cfg.db_path = db;
    cfg.test_think_ms = think_ms;
    return fx_start(&cfg);
}

static json_t *create(int port, const char *side, const char *auth, char *id, char *token)
{
    char body[128];
    snprintf(body, sizeof body, "{\"game\":\"egara\",\"level\":1,\"side\":\"%s\"}", side);
    json_t *j;
    if (api_call(port, "POST", "/api/games", auth, body, &j) != 201) {
        json_decref(j);
        return NULL;
    }
    snprintf(id, 40, "%s", fx_str(j, "id"));
    snprintf(token, 40, "%s", fx_str(j, "token"));
    return j;
}

static bool over(json_t *st)
{
    return json_is_true(json_object_get(json_object_get(st, "status"), "over"));
}

/* moves of `prefix` are the first moves of `full`. */
static bool moves_prefix(json_t *prefix, json_t *full)
{
    json_t *a = json_object_get(prefix, "moves"), *b = json_object_get(full, "moves");
    if (json_array_size(a) > json_array_size(b))
        return false;
    for (size_t i = 0; i < json_array_size(a); i++)
        if (strcmp(fx_str(json_array_get(a, i), "move"), fx_str(json_array_get(b, i), "move")))
            return false;
    return true;
}

TEST(server_restart_keeps_games)
{
    char dir[64], db[128], id[40], token[40];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/restart.db", dir);
    struct server *a = start_at(db, 0);
    /* A second server in the same process, on its own database: no shared state. */
    struct server *other = start_at(":memory:", 0);
    CHECK(a && other);
    if (!a || !other) {
        server_stop(a);
        server_stop(other);
        return;
    }
    json_t *st = create(server_port(a), "white", NULL, id, token);
    for (int i = 0; st && i < 3 && !over(st); i++) {
        json_t *next;
        CHECK_EQ_INT(api_post_move(server_port(a), id, token, fx_first_legal(st), &next), 200);
        json_decref(st);
        st = next;
    }
    CHECK(st == NULL || api_get_state(server_port(other), id) == NULL);
    server_stop(a);
    server_stop(other);
    struct server *b = start_at(db, 0);
    CHECK(b != NULL);
    if (b && st) {
        json_t *again = api_get_state(server_port(b), id);
        CHECK(again != NULL);
        if (again) {
            CHECK_STR(fx_str(again, "position"), fx_str(st, "position"));
            CHECK(moves_prefix(st, again) && moves_prefix(again, st));
            CHECK_STR(fx_str(again, "updated"), fx_str(st, "updated"));
            json_t *next = NULL;
            if (!over(again))
                CHECK_EQ_INT(api_post_move(server_port(b), id, token, fx_first_legal(again), &next),
                             200);
            json_decref(next);
        }
        json_decref(again);
    }
    json_decref(st);
    server_stop(b);
    test_rmdir(dir);
}

/* ---- kill -9 under load ---- */

struct load_game {
    int port;
    char id[40], token[40];
    json_t *acked; /* the last state the server acknowledged */
    atomic_bool *stop;
};

static void *load_player(void *arg)
{
    struct load_game *g = arg;
    json_t *st = create(g->port, "white", NULL, g->id, g->token);
    g->acked = st ? json_incref(st) : NULL;
    while (st && !*g->stop && !over(st)) {
        json_t *next = NULL;
        int code = api_post_move(g->port, g->id, g->token, fx_first_legal(st), &next);
        json_decref(st);
        st = code == 200 ? next : NULL;
        if (code == 200) {
            json_decref(g->acked);
            g->acked = json_incref(st);
        } else {
            json_decref(next);
        }
    }
    json_decref(st);
    return NULL;
}

TEST(server_kill9_loses_no_acknowledged_move)
{
    if (access("./agora", X_OK) != 0)
        SKIP("./agora is not built (run from the repository root)");
    char dir[64], db[128];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/kill.db", dir);
    int port = test_free_port();
    pid_t pid = test_spawn_agora(port, fx_db_for(db));
    CHECK(pid > 0);
    enum { PLAYERS = 8 };
    struct load_game games[PLAYERS];
    pthread_t th[PLAYERS];
    atomic_bool stop = false;
    for (int i = 0; i < PLAYERS; i++) {
        memset(&games[i], 0, sizeof games[i]);
        games[i].port = port;
        games[i].stop = &stop;
        pthread_create(&th[i], NULL, load_player, &games[i]);
    }
    usleep(400 * 1000);
    kill(pid, SIGKILL); /* mid-load: requests are in flight */
    waitpid(pid, NULL, 0);
    stop = true;
    for (int i = 0; i < PLAYERS; i++)
        pthread_join(th[i], NULL);
    pid = test_spawn_agora(port, fx_db_for(db));
    int checked = 0, moves = 0;
    for (int i = 0; i < PLAYERS; i++) {
        if (!games[i].acked)
            continue;
        json_t *now = api_get_state(port, games[i].id);
        CHECK_MSG(now != NULL, "game %s lost after kill -9", games[i].id);
        if (now) {
            CHECK_MSG(moves_prefix(games[i].acked, now), "game %s lost acknowledged moves",
                      games[i].id);
            checked++;
            moves += (int)json_array_size(json_object_get(games[i].acked, "moves"));
            /* And it goes on. */
            json_t *next = NULL;
            if (!over(now) && json_is_true(json_object_get(now, "your_turn")))
                CHECK_EQ_INT(
                    api_post_move(port, games[i].id, games[i].token, fx_first_legal(now), &next),
                    200);
            json_decref(next);
        }
        json_decref(now);
        json_decref(games[i].acked);
    }
    CHECK_MSG(checked > 0 && moves > 0, "no acknowledged game to check (%d games, %d moves)",
              checked, moves);
    kill(pid, SIGTERM);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "server did not stop cleanly");
    test_rmdir(dir);
}

/* ---- concurrent requests on one game ---- */

struct racer {
    int port;
    const char *id, *token;
    int ok, refused;
    int ok_plies[256];
};

static void *race(void *arg)
{
    struct racer *r = arg;
    for (int round = 0; round < 200; round++) {
        json_t *st = api_get_state(r->port, r->id);
        if (!st || over(st)) {
            json_decref(st);
            break;
        }
        json_t *next = NULL;
        int code = json_is_true(json_object_get(st, "your_turn"))
                       ? api_post_move(r->port, r->id, r->token, fx_first_legal(st), &next)
                       : 0;
        if (code == 200 && r->ok < 256)
            r->ok_plies[r->ok++] = (int)json_integer_value(json_object_get(next, "ply"));
        else if (code == 400 || code == 409)
            r->refused++;
        else if (code != 0)
            fprintf(stderr, "race: unexpected %d\n", code);
        json_decref(st);
        json_decref(next);
    }
    return NULL;
}

TEST(server_concurrent_moves_on_one_game)
{
    char dir[64], db[128], id[40], token[40];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/race.db", dir);
    struct server *srv = start_at(db, 5);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = create(port, "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    enum { RACERS = 6 };
    struct racer rs[RACERS];
    pthread_t th[RACERS];
    for (int i = 0; i < RACERS; i++) {
        memset(&rs[i], 0, sizeof rs[i]);
        rs[i] = (struct racer){.port = port, .id = id, .token = token};
        pthread_create(&th[i], NULL, race, &rs[i]);
    }
    for (int i = 0; i < RACERS; i++)
        pthread_join(th[i], NULL);
    /* Every accepted move is one human move: their count is the human moves made, and
     * no two accepted requests saw the same ply. */
    json_t *final = api_get_state(port, id);
    int accepted = 0, refused = 0;
    bool seen[4096] = {false};
    for (int i = 0; i < RACERS; i++) {
        accepted += rs[i].ok;
        refused += rs[i].refused;
        for (int k = 0; k < rs[i].ok; k++) {
            int p = rs[i].ok_plies[k];
            CHECK_MSG(p > 0 && p < 4096 && !seen[p], "ply %d acknowledged twice", p);
            if (p > 0 && p < 4096)
                seen[p] = true;
        }
    }
    int plies = final ? (int)json_integer_value(json_object_get(final, "ply")) : 0;
    CHECK_MSG(accepted == (plies + 1) / 2, "%d moves accepted, %d plies played", accepted, plies);
    CHECK(accepted > 0);
    (void)refused;
    /* The stored game is the one in memory. */
    server_stop(srv);
    srv = start_at(db, 0);
    json_t *again = srv ? api_get_state(server_port(srv), id) : NULL;
    CHECK(again && final && moves_prefix(final, again) && moves_prefix(again, final));
    json_decref(again);
    json_decref(final);
    server_stop(srv);
    test_rmdir(dir);
}

/* ---- event streams ---- */

static void *delayed_move(void *arg)
{
    struct racer *r = arg;
    usleep(150 * 1000);
    json_t *st = api_get_state(r->port, r->id), *next = NULL;
    if (st)
        r->ok = api_post_move(r->port, r->id, r->token, fx_first_legal(st), &next);
    json_decref(st);
    json_decref(next);
    return NULL;
}

TEST(server_event_stream)
{
    struct server *srv = start_at(":memory:", 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], req[256];
    json_t *st = create(port, "black", NULL, id, token); /* the computer opens: ply 1 */
    CHECK(st != NULL);
    json_decref(st);
    /* A live stream: ply 1 at once, then 2 and 3 when a move is made meanwhile. */
    struct racer r = {.port = port, .id = id, .token = token};
    pthread_t th;
    pthread_create(&th, NULL, delayed_move, &r);
    snprintf(req, sizeof req, "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
             id);
    size_t len;
    char *got = http_raw(port, req, strlen(req), 600, &len);
    pthread_join(th, NULL);
    CHECK_EQ_INT(r.ok, 200);
    CHECK(got && strstr(got, "text/event-stream"));
    CHECK(got && strstr(got, "id: 1\n") && strstr(got, "id: 2\n") && strstr(got, "id: 3\n"));
    free(got);
    /* Resuming after event 2 sends 3 and not 1 or 2. */
    snprintf(req, sizeof req,
             "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: 2\r\n\r\n",
             id);
    got = http_raw(port, req, strlen(req), 300, &len);
    CHECK(got && strstr(got, "id: 3\n") && !strstr(got, "id: 1\n") && !strstr(got, "id: 2\n"));
    free(got);
    /* A finished game's stream ends with an "end" event and closes. */
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s/resign", id);
    json_t *e;
    CHECK_EQ_INT(api_call(port, "POST", path, token, NULL, &e), 200);
    json_decref(e);
    snprintf(req, sizeof req,
             "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
             id);
    got = http_raw(port, req, strlen(req), 5000, &len);
    CHECK(got && strstr(got, "event: end\n") && strstr(got, "resignation"));
    free(got);
    /* A stream left open when the server stops is closed, not leaked. */
    server_stop(srv);
}

/* ---- malformed HTTP ---- */

TEST(server_malformed_requests)
{
    struct server *srv = start_at(":memory:", 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static const char *const junk[] = {
        "GARBAGE\r\n\r\n",
        "GET\r\n\r\n",
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\n{\"ga",
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -3\r\n\r\n",
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999\r\n\r\n{}",
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "GET /../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "GET /api/games/%00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
    };
    for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
        size_t len;
        char *got = http_raw(port, junk[i], strlen(junk[i]), 300, &len);
        CHECK_MSG(!got || !strstr(got, "HTTP/1.1 200") || i == 7, "junk %zu got 200", i);
        CHECK_MSG(!got || !strstr(got, "root:"), "junk %zu read a file", i);
        free(got);
    }
    /* A header far over any sane size. */
    size_t big = 100000;
    char *huge = malloc(big + 64);
    int n = snprintf(huge, 64, "GET / HTTP/1.1\r\nX-Big: ");
    memset(huge + n, 'a', big);
    memcpy(huge + n + big, "\r\n\r\n", 5);
    size_t len;
    char *got = http_raw(port, huge, strlen(huge), 500, &len);
    CHECK(!got || !strstr(got, "HTTP/1.1 200"));
    free(got);
    free(huge);
    /* Still serving. */
    char id[40], token[40];
    json_t *st = create(port, "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    server_stop(srv);
}

/* ---- a visitor's games, draws ---- */

TEST(server_history_and_draw_offer)
{
    struct server *srv = start_at(":memory:", 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id1[40], id2[40], token[40], token2[40], path[128];
    json_t *a = create(port, "white", NULL, id1, token);
    json_t *b = create(port, "white", token, id2, token2); /* same visitor */
    CHECK(a && b);
    CHECK_STR(token2, token);
    json_t *list;
    /* The token only from the Authorization header: ?token= is refused, naming it. */
    snprintf(path, sizeof path, "/api/games?token=%s", token);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &list), 400);
    CHECK(strstr(fx_str(list, "error"), "Authorization") != NULL);
    json_decref(list);
    CHECK_EQ_INT(api_call(port, "GET", path, token, NULL, &list), 400);
    json_decref(list);
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", token, NULL, &list), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(list, "games")), 2);
    json_decref(list);
    /* Another visitor sees nothing of them. */
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/games", "0123456789abcdef0123456789abcdef", NULL, &list), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(list, "games")), 0);
    json_decref(list);
    /* Level ground: the computer declines a draw, and nothing changes. */
    snprintf(path, sizeof path, "/api/games/%.40s/draw", id1);
    json_t *d;
    CHECK_EQ_INT(api_call(port, "POST", path, token, "{}", &d), 200);
    CHECK_STR(fx_str(d, "draw"), "declined");
    CHECK_STR(fx_str(json_object_get(d, "status"), "result"), "ongoing");
    json_decref(d);
    json_decref(a);
    json_decref(b);
    server_stop(srv);
}

TEST(server_stream_keepalive)
{
    struct server_config cfg;
    fx_config_defaults(&cfg);
    cfg.ping_ms = 100;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    char id[40], token[40], req[256];
    json_t *st = create(server_port(srv), "white", NULL, id, token);
    json_decref(st);
    snprintf(req, sizeof req, "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
             id);
    size_t len;
    char *got = http_raw(server_port(srv), req, strlen(req), 400, &len);
    CHECK(got && strstr(got, ": ping\n\n"));
    free(got);
    server_stop(srv);
}

TEST(server_restart_with_the_computer_to_move)
{
    /* A crash between the human's commit and the computer's: on restart the game is
     * found with the computer to move, and the next request gets its move made. */
    char dir[64], db[128], id[40], token[40], err[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/pending.db", dir);
    struct server *a = start_at(db, 0);
    if (!a)
        SKIP("no server");
    json_t *st = create(server_port(a), "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    server_stop(a);
    struct store_options opt = {.durability = STORE_SURVIVES_POWER_LOSS};
    /* (the server's database: on PostgreSQL the schema fx_start gave that path) */
    struct store *store = store_open(fx_db_for(db), &opt, err, sizeof err);
    CHECK(store != NULL);
    if (store) {
        const char *first[] = {"d3-d4"}, *again[] = {"c3-d4"};
        CHECK_EQ_INT(store_add_moves(store, id, 1, 1, first, 0, 0, 1, err, sizeof err), 0);
        /* The same ply twice is refused. */
        CHECK(store_add_moves(store, id, 1, 1, again, 0, 0, 1, err, sizeof err) != 0);
        store_close(store);
    }
    struct server *b = start_at(db, 0);
    json_t *now = b ? api_get_state(server_port(b), id) : NULL;
    CHECK(now != NULL);
    CHECK_EQ_INT(json_integer_value(json_object_get(now, "ply")), 2);
    CHECK(json_is_true(json_object_get(now, "your_turn")) || over(now));
    json_decref(now);
    server_stop(b);
    test_rmdir(dir);
}

/* A move sent without waiting for its answer (the computer's reply): the socket. */
static int send_move_nowait(int port, const char *id, const char *token, const char *move)
{
    char body[128], req[512];
    int bn = snprintf(body, sizeof body, "{\"move\":\"%s\"}", move ? move : "");
    snprintf(
        req, sizeof req,
        "POST /api/games/%.40s/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n"
        "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
        id, token, bn, body);
    int fd = test_connect(port);
    if (fd >= 0 && write(fd, req, strlen(req)) < 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

TEST(server_full_cache_refuses_new_games)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 8;
    cfg.cache_games = 16;
    cfg.test_think_ms = 60000; /* the computer's moves wait until the server stops */
    cfg.queued_per_address = 0;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    int fds[16];
    char id[40], token[40], last_token[40] = "";
    /* Sixteen games each waiting for the computer's move: all in use (event streams
     * would not do: they do not keep their games in memory). */
    for (int i = 0; i < 16; i++) {
        json_t *st = create(port, "white", NULL, id, token);
        CHECK(st != NULL);
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0);
        fds[i] = send_move_nowait(port, id, token, json_string_value(json_object_get(lm, "move")));
        json_decref(st);
        snprintf(last_token, sizeof last_token, "%s", token);
    }
    usleep(200 * 1000); /* the moves are queued */
    json_t *e;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"egara\"}", &e), 503);
    CHECK(json_is_string(json_object_get(e, "error")));
    json_decref(e);
    /* Nothing was stored for the refused game: the visitor's list has what it had. */
    CHECK_EQ_INT(api_call(port, "GET", "/api/games", last_token, NULL, &e), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(e, "games")), 1);
    json_decref(e);
    /* A game between people is made in the same order: room in memory first, so an
     * accept on a full server takes nothing and the challenge stays open. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL,
                          "{\"game\":\"chess\",\"side\":\"white\",\"name\":\"Ann\"}", &e),
                 201);
    char cid[64], path[128];
    snprintf(cid, sizeof cid, "%s", json_string_value(json_object_get(e, "id")));
    json_decref(e);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &e), 503);
    CHECK(json_is_string(json_object_get(e, "error")));
    json_decref(e);
    snprintf(path, sizeof path, "/api/challenges/%s", cid);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &e), 200);
    CHECK_STR(json_string_value(json_object_get(e, "status")), "open");
    CHECK(json_is_null(json_object_get(e, "game_id")) || !json_object_get(e, "game_id"));
    json_decref(e);
    server_stop(srv);
    for (int i = 0; i < 16; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* ---- one commit per move round ---- */

static void *move_now(void *arg)
{
    struct racer *r = arg;
    json_t *next = NULL;
    r->ok = api_post_move(r->port, r->id, r->token, "d3-d4", &next);
    json_decref(next);
    return NULL;
}

TEST(server_move_waits_for_the_reply_commit)
{
    /* The human's move is committed together with the computer's reply: while the
     * computer thinks, the state shows the move (thinking), event streams do not
     * (it is not stored yet).  A resignation meanwhile stores the move first, then
     * the result; both survive a restart. */
    char dir[64], db[128], id[40], token[40], req[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/round.db", dir);
    struct server *srv = start_at(db, 800);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = create(port, "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    struct racer r = {.port = port, .id = id, .token = token};
    pthread_t th;
    pthread_create(&th, NULL, move_now, &r);
    usleep(250 * 1000);
    json_t *mid = api_get_state(port, id);
    CHECK(mid && json_is_true(json_object_get(mid, "thinking")));
    CHECK_EQ_INT(json_integer_value(json_object_get(mid, "ply")), 1);
    json_decref(mid);
    snprintf(req, sizeof req, "GET /api/games/%.40s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
             id);
    size_t len;
    char *got = http_raw(port, req, strlen(req), 150, &len);
    CHECK(got && strstr(got, "text/event-stream") && !strstr(got, "id: 1\n"));
    free(got);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s/resign", id);
    json_t *e = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, token, NULL, &e), 200);
    CHECK_EQ_INT(json_integer_value(json_object_get(e, "ply")), 1);
    json_decref(e);
    pthread_join(th, NULL);
    CHECK_EQ_INT(r.ok, 200);
    server_stop(srv);
    srv = start_at(db, 0);
    json_t *after = srv ? api_get_state(server_port(srv), id) : NULL;
    CHECK(after != NULL);
    if (after) {
        CHECK_EQ_INT(json_integer_value(json_object_get(after, "ply")), 1);
        CHECK_STR(fx_str(json_array_get(json_object_get(after, "moves"), 0), "move"), "d3-d4");
        CHECK_STR(fx_str(json_object_get(after, "status"), "reason"), "resignation");
    }
    json_decref(after);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_store_checkpoints_keep_the_wal_small)
{
    /* Checkpoints run on their own thread: under a stream of commits the WAL is
     * still copied back and restarted.  However far the thread falls behind (a slow
     * disk, a starved core), a commit that finds the WAL at its hard bound
     * (CKPT_HARD_PAGES) copies it back itself: it never grows much past it. */
    char dir[64], db[128], err[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/wal.db", dir);
    struct store *store = store_open(db, NULL, err, sizeof err);
    CHECK(store != NULL);
    if (!store)
        return;
    struct store_game row;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "%032d", 7);
    snprintf(row.game, sizeof row.game, "egara-guti");
    row.level = 1;
    CHECK_EQ_INT(store_create_game(store, &row, err, sizeof err), 0);
    /* (a few commits may pass the bound before one restarts the WAL) */
    const int bound = CKPT_HARD_PAGES + 512;
    char wal[140];
    snprintf(wal, sizeof wal, "%s-wal", db);
    long long peak = 0;
    int log = -1;
    for (int ply = 1; ply <= 15000; ply++) {
        const char *move[] = {"c3-d4"};
        if (store_add_moves(store, row.id, ply, 1, move, 0, 0, ply, err, sizeof err) != 0) {
            CHECK_MSG(0, "ply %d: %s", ply, err);
            break;
        }
        struct stat sb;
        if (ply % 50 == 0 && stat(wal, &sb) == 0 && sb.st_size > peak)
            peak = sb.st_size;
    }
    /* The -wal file: a 32-byte header, then frames of a 24-byte header and a 4 KiB page. */
    CHECK_MSG(peak <= 32 + (long long)bound * (24 + 4096), "the -wal file reached %lld bytes",
              peak);
    /* The WAL's length now, read from a connection of our own (a PASSIVE checkpoint
     * reports it; a working checkpointer has restarted it several times by now). */
    sqlite3 *look = NULL;
    for (int tries = 0; tries < 50; tries++) {
        /* (a connection sees the WAL once it has read the database) */
        if (!look &&
            (sqlite3_open(db, &look) != SQLITE_OK ||
             sqlite3_exec(look, "SELECT count(*) FROM moves", NULL, NULL, NULL) != SQLITE_OK))
            break;
        int done = 0;
        /* (busy: the store's checkpointer is at work) */
        int rc = sqlite3_wal_checkpoint_v2(look, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
        CHECK(rc == SQLITE_OK || rc == SQLITE_BUSY);
        if (rc == SQLITE_OK && log < bound)
            break;
        usleep(100 * 1000);
    }
    sqlite3_close(look);
    /* 15000 commits wrote at least 30000 pages; without checkpoints all stay in the WAL. */
    CHECK_MSG(log >= 0 && log < bound, "the WAL holds %d pages", log);
    store_close(store);
    test_rmdir(dir);
}

TEST(server_store_counts_plies_from_the_moves)
{
    /* Only the moves table changes on a move: the ply count and the time of the last
     * change are read back from it; moves of a game never created are refused. */
    char err[256];
    struct store *store = store_open(":memory:", NULL, err, sizeof err);
    CHECK(store != NULL);
    if (!store)
        return;
    struct store_game row, back;
    memset(&row, 0, sizeof row);
    snprintf(row.id, sizeof row.id, "%032d", 42);
    snprintf(row.game, sizeof row.game, "egara-guti");
    row.created_ms = row.updated_ms = 1000;
    CHECK_EQ_INT(store_create_game(store, &row, err, sizeof err), 0);
    const char *two[] = {"d3-d4", "d5xd3"}, *one[] = {"c3-d4"};
    CHECK_EQ_INT(store_add_moves(store, row.id, 1, 2, two, 0, 0, 2000, err, sizeof err), 0);
    CHECK_EQ_INT(store_add_moves(store, row.id, 3, 1, one, 0, 0, 3000, err, sizeof err), 0);
    CHECK(store_add_moves(store, "0123", 1, 1, one, 0, 0, 3000, err, sizeof err) != 0);
    /* A batch with a ply already stored stores none of it. */
    CHECK(store_add_moves(store, row.id, 3, 2, two, 0, 0, 4000, err, sizeof err) != 0);
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(store, row.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(back.plies, 3);
    CHECK(back.updated_ms == 3000);
    CHECK(n == 3 && !strcmp(moves[1], "d5xd3") && !strcmp(moves[2], "c3-d4"));
    free(moves);
    /* The end of the game is in the row. */
    CHECK_EQ_INT(store_set_result(store, row.id, 3, 4, 5000, err, sizeof err), 0);
    CHECK_EQ_INT(store_load_game(store, row.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK(back.result == 3 && back.reason == 4 && back.updated_ms == 5000 && back.plies == 3);
    free(moves);
    store_close(store);
}

TEST(server_failed_round_commit_changes_nothing)
{
    /* When the commit of a move and the computer's reply fails, neither was made: the
     * request gets a 500 and the game is as before it, in memory and on disk.  (A
     * trigger added from outside makes the database refuse the reply's row.) */
    char dir[64], db[128], id[40], token[40];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/refuse.db", dir);
    char url[140]; /* SQLite on either run: the trigger below is SQLite's */
    snprintf(url, sizeof url, "sqlite:%s", db);
    struct server *srv = start_at(url, 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = create(port, "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    sqlite3 *other = NULL;
    CHECK_EQ_INT(sqlite3_open(db, &other), SQLITE_OK);
    sqlite3_busy_timeout(other, 5000);
    CHECK_EQ_INT(sqlite3_exec(other,
                              "CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.ply = 2"
                              " BEGIN SELECT RAISE(ABORT, 'refused for the test'); END;",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    json_t *reply = NULL;
    CHECK_EQ_INT(api_post_move(port, id, token, "d3-d4", &reply), 500);
    CHECK(reply && strstr(fx_str(reply, "error"), "your move could not be stored"));
    json_decref(reply);
    json_t *now = api_get_state(port, id);
    CHECK(now && json_integer_value(json_object_get(now, "ply")) == 0 &&
          json_is_true(json_object_get(now, "your_turn")) &&
          json_is_false(json_object_get(now, "thinking")));
    json_decref(now);
    /* Once the database takes rows again, the same move goes through. */
    CHECK_EQ_INT(sqlite3_exec(other, "DROP TRIGGER refuse", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(other);
    CHECK_EQ_INT(api_post_move(port, id, token, "d3-d4", &reply), 200);
    CHECK_EQ_INT(json_integer_value(json_object_get(reply, "ply")), 2);
    json_decref(reply);
    server_stop(srv);
    srv = start_at(url, 0);
    now = srv ? api_get_state(server_port(srv), id) : NULL;
    CHECK(now && json_integer_value(json_object_get(now, "ply")) == 2);
    json_decref(now);
    server_stop(srv);
    test_rmdir(dir);
}
