/* The analysis board's API (src/server/API.md, "Analysis") against real servers on
 * loopback: bare positions, the stream of engine lines and its limits, reviews of
 * games and of imported records, stored across a restart.  Node budgets are small
 * (server_config's analysis_nodes_cap and review_nodes) to keep the tests short. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "games/registry.h"
#include "server/server.h"

#define MATE_IN_ONE "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"

static struct server *start_analysis_server_ms(const char *db, int per_client, int total,
                                               int64_t nodes_cap, int64_t analysis_ms)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.db_path = db;
    cfg.trust_proxy = 1; /* the tests choose client addresses by X-Forwarded-For */
    cfg.analysis_threads = 2;
    cfg.analysis_per_client = per_client;
    cfg.analysis_max = total;
    cfg.analysis_nodes_cap = nodes_cap;
    cfg.review_nodes = 3000;
    cfg.analysis_ms = analysis_ms;
    return fx_start(&cfg);
}

static struct server *start_analysis_server(const char *db, int per_client, int total,
                                            int64_t nodes_cap)
{
    return start_analysis_server_ms(db, per_client, total, nodes_cap, 10000);
}

TEST(server_positions_are_the_games_positions)
{
    struct server *srv = start_analysis_server(":memory:", 2, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    const struct game *g = game_find("egara");
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"egara\",\"moves\":[\"c3-d4\"]}", &j),
                 200);
    /* The legal moves are the game's own after the same move. */
    void *st = game_state_new(g);
    g->start(st);
    Move m, moves[256];
    char err[256], text[MOVE_TEXT_MAX];
    CHECK(g->parse_move(st, "c3-d4", &m, err, sizeof err) == 0);
    g->make_move(st, m);
    int n = g->gen_moves(st, moves);
    json_t *lm = json_object_get(j, "legal_moves");
    CHECK_EQ_INT((int)json_array_size(lm), n);
    for (int i = 0; i < n; i++) {
        g->move_text(st, moves[i], text, sizeof text);
        bool found = false;
        for (size_t k = 0; k < json_array_size(lm); k++)
            found |= !strcmp(fx_str(json_array_get(lm, k), "move"), text);
        CHECK_MSG(found, "legal move %s missing", text);
    }
    char pos[POSITION_TEXT_MAX];
    g->write_position(st, pos, sizeof pos);
    CHECK_STR(fx_str(j, "position"), pos);
    CHECK_STR(fx_str(j, "game"), "egara-guti");
    CHECK_EQ_INT((int)json_integer_value(json_object_get(j, "ply")), 1);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "moves")), 1);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "board")), 23);
    CHECK(json_is_object(json_object_get(j, "status")) &&
          json_is_array(json_object_get(j, "claims")));
    CHECK(!json_object_get(j, "id") && !json_object_get(j, "level"));
    free(st);
    json_decref(j);

    /* A bad move is named by its number and text; bad JSON and a bad position too. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"egara\",\"moves\":[\"c3-d4\",\"zz-zz\"]}", &j),
                 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "move 2 'zz-zz'") != NULL, "error: %s",
              fx_str(j, "error"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL, "{\"game\":", &j), 400);
    CHECK(strstr(fx_str(j, "error"), "malformed JSON") != NULL);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"egara\",\"position\":\"nonsense\"}", &j),
                 400);
    CHECK(strstr(fx_str(j, "error"), "bad \"position\"") != NULL);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL, "{\"game\":\"go\"}", &j), 400);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/positions", NULL, NULL, &j), 405);
    json_decref(j);
    server_stop(srv);
}

/* A record read into a position by the game's own reader: its start and main line
 * (its variations and comments in "tree" alone); the record's game by its Variant tag;
 * a bad move named, in the main line or in a variation. */
