/* A player's notification stream (http_notice_streams.c), started by the HTTP layer for
 * an API_NOTICE_STREAM answer (GET /api/me/events): the unread count at once, then each
 * new notification and each change of the count (read on another device). */
#pragma once

#include <microhttpd.h>

#include "server/common/api_types.h"

struct server;

/* Answer `mc` with the stream of the player ar->notice_hash; 429 JSON past the caps per
 * player (streams_per_game) or per address (`client`). */
enum MHD_Result http_start_notice_stream(struct server *srv, struct MHD_Connection *mc,
                                         const struct api_response *ar, const char *client);
