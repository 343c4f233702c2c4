/* The retrograde core of the Egara-guti tables: the value of every position of a pair
 * of signatures at every quiet count, layer by layer (src/tablebase/NOTES.md).
 *
 * A value is a TbValue from the side to move's point of view:
 *
 *     TB_WIN - n   a win in n plies (the game ends n plies from now)
 *     0            a draw
 *     n - TB_WIN   a loss in n plies
 *
 * and r, the plies left before the 40-ply count decides (40 - quiet), is the layer. */
#pragma once

#include <stdint.h>

#include "index.h"

typedef int16_t TbValue;

#define TB_WIN 30000
#define TB_QUIET_LIMIT 40 /* the rule book's 40 plies */
#define TB_MAX_SIDE 11    /* pieces a side */

/* The value of a child (from its side to move) seen from the parent, one ply earlier. */
static inline TbValue tb_parent_value(TbValue child)
{
    return child > 0 ? (TbValue)(-child + 1) : child < 0 ? (TbValue)(-child - 1) : 0;
}

/* What the count decides at r = 0 for m pieces against o: a win, a loss or a draw now. */
static inline TbValue tb_count_value(int m, int o)
{
    return m > o ? TB_WIN : m < o ? -TB_WIN : 0;
}

/* Values at quiet count 0 (r = 40) of the smaller signatures, which the captures reach:
 * q0[m][o] is NULL where not known. */
struct tb_known {
    TbValue *q0[TB_MAX_SIDE + 1][TB_MAX_SIDE + 1];
};

/* Called after each layer r = 1..40 with the values of signature (m, o) at r (one array
 * per signature of the pair); the array is the solver's and changes after the call. */
typedef void (*tb_layer_fn)(void *ctx, int m, int o, int r, const TbValue *values);

/* Solve signatures (m, o) and (o, m) (one when m == o) on `threads` threads; the
 * known values must hold every signature of fewer pieces.  Calls `layer` for each layer
 * and signature, and leaves the r = 40 values in known->q0 (allocated here).
 * `progress` (may be NULL) is called with the fraction done.  Returns 0, or -1 out of
 * memory. */
int tb_solve_pair(struct tb_known *known, int m, int o, int threads, tb_layer_fn layer,
                  void *layer_ctx, void (*progress)(void *ctx, double done), void *progress_ctx);
