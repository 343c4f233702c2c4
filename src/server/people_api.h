/* The routes of games between people (people_api.c; API.md "People"): challenges and
 * invite links, the lobby's seeks, display names, and every operation on a game
 * between two people (moves, resign, draw offers, claims, takeback requests, abort,
 * rematch, abandonment), each by the token of the side it is for.  Below api.c, which
 * routes to it. */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "api_types.h"

struct server;
struct session;

/* /api/challenges..., /api/seeks..., /api/me: true when `path` is one (r is filled). */
bool people_route(struct server *srv, const struct api_request *req, const char *path,
                  struct api_response *r);
/* An operation on a game between people, under s->mu: "" (GET: the state as the
 * token's side sees it), or a POST op (its body read after the token is checked). */
void people_game_op(struct server *srv, const struct api_request *req, struct session *s,
                    const char *op, struct api_response *r);
/* An event stream of s is a spectator's (no player's token or seat key): counted. */
bool people_stream_is_viewer(const struct api_request *req, const struct session *s);
