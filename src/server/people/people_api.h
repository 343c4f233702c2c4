/* The routes of games between people (people_api.c; API.md "People"): challenges and
 * invite links, the lobby's seeks, display names, and every operation on a game
 * between two people (moves, resign, draw offers, claims, takeback requests, abort,
 * rematch, abandonment: people_game_api.c) each by the token of the side it is for.
 * Below api.c, which routes to it. */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "server/common/route.h"
#include "store/store.h"

struct server;

/* POST /api/challenges and /api/seeks, GET /api/seeks, GET .../{id} and .../{id}/events,
 * POST .../{id}/accept and .../{id}/cancel (a seek is a challenge of the lobby), GET and
 * POST /api/me. */
route_handler people_challenge_create, people_seek_create, people_seeks_list;
route_handler people_challenge_get, people_challenge_events, people_challenge_accept;
route_handler people_challenge_cancel, people_me_get, people_me_post;
/* The visitor's token (32 hex + NUL) and its hash: the one sent when the server knows it
 * (a name, or games under it), else a new one; the name known for it, or "".  0, or the
 * status set in r (500, or 503 when the store is busy and cannot say whether it knows
 * the token). */
int people_visitor_token(struct server *srv, const struct api_request *req, char *token, char *hash,
                         char *known_name, size_t name_size, struct api_response *r);
/* The body's "name" (1..size-1 bytes, no control characters, trimmed) into out; when
 * absent and `optional`, out is kept if it holds one.  0, or a 400 set in r. */
int people_body_name(json_t *body, char *out, size_t size, bool optional, struct api_response *r);
/* POST /api/challenges or /api/seeks (lobby), or a club's challenge (club_id: the
 * caller checked the membership). */
void people_create_challenge(struct server *srv, const struct api_request *req, bool lobby,
                             const char *club_id, struct api_response *r);
/* 0 when token_hash is a member of the club (*out filled when given), 1 when not, < 0
 * (the store's answer: -1 or STORE_BUSY) when the store failed. */
int people_club_member(struct server *srv, const char *club_id, const char *token_hash,
                       struct store_member *out);
