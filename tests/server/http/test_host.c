/* The Host header (issue 25 item 9): a request naming a host this server does not
 * serve is refused with 421 JSON, API and pages alike (a DNS-rebinding page reaches
 * nothing), against a real server on loopback.  Served: its own and loopback addresses
 * (any port), localhost, the --host-name list; no Host only in HTTP/1.0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* GET path with `host_line` ("Host: ...\r\n" or "") over HTTP `version`: the status. */
static int get_with_host(int port, const char *version, const char *path, const char *host_line,
                         char **body)
{
    char req[512];
    int n = snprintf(req, sizeof req, "GET %s %s\r\n%sConnection: close\r\n\r\n", path, version,
                     host_line);
    size_t len = 0;
    char *got = http_raw(port, req, (size_t)n, 3000, &len);
    int status = 0;
    if (got && sscanf(got, "HTTP/1.%*d %d", &status) != 1)
        status = 0;
    if (body)
        *body = got;
    else
        free(got);
    return status;
}

TEST(server_host_header_is_checked)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.host_names = "agora.example, b.example:8443";
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char line[128];
    const char *served[] = {"127.0.0.1:%d", "127.0.0.1",     "localhost:%d",     "LOCALHOST:%d",
                            "[::1]:%d",     "agora.example", "agora.example:%d", "b.example:8443"};
    for (size_t i = 0; i < sizeof served / sizeof *served; i++) {
        char host[64];
        snprintf(host, sizeof host, served[i], port);
        snprintf(line, sizeof line, "Host: %s\r\n", host);
        CHECK_MSG(get_with_host(port, "HTTP/1.1", "/api/catalog", line, NULL) == 200, "Host %s",
                  host);
    }
    const char *refused[] = {"evil.example:%d", "evil.example", "b.example:%d",
                             "127.0.0.1.evil.example:%d", "agora.example.evil:%d"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char host[64], *body = NULL;
        snprintf(host, sizeof host, refused[i], port);
        snprintf(line, sizeof line, "Host: %s\r\n", host);
        CHECK_MSG(get_with_host(port, "HTTP/1.1", "/api/catalog", line, &body) == 421, "Host %s",
                  host);
        CHECK_MSG(body && strstr(body, "application/json") && strstr(body, "\"error\""), "%s",
                  body ? body : "(none)");
        free(body);
    }
    /* The pages too; the tests' own client (Host: 127.0.0.1) goes through. */
    CHECK_EQ_INT(get_with_host(port, "HTTP/1.1", "/", "Host: evil.example\r\n", NULL), 421);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL, "{\"game\":\"egara\"}", &j), 201);
    json_decref(j);
    /* No Host: HTTP/1.0 may leave it out, HTTP/1.1 may not. */
    CHECK_EQ_INT(get_with_host(port, "HTTP/1.0", "/api/catalog", "", NULL), 200);
    int st = get_with_host(port, "HTTP/1.1", "/api/catalog", "", NULL);
    CHECK_MSG(st == 421 || st == 400, "HTTP/1.1 without Host: %d", st);
    server_stop(srv);
}
