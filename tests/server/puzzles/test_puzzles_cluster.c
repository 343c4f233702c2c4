/* Puzzles on several servers (issue 26): two servers on one PostgreSQL, one puzzle.
 * Attempts counted through either server all count (each server keeps the puzzles'
 * ratings in memory; one whose copy is behind reads the store again rather than
 * storing a rating computed from a stale count over another server's), and an
 * address's new puzzle players a minute are counted on both servers together.  On
 * SQLite a database has one server: skipped there. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/puzzles/puzzle_set.h"
#include "server/server.h"

#define MATE1 "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
#define MATE1B "6k1/5ppp/8/8/8/8/8/1R4K1 w - - 0 1"

static void write_one_puzzle(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "{\"id\":\"chess-m1\",\"game\":\"chess\",\"position\":\"" MATE1 "\","
               "\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":1500}\n");
    fclose(f);
}

/* The two servers, with the puzzles of dir. */
static int pc_pair(char *url, size_t url_size, const char *dir, struct server **a,
                   struct server **b)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.puzzles_dir = dir;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.puzzle_read_ms = -1; /* no wait to read: attempts at once */
    return fx_start_pair(&cfg, url, url_size, a, b);
}

/* A new player's first puzzle on the server at port: the status; its token. */
static int pc_next(int port, char *token)
{
    json_t *j = NULL;
    int st = api_call(port, "GET", "/api/puzzles/next?game=chess", NULL, NULL, &j);
    snprintf(token, 40, "%s",
             json_is_string(json_object_get(j, "token")) ? fx_str(j, "token") : "");
    json_decref(j);
    return st;
}

/* The solution through the server at port: the puzzle's attempts after it (-1: not 200). */
static long long pc_solve(int port, const char *token)
{
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/puzzles/chess-m1/attempts", token,
                      "{\"moves\":[\"a1a8\"]}", &j);
    long long n = st == 200 && json_is_true(json_object_get(j, "counted"))
                      ? fx_int(json_object_get(j, "puzzle"), "attempts")
                      : -1;
    json_decref(j);
    return n;
}

TEST(server_cluster_puzzle_attempts_all_count)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (several servers share a PostgreSQL)");
    char dir[] = "/tmp/agora-pz-cluster-XXXXXX";
    if (!mkdtemp(dir))
        SKIP("no temporary folder");
    write_one_puzzle(dir);
    char url[1024];
    struct server *a, *b;
    if (pc_pair(url, sizeof url, dir, &a, &b) != 0)
        SKIP("no servers");
    int ports[2] = {server_port(a), server_port(b)};
    /* Six players, each solving through the server the other did not serve them from. */
    for (int i = 0; i < 6; i++) {
        char token[40];
        CHECK_EQ_INT(pc_next(ports[i % 2], token), 200);
        CHECK_EQ_INT(pc_solve(ports[(i + 1) % 2], token), i + 1);
    }
    server_stop(b);
    server_stop(a);
    char path[600];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    remove(path);
    rmdir(dir);
}

TEST(server_cluster_new_puzzle_players_counted_on_both_servers)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (several servers share a PostgreSQL)");
    char dir[] = "/tmp/agora-pz-cluster-XXXXXX";
    if (!mkdtemp(dir))
        SKIP("no temporary folder");
    write_one_puzzle(dir);
    char url[1024];
    struct server *a, *b;
    if (pc_pair(url, sizeof url, dir, &a, &b) != 0)
        SKIP("no servers");
    int ports[2] = {server_port(a), server_port(b)};
    char token[40];
    for (int i = 0; i < PUZZLE_TOKENS_PER_MINUTE; i++)
        CHECK_EQ_INT(pc_next(ports[i % 2], token), 200);
    /* The address's minute is spent on both servers together. */
    CHECK_EQ_INT(pc_next(ports[0], token), 429);
    CHECK_EQ_INT(pc_next(ports[1], token), 429);
    server_stop(b);
    server_stop(a);
    char path[600];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    remove(path);
    rmdir(dir);
}

