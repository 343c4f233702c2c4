/* A tournament's event stream (http_tournament_streams.c), started by the HTTP layer
 * for an API_TOURNAMENT_STREAM answer: an event `tournament` at once and at each change
 * (a join, a pause, a pairing, a result, the start, the end) with its status and
 * counts; the page then reads GET /api/tournaments/{id} with its own token. */
#pragma once

#include <microhttpd.h>

#include "server/common/api_types.h"

struct server;

/* Answer `mc` with the stream of tournament ar->challenge; 429 JSON past the caps. */
enum MHD_Result http_start_tournament_stream(struct server *srv, struct MHD_Connection *mc,
                                             const struct api_response *ar, const char *client);
