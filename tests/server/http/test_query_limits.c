/* Every query parameter over its limit is refused the same way (issue 25 item 9),
 * against a real server on loopback: `?theme=` of 100 characters and of 1000 or more
 * is a 400 naming the parameter (1000 characters was ignored), on any route. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static int get_long(int port, const char *prefix, const char *name, size_t len, json_t **out)
{
    char *path = malloc(strlen(prefix) + strlen(name) + len + 8);
    int n = sprintf(path, "%s%s=", prefix, name);
    memset(path + n, 'a', len);
    path[n + (int)len] = 0;
    int st = api_call(port, "GET", path, NULL, NULL, out);
    free(path);
    return st;
}

TEST(server_query_parameters_over_their_limit_are_refused)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    const size_t lens[] = {100, 1000, 1800}; /* the test client sends up to 2 KB */
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        json_t *j = NULL;
        int st = get_long(port, "/api/puzzles/next?game=chess&", "theme", lens[i], &j);
        CHECK_MSG(st == 400, "?theme= of %zu: %d", lens[i], st);
        CHECK_MSG(strstr(fx_str(j, "error"), "bad ?theme="), "?theme= of %zu: %s", lens[i],
                  fx_str(j, "error"));
        json_decref(j);
    }
    /* Any route: a parameter that the query cannot hold is not dropped silently. */
    json_t *j = NULL;
    CHECK_EQ_INT(get_long(port, "/api/catalog?", "x", 1500, &j), 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "bad ?x="), "%s", fx_str(j, "error"));
    json_decref(j);
    server_stop(srv);
}
