/* The routes of tournaments (tournaments_api.c; API.md "Tournaments"): create one (for
 * everyone, or a club's admin for its members), list them, see one (standings, games,
 * the viewer's place), join, pause, withdraw, berserk, and its event stream. */
#pragma once

#include "server/common/route.h"

/* POST and GET /api/tournaments, GET /api/tournaments/{id}, POST .../{id}/join,
 * .../{id}/pause, .../{id}/withdraw, .../{id}/games/{game}/berserk, GET .../{id}/events. */
route_handler tournaments_create, tournaments_list, tournaments_get, tournaments_join;
route_handler tournaments_pause, tournaments_withdraw, tournaments_berserk, tournaments_events;
/* GET /api/tournaments/{id}/trf: a Swiss as FIDE's TRF-2026 text. */
route_handler tournaments_trf;
