/* The exact verdicts on a position (analysis.h), through the game's engine profile:
 * the endgame tables' "wins in N", the proof search's "formation in N". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "engines/profile.h"
#include "search/proof.h"

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

int analysis_proof(const struct game *g, const void *st, struct analysis_proof *out)
{
    const struct engine_profile *p = engine_profile_of(g);
    if (!p->proof_plies)
        return 0;
    void *work = game_state_new(g);
    if (!work)
        return 0;
    memcpy(work, st, g->state_size);
    struct proof_result r;
    int found = proof_search(g, work, p->proof_plies, 4 * p->proof_nodes, &r) == 0 && r.proven;
    free(work);
    if (!found)
        return 0;
    out->word = p->proof_word ? p->proof_word : "win";
    out->plies = r.plies;
    snprintf(out->text, sizeof out->text, "%s in %d", out->word, r.plies);
    return 1;
}
