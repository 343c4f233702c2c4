/* The players as the Dutch pairing sees them: scores, colour preferences (C.04.3
 * article 1.7), floats (1.4), the bye's eligibility, and the colours of a pair
 * (article 5).  Moved out of dutch.c, which pairs them. */
#include <string.h>

#include "swiss/dutch.h"
#include "swiss/swiss.h"

/* --- colours (C.04.3 article 1.7 and the allocation rules of article 5) --- */

static void colour_prefs(struct dp *d)
{
    int last = d->n_col ? d->col[d->n_col - 1] : 0;
    d->pref = 0;
    d->strength = STRENGTH_NONE;
    if (!d->n_col)
        return;
    if (d->cd > 1 || d->cd < -1 ||
        (d->n_col >= 2 && d->col[d->n_col - 1] == d->col[d->n_col - 2])) {
        d->strength = STRENGTH_ABSOLUTE;
        if (d->cd > 1)
            d->pref = SWISS_BLACK;
        else if (d->cd < -1)
            d->pref = SWISS_WHITE;
        else
            d->pref = -last;
    } else if (d->cd == 1 || d->cd == -1) {
        d->strength = STRENGTH_STRONG;
        d->pref = d->cd > 0 ? SWISS_BLACK : SWISS_WHITE;
    } else {
        d->strength = STRENGTH_MILD;
        d->pref = -last;
    }
}

/* The colour of a (ranked above b) when they meet. */
int dutch_allocate(const struct ctx *c, int a, int b)
{
    const struct dp *x = &c->p[a], *y = &c->p[b];
    if (x->pref && y->pref && x->pref != y->pref)
        return x->pref;
    if (x->pref && !y->pref)
        return x->pref;
    if (!x->pref && y->pref)
        return -y->pref;
    if (x->pref && y->pref) {
        /* the same preference: the stronger one wins */
        if (x->strength != y->strength)
            return x->strength > y->strength ? x->pref : -y->pref;
        if (x->strength == STRENGTH_ABSOLUTE) {
            int ax = x->cd < 0 ? -x->cd : x->cd, ay = y->cd < 0 ? -y->cd : y->cd;
            if (ax != ay)
                return ax > ay ? x->pref : -y->pref;
        }
        /* alternate to the latest round in which they had different colours */
        for (int i = x->n_col - 1, j = y->n_col - 1; i >= 0 && j >= 0; i--, j--)
            if (x->col[i] != y->col[j])
                return -x->col[i];
        return x->pref;
    }
    /* neither has a preference: the higher ranked player's pairing number decides
     * (in round 1, the place among the players paired, as bbpPairings does when a
     * player is absent from round 1) */
    int odd = c->t->rounds_played == 0 ? (a & 1) == 0 : (x->id & 1);
    return odd ? c->t->initial_colour : -c->t->initial_colour;
}

int dutch_cmp_rank(const void *a, const void *b)
{
    const struct dp *x = a, *y = b;
    if (!x->id || !y->id)
        return !x->id - !y->id;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->id - y->id;
}

void dutch_fill_player(const struct swiss_tournament *t, int id, struct dp *d)
{
    const struct swiss_player *pl = &t->players[id - 1];
    int K = t->rounds_played;
    memset(d, 0, sizeof *d);
    d->id = id;
    d->score = swiss_score(t, id, K);
    d->bye_ok = 1;
    for (int r = 0; r < K; r++) {
        const struct swiss_game *g = &pl->games[r];
        if (swiss_played(g)) {
            d->col[d->n_col++] = (signed char)g->colour;
            d->cd += g->colour;
        } else
            d->unplayed++;
        if (g->result == SWISS_BYE_PAIRING || g->result == SWISS_FORFEIT_WIN ||
            (g->result == SWISS_BYE_FULL && t->points.full_bye >= t->points.win))
            d->bye_ok = 0;
        /* floats of rounds K and K-1 */
        if (r < K - 2)
            continue;
        int fl = 0;
        SwissPoints before = swiss_score(t, id, r);
        if (swiss_played(g)) {
            SwissPoints ob = swiss_score(t, g->opponent, r);
            if (before > ob)
                fl = FLOAT_DOWN;
            else if (before < ob)
                fl = FLOAT_UP;
        } else if (swiss_result_points(&t->points, g->result) > t->points.loss)
            fl = FLOAT_DOWN; /* scored without playing more than a loss (article 1.4.3) */
        if (r == K - 1)
            d->float1 = fl;
        else
            d->float2 = fl;
    }
    colour_prefs(d);
    if (t->rounds_total > 0 && K + 1 == t->rounds_total && K > 0)
        d->topscorer = 2L * d->score > (long)K * t->points.win;
}
