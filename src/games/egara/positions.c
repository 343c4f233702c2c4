/* Egara-guti positions as two point sets: their children by the game's own rules. */
#include <assert.h>
#include <string.h>

#include "positions.h"
#include "state.h"

_Static_assert(EGARA_CHILDREN_MAX >= EGARA_MAX_MOVES, "a child for every legal move");

int egara_children(uint32_t own, uint32_t other, struct egara_child *out)
{
    assert(!(own & other) && !((own | other) & ~EGARA_ALL_POINTS));
    /* The state's history is not read (only the moves made here are unmade). */
    static _Thread_local struct egara_state s;
    memset(&s, 0, offsetof(struct egara_state, history));
    s.pieces[SIDE_WHITE] = own;
    s.pieces[SIDE_BLACK] = other;
    s.side = SIDE_WHITE;
    s.key = egara_compute_key(&s);
    Move moves[EGARA_MAX_MOVES];
    int n = egara_gen_moves(&s, moves);
    for (int i = 0; i < n; i++) {
        egara_make_move(&s, moves[i]);
        out[i].own = s.pieces[SIDE_BLACK];
        out[i].other = s.pieces[SIDE_WHITE];
        out[i].captured = __builtin_popcount(other) - __builtin_popcount(s.pieces[SIDE_BLACK]);
        egara_unmake_move(&s, moves[i]);
    }
    return n;
}

void egara_position_sets(const void *st, uint32_t *own, uint32_t *other, int *quiet)
{
    const struct egara_state *s = st;
    *own = s->pieces[s->side];
    *other = s->pieces[!s->side];
    *quiet = s->quiet;
}