/* The next puzzle of `theme` for the token (NULL: a new player, whose token is written
 * to new_token) on the server at port: the puzzle's attempts as that server has them
 * (-1: not 200, or another puzzle than `want`). */
static long long pc_next_of(int port, const char *theme, const char *want, char *new_token)
{
    char path[128];
    snprintf(path, sizeof path, "/api/puzzles/next?game=chess&theme=%s", theme);
    json_t *j = NULL;
    int st = api_call(port, "GET", path, NULL, NULL, &j);
    json_t *p = json_object_get(j, "puzzle");
    long long n = st == 200 && !strcmp(fx_str(p, "id"), want) ? fx_int(p, "attempts") : -1;
    snprintf(new_token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return n;
}

/* Puzzle `id` solved with `move` through the server at port: its attempts after it. */
static long long pc_solve_of(int port, const char *token, const char *id, const char *move)
{
    char path[128], body[64];
    snprintf(path, sizeof path, "/api/puzzles/%s/attempts", id);
    snprintf(body, sizeof body, "{\"moves\":[\"%s\"]}", move);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, token, body, &j);
    long long n = st == 200 && json_is_true(json_object_get(j, "counted"))
                      ? fx_int(json_object_get(j, "puzzle"), "attempts")
                      : -1;
    json_decref(j);
    return n;
}

/* An attempt that meets another server's (the store's conditional write refused) reads
 * that one puzzle's rating again, not every puzzle's: the other puzzle's copy on that
 * server stays as it was until an attempt of its own meets the store. */
TEST(server_cluster_puzzle_conflict_rereads_only_its_puzzle)
{
    if (!fx_on_postgres())
        SKIP("SQLite: one server a database (several servers share a PostgreSQL)");
    char dir[] = "/tmp/agora-pz-cluster-XXXXXX";
    if (!mkdtemp(dir))
        SKIP("no temporary folder");
    char path[600];
    snprintf(path, sizeof path, "%s/chess.jsonl", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "{\"id\":\"chess-m1\",\"game\":\"chess\",\"position\":\"" MATE1 "\","
                   "\"moves\":[\"a1a8\"],\"themes\":[\"mate-in-1\"],\"rating\":1500}\n");
        fprintf(f, "{\"id\":\"chess-m2\",\"game\":\"chess\",\"position\":\"" MATE1B "\","
                   "\"moves\":[\"b1b8\"],\"themes\":[\"endgame\"],\"rating\":1500}\n");
        fclose(f);
    }
    char url[1024];
    struct server *a, *b;
    if (pc_pair(url, sizeof url, dir, &a, &b) != 0)
        SKIP("no servers");
    int pa = server_port(a), pb = server_port(b);
    char t1[40], t2[40], t3[40], t4[40];
    /* Through A: one attempt of each puzzle; B has heard of neither. */
    CHECK_EQ_INT(pc_next_of(pa, "endgame", "chess-m2", t1), 0);
    CHECK_EQ_INT(pc_solve_of(pa, t1, "chess-m2", "b1b8"), 1);
    CHECK_EQ_INT(pc_next_of(pa, "mate-in-1", "chess-m1", t2), 0);
    CHECK_EQ_INT(pc_solve_of(pa, t2, "chess-m1", "a1a8"), 1);
    /* Through B: m1's attempt meets A's, m1 is read again and the attempt counted. */
    CHECK_EQ_INT(pc_next_of(pb, "mate-in-1", "chess-m1", t3), 0);
    CHECK_EQ_INT(pc_solve_of(pb, t3, "chess-m1", "a1a8"), 2);
    /* m2 on B is as it was (read for every puzzle before, it said 1 here). */
    CHECK_EQ_INT(pc_next_of(pb, "endgame", "chess-m2", t4), 0);
    /* Its own attempt meets the store in turn and counts. */
    CHECK_EQ_INT(pc_solve_of(pb, t4, "chess-m2", "b1b8"), 2);
    server_stop(b);
    server_stop(a);
    remove(path);
    rmdir(dir);
}
