/* The operations on a game between two people (people_game_api.c; API.md "A game
 * between people"): moves, resign, draw offers, claims, takeback requests, abort,
 * rematch, abandonment, each by the token of the side it is for; spectators' streams.
 * Below api.c, which routes to it; beside people_api.c (challenges). */
#pragma once

#include <stdbool.h>

#include "server/common/api_types.h"

struct server;
struct session;

/* An operation on a game between people, under s->mu: "" (GET: the state as the
 * token's side sees it), or a POST op (its body read after the token is checked). */
void people_game_op(struct server *srv, const struct api_request *req, struct session *s,
                    const char *op, struct api_response *r);
/* The side whose player's event stream of s this is (their token or seat key), or -1. */
int people_stream_seat(const struct api_request *req, const struct session *s);
