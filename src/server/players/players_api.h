/* The players' room (players_api.c; API.md "Players"): a player's public page by their
 * public id (never their token), the search by name, a player's archive of games
 * (filtered, paged, exported as records) and the leaderboards per game and rating
 * class.  Below routes.c, which routes to it; above the games' room, whose rating
 * classes, sessions and records it reads. */
#pragma once

#include "server/common/route.h"

/* GET /api/players?name=, GET /api/players/{id}, GET /api/players/{id}/games,
 * GET /api/players/{id}/games/export, GET /api/leaderboards/{game}/{class}. */
route_handler players_search, players_get, players_games, players_export, players_leaderboard;
