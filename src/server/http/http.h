/* The HTTP adapter over libmicrohttpd (http.c): the daemon that turns requests into
 * the API's calls, started and stopped by the composition root (server.c). */
#pragma once

#include <stddef.h>

struct server;

/* 0 when host is an IPv4 address to listen on; -1 with a message. */
int http_check_host(const char *host, char *err, size_t err_size);
/* Listen on srv->host and cfg.port (0: any free port, then srv->port says which);
 * -1 with a message.  The rest of the server is already running. */
int http_start(struct server *srv, char *err, size_t err_size);
/* Stop the daemon (it must hold no suspended connection) and its connection guard. */
void http_stop(struct server *srv);
