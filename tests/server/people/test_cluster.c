/* Several servers on one database (issue 26): two servers on one PostgreSQL, a game
 * between people whose players stream from different servers.  A move made through
 * one server reaches the other's streams (the store's outbox of events, outbox.c); a
 * move through the second server after one through the first is accepted (its cache
 * dropped the changed game); two moves of one ply sent to both at once: exactly one is
 * accepted and both servers then tell the same game; a challenge accepted through the
 * other server is heard on its creator's stream.  On SQLite a database has one
 * server and the outbox is off: skipped there. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "store/store.h"

/* The tests' two servers: 4 HTTP threads each, their streams pinged every ping_ms. */
static int cl_pair(char *url, size_t url_size, int ping_ms, struct server **a, struct server **b)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.ping_ms = ping_ms;
    return fx_start_pair(&cfg, url, url_size, a, b);
}

struct cl_move {
    int port;
    const char *game, *token, *move;
    int status;
};

static void *cl_send(void *arg)
{
    struct cl_move *m = arg;
    m->status = fx_move(m->port, m->game, m->token, m->move);
    return NULL;
}

/* A 10-minute unrated chess game between people made on `port`, Ann white: 0, as
 * fx_people_game. */
#define CL_GAME_BODY                                                                               \
    "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},\"side\":\"white\","          \
    "\"rated\":false,\"name\":\"Ann\"}"
static int cl_game(int port, char *game, char *white, char *black)
{
    return fx_people_game(port, CL_GAME_BODY, game, white, black);
}

/* The integer `key` of the game's state on `port` once it is `want` (a server's copy
 * hears the other's news a few ms later): asked every 100 ms for 10 s; the last value. */
static long long cl_wait_int(int port, const char *game, const char *token, const char *key,
                             long long want)
{
    long long v = -1;
    for (int tries = 0; tries < 100 && v != want; tries++) {
        json_t *st = fx_state(port, game, token);
        json_t *x = json_object_get(st, key);
        v = json_is_boolean(x) ? json_is_true(x) : fx_int(st, key);
        json_decref(st);
        if (v != want)
            fx_sleep_ms(100);
    }
    return v;
}

