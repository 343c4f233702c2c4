/* libFuzzer target over the server's request routing and JSON bodies, without HTTP:
 * server_request() takes method, URL, Authorization and body as the HTTP layer would.
 *
 * Input:  byte 0 the method, byte 1 the URL template, byte 2 the token, then the URL
 *         tail up to a newline, then the body.
 * Checks: no crash or sanitizer report; every answer is a known status with a JSON body
 *         ({"error": ...} when refused); a refused request leaves the game unchanged. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/registry.h"
#include "server/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The fuzz target's one server, made on the first input (a fuzzer process is the only
 * place such a static is fine: the server itself has none). */
static struct server *srv;
static char game_id[64], token[64];

static char *call(const char *method, const char *url, const char *auth, const char *body,
                  size_t len, int *status)
{
    char *out = NULL;
    *status = server_request(srv, method, url, auth, body, len, &out);
    return out;
}

static void new_game(void)
{
    int status;
    static const char body[] = "{\"game\":\"egara\",\"level\":1}";
    char *out = call("POST", "/api/games", NULL, body, strlen(body), &status);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    if (status != 201 || !j)
        abort();
    snprintf(game_id, sizeof game_id, "%s", json_string_value(json_object_get(j, "id")));
    snprintf(token, sizeof token, "Bearer %s", json_string_value(json_object_get(j, "token")));
    json_decref(j);
    free(out);
}

/* The game as the server shows it, less nothing: any change shows. */
static char *snapshot(void)
{
    char url[128];
    int status;
    snprintf(url, sizeof url, "/api/games/%s", game_id);
    char *out = call("GET", url, NULL, NULL, 0, &status);
    if (status != 200)
        abort();
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!srv) {
        games_init();
        struct server_config cfg;
        server_config_default(&cfg);
        cfg.db_path = ":memory:";
        cfg.sync = STORE_SURVIVES_KILL;
        cfg.analysis_engine = "none"; /* agora's own judges: no child processes */
        cfg.quiet_engines = 1;
        cfg.engine_workers = 0;
        /* The computer thinks inline here, on the fuzzer's thread: without a small cap
         * every input that starts a game with the computer to move (or moves in one)
         * searched at its level for up to the default 5 s, and as the corpus filled with
         * such inputs at higher levels the runs fell from ~1000/s to ~60/s (perf: 87% of
         * the time in negamax under handle_create).  The search is not what this target
         * fuzzes: 2 ms a move still runs it. */
        cfg.move_time_ms = 2;
        cfg.no_http = 1;
        cfg.new_games_per_minute = 0;
        cfg.web_dir = NULL;
        cfg.analysis_nodes_cap = 2000; /* analyses are stopped at once here anyway */
        cfg.review_nodes = 200;
        char err[256];
        srv = server_start(&cfg, err, sizeof err);
        if (!srv) {
            fprintf(stderr, "fuzz_server: %s\n", err);
            abort();
        }
        new_game();
    }
    if (size < 3)
        return 0;
    static const char *const methods[] = {"GET", "POST", "PUT", "HEAD", "DELETE"};
    static const char *const ops[] = {"",        "/moves",  "/resign", "/draw",   "/claim",
                                      "/record", "/events", "/",       "/moves/x"};
    const char *method = methods[data[0] % 5];
    const uint8_t *p = data + 3, *end = data + size;
    const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
    size_t tail_len = nl ? (size_t)(nl - p) : 0;
    char tail[256];
    snprintf(tail, sizeof tail, "%.*s", (int)(tail_len < 200 ? tail_len : 200), (const char *)p);
    if (strlen(tail) != (tail_len < 200 ? tail_len : 200))
        return 0; /* a NUL in the URL: HTTP cannot carry it */
    const uint8_t *body = nl ? nl + 1 : p;
    size_t body_len = (size_t)(end - body);

    char url[600];
    int u = data[1] % 22;
    if (u < 9)
        snprintf(url, sizeof url, "/api/games/%s%s%s", game_id, ops[u], tail);
    else if (u == 9)
        snprintf(url, sizeof url, "/api/games%s", tail);
    else if (u == 10)
        snprintf(url, sizeof url, "/api/games/%s", tail);
    else if (u == 11)
        snprintf(url, sizeof url, "/%s", tail);
    else if (u == 12)
        snprintf(url, sizeof url, "/api/positions%s", tail);
    else if (u == 13)
        snprintf(url, sizeof url, "/api/analysis%s", tail);
    else if (u == 14)
        snprintf(url, sizeof url, "/api/reviews%s", tail);
    else if (u == 15)
        snprintf(url, sizeof url, "/api/games/%s/review%s", game_id, tail);
    else if (u == 16) /* people: challenges and their accepts */
        snprintf(url, sizeof url, "/api/challenges%s", tail);
    else if (u == 17)
        snprintf(url, sizeof url, "/api/seeks%s", tail);
    else if (u == 18)
        snprintf(url, sizeof url, "/api/clubs%s", tail);
    else if (u == 19) /* players: pages, the search, archives and exports */
        snprintf(url, sizeof url, "/api/players%s", tail);
    else if (u == 20) /* the visitor: a name, hiding, the progress, merge, notifications,
                       * link, devices, passkeys (and u == 11 reaches /api/signin) */
        snprintf(url, sizeof url, "/api/me%s", tail);
    else
        snprintf(url, sizeof url, "/api/leaderboards%s", tail);
    char auth_buf[300];
    const char *auth = NULL;
    switch (data[2] % 4) {
    case 1: auth = token; break;
    case 2: auth = "Bearer 0123456789abcdef0123456789abcdef"; break;
    case 3:
        snprintf(auth_buf, sizeof auth_buf, "Bearer %s", tail);
        auth = auth_buf;
        break;
    }

    char *before = snapshot();
    int status;
    char *out = call(method, url, auth, (const char *)body, body_len, &status);
    static const int known[] = {200, 201, 202, 400, 403, 404, 405, 409, 413, 429, 503};
    int ok = 0;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        ok |= status == known[i];
    if (!ok || !out) {
        fprintf(stderr, "fuzz_server: status %d for %s %s\n", status, method, url);
        abort();
    }
    if (status >= 400) {
        json_t *j = json_loads(out, 0, NULL);
        if (!json_is_string(json_object_get(j, "error")))
            abort();
        json_decref(j);
        char *after = snapshot();
        if (strcmp(before, after) != 0) {
            fprintf(stderr, "fuzz_server: refused %s %s changed the game\n", method, url);
            abort();
        }
        free(after);
    }
    free(out);
    free(before);
    /* Keep a game in play for the next inputs. */
    char *now = snapshot();
    if (strstr(now, "\"over\":true"))
        new_game();
    free(now);
    return 0;
}
