/* A challenge's event stream (http_challenge_streams.c), started by the HTTP layer for
 * an API_CHALLENGE_STREAM answer: the challenge's status at once, then each change
 * (accepted with its game, cancelled, expired), and the end once it is no longer open. */
#pragma once

#include <microhttpd.h>

#include "server/common/api_types.h"

struct server;

/* Answer `mc` with the stream of challenge ar->challenge; 429 JSON past the caps per
 * challenge (streams_per_game) or per address (`client`: the request's address). */
enum MHD_Result http_start_challenge_stream(struct server *srv, struct MHD_Connection *mc,
                                            const struct api_response *ar, const char *client);
