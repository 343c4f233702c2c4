/* Agon move text parsing, with the rule a refused move breaks named for the player. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "state.h"

static const char *const side_names[2] = {"White", "Black"};

/* Why the well-formed move `text` (from, to, is a return) is not legal here. */
static int explain(const struct agon_state *s, const char *text, int from, int to, bool ret,
                   char *err, size_t err_size)
{
    const struct agon_board *b = &agon_board;
    const char *us = side_names[s->side];
    unsigned fv = s->board[from], own = AG_CODE(s->side);
    const char *fn = b->name[from], *tn = b->name[to];
    if (s->captured[s->side] && !ret)
        return fail(err, err_size,
                    "illegal move '%s': %s must return a captured piece this turn (from@to)", text,
                    us);
    if (ret) {
        if (!s->captured[s->side])
            return fail(err, err_size, "illegal move '%s': %s has no captured piece to return",
                        text, us);
        if (AG_OWNER(fv) != own || !(fv & AG_CAPTURED))
            return fail(err, err_size, "illegal move '%s': no captured %s piece stands on %s", text,
                        us, fn);
        if (AG_INDEX(fv) != 0 && (s->captured[s->side] & 1))
            return fail(err, err_size, "illegal move '%s': the captured queen must return first",
                        text);
        if (s->board[to])
            return fail(err, err_size, "illegal move '%s': %s is not empty", text, tn);
        if (AG_INDEX(fv) != 0 && b->ring[to] != 5)
            return fail(err, err_size,
                        "illegal move '%s': a guard returns to an empty cell of the outer ring",
                        text);
    } else {
        if (AG_OWNER(fv) != own)
            return fail(err, err_size, "illegal move '%s': no %s piece on %s", text, us, fn);
        bool adjacent = false;
        for (int d = 0; d < AGON_DIRS; d++)
            adjacent |= b->nb[from][d] == to;
        if (!adjacent)
            return fail(err, err_size, "illegal move '%s': a step goes to an adjacent cell", text);
        if (s->board[to])
            return fail(err, err_size, "illegal move '%s': %s is not empty", text, tn);
        if (b->ring[to] > b->ring[from])
            return fail(err, err_size,
                        "illegal move '%s': a step never goes outward (ring %d to %d)", text,
                        b->ring[from], b->ring[to]);
        if (to == AGON_THRONE && AG_INDEX(fv) != 0)
            return fail(err, err_size, "illegal move '%s': only the queen may enter the throne",
                        text);
    }
    if (agon_sandwiched(s, to, s->side))
        return fail(
            err, err_size,
            "illegal move '%s': %s is between two enemy pieces (no stepping into a sandwich)", text,
            tn);
    return fail(err, err_size, "illegal move '%s'", text);
}

int agon_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size)
{
    const struct agon_state *s = st;
    char lower[MOVE_TEXT_MAX];
    if (text_lower_copy(text, lower, sizeof lower, err, err_size))
        return -1;
    char *sep = strpbrk(lower, "-@");
    if (!sep || sep == lower || !sep[1] || strpbrk(sep + 1, "-@"))
        return fail(err, err_size,
                    "malformed move '%s': expected from-to (a step) or from@to (a return)", text);
    bool ret = *sep == '@';
    *sep = 0;
    int from = agon_cell_by_name(lower), to = agon_cell_by_name(sep + 1);
    if (from < 0)
        return fail(err, err_size, "malformed move '%s': unknown cell '%s'", text, lower);
    if (to < 0)
        return fail(err, err_size, "malformed move '%s': unknown cell '%s'", text, sep + 1);
    *sep = ret ? '@' : '-';

    struct game_status status;
    agon_status(s, &status);
    if (status.result != RESULT_ONGOING)
        return fail(err, err_size, "no move is possible: the game is over");
    Move want = ret ? ag_return(from, to) : ag_step(from, to);
    Move moves[AGON_MAX_MOVES];
    int n = agon_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == want) {
            *out = want;
            return 0;
        }
    return explain(s, lower, from, to, ret, err, err_size);
}