TEST(server_cluster_moves_reach_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(cl_game(pa, game, ta, tb), 0);
    /* White streams from A, black from B (B reads the game into its cache now). */
    json_t *sa = fx_state(pa, game, ta), *sb = fx_state(pb, game, tb);
    CHECK(sa && sb);
    char patha[200], pathb[200];
    snprintf(patha, sizeof patha, "/api/games/%s/events?seat=%s", game, fx_str(sa, "seat"));
    snprintf(pathb, sizeof pathb, "/api/games/%s/events?seat=%s", game, fx_str(sb, "seat"));
    json_decref(sa);
    json_decref(sb);
    struct sse_reader ra, rb;
    CHECK_EQ_INT(sse_get(&ra, pa, patha, NULL), 200);
    CHECK_EQ_INT(sse_get(&rb, pb, pathb, NULL), 200);

    /* Through A, heard on B; through B (its cache reloaded), heard on A. */
    const char *line[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++) {
        int port = i % 2 ? pb : pa;
        CHECK_EQ_INT(fx_move(port, game, i % 2 ? tb : ta, line[i]), 200);
        struct sse_reader *rs[2] = {&ra, &rb};
        for (int k = 0; k < 2; k++) {
            json_t *ev = fx_event(rs[k], "move", 5000);
            CHECK_MSG(ev != NULL, "stream %d (server %c) missed move %d", k, 'A' + k, i + 1);
            CHECK_STR(fx_str(ev, "move"), line[i]);
            json_decref(ev);
        }
    }

    /* White's fifth ply sent to A and to B at once: one is accepted. */
    struct cl_move m[2] = {{pa, game, ta, "f1c4", 0}, {pb, game, ta, "d2d4", 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, cl_send, &m[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK_MSG((m[0].status == 200) + (m[1].status == 200) == 1, "statuses %d and %d", m[0].status,
              m[1].status);
    const char *won = m[0].status == 200 ? "f1c4" : "d2d4";
    for (int k = 0; k < 2; k++) {
        json_t *ev = fx_event(k ? &rb : &ra, "move", 5000);
        CHECK_MSG(ev != NULL, "server %c's stream missed the fifth move", 'A' + k);
        CHECK_STR(fx_str(ev, "move"), won);
        json_decref(ev);
    }
    /* Both servers tell the same game, and black plays on through either. */
    for (int k = 0; k < 2; k++) {
        json_t *st = fx_state(k ? pb : pa, game, NULL);
        CHECK_EQ_INT(fx_int(st, "ply"), 5);
        json_decref(st);
    }
    CHECK_EQ_INT(fx_move(m[0].status == 200 ? pb : pa, game, tb, "g8f6"), 200);
    json_t *ev = fx_event(&ra, "move", 5000);
    CHECK(ev != NULL);
    CHECK_STR(fx_str(ev, "move"), "g8f6");
    json_decref(ev);

    sse_close(&ra);
    sse_close(&rb);
    server_stop(b);
    server_stop(a);
}

/* A player of the game's state on `port` (side "white" or "black"): its name and its
 * public id ("" when none) into name and id. */
static void cl_player(int port, const char *game, const char *side, char *name, char *id,
                      size_t size)
{
    json_t *st = fx_state(port, game, NULL);
    json_t *p = json_object_get(json_object_get(st, "players"), side);
    snprintf(name, size, "%s", fx_str(p, "name"));
    snprintf(id, size, "%s", fx_str(p, "id"));
    json_decref(st);
}

TEST(server_cluster_names_as_written_after_the_other_server_moved)
{
    /* A game read again on B after a move through A (its one-statement read, the players'
     * ids kept from the stale copy) tells the Bengali and the Finnish name byte for byte,
     * and both players' public ids, as before the move. */
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    const char *bengali =
        "\u09ac\u09be\u0982\u09b2\u09be \u0996\u09c7\u09b2\u09cb\u09af\u09bc\u09be\u09a1\u09bc";
    const char *finnish = "P\u00e4ivi \u00d6hman";
    char body[400], cid[40], white[40], path[128];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
             "\"side\":\"white\",\"rated\":false,\"name\":\"%s\"}",
             bengali);
    CHECK_EQ_INT(fx_create(pa, "/api/challenges", body, cid, white), 201);
    snprintf(path, sizeof path, "/api/challenges/%.40s/accept", cid);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", finnish);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(pb, "POST", path, NULL, body, &j), 200);
    char game[40], black[40];
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    snprintf(black, sizeof black, "%s", fx_str(j, "token"));
    json_decref(j);
    const char *want[2] = {bengali, finnish};
    const char *sides[2] = {"white", "black"};
    char name[200], id[2][200];
    for (int k = 0; k < 2; k++) {
        cl_player(pb, game, sides[k], name, id[k], sizeof name);
        CHECK_STR(name, want[k]);
        CHECK(id[k][0] != 0);
    }
    /* Black's stream holds the game on B; a move through A makes B's copy stale. */
    json_t *sb = fx_state(pb, game, black);
    char pathb[200];
    snprintf(pathb, sizeof pathb, "/api/games/%s/events?seat=%s", game, fx_str(sb, "seat"));
    json_decref(sb);
    struct sse_reader rb;
    CHECK_EQ_INT(sse_get(&rb, pb, pathb, NULL), 200);
    CHECK_EQ_INT(fx_move(pa, game, white, "e2e4"), 200);
    json_t *ev = fx_event(&rb, "move", 5000);
    CHECK(ev != NULL);
    json_decref(ev);
    for (int k = 0; k < 2; k++) {
        char again[200];
        cl_player(pb, game, sides[k], name, again, sizeof name);
        CHECK_STR(name, want[k]);
        CHECK_STR(again, id[k]);
    }
    sse_close(&rb);
    server_stop(b);
    server_stop(a);
}

/* The newest event's number in the outbox of the database at url (0: none). */
static int64_t cl_newest_event(const char *url)
{
    char err[256];
    struct store *st = store_open(url, NULL, err, sizeof err);
    if (!st)
        return -1;
    int64_t newest = 0;
    int rc = store_wait_events(st, 0, 0, &newest, err, sizeof err);
    store_close(st);
    return rc < 0 ? -1 : rc == 0 ? newest : 0;
}

/* A game in both servers' memory with streams open on both, and nothing happens: the
 * streams' pings (every 100 ms here) write no events to the outbox (each would make the
 * other server read the game again), while a move writes its one. */
TEST(server_cluster_pings_write_no_events)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(cl_game(pa, game, ta, tb), 0);
    char path[200];
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    struct sse_reader ra, rb;
    CHECK_EQ_INT(sse_get(&ra, pa, path, NULL), 200);
    CHECK_EQ_INT(sse_get(&rb, pb, path, NULL), 200);
    int64_t before = cl_newest_event(url);
    CHECK(before >= 0);
    usleep(800 * 1000); /* eight pings on each server */
    CHECK_EQ_INT(cl_newest_event(url), before);
    CHECK_EQ_INT(fx_move(pb, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(cl_newest_event(url), before + 1);
    json_t *ev = fx_event(&ra, "move", 5000);
    CHECK(ev != NULL);
    CHECK_STR(fx_str(ev, "move"), "e2e4");
    json_decref(ev);
    sse_close(&ra);
    sse_close(&rb);
    server_stop(b);
    server_stop(a);
}

/* A player's notification stream (GET /api/me/events) on the server at port. */
static int cl_notice_stream(struct sse_reader *r, int port, const char *token)
{
    char h[128];
    snprintf(h, sizeof h, "Authorization: Bearer %s\r\n", token);
    return sse_get(r, port, "/api/me/events", h);
}

/* Ann's pages on both servers: her challenge accepted through B is told on A's stream
 * too, and her marking it read through A changes the count on B's.  The streams' pings
 * (which read the store again) are 20 s apart here: only the outbox can tell them. */
TEST(server_cluster_notices_reach_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 20000, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char cid[40], ann[40];
    CHECK_EQ_INT(
        fx_create(pa, "/api/challenges", "{\"game\":\"chess\",\"name\":\"Ann\"}", cid, ann), 201);
    struct sse_reader ra, rb;
    CHECK_EQ_INT(cl_notice_stream(&ra, pa, ann), 200);
    CHECK_EQ_INT(cl_notice_stream(&rb, pb, ann), 200);
    struct sse_reader *rs[2] = {&ra, &rb};
    for (int k = 0; k < 2; k++) {
        json_t *e = fx_event(rs[k], "unread", 3000);
        CHECK_EQ_INT(fx_int(e, "unread"), 0);
        json_decref(e);
    }
    char path[128];
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    json_t *j = NULL;
    /* The accepter's name as written (Assamese), on both servers' streams. */
    CHECK_EQ_INT(api_call(pb, "POST", path, NULL,
                          "{\"name\":\"\u0985\u09b8\u09ae\u09c0\u09af\u09bc\u09be "
                          "\u0996\u09c7\u09b2\u09c1\u09f1\u09c8\"}",
                          &j),
                 200);
    json_decref(j);
    for (int k = 0; k < 2; k++) {
        json_t *e = fx_event(rs[k], "notice", 5000);
        CHECK_MSG(e != NULL, "server %c's stream missed the notice", 'A' + k);
        CHECK_STR(fx_str(e, "kind"), "accepted");
        CHECK_STR(fx_str(json_object_get(e, "data"), "name"),
                  "\xe0\xa6\x85\xe0\xa6\xb8\xe0\xa6\xae\xe0\xa7\x80\xe0\xa6\xaf\xe0\xa6\xbc"
                  "\xe0\xa6\xbe \xe0\xa6\x96\xe0\xa7\x87\xe0\xa6\xb2\xe0\xa7\x81\xe0\xa7\xb1"
                  "\xe0\xa7\x88");
        json_decref(e);
        e = fx_event(rs[k], "unread", 5000);
        CHECK_EQ_INT(fx_int(e, "unread"), 1);
        json_decref(e);
    }
    j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", "/api/me/notifications/read", ann, "{}", &j), 200);
    CHECK_EQ_INT(fx_int(j, "marked"), 1);
    json_decref(j);
    json_t *e = fx_event(&rb, "unread", 5000);
    CHECK_MSG(e != NULL, "B's stream missed the marking read on A");
    CHECK_EQ_INT(fx_int(e, "unread"), 0);
    json_decref(e);
    sse_close(&ra);
    sse_close(&rb);
    server_stop(b);
    server_stop(a);
}

/* A correspondence move writes two events: the game's, with the move in its transaction,
 * and the notification of the player to move.  (The notification's put once made this
 * thread forget that the move's event was written: a third, the game's again.) */
TEST(server_cluster_a_correspondence_move_writes_its_events_once)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 20000, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", "/api/me", NULL, "{\"name\":\"Bea\"}", &j), 200);
    char bea[40], bea_id[40], body[200], cid[40], cy[40], path[128], game[40];
    snprintf(bea, sizeof bea, "%s", fx_str(j, "token"));
    snprintf(bea_id, sizeof bea_id, "%s", fx_str(j, "id"));
    json_decref(j);
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"name\":\"Cy\",\"to\":\"%s\",\"days\":1,\"side\":\"white\"}",
             bea_id);
    CHECK_EQ_INT(fx_create(pa, "/api/challenges", body, cid, cy), 201);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", path, bea, "{}", &j), 200);
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    json_decref(j);
    int64_t before = cl_newest_event(url);
    CHECK_EQ_INT(fx_move(pa, game, cy, "e2e4"), 200);
    CHECK_EQ_INT(cl_newest_event(url), before + 2);
    server_stop(b);
    server_stop(a);
}

