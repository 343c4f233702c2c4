/* One identity (identity.c; API.md "One identity"): a browser's old tokens (one per
 * game against the computer, the puzzle solver's) taken over by the player's one token,
 * so that every game and puzzle rating of the browser is the same player's. */
#pragma once

#include "server/common/route.h"

/* POST /api/me/merge {"tokens": [...]} (the player's token; none: a new one). */
route_handler players_merge;