TEST(server_positions_read_records)
{
    struct server *srv = start_analysis_server(":memory:", 2, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"[Event \\\"x\\\"]\\n\\n"
                          "1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *\"}",
                          &j),
                 200);
    json_t *mv = json_object_get(j, "moves");
    CHECK_EQ_INT((int)json_array_size(mv), 4);
    CHECK_STR(fx_str(json_array_get(mv, 3), "display"), "Nc6");
    CHECK_STR(fx_str(json_array_get(mv, 0), "move"), "e2e4");
    CHECK(json_is_null(json_object_get(j, "start_position")));
    CHECK_EQ_INT((int)json_integer_value(json_object_get(j, "ply")), 4);
    /* The whole tree: the main line, e5's variation c5 with its comment. */
    json_t *tree = json_object_get(j, "tree");
    CHECK_EQ_INT((int)json_array_size(tree), 4);
    CHECK_STR(fx_str(json_array_get(tree, 0), "comment"), "best");
    json_t *vars = json_object_get(json_array_get(tree, 1), "variations");
    CHECK_EQ_INT((int)json_array_size(vars), 1);
    CHECK_EQ_INT((int)json_array_size(json_array_get(vars, 0)), 2);
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 1), "display"), "Nf3");
    json_decref(j);
    /* The other games' records name their game; a start of their own is kept. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"record\":\"[Variant \\\"egara-guti\\\"]\\n[SetUp \\\"1\\\"]\\n"
                          "[FEN \\\"5/3/3/B/W1W/3/5 w\\\"]\\n\\n1. c3xe5 *\"}",
                          &j),
                 200);
    CHECK_STR(fx_str(j, "game"), "egara-guti");
    CHECK(json_is_string(json_object_get(j, "start_position")));
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "moves")), 1);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"1. e4 e5 2. Ke3 *\"}", &j),
                 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "Ke3") != NULL, "error: %s", fx_str(j, "error"));
    json_decref(j);
    /* A bad move inside a variation is a 400 naming it; the main line alone is fine. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"1. e4 e5 (1... c5 2. Nf3 "
                          "(2. Ke3)) 2. Nf3 *\"}",
                          &j),
                 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "move 2. Ke3 in a variation") != NULL, "error: %s",
              fx_str(j, "error"));
    json_decref(j);
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/positions", NULL, "{\"game\":\"chess\",\"record\":7}", &j),
        400);
    json_decref(j);
    server_stop(srv);
}

/* The tree of a record (every variation, nested, and every comment) beside its main
 * line, for chess and for the other games; a position without a record has none. */
TEST(server_positions_record_tree)
{
    struct server *srv = start_analysis_server(":memory:", 2, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"[Event \\\"x\\\"]\\n\\n"
                          "1. e4 {good \\u00e9lan} e5 (1... c5 {Sicilian} 2. Nf3 (2. Nc3 {closed} "
                          "Nc6) d6) (1... e6) 2. Nf3 Nc6 *\"}",
                          &j),
                 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "moves")), 4);
    CHECK(json_array_size(json_object_get(j, "legal_moves")) > 0);
    json_t *tree = json_object_get(j, "tree");
    CHECK_EQ_INT((int)json_array_size(tree), 4);
    json_t *e4 = json_array_get(tree, 0), *e5 = json_array_get(tree, 1);
    CHECK_STR(fx_str(e4, "move"), "e2e4");
    CHECK_STR(fx_str(e4, "display"), "e4");
    CHECK_STR(fx_str(e4, "comment"), "good \xc3\xa9lan");
    CHECK_EQ_INT((int)json_array_size(json_object_get(e4, "variations")), 0);
    CHECK_STR(fx_str(e5, "comment"), "");
    json_t *vars = json_object_get(e5, "variations");
    CHECK_EQ_INT((int)json_array_size(vars), 2);
    json_t *sicilian = json_array_get(vars, 0);
    CHECK_EQ_INT((int)json_array_size(sicilian), 3);
    CHECK_STR(fx_str(json_array_get(sicilian, 0), "move"), "c7c5");
    CHECK_STR(fx_str(json_array_get(sicilian, 0), "comment"), "Sicilian");
    json_t *nf3 = json_array_get(sicilian, 1);
    CHECK_STR(fx_str(nf3, "display"), "Nf3");
    json_t *inner = json_array_get(json_object_get(nf3, "variations"), 0);
    CHECK_EQ_INT((int)json_array_size(inner), 2);
    CHECK_STR(fx_str(json_array_get(inner, 0), "display"), "Nc3");
    CHECK_STR(fx_str(json_array_get(inner, 0), "comment"), "closed");
    CHECK_STR(fx_str(json_array_get(inner, 1), "move"), "b8c6");
    CHECK_STR(fx_str(json_array_get(sicilian, 2), "display"), "d6");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 1), 0), "display"), "e6");
    CHECK_STR(fx_str(json_array_get(tree, 3), "display"), "Nc6");
    json_decref(j);

    /* Egara-guti and Agon: their move texts, a variation each. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"record\":\"[Variant \\\"egara-guti\\\"]\\n\\n1. c3-d4 "
                          "(1. d3-d4 {centre}) e5xc3 2. b2xd4 d5-e5 (2... f6-e5) *\"}",
                          &j),
                 200);
    CHECK_STR(fx_str(j, "game"), "egara-guti");
    tree = json_object_get(j, "tree");
    CHECK_EQ_INT((int)json_array_size(tree), 4);
    vars = json_object_get(json_array_get(tree, 0), "variations");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 0), "move"), "d3-d4");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 0), "comment"), "centre");
    vars = json_object_get(json_array_get(tree, 3), "variations");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 0), "move"), "f6-e5");
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"agon\",\"record\":\"1. a5-a4 (1. a5-a6 {or}) *\"}", &j),
                 200);
    tree = json_object_get(j, "tree");
    CHECK_EQ_INT((int)json_array_size(tree), 1);
    vars = json_object_get(json_array_get(tree, 0), "variations");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 0), "move"), "a5-a6");
    CHECK_STR(fx_str(json_array_get(json_array_get(vars, 0), 0), "comment"), "or");
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"agon\",\"record\":\"1. a5-a4 (1. a5-a6 zz-top) *\"}", &j),
                 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "move 1... zz-top in a variation") != NULL, "error: %s",
              fx_str(j, "error"));
    json_decref(j);
    /* A record without moves: an empty tree; a bare position: none. */
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/positions", NULL, "{\"game\":\"chess\",\"record\":\"*\"}", &j),
        200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "tree")), 0);
    CHECK(json_is_array(json_object_get(j, "tree")));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"moves\":[\"e2e4\"]}", &j),
                 200);
    CHECK(json_object_get(j, "tree") == NULL);
    json_decref(j);
    server_stop(srv);
}

