/* Puzzle ratings move only with issued tokens (issue 25 item 7), against real servers on
 * loopback: a token the server never issued counts nothing (and /next gives it a new
 * one), an attempt sooner than a person reads the position is not counted, a puzzle's
 * rating moves only with an established player's attempt, and an address has 30 rated
 * attempts a minute. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define MATE1 "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
#define COPIES 45

/* COPIES mate-in-one puzzles (the same position under other ids), rated 1500. */
static void write_puzzles(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; i < COPIES; i++)
        fprintf(f,
                "{\"id\":\"chess-m%02d\",\"game\":\"chess\",\"position\":\"" MATE1 "\","
                "\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":1500}\n",
                i);
    fclose(f);
}

static struct server *start(const char *dir, int64_t read_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.puzzles_dir = dir;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.puzzle_read_ms = read_ms;
    return fx_start(&cfg);
}

/* GET /api/puzzles/next with token (NULL: none): the puzzle's id into id, a new token
 * (if any) into token; the status. */
static int next(int port, char *token, char *id)
{
    json_t *j = NULL;
    int st = api_call(port, "GET", "/api/puzzles/next?game=chess", *token ? token : NULL, NULL, &j);
    if (json_is_string(json_object_get(j, "token")))
        snprintf(token, 40, "%s", fx_str(j, "token"));
    snprintf(id, 40, "%s", fx_str(json_object_get(j, "puzzle"), "id"));
    json_decref(j);
    return st;
}

/* The mate (or, not `right`, a rook move that misses it) on puzzle id with token: the
 * status; *out the answer. */
static int play(int port, const char *token, const char *id, bool right, json_t **out)
{
    char path[128];
    snprintf(path, sizeof path, "/api/puzzles/%s/attempts", id);
    return api_call(port, "POST", path, token,
                    right ? "{\"moves\":[\"a1a8\"]}" : "{\"moves\":[\"a1a2\"]}", out);
}

static int solve(int port, const char *token, const char *id, json_t **out)
{
    return play(port, token, id, true, out);
}

TEST(server_puzzle_attempts_need_an_issued_token_and_time_to_read)
{
    char dir[256];
    test_tmpdir(dir, sizeof dir);
    write_puzzles(dir);
    struct server *srv = start(dir, 0); /* the default: 2 s to read */
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    /* 32 hex digits the server never issued: judged, not counted, nothing moves. */
    const char *forged = "0123456789abcdef0123456789abcdef";
    json_t *j = NULL;
    CHECK_EQ_INT(solve(port, forged, "chess-m00", &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    CHECK(json_is_false(json_object_get(j, "counted")));
    CHECK_STR(fx_str(j, "why"), "not-served");
    CHECK_EQ_INT(fx_int(json_object_get(j, "puzzle"), "rating"), 1500);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "attempts"), 0);
    json_decref(j);
    /* Asking for a puzzle with it: a new token comes back, the forged one stays unknown. */
    char token[40], id[40];
    snprintf(token, sizeof token, "%s", forged);
    CHECK_EQ_INT(next(port, token, id), 200);
    CHECK(strcmp(token, forged) != 0 && strlen(token) == 32);
    CHECK_EQ_INT(solve(port, forged, id, &j), 200);
    CHECK(json_is_false(json_object_get(j, "counted")));
    json_decref(j);
    /* The issued token, at once: faster than a person reads the position. */
    CHECK_EQ_INT(solve(port, token, id, &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    CHECK(json_is_false(json_object_get(j, "counted")));
    CHECK_STR(fx_str(j, "why"), "too-fast");
    json_decref(j);
    /* A puzzle never served to this token does not count either. */
    const char *other = strcmp(id, "chess-m00") ? "chess-m00" : "chess-m01";
    CHECK_EQ_INT(solve(port, token, other, &j), 200);
    CHECK_STR(fx_str(j, "why"), "not-served");
    json_decref(j);
    /* After 2 s of reading: counted, once. */
    fx_sleep_ms(2100);
    CHECK_EQ_INT(solve(port, token, id, &j), 200);
    CHECK(json_is_true(json_object_get(j, "counted")));
    CHECK(fx_int(json_object_get(j, "player"), "rating") > 1500);
    json_decref(j);
    CHECK_EQ_INT(solve(port, token, id, &j), 200);
    CHECK(json_is_false(json_object_get(j, "counted")));
    CHECK_STR(fx_str(j, "why"), "attempted");
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_puzzle_rating_moves_only_with_established_players)
{
    char dir[256];
    test_tmpdir(dir, sizeof dir);
    write_puzzles(dir);
    struct server *srv = start(dir, -1); /* no reading time: this test is about ratings */
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    char token[40] = "", id[40];
    long long deviation = 350;
    int attempts = 0, moved_early = 0;
    /* A new player's attempts (solved and failed in turn) move their own rating only,
     * until their deviation is down to 110 (established). */
    while (deviation > 110 && attempts < 25) {
        CHECK_EQ_INT(next(port, token, id), 200);
        json_t *j = NULL;
        CHECK_EQ_INT(play(port, token, id, attempts % 2 == 0, &j), 200);
        CHECK(json_is_true(json_object_get(j, "counted")));
        moved_early += fx_int(json_object_get(j, "puzzle"), "change") != 0;
        deviation = fx_int(json_object_get(j, "player"), "deviation");
        json_decref(j);
        attempts++;
    }
    CHECK_MSG(deviation <= 110, "deviation %lld after %d attempts", deviation, attempts);
    CHECK_EQ_INT(moved_early, 0);
    /* Established now: the puzzle's rating moves (down: solved). */
    CHECK_EQ_INT(next(port, token, id), 200);
    json_t *j = NULL;
    CHECK_EQ_INT(solve(port, token, id, &j), 200);
    CHECK(json_is_true(json_object_get(j, "counted")));
    CHECK_MSG(fx_int(json_object_get(j, "puzzle"), "change") < 0, "puzzle change %lld",
              fx_int(json_object_get(j, "puzzle"), "change"));
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_puzzle_rated_attempts_per_address_a_minute)
{
    char dir[256];
    test_tmpdir(dir, sizeof dir);
    write_puzzles(dir);
    struct server *srv = start(dir, -1);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    /* Two players from one address: 30 rated attempts between them, then not counted. */
    char tokens[2][40] = {"", ""}, id[40];
    int counted = 0, limited = 0;
    for (int i = 0; i < 36; i++) {
        char *token = tokens[i % 2];
        CHECK_EQ_INT(next(port, token, id), 200);
        json_t *j = NULL;
        CHECK_EQ_INT(solve(port, token, id, &j), 200);
        if (json_is_true(json_object_get(j, "counted")))
            counted++;
        else
            limited += !strcmp(fx_str(j, "why"), "rate-limit");
        json_decref(j);
    }
    CHECK_EQ_INT(counted, 30);
    CHECK_EQ_INT(limited, 6);
    server_stop(srv);
    test_rmdir(dir);
}
