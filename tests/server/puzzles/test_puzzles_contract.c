/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: the next puzzle answers the player's `streak` beside `player`
 * as API.md's table has it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

TEST(server_contract_next_puzzle_has_the_streak)
{
    char dir[256], path[512];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "{\"id\":\"chess-m1\",\"game\":\"chess\",\"position\":\"6k1/5ppp/8/8/8/8/8/R5K1 w "
               "- - 0 1\",\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":900}\n");
    fclose(f);
    snprintf(path, sizeof path, "%s/a.db", dir);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.db_path = path;
    cfg.puzzles_dir = dir;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.puzzle_read_ms = -1; /* attempts at once (the 2 s rule: test_attempts_fair.c) */
    struct server *srv = fx_start(&cfg);
    CHECK(srv != NULL);
    if (!srv) {
        test_rmdir(dir);
        return;
    }
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", NULL, NULL, &j), 200);
    char tok[40];
    snprintf(tok, sizeof tok, "%s", fx_str(j, "token"));
    CHECK(json_is_integer(json_object_get(j, "streak")));
    CHECK_EQ_INT(fx_int(j, "streak"), 0);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "streak"), 0);
    json_decref(j);
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/puzzles/chess-m1/attempts", tok, "{\"moves\":[\"Ra8#\"]}", &j),
        200);
    CHECK(json_is_true(json_object_get(j, "solved")));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/puzzles/next?game=chess", tok, NULL, &j), 200);
    CHECK_EQ_INT(fx_int(j, "streak"), 1);
    CHECK_EQ_INT(fx_int(json_object_get(j, "player"), "streak"), 1);
    json_decref(j);
    server_stop(srv);
    test_rmdir(dir);
}