TEST(server_analysis_streams_lines_then_done)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct server *srv = start_analysis_server(":memory:", 2, 4, 30000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct sse_reader r;
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis",
                          "{\"game\":\"chess\",\"position\":\"" MATE_IN_ONE
                          "\",\"multipv\":3,\"nodes\":20000}",
                          NULL),
                 200);
    char event[32];
    int lines = 0;
    json_t *done = NULL;
    for (char *data; (data = sse_next(&r, event, sizeof event, 20000));) {
        json_t *j = json_loads(data, 0, NULL);
        free(data);
        CHECK(j != NULL);
        if (!strcmp(event, "line")) {
            CHECK_MSG(!done, "a line after done");
            lines++;
            json_decref(j);
        } else if (!strcmp(event, "done")) {
            done = j;
        } else {
            json_decref(j);
        }
    }
    CHECK_MSG(lines > 0, "no line before done");
    CHECK(done != NULL);
    json_t *ls = json_object_get(done, "lines");
    CHECK_EQ_INT((int)json_array_size(ls), 3);
    json_t *best = json_array_get(ls, 0);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(best, "mate")), 1);
    CHECK_STR(json_string_value(json_array_get(json_object_get(best, "pv"), 0)), "a1a8");
    CHECK_STR(json_string_value(json_array_get(json_object_get(best, "pv_display"), 0)), "Ra8#");
    CHECK(json_real_value(json_object_get(best, "win")) > 0.99);
    for (size_t a = 0; a < 3; a++)
        for (size_t b = a + 1; b < 3; b++)
            CHECK(strcmp(json_string_value(
                             json_array_get(json_object_get(json_array_get(ls, a), "pv"), 0)),
                         json_string_value(json_array_get(
                             json_object_get(json_array_get(ls, b), "pv"), 0))) != 0);
    json_decref(done);
    sse_close(&r);

    /* Refused bodies are 400s naming the field. */
    json_t *j = NULL;
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/analysis", NULL, "{\"game\":\"chess\",\"multipv\":6}", &j),
        400);
    CHECK(strstr(fx_str(j, "error"), "multipv") != NULL);
    json_decref(j);
    CHECK_EQ_INT(
        api_call(port, "POST", "/api/analysis", NULL, "{\"game\":\"chess\",\"nodes\":-5}", &j),
        400);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/analysis", NULL,
                          "{\"game\":\"chess\",\"moves\":[\"e2e5\"]}", &j),
                 400);
    CHECK(strstr(fx_str(j, "error"), "move 1 'e2e5'") != NULL);
    json_decref(j);
    server_stop(srv);
}

