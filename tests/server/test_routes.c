/* The route table (src/server/routes.c): the matcher, the one 404 and 405 (with Allow),
 * and the table held against API.md's tables, which must list the same endpoints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "fixture.h"
#include "server/routes.h"
#include "server/server.h"

TEST(routes_match_takes_the_parameters)
{
    struct route_args a;
    CHECK(routes_match("/api/games/{id}/moves", "/api/games/abc/moves", &a));
    CHECK_EQ_INT(a.n, 1);
    CHECK_STR(a.param[0], "abc");
    CHECK(routes_match("/api/clubs/{id}/members/{member}/admin", "/api/clubs/c1/members/m2/admin",
                       &a));
    CHECK_EQ_INT(a.n, 2);
    CHECK_STR(a.param[0], "c1");
    CHECK_STR(a.param[1], "m2");
    CHECK(!routes_match("/api/games/{id}", "/api/games/", &a));        /* empty parameter */
    CHECK(!routes_match("/api/games/{id}", "/api/games/a/b", &a));     /* one segment only */
    CHECK(!routes_match("/api/games/{id}/moves", "/api/games/a", &a)); /* too short */
    CHECK(!routes_match("/api/games", "/api/gamesx", &a));
    char longer[200];
    snprintf(longer, sizeof longer, "/api/games/%0*d", ROUTE_PARAM_MAX, 7);
    CHECK(!routes_match("/api/games/{id}", longer, &a)); /* longer than a parameter holds */
}

TEST(routes_every_row_is_one_endpoint)
{
    size_t n;
    const struct route *t = routes_table(&n);
    CHECK(n > 30);
    for (size_t i = 0; i < n; i++) {
        CHECK_MSG(t[i].handler != NULL, "%s %s: no handler", t[i].method, t[i].pattern);
        CHECK_MSG(!strcmp(t[i].method, "GET") || !strcmp(t[i].method, "POST"), "%s %s", t[i].method,
                  t[i].pattern);
        for (size_t k = 0; k < i; k++)
            CHECK_MSG(strcmp(t[i].method, t[k].method) || strcmp(t[i].pattern, t[k].pattern),
                      "%s %s twice", t[i].method, t[i].pattern);
    }
}

/* Every "`METHOD /api/...`" in the first cell of a row of API.md's tables. */
static int api_md_endpoints(char (*out)[160], int max)
{
    FILE *f = fopen("src/server/API.md", "r");
    if (!f)
        return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "| `", 3) != 0)
            continue;
        char *end = strstr(line + 1, " | ");
        if (end)
            *end = 0; /* the first cell only */
        for (char *p = line; (p = strchr(p, '`'));) {
            char *q = strchr(p + 1, '`');
            if (!q)
                break;
            *q = 0;
            char method[8], path[150];
            if (sscanf(p + 1, "%7s %149s", method, path) == 2 && !strncmp(path, "/api/", 5) &&
                (!strcmp(method, "GET") || !strcmp(method, "POST")) && n < max) {
                path[strcspn(path, "?")] = 0;
                snprintf(out[n++], sizeof out[0], "%s %s", method, path);
            }
            p = q + 1;
        }
    }
    fclose(f);
    return n;
}

TEST(routes_table_and_api_md_list_the_same_endpoints)
{
    static char md[200][160];
    int n_md = api_md_endpoints(md, 200);
    CHECK_MSG(n_md > 0, "src/server/API.md unreadable or without endpoints");
    size_t n;
    const struct route *t = routes_table(&n);
    for (size_t i = 0; i < n; i++) {
        char want[160];
        snprintf(want, sizeof want, "%s %s", t[i].method, t[i].pattern);
        int found = 0;
        for (int k = 0; k < n_md; k++)
            found |= !strcmp(md[k], want);
        CHECK_MSG(found, "the route table has '%s', API.md does not", want);
    }
    for (int k = 0; k < n_md; k++) {
        int found = 0;
        for (size_t i = 0; i < n; i++) {
            char have[160];
            snprintf(have, sizeof have, "%s %s", t[i].method, t[i].pattern);
            found |= !strcmp(md[k], have);
        }
        CHECK_MSG(found, "API.md lists '%s', the route table does not", md[k]);
    }
}

TEST(routes_answer_404_and_405_with_allow_in_one_place)
{
    struct server *srv = fx_start(NULL);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    struct http_reply rep;
    /* A path no row has. */
    http_call(port, "GET", "/api/nothing-here", NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 404);
    CHECK(strstr(rep.body, "\"error\"") != NULL);
    http_reply_free(&rep);
    /* A row's path with another method: 405 naming the methods that would do. */
    http_call(port, "DELETE", "/api/games", NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 405);
    CHECK_MSG(rep.head && strstr(rep.head, "Allow: POST, GET, HEAD"), "head: %s",
              rep.head ? rep.head : "(none)");
    http_reply_free(&rep);
    http_call(port, "GET", "/api/puzzles/p1/attempts", NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 405);
    CHECK(rep.head && strstr(rep.head, "Allow: POST\r\n"));
    http_reply_free(&rep);
    http_call(port, "PUT", "/api/games/0123/review", NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 405);
    CHECK(rep.head && strstr(rep.head, "Allow: GET, HEAD, POST\r\n"));
    http_reply_free(&rep);
    /* The review's route and the game's operations live side by side, in any order. */
    http_call(port, "GET", "/api/games/0123456789abcdef0123456789abcdef/review", NULL, NULL, 0,
              NULL, &rep);
    CHECK_EQ_INT(rep.status, 404);
    CHECK(strstr(rep.body, "no game") != NULL);
    http_reply_free(&rep);
    /* Files answer GET only. */
    http_call(port, "POST", "/index.html", NULL, "{}", 2, NULL, &rep);
    CHECK_EQ_INT(rep.status, 405);
    CHECK(rep.head && strstr(rep.head, "Allow: GET, HEAD\r\n"));
    http_reply_free(&rep);
    server_stop(srv);
}
