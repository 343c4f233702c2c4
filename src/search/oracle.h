/* An oracle a search may consult inside its tree: exact values of positions from
 * outside the search (a game's endgame tables, behind its engine profile,
 * src/engines/egara_tablebase.c).  The search asks it at every node past the root; a
 * position it knows ends the line there with the oracle's value.  Searches without an
 * oracle (bench, analysis, every game without tables) are unchanged. */
#pragma once

#include "search_types.h"

struct search_oracle {
    /* 1 when the value of st is known: *wdl +1 (the side to move wins), 0 a draw, -1 a
     * loss; *plies the plies to the end of the game under best play (the winner ending
     * it soonest, the loser latest), *exact 1 when that is the distance, 0 when only an
     * estimate.  0 when st is not known. */
    int (*probe)(void *ctx, const void *st, int *wdl, int *plies, int *exact);
    void *ctx;
};

/* The oracle's wins where the win scores cannot hold them (the distance only estimated,
 * or the end more than ENGINE_MAX_PLY plies from the root) lie in a band just under
 * ENGINE_WIN_BOUND, sooner higher, above every static score of the games that have an
 * oracle: still won, still ordered by distance, never taken for a proven mate score. */
#define SEARCH_ORACLE_BAND 4096

/* The score of an oracle's answer `ply` plies from the root (side to move's view; a
 * draw is 0 here, the search adds its contempt). */
static inline Score search_oracle_score(int wdl, int plies, int exact, int ply)
{
    if (wdl == 0)
        return 0;
    int total = ply + (plies > 0 ? plies : 0);
    Score s;
    if (exact && total < ENGINE_MAX_PLY)
        s = (Score)(SCORE_WIN - total);
    else
        s = (Score)(ENGINE_WIN_BOUND - 1 -
                    (total < SEARCH_ORACLE_BAND - 2 ? total : SEARCH_ORACLE_BAND - 2));
    return wdl > 0 ? s : (Score)-s;
}

/* Is s an oracle's band score (a known result at an estimated or far distance)? */
static inline int search_oracle_band(Score s)
{
    Score a = s < 0 ? (Score)-s : s;
    return a < ENGINE_WIN_BOUND && a >= ENGINE_WIN_BOUND - SEARCH_ORACLE_BAND;
}