/* A challenge made and streamed on A, accepted through B: A's stream hears it. */
TEST(server_cluster_challenge_accepted_on_the_other_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char cid[40], ta[40], path[128];
    CHECK_EQ_INT(fx_create(pa, "/api/challenges",
                           "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                           "\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
                           cid, ta),
                 201);
    struct sse_reader r;
    snprintf(path, sizeof path, "/api/challenges/%s/events", cid);
    CHECK_EQ_INT(sse_get(&r, pa, path, NULL), 200);
    json_t *e = fx_event(&r, "challenge", 5000); /* at once: open */
    CHECK(e != NULL);
    CHECK_STR(fx_str(e, "status"), "open");
    json_decref(e);
    json_t *st = NULL;
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(pb, "POST", path, NULL, "{\"name\":\"Bob\"}", &st), 200);
    e = fx_event(&r, "challenge", 5000);
    CHECK_MSG(e != NULL, "A's stream did not hear the accept made through B");
    CHECK_STR(fx_str(e, "status"), "accepted");
    CHECK_STR(fx_str(e, "game_id"), fx_str(st, "id"));
    json_decref(e);
    json_decref(st);
    sse_close(&r);
    server_stop(b);
    server_stop(a);
}

/* Moves alternating through A and B with no wait for the other server's news: the
 * server whose copy is behind reads the game again before it refuses (games_api.c
 * judge_again), so every move is accepted; both then tell the whole game. */
