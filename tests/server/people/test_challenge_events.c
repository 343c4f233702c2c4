/* A challenge's event stream (API.md "People": GET /api/challenges/{id}/events) against
 * real servers on loopback: its status at once, the accept with the game's id, a
 * withdrawal and an expiry, each ending the stream; an unknown id 404; the per-address
 * cap on streams shared with game streams, a client that hangs up noticed; and the
 * `agora serve` flags for the times of games between people (--challenge-ms, --seek-ms,
 * --abandon-ms) on a real ./agora (their refused values: test_cli.c). */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/common/stream_hub.h"
#include "server/server.h"
#include "server/server_state.h"

#define CHALLENGE_BODY                                                                             \
    "{\"game\":\"chess\",\"clock\":{\"initial\":180,\"increment\":2},\"side\":\"white\","          \
    "\"name\":\"Ann\"}"

/* ping_ms long (a minute): what a stream tells comes from the hub's wake-up, not from a
 * ping's reading of the store. */
static struct server *ce_start(int64_t challenge_ms, int streams_per_address, int ping_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.cache_games = 0; /* server_config_default's: from cache_mb */
    cfg.challenge_ms = challenge_ms;
    cfg.ping_ms = ping_ms;
    if (streams_per_address)
        cfg.streams_per_address = streams_per_address;
    return fx_start(&cfg);
}

static int ce_open(struct sse_reader *r, int port, const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%.40s/events", id);
    return sse_get(r, port, path, NULL);
}

/* The server closed the stream within timeout_ms: what remains is comments, then EOF. */
static bool ce_closed(struct sse_reader *r, int timeout_ms)
{
    for (int waited = 0; waited < timeout_ms; waited += 50) {
        struct pollfd p = {r->fd, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0)
            continue;
        char buf[512];
        ssize_t n = recv(r->fd, buf, sizeof buf, 0);
        if (n == 0)
            return true;
        if (n < 0)
            return false;
        buf[n < (ssize_t)sizeof buf ? n : (ssize_t)sizeof buf - 1] = 0;
        if (strstr(buf, "event:"))
            return false; /* another event: the stream should have ended */
    }
    return false;
}

TEST(server_challenge_events_tell_the_accept)
{
    struct server *srv = ce_start(0, 0, 60000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges", CHALLENGE_BODY, id, ta), 201);
    struct sse_reader r;
    CHECK_EQ_INT(ce_open(&r, port, id), 200);
    json_t *e = fx_event(&r, "challenge", 5000); /* at once: open */
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "open");
    CHECK_STR(fx_str(e, "id"), id);
    CHECK(json_is_null(json_object_get(e, "game_id")));
    json_decref(e);
    CHECK(fx_event(&r, "challenge", 400) == NULL); /* nothing more while it is open (pings only) */
    json_t *st = NULL;
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &st), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "accepted");
    CHECK_STR(fx_str(e, "game_id"), fx_str(st, "id"));
    CHECK(strlen(fx_str(e, "game_id")) == 32);
    json_decref(e);
    json_decref(st);
    CHECK(ce_closed(&r, 3000)); /* no longer open: the stream ends */
    sse_close(&r);
    /* Opened after the accept: the final status at once, then the end. */
    CHECK_EQ_INT(ce_open(&r, port, id), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "accepted");
    json_decref(e);
    CHECK(ce_closed(&r, 3000));
    sse_close(&r);
    /* A seek's stream tells its accept the same way. */
    char sid[40], ts[40];
    CHECK_EQ_INT(fx_create(port, "/api/seeks", CHALLENGE_BODY, sid, ts), 201);
    CHECK_EQ_INT(ce_open(&r, port, sid), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    snprintf(path, sizeof path, "/api/seeks/%s/accept", sid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Cy\"}", NULL), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "accepted");
    json_decref(e);
    sse_close(&r);
    server_stop(srv);
}

