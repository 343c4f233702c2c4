/* The analysis board's routes (analysis_api.c; the contract: API.md, "Analysis"):
 * POST /api/positions, POST /api/analysis, and the reviews.  Below api.c, which
 * routes to them. */
#pragma once

#include "server/common/api_types.h"

/* The route of `path` if it is one of these (1, with `r` filled), else 0. */
int analysis_route(struct server *srv, const struct api_request *req, const char *path,
                   struct api_response *r);
