/* The analysis board's endgame tables (src/server/API.md, "Analysis"): an Egara-guti
 * position inside the tables gets the tables' verdict in every event of its analysis
 * ("wins in 9", "loses in 32", "draw"), the 40-ply count included; a position outside
 * them, or a server without tables, gets none.  Small tables are made in a temporary
 * folder (tests/tb_fixture.c). */
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../../tb_fixture.h"
#include "../fixture.h"
#include "engines/egara_tablebase.h"
#include "server/server.h"

/* The "tablebase" object of the done event of an analysis of `position` (a new
 * reference, or NULL when the event has none); every line event must carry the same. */
static json_t *verdict_of(struct test_ctx *t__, int port, const char *position)
{
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"egara\",\"position\":\"%s\",\"nodes\":2000}",
             position);
    struct sse_reader r;
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis", body, NULL), 200);
    char event[32];
    json_t *verdict = NULL;
    int done = 0;
    for (char *data; (data = sse_next(&r, event, sizeof event, 20000));) {
        json_t *j = json_loads(data, 0, NULL);
        free(data);
        CHECK(j != NULL);
        json_t *tb = j ? json_object_get(j, "tablebase") : NULL;
        if (!done && !strcmp(event, "done")) {
            done = 1;
            verdict = tb ? json_incref(tb) : NULL;
        }
        json_decref(j);
    }
    sse_close(&r);
    CHECK_MSG(done, "%s: no done event", position);
    return verdict;
}

static void check_verdict(struct test_ctx *t__, int port, const char *position, const char *result,
                          int plies, const char *text)
{
    json_t *v = verdict_of(t__, port, position);
    CHECK_MSG(v != NULL, "%s: no tablebase verdict", position);
    if (!v)
        return;
    CHECK_STR(fx_str(v, "result"), result);
    CHECK_EQ_INT((int)json_integer_value(json_object_get(v, "plies")), plies);
    CHECK_STR(fx_str(v, "text"), text);
    json_decref(v);
}

TEST(server_analysis_says_the_tables_verdict)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    egara_tablebase_dir(dir);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.analysis_threads = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv) {
        egara_tablebase_dir(NULL);
        SKIP("no server");
    }
    int port = server_port(srv);
    check_verdict(t__, port, "5/3/3/1/3/1B1/W2W1 w 0", "win", 9, "wins in 9");
    check_verdict(t__, port, "B4/3/3/1/3/3/WW3 b 0", "loss", 32, "loses in 32");
    check_verdict(t__, port, "B4/3/3/1/3/3/WW3 b 30", "loss", 10, "loses in 10");
    check_verdict(t__, port, "5/3/3/1/1B1/1W1/W4 b 0", "draw", 0, "draw");
    /* the 40-ply count: a win at quiet count 36 is a draw at 37 */
    check_verdict(t__, port, "5/3/3/B/B2/3/WW3 w 36", "win", 5, "wins in 5");
    check_verdict(t__, port, "5/3/3/B/B2/3/WW3 w 37", "draw", 0, "draw");
    /* outside the tables (five pieces, the start), and a server without tables */
    CHECK(verdict_of(t__, port, "5/3/3/B/B2/3/WWW2 w 0") == NULL);
    CHECK(verdict_of(t__, port, "BBBBB/BBB/BBB/1/WWW/WWW/WWWWW w 0") == NULL);
    egara_tablebase_dir(NULL);
    CHECK(verdict_of(t__, port, "5/3/3/1/3/1B1/W2W1 w 0") == NULL);
    server_stop(srv);
}

/* The "proof" object of the done event of an Agon analysis (NULL: none). */
static json_t *proof_of(struct test_ctx *t__, int port, const char *position)
{
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"agon\",\"position\":\"%s\",\"nodes\":2000}", position);
    struct sse_reader r;
    CHECK_EQ_INT(sse_post(&r, port, "/api/analysis", body, NULL), 200);
    json_t *done = fx_event(&r, "done", 20000);
    sse_close(&r);
    CHECK_MSG(done != NULL, "%s: no done event", position);
    json_t *proof = done ? json_object_get(done, "proof") : NULL;
    if (proof)
        json_incref(proof);
    json_decref(done);
    return proof;
}

/* Agon: the proof search's forced formation ("formation in N", N plies, the side to
 * move forming) in the analysis events; none at the start. */
TEST(server_analysis_says_formation_in_n)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.analysis_threads = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static const struct {
        const char *position, *text;
        int plies;
    } cases[] = {
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/5G3/8/7/6 w", "formation in 1", 1},
        {"qggggg/g6/8/9/4GG4/4GQG4/4G5/9/5G2/7/6 w", "formation in 3", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *p = proof_of(t__, port, cases[i].position);
        CHECK_MSG(p != NULL, "%s: no proof", cases[i].position);
        if (!p)
            continue;
        CHECK_STR(fx_str(p, "word"), "formation");
        CHECK_EQ_INT((int)json_integer_value(json_object_get(p, "plies")), cases[i].plies);
        CHECK_STR(fx_str(p, "text"), cases[i].text);
        json_decref(p);
    }
    CHECK(proof_of(t__, port, "1g2G1/G5g/8/g7G/10/Q9q/10/g7G/8/G5g/1g2G1 w") == NULL);
    server_stop(srv);
}
