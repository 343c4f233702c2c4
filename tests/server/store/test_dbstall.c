/* A locked database holds only the requests that need it (issue 19, point 4): at most
 * db_waiters HTTP threads wait on it, one more such request gets a 503 (JSON) at once,
 * and the catalogue and games in memory are answered while another connection holds
 * the database's write lock. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* Send a request without waiting for the answer: the socket. */
static int send_nowait(int port, const char *method, const char *path, const char *token,
                       const char *body)
{
    int fd = test_connect(port);
    if (fd < 0)
        return -1;
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%sContent-Type: application/json\r\n"
                     "Connection: close\r\nContent-Length: %zu\r\n\r\n%s",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", body ? strlen(body) : 0, body ? body : "");
    send(fd, req, (size_t)n, MSG_NOSIGNAL);
    return fd;
}

/* The status of the answer on fd if it has come within wait_ms (0: not yet); *json
 * when its body is a JSON error. */
static int answer(int fd, int wait_ms, int *json)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    *json = 0;
    if (poll(&p, 1, wait_ms) <= 0)
        return 0;
    char buf[8192];
    ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    int status = -1;
    sscanf(buf, "HTTP/1.%*d %d", &status);
    *json = strstr(buf, "{\"error\":") != NULL;
    return status;
}

TEST(server_locked_database_holds_only_its_requests)
{
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/stall.db", dir);
    char url[310]; /* SQLite on either run: another connection locks the file */
    snprintf(url, sizeof url, "sqlite:%s", db);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.cache_games = 0; /* server_config_default's: from cache_mb */
    cfg.db_path = url;
    cfg.db_waiters = 2;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *g = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"agon\"}", &g), 201);
    char id[64], token[64], path[128];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(g, "id")));
    snprintf(token, sizeof token, "%s", json_string_value(json_object_get(g, "token")));
    json_decref(g);

    /* Another connection takes the write lock. */
    sqlite3 *other = NULL;
    CHECK_EQ_INT(sqlite3_open(db, &other), SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    /* A new game waits for it (holding the store).  A history list sent after it waits
     * too once the new game is really in the store (on a loaded machine that takes a
     * while: until then a list is answered at once, reads pass a write lock in WAL). */
    int create = send_nowait(port, "POST", "/api/games", NULL, "{\"game\":\"agon\"}");
    poll(NULL, 0, 500); /* its HTTP thread is at it (and takes no other connection) */
    int probe = -1, j;
    for (int tries = 0; tries < 50 && probe < 0; tries++) {
        int fd = send_nowait(port, "GET", "/api/games", token, NULL);
        if (answer(fd, 1000, &j) == 0)
            probe = fd; /* it waits: the new game holds the store */
        else
            close(fd);
    }
    CHECK_MSG(probe >= 0, "the new game never waited on the lock");
    poll(NULL, 0, 200); /* past the gate's 100 ms: the store is stuck, not busy */
    int lists[6];
    for (int i = 0; i < 6; i++)
        lists[i] = send_nowait(port, "GET", "/api/games", token, NULL);
    /* The two waiters are the new game and the probe: the lists are told at once. */
    int busy = 0, json = 0;
    for (int i = 0; i < 6; i++) {
        int st = answer(lists[i], 300, &j);
        if (st == 503) {
            busy++;
            json += j;
            close(lists[i]);
            lists[i] = -1;
        }
    }
    CHECK_MSG(busy >= 4, "%d of 6 history lists refused at once, expected 4 to 6", busy);
    CHECK_EQ_INT(json, busy);
    /* Meanwhile the catalogue and the game in memory are answered. */
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", "/api/catalog", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    http_reply_free(&r);
    snprintf(path, sizeof path, "/api/games/%s", id);
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    http_reply_free(&r);
    int created = answer(create, 0, &j);
    CHECK_EQ_INT(created, 0); /* still waiting: the lock is still held */
    /* The lock goes: the waiting requests are answered. */
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    CHECK_EQ_INT(answer(create, 6000, &j), 201);
    close(create);
    if (probe >= 0) {
        CHECK_EQ_INT(answer(probe, 6000, &j), 200);
        close(probe);
    }
    for (int i = 0; i < 6; i++)
        if (lists[i] >= 0) {
            CHECK_EQ_INT(answer(lists[i], 6000, &j), 200);
            close(lists[i]);
        }
    server_stop(srv);
    test_rmdir(dir);
}

/* A busy database is 503 everywhere (API.md "Errors"), not 500 or a new visitor: with
 * the one waiter allowed (db_waiters 1) held by a new game on a locked database, a
 * challenge, a club and a puzzle, each needing the store, are told 503 at once, with
 * the JSON error. */
TEST(server_busy_database_is_503_for_people_clubs_and_puzzles)
{
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/busy.db", dir);
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.analysis_engine = "none";
    cfg.quiet_engines = 1;
    cfg.db_path = db;
    cfg.web_dir = NULL;
    cfg.http_threads = 6;
    cfg.db_waiters = 1;
    cfg.engine_workers = 1;
    cfg.new_games_per_minute = 0;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *g = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"agon\"}", &g), 201);
    char token[64];
    snprintf(token, sizeof token, "%s", json_string_value(json_object_get(g, "token")));
    json_decref(g);
    const char *none = "/0123456789abcdef0123456789abcdef"; /* well formed, unknown */
    char challenge[80], club[80];
    snprintf(challenge, sizeof challenge, "/api/challenges%s", none);
    snprintf(club, sizeof club, "/api/clubs%s", none);

    sqlite3 *other = NULL;
    CHECK_EQ_INT(sqlite3_open(db, &other), SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    /* A new game waits for the lock, holding the one place. */
    int create = send_nowait(port, "POST", "/api/games", NULL, "{\"game\":\"agon\"}");
    /* Once it is inside and stuck (past the gate's 100 ms), a challenge is refused. */
    int status = 0, j = 0, waiting[60], n_waiting = 0;
    for (int tries = 0; tries < 40 && status != 503; tries++) {
        poll(NULL, 0, 100);
        int fd = send_nowait(port, "GET", challenge, NULL, NULL);
        status = answer(fd, 1000, &j);
        if (status == 0 && n_waiting < 60)
            waiting[n_waiting++] = fd; /* it came in before the store was stuck: it waits */
        else
            close(fd);
    }
    CHECK_EQ_INT(status, 503);
    CHECK_EQ_INT(j, 1);
    /* The store stuck: a club and a puzzle are told 503 at once too. */
    int fd = send_nowait(port, "GET", club, token, NULL);
    CHECK_EQ_INT(answer(fd, 1000, &j), 503);
    CHECK_EQ_INT(j, 1);
    close(fd);
    fd = send_nowait(port, "GET", "/api/puzzles/next?game=agon", token, NULL);
    CHECK_EQ_INT(answer(fd, 1000, &j), 503);
    CHECK_EQ_INT(j, 1);
    close(fd);
    /* And a visitor's name, which is not "a new visitor" either. */
    fd = send_nowait(port, "GET", "/api/me", token, NULL);
    CHECK_EQ_INT(answer(fd, 1000, &j), 503);
    CHECK_EQ_INT(j, 1);
    close(fd);
    /* The lock goes: the new game is made. */
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    CHECK_EQ_INT(answer(create, 6000, &j), 201);
    close(create);
    for (int i = 0; i < n_waiting; i++) {
        answer(waiting[i], 6000, &j);
        close(waiting[i]);
    }
    server_stop(srv);
    test_rmdir(dir);
}