TEST(server_cluster_moves_alternating_without_waiting_are_all_accepted)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    const char *line[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "b1c3",
                          "g8f6", "d2d3", "d7d6", "c1g5", "c8g4", "h2h3", "g4h5",
                          "a2a3", "a7a6", "b2b4", "b7b5", "g2g4", "h5g6"};
    enum { PLIES = sizeof line / sizeof line[0], GAMES = 3 };
    int refused = 0;
    for (int n = 0; n < GAMES; n++) {
        char game[40], ta[40], tb[40];
        CHECK_EQ_INT(cl_game(pa, game, ta, tb), 0);
        /* Both servers hold the game in their caches from the start. */
        json_decref(fx_state(pa, game, ta));
        json_decref(fx_state(pb, game, tb));
        for (int i = 0; i < PLIES; i++) {
            /* White through A, black through B (game 1), then the other way round,
             * then each move through the server the last one did not use. */
            int through_b = n == 1 ? i % 2 == 0 : i % 2 == 1;
            int status = fx_move(through_b ? pb : pa, game, i % 2 ? tb : ta, line[i]);
            if (status != 200) {
                refused++;
                CHECK_MSG(0, "game %d, ply %d (%s) through %c: %d", n + 1, i + 1, line[i],
                          through_b ? 'B' : 'A', status);
            }
        }
        /* (a read is answered from the copy: the last move's news is a few ms away) */
        for (int k = 0; k < 2; k++)
            CHECK_EQ_INT(cl_wait_int(k ? pb : pa, game, NULL, "ply", PLIES), PLIES);
    }
    CHECK_EQ_INT(refused, 0);
    server_stop(b);
    server_stop(a);
}

