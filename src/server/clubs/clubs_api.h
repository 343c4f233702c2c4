/* The routes of clubs (clubs_api.c; API.md "Clubs"): a club with its invite link,
 * members joining with their display name, leaving, removed by an admin, named admin
 * by the creator; the club's lobby of open challenges among members, its games and the
 * results between members.  Beside people_api.c, whose challenges it uses. */
#pragma once

#include <stdbool.h>

#include "server/common/api_types.h"

struct server;

/* /api/clubs...: true when `path` is one (r is filled). */
bool clubs_route(struct server *srv, const struct api_request *req, const char *path,
                 struct api_response *r);
