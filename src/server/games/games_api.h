/* The routes of games (games_api.c): the catalogue, a new game against the computer,
 * a visitor's games, and every operation on one game by the name in its path; a game
 * between two people goes on in people_game_api.c with each side's own token.  The
 * handlers of routes.c's table. */
#pragma once

#include "server/common/route.h"

route_handler games_catalog, games_create, games_list;
route_handler games_state, games_moves, games_resign, games_draw, games_claim, games_takeback;
route_handler games_abort, games_rematch, games_claim_win, games_events, games_record;
