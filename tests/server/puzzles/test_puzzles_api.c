/* The puzzle API (src/server/API.md, "Puzzles") against real servers on loopback,
 * with a small puzzle folder of positions whose solutions are known: the next puzzle
 * near the player's rating (with its legal moves), a theme and the easy track, attempts
 * judged by the server (solved, failed, counted once), both ratings moving, refusals
 * that change nothing, and the ratings kept across a restart. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define MATE1 "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
#define MATE2 "8/1R6/1P3k2/4R2p/1P3PP1/2K5/3B4/8 w - - 0 57"
#define FORK "2r3k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 1"

static void write_puzzles(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"id\":\"chess-mate1\",\"game\":\"chess\",\"position\":\"" MATE1 "\","
               "\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":900}\n"
               "{\"id\":\"chess-mate2\",\"game\":\"chess\",\"position\":\"" MATE2 "\","
               "\"moves\":[\"g4g5\",\"f6g6\",\"f4f5\"],\"themes\":[\"mate-in-2\",\"endgame\"],"
               "\"rating\":1300}\n"
               "{\"id\":\"chess-fork\",\"game\":\"chess\",\"position\":\"" FORK "\","
               "\"moves\":[\"d5e7\",\"g8f8\",\"e7c8\"],\"themes\":[\"advantage\",\"fork\"],"
               "\"rating\":1500,\"judge\":{\"engine\":\"agora chess\",\"by\":\"search\","
               "\"nodes\":50000}}\n");
    fclose(f);
}

static struct server *start(const char *db, const char *puzzles)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.new_games_per_minute = 30; /* server_config_default's */
    cfg.db_path = db;
    cfg.puzzles_dir = puzzles;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.puzzle_read_ms = -1; /* attempts at once (the 2 s rule: test_attempts_fair.c) */
    return fx_start(&cfg);
}

/* POST an attempt: the status, *out the reply. */
static int attempt(int port, const char *token, const char *id, const char *moves, json_t **out)
{
    char path[128], body[512];
    snprintf(path, sizeof path, "/api/puzzles/%s/attempts", id);
    snprintf(body, sizeof body, "{\"moves\": %s}", moves);
    return api_call(port, "POST", path, token, body, out);
}

