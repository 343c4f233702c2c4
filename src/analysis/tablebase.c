/* The endgame tables' verdict on a position (analysis.h), through the game's engine
 * profile: the analysis board's "wins in N". */
#include <stdio.h>

#include "analysis.h"
#include "engines/profile.h"

int analysis_tablebase(const struct game *g, const void *st, struct analysis_tablebase *out)
{
    const struct engine_profile *p = engine_profile_of(g);
    int wdl, plies;
    if (!p->tablebase_verdict || !p->tablebase_verdict(st, &wdl, &plies))
        return 0;
    out->result = wdl > 0 ? "win" : wdl < 0 ? "loss" : "draw";
    out->plies = wdl ? plies : 0;
    if (!wdl)
        snprintf(out->text, sizeof out->text, "draw");
    else if (plies < 0)
        snprintf(out->text, sizeof out->text, "%s", wdl > 0 ? "wins" : "loses");
    else
        snprintf(out->text, sizeof out->text, "%s in %d", wdl > 0 ? "wins" : "loses", plies);
    return 1;
}
