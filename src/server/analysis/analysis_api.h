/* The analysis board's routes (analysis_api.c; the contract: API.md, "Analysis"):
 * POST /api/positions, POST /api/analysis, and the reviews.  Below api.c, which
 * routes to them. */
#pragma once

#include "server/common/route.h"

/* POST /api/positions, POST /api/analysis, POST /api/reviews, GET /api/reviews/{id},
 * GET and POST /api/games/{id}/review. */
route_handler analysis_api_position, analysis_api_start, analysis_api_import, analysis_api_review;
route_handler analysis_api_game_review;