TEST(server_analysis_limits_and_early_close)
{
    /* Long analyses (a large node cap, the default time cap): two from one address
     * run, a third is refused (429); another address gets one, a fourth in all is
     * refused (503).  A client that closes its stream stops its search: the slot
     * frees long before the analysis would have ended, and the server answers
     * meanwhile. */
    struct server *srv = start_analysis_server(":memory:", 2, 3, 200000000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static const char body[] = "{\"game\":\"egara\",\"nodes\":200000000}";
    struct sse_reader a1, a2, a3, b1, c1;
    CHECK_EQ_INT(sse_post(&a1, port, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 200);
    CHECK_EQ_INT(sse_post(&a2, port, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 200);
    CHECK_EQ_INT(sse_post(&a3, port, "/api/analysis", body, "X-Forwarded-For: 10.0.0.1\r\n"), 429);
    CHECK(strstr(a3.buf, "too many analyses") != NULL);
    CHECK_EQ_INT(sse_post(&b1, port, "/api/analysis", body, "X-Forwarded-For: 10.0.0.2\r\n"), 200);
    CHECK_EQ_INT(sse_post(&c1, port, "/api/analysis", body, "X-Forwarded-For: 10.0.0.3\r\n"), 503);
    sse_close(&a3);
    sse_close(&c1);
    char event[32];
    char *data = sse_next(&a1, event, sizeof event, 20000);
    CHECK_MSG(data && !strcmp(event, "line"), "no first line");
    free(data);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/catalog", NULL, NULL, &j), 200);
    json_decref(j);
    int64_t t0 = fx_now_ms();
    sse_close(&a1);
    sse_close(&a2);
    sse_close(&b1);
    /* Freed once the searches see their streams gone (at their next line). */
    int status = 0;
    struct sse_reader again;
    while (fx_now_ms() - t0 < 8000) {
        status = sse_post(&again, port, "/api/analysis", "{\"game\":\"egara\",\"nodes\":1000}",
                          "X-Forwarded-For: 10.0.0.1\r\n");
        if (status == 200)
            break;
        sse_close(&again);
        usleep(100 * 1000);
    }
    CHECK_EQ_INT(status, 200);
    fprintf(stderr, "    analysis slots freed %lld ms after the clients closed\n",
            (long long)(fx_now_ms() - t0));
    int done = 0;
    for (char *d; (d = sse_next(&again, event, sizeof event, 20000)); free(d))
        done += !strcmp(event, "done");
    CHECK_EQ_INT(done, 1);
    sse_close(&again);
    server_stop(srv);
}

TEST(server_analysis_ends_at_its_time_cap)
{
    /* A budget of nodes far beyond the time cap: the stream ends (done, with lines of
     * several depths) soon after the cap, its lines as deep as the time allowed. */
    struct server *srv = start_analysis_server_ms(":memory:", 2, 4, 200000000, 300);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct sse_reader r;
    int64_t t0 = fx_now_ms();
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis",
                          "{\"game\":\"egara\",\"multipv\":2,\"nodes\":200000000}", NULL),
                 200);
    char event[32];
    json_t *done = NULL;
    for (char *data; (data = sse_next(&r, event, sizeof event, 20000)); free(data))
        if (!strcmp(event, "done"))
            done = json_loads(data, 0, NULL);
    int64_t took = fx_now_ms() - t0;
    CHECK(done != NULL);
    CHECK_MSG(took < 5000, "took %lld ms", (long long)took);
    json_t *ls = json_object_get(done, "lines");
    CHECK_EQ_INT((int)json_array_size(ls), 2);
    for (size_t i = 0; i < json_array_size(ls); i++)
        CHECK(json_integer_value(json_object_get(json_array_get(ls, i), "depth")) > 1);
    json_decref(done);
    sse_close(&r);
    server_stop(srv);
}

/* Poll `path` until its review is done (or timeout_ms); the body, or NULL. */
static json_t *wait_review(int port, const char *path, int timeout_ms)
{
    int64_t t0 = fx_now_ms();
    while (fx_now_ms() - t0 < timeout_ms) {
        json_t *j = NULL;
        if (api_call(port, "GET", path, NULL, NULL, &j) == 200 &&
            !strcmp(fx_str(j, "status"), "done"))
            return j;
        json_decref(j);
        usleep(50 * 1000);
    }
    return NULL;
}

TEST(server_review_of_a_game_is_stored)
{
    char dir[64], db[128], id[40], token[40], path[128];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/review.db", dir);
    struct server *srv = start_analysis_server(db, 2, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL,
                          "{\"game\":\"egara\",\"level\":1,\"side\":\"white\"}", &j),
                 201);
    snprintf(id, sizeof id, "%s", fx_str(j, "id"));
    snprintf(token, sizeof token, "%s", fx_str(j, "token"));
    json_decref(j);
    for (int k = 0; k < 2; k++) {
        json_t *s = api_get_state(port, id);
        const char *mv = fx_str(json_array_get(json_object_get(s, "legal_moves"), 0), "move");
        char m[32];
        snprintf(m, sizeof m, "%s", mv);
        json_decref(s);
        CHECK_EQ_INT(api_post_move(port, id, token, m, NULL), 200);
    }
    snprintf(path, sizeof path, "/api/games/%s/review", id);
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
    CHECK_STR(fx_str(j, "status"), "none");
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, NULL, &j), 202);
    CHECK_STR(fx_str(j, "status"), "running");
    CHECK_EQ_INT((int)json_integer_value(json_object_get(j, "total")), 5);
    json_decref(j);
    /* A second POST while it runs answers the running one (202) or, done, the review. */
    int again = api_call(port, "POST", path, NULL, NULL, &j);
    CHECK(again == 202 || again == 200);
    json_decref(j);
    json_t *rv = wait_review(port, path, 60000);
    CHECK(rv != NULL);
    json_t *plies = json_object_get(rv, "plies");
    CHECK_EQ_INT((int)json_array_size(plies), 4);
    static const char *const classes[] = {"best", "good", "inaccuracy", "mistake", "blunder"};
    for (size_t i = 0; i < json_array_size(plies); i++) {
        const char *c = fx_str(json_array_get(plies, i), "class");
        bool known = false;
        for (int k = 0; k < 5; k++)
            known |= !strcmp(c, classes[k]);
        CHECK_MSG(known, "ply %zu class '%s'", i + 1, c);
        CHECK(json_is_string(json_object_get(json_array_get(plies, i), "best")));
    }
    CHECK(json_is_number(json_object_get(json_object_get(rv, "accuracy"), "white")));
    CHECK_EQ_INT(
        (int)json_integer_value(json_object_get(json_object_get(rv, "thresholds"), "blunder")), 30);
    char *first = json_dumps(rv, JSON_SORT_KEYS);
    json_decref(rv);
    server_stop(srv);

    /* After a restart: at once, the same review, without a POST. */
    srv = start_analysis_server(db, 2, 4, 20000);
    CHECK(srv != NULL);
    if (srv) {
        port = server_port(srv);
        int64_t t0 = fx_now_ms();
        CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &j), 200);
        int64_t took = fx_now_ms() - t0;
        CHECK_STR(fx_str(j, "status"), "done");
        char *second = json_dumps(j, JSON_SORT_KEYS);
        CHECK(first && second && !strcmp(first, second));
        CHECK_MSG(took < 2000, "took %lld ms", (long long)took);
        free(second);
        json_decref(j);
        CHECK_EQ_INT(api_call(port, "POST", path, NULL, NULL, &j), 200);
        json_decref(j);
        server_stop(srv);
    }
    free(first);
    test_rmdir(dir);
}

TEST(server_review_of_an_imported_record)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct server *srv = start_analysis_server(":memory:", 2, 4, 20000);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/reviews", NULL,
                          "{\"game\":\"chess\",\"record\":\"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. "
                          "Qxf9# 1-0\"}",
                          &j),
                 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "Qxf9") != NULL, "error: %s", fx_str(j, "error"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/reviews", NULL, "{\"record\":5}", &j), 400);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/reviews", NULL,
                          "{\"record\":\"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\"}", &j),
                 202);
    char path[128];
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    CHECK_STR(fx_str(j, "game"), "chess");
    json_decref(j);
    json_t *rv = wait_review(port, path, 60000);
    CHECK(rv != NULL);
    json_t *plies = json_object_get(rv, "plies");
    CHECK_EQ_INT((int)json_array_size(plies), 7);
    CHECK_STR(fx_str(json_array_get(plies, 6), "display"), "Qxf7#");
    /* Black's 3...Nf6 allows the mate: the worst class there is. */
    CHECK_STR(fx_str(json_array_get(plies, 5), "class"), "blunder");
    json_decref(rv);
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/reviews/0123456789abcdef0123456789abcdef", NULL, NULL, &j),
        404);
    json_decref(j);
    server_stop(srv);
}
