/* A move request's "ply" (src/server/API.md): the number the move will have once made,
 * which makes the request safe to send again.  Both kinds of game judge it here,
 * before their turn's checks, so a player's retry of a move already made is known as
 * such after the turn has passed to the other side. */
#pragma once

#include <jansson.h>

#include "server/common/api_types.h"

struct session;

enum move_ply {
    MOVE_PLY_NEXT,    /* no "ply", or the next one: the move goes on as ever */
    MOVE_PLY_MADE,    /* this very move of this side's is made at that ply: answer 200 */
    MOVE_PLY_REFUSED, /* r holds the answer: a malformed "ply" (400) or the game moved on (409) */
};

/* Judge the body's "ply" against s (under s->mu) for a move of `side`. */
enum move_ply move_ply_judge(const struct session *s, json_t *body, int side,
                             struct api_response *r);
