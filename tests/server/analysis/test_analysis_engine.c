/* The external analysis engine behind the server (API.md, "Analysis", "Reviews"):
 * the analysis stream and the stored review say which engine judged, and when the
 * external engine is missing or fails, agora's own judges and "engine_error" says why.
 * Fake engines (tests/fake_uci.h) with short timeouts keep it quick. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../fake_uci.h"
#include "../../harness.h"
#include "../fixture.h"
#include "games/registry.h"
#include "server/server.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define STOCKFISH "/usr/games/stockfish"

/* A fake engine's silence is cut short (1 s); a real one gets the default.  Not niced:
 * a shell script at nice 19 on a loaded test machine may wait longer than that. */
static struct server *engine_server(const char *engine)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.analysis_engine = engine;
    cfg.analysis_engines = 1;
    cfg.analysis_engine_ms = strcmp(engine, STOCKFISH) ? 1000 : 0;
    cfg.analysis_nice = 0;
    cfg.analysis_nodes_cap = 20000;
    cfg.review_nodes = 3000;
    return fx_start(&cfg);
}

/* The done event of an analysis of the start position (NULL when none came). */
static json_t *analyse_start(int port)
{
    struct sse_reader r;
    if (sse_post(&r, port, "/api/analysis",
                 "{\"game\":\"chess\",\"position\":\"" START_FEN "\",\"multipv\":2}", NULL) != 200)
        return NULL;
    char event[32];
    json_t *done = NULL;
    for (char *data; (data = sse_next(&r, event, sizeof event, 20000));) {
        json_t *j = json_loads(data, 0, NULL);
        free(data);
        if (!strcmp(event, "done")) {
            json_decref(done);
            done = j;
        } else {
            json_decref(j);
        }
    }
    sse_close(&r);
    return done;
}

TEST(server_analysis_engine_named_and_fallback)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    char works[512], crash[512];
    if (!fake_uci_path("works", works, sizeof works) ||
        !fake_uci_path("crash", crash, sizeof crash))
        SKIP("cannot write the fake engine");
    const char *engines[] = {works, crash, "/nonexistent/engine", "none"};
    const char *names[] = {"Fake 1.0", "agora chess", "agora chess", "agora chess"};
    const char *errors[] = {NULL, "Fake 1.0 failed: the engine exited",
                            "/nonexistent/engine: ", NULL};
    for (int i = 0; i < 4; i++) {
        struct server *srv = engine_server(engines[i]);
        if (!srv)
            SKIP("no server");
        /* Twice: a crashed engine is restarted for the next analysis (and fails again). */
        for (int k = 0; k < 2; k++) {
            json_t *done = analyse_start(server_port(srv));
            CHECK_MSG(done != NULL, "%s: no done event", engines[i]);
            if (!done)
                continue;
            CHECK_STR(fx_str(done, "engine"), names[i]);
            const char *e = json_string_value(json_object_get(done, "engine_error"));
            if (errors[i])
                CHECK_MSG(e && strstr(e, errors[i]) == e, "%s: %s", engines[i], e ? e : "(none)");
            else
                CHECK_MSG(!e, "%s: %s", engines[i], e);
            json_t *ls = json_object_get(done, "lines");
            CHECK_EQ_INT((int)json_array_size(ls), 2);
            if (i == 0) {
                json_t *best = json_array_get(ls, 0);
                CHECK_EQ_INT((int)json_integer_value(json_object_get(best, "score")), 25);
                CHECK_STR(json_string_value(json_array_get(json_object_get(best, "pv"), 0)),
                          "e2e4");
            }
            json_decref(done);
        }
        server_stop(srv);
    }
    fake_uci_cleanup();
}

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

/* A review of the Scholar's mate: who judged it is stored with it. */
static void review_by(struct test_ctx *t__, const char *engine, const char *name, const char *error)
{
    struct server *srv = engine_server(engine);
    if (!srv)
        return;
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/reviews", NULL,
                          "{\"record\":\"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\"}", &j),
                 202);
    char path[128];
    snprintf(path, sizeof path, "/api/reviews/%s", fx_str(j, "id"));
    json_decref(j);
    json_t *rv = wait_review(port, path, 60000);
    CHECK_MSG(rv != NULL, "%s: no review", engine);
    if (rv) {
        CHECK_MSG(!strncmp(fx_str(rv, "engine"), name, strlen(name)), "%s: %s", engine,
                  fx_str(rv, "engine"));
        const char *e = json_string_value(json_object_get(rv, "engine_error"));
        if (error)
            CHECK_MSG(e && strstr(e, error) == e, "%s: %s", engine, e ? e : "(none)");
        else
            CHECK_MSG(!e, "%s: %s", engine, e);
        /* Black's 3...Nf6 allows the mate: a blunder, whoever judges. */
        CHECK_STR(fx_str(json_array_get(json_object_get(rv, "plies"), 5), "class"), "blunder");
    }
    json_decref(rv);
    server_stop(srv);
}

TEST(server_review_records_its_engine)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    char crash[512];
    if (!fake_uci_path("crash", crash, sizeof crash))
        SKIP("cannot write the fake engine");
    review_by(t__, "none", "agora chess", NULL);
    review_by(t__, "/nonexistent/engine", "agora chess", "/nonexistent/engine: ");
    review_by(t__, crash, "agora chess", "Fake 1.0 failed: ");
    if (access(STOCKFISH, X_OK) == 0)
        review_by(t__, STOCKFISH, "Stockfish", NULL);
    else
        fprintf(stderr, "    " STOCKFISH " is not installed: its review not tested\n");
    fake_uci_cleanup();
}
