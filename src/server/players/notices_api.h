/* A player's notifications (notices_api.c; API.md "Notifications"), told by any room
 * through common/notify.h: the list, marking them read, and the player's event stream
 * (its HTTP side is http/http_notice_streams.c). */
#pragma once

#include "server/common/route.h"

/* GET /api/me/notifications, POST /api/me/notifications/read {"upto"},
 * GET /api/me/events (the token in Authorization: a page reads it with fetch). */
route_handler players_notices, players_notices_read, players_notice_events;
