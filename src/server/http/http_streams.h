/* A game's event stream (http_streams.c), started by the HTTP layer for an API_STREAM
 * answer: server-sent events of the game's moves, takebacks, updates and end. */
#pragma once

#include <microhttpd.h>

#include "server/common/api_types.h"

struct server;

/* Answer `mc` with the stream of ar->session's game (the reference is given back: the
 * stream does not keep the game in memory); 429 JSON past the caps per game or address
 * (`client`: the request's address). */
enum MHD_Result http_start_stream(struct server *srv, struct MHD_Connection *mc,
                                  struct api_response *ar, const char *client);
