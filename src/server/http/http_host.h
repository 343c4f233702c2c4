/* The Host header of a request (http_host.c): only the names this server serves are
 * answered, so a page of another site whose name is made to point at this server (DNS
 * rebinding) reaches nothing here (421 JSON).  src/server/API.md "Host". */
#pragma once

#include <stdbool.h>

struct server;

/* Is `host` (the Host header, NULL when absent) one the server serves, for a request of
 * HTTP `version` ("HTTP/1.0", "HTTP/1.1")? */
bool http_host_served(const struct server *srv, const char *host, const char *version);
