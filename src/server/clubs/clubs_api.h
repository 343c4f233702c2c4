/* The routes of clubs (clubs_api.c; API.md "Clubs"): a club with its invite link,
 * members joining with their display name, leaving, removed by an admin, named admin
 * by the creator; the club's lobby of open challenges among members, its games and the
 * results between members.  Beside people_api.c, whose challenges it uses. */
#pragma once

#include <stdbool.h>

#include "server/common/route.h"

struct server;

/* POST /api/clubs, GET /api/clubs/{id}, POST .../{id}/join, .../{id}/leave,
 * .../{id}/challenges, .../{id}/members/{member}/remove and .../admin. */
route_handler clubs_create, clubs_get, clubs_join, clubs_leave, clubs_challenge;
route_handler clubs_member_remove, clubs_member_admin;
/* GET /api/clubs?name=&lang= (the public clubs), POST .../{id}/public (an admin),
 * .../{id}/members/{member}/bar (an admin: removed, and never to join again). */
route_handler clubs_find, clubs_set_public, clubs_member_bar;
