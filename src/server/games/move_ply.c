/* A move request's "ply" (move_ply.h). */
#include "server/games/move_ply.h"

#include <string.h>

#include "server/common/api_util.h"
#include "server/games/session.h"

enum move_ply move_ply_judge(const struct session *s, json_t *body, int side,
                             struct api_response *r)
{
    json_t *jp = json_object_get(body, "ply");
    if (!jp || json_is_null(jp))
        return MOVE_PLY_NEXT;
    json_int_t ply = json_is_integer(jp) ? json_integer_value(jp) : 0;
    if (ply < 1 || ply > 1000000) {
        api_set_error(r, 400, "bad \"ply\": expected the number the move will have once made");
        return MOVE_PLY_REFUSED;
    }
    if (ply == s->n_moves + 1)
        return MOVE_PLY_NEXT;
    /* A move missing or malformed goes on, to be refused as ever (400). */
    json_t *jm = json_object_get(body, "move");
    if (!json_is_string(jm) || json_string_length(jm) >= MOVE_TEXT_MAX ||
        strlen(json_string_value(jm)) != json_string_length(jm))
        return MOVE_PLY_NEXT;
    int by = -1;
    if (session_made(s, (int)ply, json_string_value(jm), &by) && by == side)
        return MOVE_PLY_MADE;
    api_set_error_code(r, 409, "game_moved_on",
                       "the game moved on: this game has %d moves, and move %lld is not this "
                       "move of yours",
                       s->n_moves, (long long)ply);
    return MOVE_PLY_REFUSED;
}