TEST(server_puzzles_next_and_attempts)
{
    char dir[256], db[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/a.db", dir);
    write_puzzles(dir);
    struct server *srv = start(db, dir);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    json_t *j = NULL;

    /* The list: three chess puzzles, two of the easy track, one fork. */
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles", NULL, NULL, &j), 200);
    json_t *games = json_object_get(j, "games");
    json_t *chess = NULL;
    for (size_t i = 0; i < json_array_size(games); i++)
        if (!strcmp(fx_str(json_array_get(games, i), "game"), "chess"))
            chess = json_array_get(games, i);
    CHECK(chess != NULL);
    CHECK_EQ_INT(fx_int(chess, "count"), 3);
    CHECK_EQ_INT(fx_int(chess, "easy"), 2);
    json_decref(j);

    /* A visitor without a token gets one, and a puzzle with its legal moves. */
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess&theme=fork", NULL, NULL, &j),
                 200);
    char token[64];
    snprintf(token, sizeof token, "%s", fx_str(j, "token"));
    CHECK_EQ_INT((long long)strlen(token), 32);
    json_t *p = json_object_get(j, "puzzle");
    CHECK_STR(fx_str(p, "id"), "chess-fork");
    CHECK_STR(fx_str(p, "solver"), "white");
    CHECK_EQ_INT(fx_int(p, "solver_moves"), 2);
    /* Who proved it, as its line says. */
    json_t *judge = json_object_get(p, "judge");
    CHECK_STR(fx_str(judge, "engine"), "agora chess");
    CHECK_STR(fx_str(judge, "by"), "search");
    CHECK_EQ_INT(fx_int(judge, "nodes"), 50000);
    CHECK_EQ_INT((long long)json_array_size(json_object_get(p, "steps")), 2);
    json_t *step0 = json_array_get(json_object_get(p, "steps"), 0);
    CHECK(json_array_size(json_object_get(step0, "legal_moves")) > 5);
    json_t *step1 = json_array_get(json_object_get(p, "steps"), 1);
    CHECK_EQ_INT((long long)json_array_size(json_object_get(step1, "moves")), 2);
    CHECK_STR(json_string_value(json_array_get(json_object_get(p, "solution_display"), 0)), "Ne7+");
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "rating"), 1500);
    json_decref(j);

    /* Solved: the player's rating goes up; the puzzle's stays (a new player's attempt
     * does not move it, issue 25: test_attempts_fair.c). */
    CHECK_EQ_INT(attempt(port, token, "chess-fork", "[\"d5e7\", \"e7c8\"]", &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    CHECK(json_is_true(json_object_get(j, "counted")));
    long long up = fx_int(json_object_get(j, "player"), "rating");
    CHECK(up > 1500);
    CHECK(fx_int(json_object_get(j, "player"), "change") > 0);
    CHECK_EQ_INT(fx_int(json_object_get(j, "puzzle"), "rating"), 1500);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "streak"), 1);
    json_decref(j);
    /* Again: not counted, nothing changes. */
    CHECK_EQ_INT(attempt(port, token, "chess-fork", "[\"d5e7\", \"e7c8\"]", &j), 200);
    CHECK(json_is_false(json_object_get(j, "counted")));
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "rating"), up);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "change"), 0);
    json_decref(j);

    /* The next chess puzzle is another one (the fork is attempted). */
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", token, NULL, &j), 200);
    CHECK(strcmp(fx_str(json_object_get(j, "puzzle"), "id"), "chess-fork") != 0);
    CHECK(json_object_get(j, "token") == NULL); /* the visitor's own token is kept */
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "rating"), up);
    json_decref(j);

    /* Failed (a legal move that is not the solution): the rating goes down.  (Served
     * first: only a puzzle served to the token counts, issue 25.) */
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/puzzles/next?game=chess&theme=mate-in-2", token, NULL, &j),
        200);
    CHECK_STR(fx_str(json_object_get(j, "puzzle"), "id"), "chess-mate2");
    json_decref(j);
    CHECK_EQ_INT(attempt(port, token, "chess-mate2", "[\"b7b8\"]", &j), 200);
    CHECK(json_is_false(json_object_get(j, "solved")));
    CHECK(json_is_true(json_object_get(j, "counted")));
    CHECK(fx_int(json_object_get(j, "player"), "rating") < up);
    CHECK(fx_int(json_object_get(j, "player"), "change") < 0);
    CHECK_EQ_INT(fx_int(json_object_get(j, "puzzle"), "rating"), 1300);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "streak"), 0);
    CHECK_STR(json_string_value(json_array_get(json_object_get(j, "solution"), 0)), "g4g5");
    long long down = fx_int(json_object_get(j, "player"), "rating");
    json_decref(j);

    /* The easy track: mates in one and two only. */
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess&track=easy", token, NULL, &j),
                 200);
    CHECK_STR(fx_str(json_object_get(j, "puzzle"), "id"), "chess-mate1");
    json_decref(j);

    /* Refusals change nothing. */
    CHECK_EQ_INT(attempt(port, NULL, "chess-mate1", "[\"a1a8\"]", NULL), 403);
    CHECK_EQ_INT(attempt(port, "xyz", "chess-mate1", "[\"a1a8\"]", NULL), 403);
    CHECK_EQ_INT(attempt(port, token, "chess-none", "[\"a1a8\"]", NULL), 404);
    CHECK_EQ_INT(attempt(port, token, "chess-mate1", "\"a1a8\"", NULL), 400);
    CHECK_EQ_INT(attempt(port, token, "chess-mate1", "[\"a1a9\"]", &j), 400);
    CHECK(strstr(fx_str(j, "error"), "move 1") != NULL);
    json_decref(j);
    CHECK_EQ_INT(attempt(port, token, "chess-mate1", "[\"a1a8\", \"a8a7\"]", NULL), 400);
    CHECK_EQ_INT(attempt(port, token, "chess-mate2", "[\"b7b8\", \"b8b7\"]", NULL), 400);
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=go", token, NULL, NULL), 400);
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next", token, NULL, NULL), 400);
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/puzzles/next?game=chess&theme=nope", token, NULL, NULL), 400);
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/puzzles/next?game=chess&track=hard", token, NULL, NULL), 400);
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=agon", token, NULL, NULL), 404);
    CHECK_EQ_INT(api_call(port, "POST", "/api/puzzles/next", token, "{}", NULL), 405);
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/chess-mate1/attempts", token, NULL, NULL),
                 405);
    /* The mate in one is still unattempted: a right answer now counts. */
    CHECK_EQ_INT(attempt(port, token, "chess-mate1", "[\"a1a8\"]", &j), 200);
    CHECK(json_is_true(json_object_get(j, "counted")));
    CHECK(fx_int(json_object_get(j, "player"), "rating") > down);
    long long last = fx_int(json_object_get(j, "player"), "rating");
    long long mate1 = fx_int(json_object_get(j, "puzzle"), "rating");
    json_decref(j);
    server_stop(srv);

    /* A restart keeps the player's and the puzzles' ratings. */
    srv = start(db, dir);
    CHECK(srv != NULL);
    if (srv) {
        port = server_port(srv);
        CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", token, NULL, &j), 200);
        CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "rating"), last);
        CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "attempts"), 3);
        json_decref(j);
        CHECK_EQ_INT(attempt(port, token, "chess-mate1", "[\"a1a8\"]", &j), 200);
        CHECK(json_is_false(json_object_get(j, "counted")));
        CHECK_EQ_INT(fx_int(json_object_get(j, "puzzle"), "rating"), mate1);
        json_decref(j);
        server_stop(srv);
    }
    test_rmdir(dir);
}