TEST(server_challenge_events_cancel_expire_unknown)
{
    struct server *srv = ce_start(0, 0, 60000), *quick = ce_start(1500, 0, 60000);
    if (!srv || !quick)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40], path[128];
    CHECK_EQ_INT(fx_create(port, "/api/challenges", CHALLENGE_BODY, id, ta), 201);
    struct sse_reader r;
    CHECK_EQ_INT(ce_open(&r, port, id), 200);
    json_t *e = fx_event(&r, "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    snprintf(path, sizeof path, "/api/challenges/%s/cancel", id);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, "{}", NULL), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "cancelled");
    json_decref(e);
    CHECK(ce_closed(&r, 3000));
    sse_close(&r);
    /* Expiry (a 1.5 s life): nobody writes; the stream is due in the hub at that time
     * (no ping comes within the minute). */
    CHECK_EQ_INT(fx_create(server_port(quick), "/api/challenges", CHALLENGE_BODY, id, ta), 201);
    CHECK_EQ_INT(ce_open(&r, server_port(quick), id), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    e = fx_event(&r, "challenge", 6000);
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "expired");
    json_decref(e);
    CHECK(ce_closed(&r, 3000));
    sse_close(&r);
    /* Unknown and malformed ids: 404 with a JSON error; only GET. */
    json_t *j = NULL;
    CHECK_EQ_INT(ce_open(&r, port, "0123456789abcdef0123456789abcdef"), 404);
    sse_close(&r);
    CHECK_EQ_INT(ce_open(&r, port, "nope"), 404);
    sse_close(&r);
    CHECK_EQ_INT(api_call(port, "GET", "/api/challenges/0123456789abcdef0123456789abcdef/events",
                          NULL, NULL, &j),
                 404);
    CHECK(strstr(fx_str(j, "error"), "no challenge") != NULL);
    json_decref(j);
    snprintf(path, sizeof path, "/api/challenges/%s/events", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{}", NULL), 405);
    CHECK_EQ_INT(stream_hub_count(srv->hub), 0);
    server_stop(srv);
    server_stop(quick);
}

TEST(server_challenge_events_share_the_address_cap)
{
    struct server *srv = ce_start(0, 3, 60000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], ta[40], gid[40], tg[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges", CHALLENGE_BODY, id, ta), 201);
    CHECK_EQ_INT(fx_create(port, "/api/games", "{\"game\":\"egara\"}", gid, tg), 201);
    struct sse_reader r[4];
    char gpath[128];
    snprintf(gpath, sizeof gpath, "/api/games/%s/events", gid);
    CHECK_EQ_INT(sse_get(&r[0], port, gpath, NULL), 200); /* a game's stream counts too */
    CHECK_EQ_INT(ce_open(&r[1], port, id), 200);
    CHECK_EQ_INT(ce_open(&r[2], port, id), 200);
    CHECK_EQ_INT(ce_open(&r[3], port, id), 429);
    CHECK(strstr(r[3].buf, "event streams open already") != NULL);
    sse_close(&r[3]);
    json_t *e = fx_event(&r[1], "challenge", 5000);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    CHECK_EQ_INT(stream_hub_count(srv->hub), 3);
    /* A client that hangs up is noticed (no write needed) and frees its place. */
    sse_close(&r[2]);
    int count = 3;
    for (int i = 0; i < 40 && (count = stream_hub_count(srv->hub)) > 2; i++)
        usleep(50 * 1000);
    CHECK_EQ_INT(count, 2);
    CHECK_EQ_INT(ce_open(&r[2], port, id), 200);
    /* Both open streams of the challenge hear the accept. */
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", id);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", NULL), 200);
    for (int i = 1; i <= 2; i++) {
        json_t *last = NULL;
        while ((e = fx_event(&r[i], "challenge", 5000)) && !strcmp(fx_str(e, "status"), "open"))
            json_decref(e);
        last = e;
        CHECK_STR(fx_str(last, "status"), "accepted");
        json_decref(last);
        sse_close(&r[i]);
    }
    sse_close(&r[0]);
    server_stop(srv);
}

/* ./agora serve with extra arguments, on `port`, until it answers; its pid. */
static pid_t ce_spawn(int port, const char *db, const char *const *extra)
{
    char portbuf[16];
    snprintf(portbuf, sizeof portbuf, "%d", port);
    const char *argv[24] = {"agora", "serve", "--port", portbuf,
                            "--db",  db,      "--web",  "/nonexistent"};
    int n = 8;
    for (; extra && *extra && n < 23; extra++)
        argv[n++] = *extra;
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        execv("./agora", (char *const *)argv);
        _exit(127);
    }
    for (int i = 0; i < 200 && pid > 0; i++) {
        if (api_call(port, "GET", "/api/catalog", NULL, NULL, NULL) == 200)
            return pid;
        usleep(20 * 1000);
    }
    return pid;
}

TEST(server_serve_flags_set_the_people_times)
{
    if (access("./agora", X_OK) != 0)
        SKIP("./agora is not built (run from the repository root)");
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/flags.db", dir);
    int port = test_free_port();
    const char *extra[] = {
        "--challenge-ms",         "90000", "--seek-ms", "4000", "--abandon-ms", "1000",
        "--new-games-per-minute", "0",     NULL};
    pid_t pid = ce_spawn(port, db, extra);
    CHECK(pid > 0);
    json_t *j = NULL;
    long long t0 = fx_wall_ms();
    CHECK_EQ_INT(api_call(port, "POST", "/api/challenges", NULL, CHALLENGE_BODY, &j), 201);
    long long left = fx_int(j, "expires") - t0;
    CHECK_MSG(left > 85000 && left <= 91000, "a challenge open %lld ms (--challenge-ms 90000)",
              left);
    json_decref(j);
    t0 = fx_wall_ms();
    CHECK_EQ_INT(api_call(port, "POST", "/api/seeks", NULL, CHALLENGE_BODY, &j), 201);
    left = fx_int(j, "expires") - t0;
    CHECK_MSG(left > 2000 && left <= 5000, "a seek open %lld ms (--seek-ms 4000)", left);
    json_decref(j);
    /* Abandonment after 1 s: a game without a clock, both have moved, white away. */
    char cid[40], ta[40], path[160];
    CHECK_EQ_INT(
        fx_create(port, "/api/challenges",
                  "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"Ann\"}", cid,
                  ta),
        201);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Bob\"}", &j), 200);
    char game[40], tb[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    snprintf(tb, sizeof tb, "%s", fx_str(j, "token"));
    json_decref(j);
    CHECK_EQ_INT(api_post_move(port, game, ta, "e2e4", NULL), 200);
    CHECK_EQ_INT(api_post_move(port, game, tb, "e7e5", NULL), 200);
    snprintf(path, sizeof path, "/api/games/%s/claim-win", game);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, "{}", NULL), 409); /* not yet */
    usleep(1300 * 1000);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, "{}", &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "status"), "reason"), "abandoned");
    json_decref(j);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}
