/* The game server: `agora serve`.  A `struct server` owns everything it uses (HTTP
 * daemon, store, cache of games, engine workers): no globals, so a test can run two
 * servers in one process. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "server/server_config.h"

/* The defaults of server_config.h, as `agora serve` uses them. */
void server_config_default(struct server_config *cfg);

struct server;
/* Open the store, start the workers and the HTTP daemon; NULL with a message. */
struct server *server_start(const struct server_config *cfg, char *err, size_t err_size);
/* The port the server listens on (the chosen one when cfg.port was 0). */
int server_port(const struct server *srv);
/* Stop everything, wait for the workers, close the store, free. */
void server_stop(struct server *srv);

/* One request without HTTP (the fuzz target): method, path with query, the
 * Authorization header or NULL, body.  Returns the status, with the body in a malloc'ed
 * string the caller frees.  Event streams and static files are not served this way. */
int server_request(struct server *srv, const char *method, const char *url,
                   const char *authorization, const char *body, size_t body_len, char **out);
