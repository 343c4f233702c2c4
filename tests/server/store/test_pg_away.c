/* PostgreSQL away (issue 26, faults): a server on tests/pg-run's PostgreSQL, which the
 * test stops (a fast shutdown) and starts again (AGORA_TEST_PG_STOP / _START).  While
 * it is away, what needs the database answers 503 at once with a JSON error saying
 * so (no hang, no crash); once it is back the server answers again by itself, and
 * every move acknowledged before, during and after is stored.  PostgreSQL only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "store/store.h"

static int run_script(const char *env)
{
    const char *cmd = getenv(env);
    return cmd && cmd[0] ? system(cmd) : -1;
}

/* A move through the API: its status; *ms the time the answer took. */
static int timed_move(int port, const char *game, const char *token, const char *move,
                      json_t **body, int64_t *ms)
{
    char path[128], text[64];
    snprintf(path, sizeof path, "/api/games/%s/moves", game);
    snprintf(text, sizeof text, "{\"move\":\"%s\"}", move);
    int64_t t0 = fx_now_ms();
    int status = api_call(port, "POST", path, token, text, body);
    *ms = fx_now_ms() - t0;
    return status;
}

TEST(server_postgres_away_answers_503_and_recovers)
{
    if (!fx_on_postgres() || !getenv("AGORA_TEST_PG_STOP") || !getenv("AGORA_TEST_PG_START"))
        SKIP("PostgreSQL of tests/pg-run only (it stops and starts that database)");
    char url[1024], err[256] = "";
    snprintf(url, sizeof url, "%s", fx_store_url());
    struct server_config cfg;
    fx_config(&cfg);
    cfg.db_path = url;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port,
                                "{\"game\":\"chess\",\"clock\":{\"initial\":600,\"increment\":0},"
                                "\"side\":\"white\",\"rated\":false,\"name\":\"Ann\"}",
                                game, ta, tb),
                 0);
    CHECK_EQ_INT(fx_move(port, game, ta, "e2e4"), 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "e7e5"), 200);

    CHECK_EQ_INT(run_script("AGORA_TEST_PG_STOP"), 0);
    /* Away: a move, a game not in memory, a new game: 503 quickly, a JSON error. */
    json_t *body = NULL;
    int64_t ms = 0;
    CHECK_EQ_INT(timed_move(port, game, ta, "g1f3", &body, &ms), 503);
    CHECK_MSG(ms < 3000, "the 503 took %lld ms", (long long)ms);
    const char *msg = fx_str(body, "error");
    CHECK_MSG(strstr(msg, "database is unavailable") != NULL, "error: '%s'", msg);
    json_decref(body);
    body = NULL;
    int status =
        api_call(port, "GET", "/api/games/0123456789abcdef0123456789abcdef", NULL, NULL, &body);
    CHECK_EQ_INT(status, 503);
    json_decref(body);
    body = NULL;
    status = api_call(port, "POST", "/api/games", NULL, "{\"game\":\"chess\",\"level\":1}", &body);
    CHECK_EQ_INT(status, 503);
    json_decref(body);
    /* What needs no database is served as ever. */
    body = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/catalog", NULL, NULL, &body), 200);
    json_decref(body);

    CHECK_EQ_INT(run_script("AGORA_TEST_PG_START"), 0);
    /* Back: the server connects again by itself; the refused move is made now. */
    status = 0;
    for (int i = 0; i < 50 && status != 200; i++) {
        body = NULL;
        status = timed_move(port, game, ta, "g1f3", &body, &ms);
        json_decref(body);
        if (status != 200)
            fx_sleep_ms(200);
    }
    CHECK_EQ_INT(status, 200);
    CHECK_EQ_INT(fx_move(port, game, tb, "b8c6"), 200);
    server_stop(srv);

    /* Every acknowledged move is in the store, once, in order. */
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(s, game, &row, &moves, &n, err, sizeof err), 0);
    const char *want[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    CHECK_EQ_INT(n, 4);
    for (int i = 0; i < n && i < 4; i++)
        CHECK_STR(moves[i], want[i]);
    free(moves);
    store_close(s);
}