/* The new-game limit counts a client's requests on every server (the store's rate
 * buckets): 3 a minute from one address, two through A and one through B, and the
 * fourth is refused on either. */
TEST(server_cluster_new_game_limit_counts_on_every_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the limits are in memory there)");
    char url[1024];
    struct server_config cfg;
    fx_config(&cfg);
    cfg.new_games_per_minute = 3;
    struct server *a, *b;
    if (fx_start_pair(&cfg, url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    const char *body = "{\"game\":\"chess\",\"level\":1}";
    int through[] = {pa, pa, pb, pb, pa};
    int want[] = {201, 201, 201, 429, 429};
    for (int i = 0; i < 5; i++) {
        json_t *j = NULL;
        int status = api_call(through[i], "POST", "/api/games", NULL, body, &j);
        CHECK_MSG(status == want[i], "game %d through %c: %d, expected %d", i + 1,
                  through[i] == pa ? 'A' : 'B', status, want[i]);
        if (status == 429)
            CHECK_STR(fx_str(j, "code"), "too_many_games");
        json_decref(j);
    }
    server_stop(b);
    server_stop(a);
}

/* The viewer count is the sum over the servers (presence.c): a spectator streaming from
 * A and one from B are two viewers on both. */
TEST(server_cluster_viewers_summed_over_servers)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server *a, *b;
    if (cl_pair(url, sizeof url, 100, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char game[40], ta[40], tb[40], path[200];
    CHECK_EQ_INT(cl_game(pa, game, ta, tb), 0);
    json_decref(fx_state(pb, game, NULL));
    snprintf(path, sizeof path, "/api/games/%s/events", game);
    struct sse_reader va, vb;
    CHECK_EQ_INT(sse_get(&va, pa, path, NULL), 200);
    CHECK_EQ_INT(sse_get(&vb, pb, path, NULL), 200);
    for (int k = 0; k < 2; k++) {
        long long viewers = cl_wait_int(k ? pb : pa, game, NULL, "viewers", 2);
        CHECK_MSG(viewers == 2, "server %c counts %lld viewers", 'A' + k, viewers);
    }
    /* One goes: one viewer on both. */
    sse_close(&vb);
    for (int k = 0; k < 2; k++) {
        long long viewers = cl_wait_int(k ? pb : pa, game, NULL, "viewers", 1);
        CHECK_MSG(viewers == 1, "server %c counts %lld viewers", 'A' + k, viewers);
    }
    sse_close(&va);
    server_stop(b);
    server_stop(a);
}

/* A player whose page streams from A is present for a claim made through B; once the
 * page goes, the claim is offered on B after the abandonment time. */
TEST(server_cluster_presence_on_one_server_counts_on_the_other)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the outbox of events is on with PostgreSQL)");
    char url[1024];
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.ping_ms = 100;
    cfg.abandon_ms = 1000;
    struct server *a, *b;
    if (fx_start_pair(&cfg, url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char game[40], ta[40], tb[40], path[200];
    CHECK_EQ_INT(fx_people_game(pa,
                                "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\","
                                "\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    json_t *sa = fx_state(pa, game, ta);
    snprintf(path, sizeof path, "/api/games/%s/events?seat=%s", game, fx_str(sa, "seat"));
    json_decref(sa);
    CHECK_EQ_INT(fx_move(pa, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(pb, game, tb, "e7e5"), 200);
    /* White to move, their page open on A only; B never saw white. */
    struct sse_reader wa;
    CHECK_EQ_INT(sse_get(&wa, pa, path, NULL), 200);
    fx_sleep_ms(2500); /* longer than the abandonment time, and a few publications */
    json_t *st = fx_state(pb, game, tb);
    CHECK_MSG(json_is_false(json_object_get(st, "claim_win")), "B offers the claim");
    CHECK(json_is_null(json_object_get(st, "away")));
    json_decref(st);
    json_t *j = NULL;
    CHECK_EQ_INT(fx_game_post(pb, game, "claim-win", tb, NULL, &j), 409);
    json_decref(j);
    /* The page goes: B offers the claim a second after (and A's news reaches it). */
    sse_close(&wa);
    long long claim = cl_wait_int(pb, game, tb, "claim_win", 1);
    CHECK_MSG(claim == 1, "B never offered the claim after white's page went");
    j = NULL;
    CHECK_EQ_INT(fx_game_post(pb, game, "claim-win", tb, NULL, &j), 200);
    CHECK_STR(fx_str(json_object_get(j, "status"), "reason"), "abandoned");
    json_decref(j);
    server_stop(b);
    server_stop(a);
}

/* The lobby's cap of open seeks per token counts on every server (the store's seek
 * places): 2 a token, one through A and one through B, the third refused on either;
 * a seek withdrawn frees its place for the next, through either. */
TEST(server_cluster_seek_caps_count_on_every_server)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (the caps are in memory there)");
    char url[1024];
    struct server_config cfg;
    fx_config(&cfg);
    cfg.seeks_per_token = 2;
    cfg.seeks_per_address = 100;
    struct server *a, *b;
    if (fx_start_pair(&cfg, url, sizeof url, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    const char *body = "{\"game\":\"chess\",\"clock\":{\"initial\":300,\"increment\":0},"
                       "\"side\":\"random\",\"rated\":false,\"name\":\"Ann\"}";
    char first[40], token[40], path[128];
    CHECK_EQ_INT(fx_create(pa, "/api/seeks", body, first, token), 201);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(pb, "POST", "/api/seeks", token, body, &j), 201);
    json_decref(j);
    for (int k = 0; k < 2; k++) {
        j = NULL;
        CHECK_EQ_INT(api_call(k ? pb : pa, "POST", "/api/seeks", token, body, &j), 429);
        CHECK_STR(fx_str(j, "code"), "too_many_seeks");
        json_decref(j);
    }
    /* Withdrawn through A: a place again, taken through B. */
    snprintf(path, sizeof path, "/api/challenges/%s/cancel", first);
    CHECK_EQ_INT(api_call(pa, "POST", path, token, "{}", NULL), 200);
    j = NULL;
    CHECK_EQ_INT(api_call(pb, "POST", "/api/seeks", token, body, &j), 201);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(pa, "POST", "/api/seeks", token, body, &j), 429);
    json_decref(j);
    server_stop(b);
    server_stop(a);
}