/* Issue 25: at a puzzle's last step, a move that ends the game with the solver's win
 * at once is right too when the puzzle lists it (its "alternatives", which `agora
 * puzzles check` proves); at an earlier step only the solution's move is. */
TEST(server_puzzles_last_step_alternatives)
{
    char dir[256], db[300], path[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/a.db", dir);
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    /* Ra8# and Rb8#; 1.b5 c5 2.bxc6# e.p. or 2.Bxc5#. */
    fprintf(f, "{\"id\":\"chess-rooks\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/"
               "2n4r/8/8/RR4K1 w - - 0 1\",\"moves\":[\"a1a8\"],\"alternatives\":[\"b1b8\"],"
               "\"themes\":[\"mate-in-1\"],\"rating\":540}\n"
               "{\"id\":\"chess-ep\",\"game\":\"chess\",\"position\":\"rn1q2nr/pppbk2p/"
               "4pp1b/3p3Q/1PB2P2/B1N1P3/P1PP3P/R4K2 w - - 0 1\",\"moves\":[\"b4b5\","
               "\"c7c5\",\"b5c6\"],\"alternatives\":[\"a3c5\"],\"themes\":[\"mate-in-2\"],"
               "\"rating\":690}\n");
    fclose(f);
    struct server *srv = start(db, dir);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    json_t *j = NULL;
    char token[64] = "";
    /* Each served to the token first (only a served puzzle counts). */
    for (int i = 0; i < 2; i++) {
        CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", token[0] ? token : NULL,
                              NULL, &j),
                     200);
        if (!token[0])
            snprintf(token, sizeof token, "%s", fx_str(j, "token"));
        json_t *p = json_object_get(j, "puzzle");
        json_t *alt = json_object_get(p, "alternatives");
        CHECK_EQ_INT((long long)json_array_size(alt), 1);
        if (!strcmp(fx_str(p, "id"), "chess-rooks"))
            CHECK_STR(json_string_value(json_array_get(alt, 0)), "b1b8");
        json_decref(j);
    }
    /* The other mate in one (in SAN too) solves the one-move puzzle. */
    CHECK_EQ_INT(attempt(port, token, "chess-rooks", "[\"Rb8#\"]", &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    CHECK_STR(json_string_value(json_array_get(json_object_get(j, "alternatives"), 0)), "b1b8");
    json_decref(j);
    /* Before the last step only the solution's move is right... */
    CHECK_EQ_INT(attempt(port, token, "chess-ep", "[\"c4b5\"]", &j), 200);
    CHECK(json_is_false(json_object_get(j, "solved")));
    json_decref(j);
    /* ...and at the last, the alternative too. */
    CHECK_EQ_INT(attempt(port, token, "chess-ep", "[\"b4b5\", \"a3c5\"]", &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    json_decref(j);
    CHECK_EQ_INT(attempt(port, token, "chess-ep", "[\"b4b5\", \"b5c6\"]", &j), 200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    json_decref(j);
    CHECK_EQ_INT(attempt(port, token, "chess-ep", "[\"b4b5\", \"h5h6\"]", &j), 200);
    CHECK(json_is_false(json_object_get(j, "solved")));
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_puzzles_bad_file)
{
    char dir[256], db[300], path[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/b.db", dir);
    snprintf(path, sizeof path, "%s/agon.jsonl", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"id\":\"agon-x\",\"game\":\"agon\",\"position\":\"nonsense\",\"moves\":[\"a1-a2\"],"
          "\"themes\":[],\"rating\":1}\n",
          f);
    fclose(f);
    struct server_config cfg;
    fx_config_defaults(&cfg);
    cfg.db_path = db;
    cfg.puzzles_dir = dir;
    char err[256] = ""; /* the refusal's words are checked */
    struct server *srv = server_start(&cfg, err, sizeof err);
    CHECK(srv == NULL);
    CHECK(strstr(err, "agon.jsonl line 1") != NULL);
    server_stop(srv);
    /* A line cut short says it is not JSON (not "of another game"); a chess puzzle in
     * agon.jsonl says that. */
    static const char *const lines[] = {
        "{\"id\":\"agon-y\",\"game\":\"agon\"",
        "{\"id\":\"chess-m1\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 w - "
        "- 0 1\",\"moves\":[\"a1a8\"],\"themes\":[],\"rating\":900}"};
    static const char *const says[] = {"agon.jsonl line 1: not a JSON object",
                                       "agon.jsonl line 1: a puzzle of another game"};
    for (int i = 0; i < 2; i++) {
        f = fopen(path, "w");
        fprintf(f, "%s\n", lines[i]);
        fclose(f);
        err[0] = 0;
        srv = server_start(&cfg, err, sizeof err);
        CHECK(srv == NULL);
        CHECK_MSG(strstr(err, says[i]) != NULL, "%s", err);
        server_stop(srv);
    }
    test_rmdir(dir);
}

/* A promotion puzzle (from the shipped set): the server judges the piece too; a knight
 * instead of the solution's queen is a failed attempt, the queen solves it. */
TEST(server_puzzles_promotion_piece_judged)
{
    char dir[256], db[300], path[300];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/p.db", dir);
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"id\":\"chess-promote\",\"game\":\"chess\",\"position\":\"8/8/2n5/1k6/8/8/Kp6/2q5 b "
          "- - 9 90\",\"moves\":[\"b2b1q\"],\"themes\":[\"mate-in-1\",\"promotion\"],"
          "\"rating\":780}\n",
          f);
    fclose(f);
    struct server *srv = start(db, dir);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    const char *tried[] = {"[\"b2b1n\"]", "[\"b2b1r\"]", "[\"b2b1q\"]"};
    const bool solved[] = {false, false, true};
    for (int i = 0; i < 3; i++) {
        json_t *j = NULL;
        CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", NULL, NULL, &j), 200);
        char token[64];
        snprintf(token, sizeof token, "%s", fx_str(j, "token"));
        CHECK_STR(fx_str(json_object_get(j, "puzzle"), "id"), "chess-promote");
        json_decref(j);
        CHECK_EQ_INT(attempt(port, token, "chess-promote", tried[i], &j), 200);
        CHECK(json_is_true(json_object_get(j, "solved")) == solved[i]);
        CHECK(json_is_true(json_object_get(j, "counted")));
        json_decref(j);
    }
    server_stop(srv);
    test_rmdir(dir);
}
