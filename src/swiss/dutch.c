/* The FIDE Dutch system (C.04.3, in force since 1 July 2025): the next round's pairing.
 *
 * The brackets are paired from the highest score down.  Each bracket is paired by
 * maximum-weight matchings over every player still unpaired (this bracket and all the
 * brackets below, and a "bye" vertex when the number is odd), whose edge weights are
 * the criteria (numbered as in the 2025 text) written as the digits of one long
 * number, most important first:
 *
 *   completion (C4)      every edge counts 1: the matching must pair everybody, so
 *                        the bracket is paired only in ways the rest can complete
 *   C5                   the bye to the lowest score that completes the round
 *   C6                   pairs inside the bracket (fewest downfloaters)
 *   C7                   the downfloaters' scores, as the 2017 PSD: for each score
 *                        difference, largest first, how many pairs (and downfloaters,
 *                        against the artificial value one point below the bracket's
 *                        lowest score) have it
 *   C8                   the same two for the next bracket (not for the penultimate)
 *   C9                   the bye's assignee with the fewest unplayed rounds, in a
 *                        bracket that floats exactly one player down
 *   C10-C13              colours: topscorers' colour differences and three in a row,
 *                        preferences not granted, strong preferences not granted
 *   C14-C21              repeated floats: counts, then score differences
 *   order                the first candidate in the handbook's order: MDPs paired with
 *                        the highest-ranked opponents they can have (first pass), then
 *                        the remainder with the fewest exchanges, the smallest sum of
 *                        exchanged numbers and the first transposition (second pass)
 *
 * A digit's base is larger than the most its sum can be over a matching, so comparing
 * weights compares the criteria in order.  C1-C3 remove edges.  A pass whose optimal
 * matchings are among an earlier pass's is solved on that pass's tight edges only
 * (NOTES.md, "The pairing"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swiss/dutch.h"
#include "swiss/matching.h"
#include "swiss/swiss.h"

/* --- the bracket --- */

struct bracket {
    int *in_b;   /* vertex is in the bracket */
    int *is_mdp; /* vertex is a moved-down player of the bracket */
    int *in_ns;  /* vertex is a resident of the next bracket */
    int *pos;    /* vertex's position in the bracket (rank order) */
    int size;
    SwissPoints lowest; /* the bracket's resident score */
    SwissPoints next_score;
    int has_next; /* C7 applies */
    int is_last;  /* the last bracket: the bye is given here */
    int c9;       /* C9 applies: the bracket floats exactly one player down */
    int phase;    /* 1: MDPs' order; 2: remainder's order */
    int *s1;      /* phase 2: the remainder's S1 */
    int *in_rem;  /* phase 2: vertex is in the remainder */
    int *rem_pos;
    int n_rem;
    int p_rem;            /* pairs in the remainder: the size of its S1 */
    int narrow;           /* phase 2 without the order digits: is the first candidate best? */
    int want_tight;       /* mark the edges of the optimal matchings in tight[] */
    int use_tight;        /* solve on the edges marked in tight[] only */
    unsigned char *tight; /* [n * n]: pair i < j at i * n + j */
    int *mdp_index;       /* phase 1: index among MDPs */
    int n_mdp;
};

/* The exchange digit of a remainder player: S1 from its last player up, then S2 from
 * its first player down. */
static int exch_digit(const struct bracket *br, int v)
{
    int r = br->rem_pos[v];
    return r < br->p_rem ? br->p_rem - 1 - r : r;
}

static int edge_allowed(const struct ctx *c, int i, int j)
{
    const struct dp *x = &c->p[i], *y = &c->p[j];
    if (!x->id)
        return y->bye_ok;
    if (!y->id)
        return x->bye_ok;
    if (c->met[i * c->n + j])
        return 0;
    if (x->strength == STRENGTH_ABSOLUTE && y->strength == STRENGTH_ABSOLUTE &&
        x->pref == y->pref && !x->topscorer && !y->topscorer)
        return 0;
    return 1;
}

/* The distinct score differences of the PSD events, largest first (at most SD_MAX
 * values: far more than a tournament of 99 rounds can make). */
#define SD_MAX 2048
static int sd_index(const SwissPoints *vals, int nv, SwissPoints sd)
{
    for (int k = 0; k < nv; k++)
        if (vals[k] == sd)
            return k;
    return -1;
}

/* Add a score difference to the sorted list: 0, or 1 when the list is full. */
static int add_sd(SwissPoints *vals, int *nv, SwissPoints sd)
{
    if (sd_index(vals, *nv, sd) >= 0)
        return 0;
    if (*nv >= SD_MAX)
        return 1;
    int k = (*nv)++;
    while (k > 0 && vals[k - 1] < sd) {
        vals[k] = vals[k - 1];
        k--;
    }
    vals[k] = sd;
    return 0;
}

static SwissPoints absdiff(SwissPoints a, SwissPoints b)
{
    return a > b ? a - b : b - a;
}

/* Per-edge costs of every criterion; returns the number of components. */
struct edge_eval {
    int i, j;
};

static int count_bits(unsigned long long v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

/* w = w * base + add, over nl limbs. */
static void w_muladd(uint64_t *w, int nl, unsigned long long base, unsigned long long add)
{
    unsigned __int128 carry = add;
    for (int i = 0; i < nl; i++) {
        unsigned __int128 v = (unsigned __int128)w[i] * base + carry;
        w[i] = (uint64_t)v;
        carry = v >> 64;
    }
}

/* w += p * small, over nl limbs. */
static void w_addmul(uint64_t *w, const uint64_t *p, int nl, unsigned long long small)
{
    if (!small)
        return;
    unsigned __int128 carry = 0;
    for (int i = 0; i < nl; i++) {
        unsigned __int128 v = (unsigned __int128)p[i] * small + w[i] + carry;
        w[i] = (uint64_t)v;
        carry = v >> 64;
    }
}

/* Pair the bracket: solve one matching with the bracket's criteria; mate[] receives
 * the result over all vertices.  -1 without memory, 1 when the rest cannot be
 * completed. */
static int solve_bracket(struct ctx *c, struct bracket *br, int *mate)
{
    int n = c->n;
    int *alive = malloc((size_t)n * sizeof(int)), na = 0;
    if (!alive)
        return -1;
    for (int v = 0; v < n; v++)
        if (c->paired[v] < 0)
            alive[na++] = v;
    /* the PSD values of this bracket and the next */
    SwissPoints sdv[2][SD_MAX];
    int sd_full = 0;
    int nsd[2] = {0, 0};
    SwissPoints nb_low = br->next_score;
    for (int a = 0; a < na; a++)
        for (int b = a + 1; b < na; b++) {
            int i = alive[a], j = alive[b];
            if (!edge_allowed(c, i, j))
                continue;
            if (br->in_b[i] && br->in_b[j]) {
                sd_full |= add_sd(sdv[0], &nsd[0], absdiff(c->p[i].score, c->p[j].score));
            } else if (br->in_b[i]) {
                sd_full |= add_sd(sdv[0], &nsd[0], c->p[i].score - (br->lowest - c->one_point));
            }
            if (br->has_next) {
                int bi = br->in_b[i], bj = br->in_b[j], ni = br->in_ns[i], nj = br->in_ns[j];
                if ((bi && nj) || (ni && nj)) {
                    sd_full |= add_sd(sdv[1], &nsd[1], absdiff(c->p[i].score, c->p[j].score));
                } else if ((bi && !bj && !nj) || (ni && !nj)) {
                    sd_full |= add_sd(sdv[1], &nsd[1], c->p[i].score - (nb_low - c->one_point));
                }
            }
        }
    if (sd_full) {
        free(alive);
        return 2;
    }
    /* the criteria's digits: nc_fixed for every edge, then one or two a player for
     * the order (only the edges at that player carry them) */
    int n_ord = br->phase == 1 ? br->n_mdp : br->narrow ? 0 : 2 * br->n_rem;
    int nc_fixed =
        3 + nsd[0] + 1 + nsd[1] + 1 + 4 + 8 + (br->phase == 2 ? 2 + (br->narrow == 1) : 0);
    int nc = nc_fixed + n_ord;
    size_t max_edges = (size_t)na * (size_t)(na - 1) / 2 + 1;
    long *cost = calloc(max_edges * (size_t)nc_fixed, sizeof(long));
    long *maxc = calloc((size_t)nc, sizeof(long));
    struct edge_eval *ev = malloc(max_edges * sizeof *ev);
    if (!cost || !maxc || !ev) {
        free(alive);
        free(cost);
        free(maxc);
        free(ev);
        return -1;
    }
    int ne = 0;
    int npairs = na / 2;
    for (int a = 0; a < na; a++)
        for (int b = a + 1; b < na; b++) {
            int i = alive[a], j = alive[b];
            if (!edge_allowed(c, i, j))
                continue;
            if (br->phase == 2) {
                /* floating MDPs of the bracket are paired below it */
                int fi = br->in_b[i] && !br->in_rem[i], fj = br->in_b[j] && !br->in_rem[j];
                if ((fi && br->in_b[j]) || (fj && br->in_b[i]))
                    continue;
            }
            long *e = &cost[(size_t)ne * (size_t)nc_fixed];
            ev[ne].i = i;
            ev[ne].j = j;
            ne++;
            int k = 0;
            e[k++] = 0; /* completion: a benefit, set below */
            /* the pairing-allocated bye to the lowest score that completes the round */
            e[k++] = !c->p[j].id ? c->p[i].score - c->lowest_score : 0;
            const struct dp *x = &c->p[i], *y = &c->p[j];
            int bi = br->in_b[i], bj = br->in_b[j];
            e[k++] = !(bi && bj); /* C5: a pair outside the bracket costs */
            /* C6 */
            for (int q = 0; q < nsd[0]; q++)
                e[k + q] = 0;
            if (bi && bj)
                e[k + sd_index(sdv[0], nsd[0], absdiff(x->score, y->score))] = 1;
            else if (bi)
                e[k + sd_index(sdv[0], nsd[0], x->score - (br->lowest - c->one_point))] = 1;
            k += nsd[0];
            /* C7 */
            int ni = br->in_ns[i], nj = br->in_ns[j];
            int nb_pair = br->has_next && ((bi && nj) || (ni && nj));
            int nb_float = br->has_next && ((bi && !bj && !nj) || (ni && !nj));
            e[k++] = br->has_next ? !nb_pair : 0;
            for (int q = 0; q < nsd[1]; q++)
                e[k + q] = 0;
            if (nb_pair)
                e[k + sd_index(sdv[1], nsd[1], absdiff(x->score, y->score))] = 1;
            else if (nb_float)
                e[k + sd_index(sdv[1], nsd[1], x->score - (nb_low - c->one_point))] = 1;
            k += nsd[1];
            /* C9 (2025): the fewest unplayed rounds for the bye's assignee, when it
             * floats down from this bracket */
            e[k++] = br->c9 && !y->id && bi ? x->unplayed : 0;
            /* C8-C11: colours of a pair inside the bracket */
            long c8 = 0, c9 = 0, c10 = 0, c11 = 0;
            if (bi && bj && x->id && y->id) {
                int cx = dutch_allocate(c, i, j);
                const struct dp *pl[2] = {x, y};
                int got[2] = {cx, -cx};
                if (x->topscorer || y->topscorer)
                    for (int s = 0; s < 2; s++) {
                        int cd = pl[s]->cd + got[s];
                        if (cd > 2 || cd < -2)
                            c8++;
                        if (pl[s]->n_col >= 2 && pl[s]->col[pl[s]->n_col - 1] == got[s] &&
                            pl[s]->col[pl[s]->n_col - 2] == got[s])
                            c9++;
                    }
                for (int s = 0; s < 2; s++)
                    if (pl[s]->pref && pl[s]->pref != got[s]) {
                        c10++;
                        if (pl[s]->strength >= STRENGTH_STRONG)
                            c11++;
                    }
            }
            e[k++] = c8;
            e[k++] = c9;
            e[k++] = c10;
            e[k++] = c11;
            /* C12-C19: floats of the bracket's players */
            long fl[8] = {0};
            if (bi) {
                int xdown = !bj || x->score > y->score;
                int yup = bj && x->score > y->score;
                SwissPoints sd = bj ? x->score - y->score : x->score - (br->lowest - c->one_point);
                if (xdown && x->float1 == FLOAT_DOWN) {
                    fl[0]++;
                    fl[4] += sd;
                }
                if (yup && y->float1 == FLOAT_UP) {
                    fl[1]++;
                    fl[5] += sd;
                }
                if (xdown && x->float2 == FLOAT_DOWN) {
                    fl[2]++;
                    fl[6] += sd;
                }
                if (yup && y->float2 == FLOAT_UP) {
                    fl[3]++;
                    fl[7] += sd;
                }
            }
            for (int q = 0; q < 8; q++)
                e[k++] = fl[q];
            if (br->phase == 2) {
                /* exchanges: S1 players paired inside S1 or floating; then the sum of the
                 * numbers exchanged */
                int ri = br->in_rem[i], rj = br->in_rem[j];
                long exch = 0, sum = 0;
                long m = br->n_rem + 1;
                if (ri && rj) {
                    if (br->s1[i] && br->s1[j]) {
                        exch = 1;
                        sum = m - br->rem_pos[j];
                    } else if (!br->s1[i] && !br->s1[j]) {
                        sum = br->rem_pos[i];
                    }
                } else if (ri && br->s1[i]) {
                    exch = 1;
                    sum = m - br->rem_pos[i];
                }
                e[k++] = exch;
                e[k++] = sum;
                if (br->narrow == 1) {
                    /* the first candidate: S1's k-th player against S2's k-th, S2's
                     * last players floating */
                    int first = ri && rj && br->rem_pos[i] < br->p_rem &&
                                br->rem_pos[j] == br->rem_pos[i] + br->p_rem;
                    first |= ri && !rj && br->rem_pos[i] >= 2 * br->p_rem;
                    e[k++] = !first;
                }
            }
        }
    for (int e = 0; e < ne; e++)
        for (int k = 0; k < nc_fixed; k++)
            if (cost[(size_t)e * (size_t)nc_fixed + k] > maxc[k])
                maxc[k] = cost[(size_t)e * (size_t)nc_fixed + k];
    long bsize = br->size + 2;
    for (int k = nc_fixed; k < nc; k++) {
        if (br->phase == 1)
            maxc[k] = bsize;
        else
            maxc[k] = k < nc_fixed + br->n_rem ? 1 : br->n_rem + 1;
    }
    /* bases, width and the place value of each digit */
    unsigned long long *base = malloc((size_t)nc * sizeof *base);
    int bits = 8, rc = 0;
    if (base)
        for (int k = 0; k < nc; k++) {
            unsigned long long top = k == 0 ? 1 : (unsigned long long)maxc[k];
            base[k] = (k >= nc_fixed ? top : top * (unsigned long long)(npairs + 1)) + 1;
            bits += count_bits(base[k]);
        }
    int nl = bits / 64 + 1;
    struct swiss_matcher *m = swiss_matcher_new(n, ne + 1, nl);
    int *added = malloc(((size_t)ne + 1) * sizeof(int)), n_added = 0;
    uint64_t *w = calloc((size_t)nl, sizeof(uint64_t));
    uint64_t *place = calloc((size_t)nc * (size_t)nl, sizeof(uint64_t));
    if (!m || !w || !base || !place || !added) {
        rc = -1;
        goto done;
    }
    place[(size_t)(nc - 1) * (size_t)nl] = 1;
    for (int k = nc - 2; k >= 0; k--) {
        memcpy(&place[(size_t)k * (size_t)nl], &place[(size_t)(k + 1) * (size_t)nl],
               (size_t)nl * sizeof(uint64_t));
        w_muladd(&place[(size_t)k * (size_t)nl], nl, base[k + 1], 0);
    }
    for (int e = 0; e < ne; e++) {
        const long *ce = &cost[(size_t)e * (size_t)nc_fixed];
        int i = ev[e].i, j = ev[e].j;
        memset(w, 0, (size_t)nl * sizeof(uint64_t));
        w_addmul(w, &place[0], nl, 1);
        for (int k = 1; k < nc_fixed; k++)
            w_addmul(w, &place[(size_t)k * (size_t)nl], nl, (unsigned long long)(maxc[k] - ce[k]));
        /* the order digits of the edge's two players */
        int bi = br->in_b[i], bj = br->in_b[j];
        int dk[4], nd = 0;
        long dc[4];
        if (br->phase == 1) {
            if (bi && br->is_mdp[i]) {
                dk[nd] = nc_fixed + br->mdp_index[i];
                dc[nd++] = bj ? br->pos[j] + 1 : bsize;
            }
            if (bj && br->is_mdp[j]) {
                dk[nd] = nc_fixed + br->mdp_index[j];
                dc[nd++] = br->pos[i] + 1;
            }
        } else if (!br->narrow) {
            /* exchanges: S1's highest numbers moved to S2 first, then S2's lowest moved
             * to S1 (a digit a player, 1 when not moved); then the first transposition:
             * each player's opponent, top first */
            int ri = br->in_rem[i], rj = br->in_rem[j];
            if (ri) {
                int moved = br->s1[i] ? !rj : (rj && !br->s1[j]);
                dk[nd] = nc_fixed + exch_digit(br, i);
                dc[nd++] = !moved;
                dk[nd] = nc_fixed + br->n_rem + br->rem_pos[i];
                dc[nd++] = rj ? br->rem_pos[j] + 1 : 0;
            }
            if (rj) {
                int moved = br->s1[j] && ri && br->s1[i];
                dk[nd] = nc_fixed + exch_digit(br, j);
                dc[nd++] = !moved;
                dk[nd] = nc_fixed + br->n_rem + br->rem_pos[j];
                dc[nd++] = 0;
            }
        }
        for (int q = 0; q < nd; q++)
            w_addmul(w, &place[(size_t)dk[q] * (size_t)nl], nl,
                     (unsigned long long)(maxc[dk[q]] - dc[q]));
        if (!br->use_tight || br->tight[(size_t)i * (size_t)n + (size_t)j])
            added[n_added++] = e;
        if (!br->use_tight || br->tight[(size_t)i * (size_t)n + (size_t)j])
            swiss_matcher_add(m, i, j, w);
    }
    if (swiss_matcher_solve(m, mate)) {
        rc = -1;
        goto done;
    }
    if (br->want_tight) {
        unsigned char *tk = malloc((size_t)n_added + 1);
        if (!tk || swiss_matcher_tight(m, tk)) {
            free(tk);
            rc = -1;
            goto done;
        }
        for (int e = 0; e < ne; e++)
            br->tight[(size_t)ev[e].i * (size_t)n + (size_t)ev[e].j] = 0;
        for (int q = 0; q < n_added; q++)
            br->tight[(size_t)ev[added[q]].i * (size_t)n + (size_t)ev[added[q]].j] = tk[q];
        free(tk);
    }
    for (int a = 0; a < na; a++)
        if (mate[alive[a]] < 0)
            rc = 1;
done:
    swiss_matcher_free(m);
    free(added);
    free(w);
    free(place);
    free(base);
    free(alive);
    free(cost);
    free(maxc);
    free(ev);
    return rc;
}

/* --- the round --- */

struct board {
    int white, black;
    SwissPoints hi, sum;
    int top_rank;
};

static int cmp_boards(const void *a, const void *b)
{
    const struct board *x = a, *y = b;
    if (!x->black != !y->black)
        return !x->black ? 1 : -1;
    if (x->hi != y->hi)
        return x->hi > y->hi ? -1 : 1;
    if (x->sum != y->sum)
        return x->sum > y->sum ? -1 : 1;
    return x->top_rank - y->top_rank;
}

/* The players of the bracket not paired inside it by mate[]. */
static int bracket_floaters(const struct bracket *br, const int *mate, int end)
{
    int n = 0;
    for (int v = 0; v < end; v++)
        if (br->in_b[v] && (mate[v] < 0 || !br->in_b[mate[v]]))
            n++;
    return n;
}

/* The pairs of mate[] inside the remainder. */
static int remainder_pairs(const struct bracket *br, const int *mate, int end)
{
    int n = 0;
    for (int v = 0; v < end; v++)
        if (br->in_rem[v] && mate[v] > v && br->in_rem[mate[v]])
            n++;
    return n;
}

int swiss_pair_next(const struct swiss_tournament *t, struct swiss_pair *pairs, int *n_pairs,
                    char *err, size_t err_size)
{
    int count = 0;
    for (int i = 0; i < t->n_players; i++)
        if (!t->players[i].withdrawn)
            count++;
    *n_pairs = 0;
    if (t->rounds_total > 0 && t->rounds_played >= t->rounds_total) {
        snprintf(err, err_size, "all %d rounds are played", t->rounds_total);
        return SWISS_ERROR;
    }
    struct ctx c = {0};
    c.t = t;
    c.has_bye = count & 1;
    c.n = count + c.has_bye;
    c.one_point = 10;
    c.p = calloc((size_t)c.n + 1, sizeof *c.p);
    c.met = calloc((size_t)c.n * (size_t)c.n + 1, 1);
    c.paired = malloc(((size_t)c.n + 1) * sizeof(int));
    int *mate = malloc(((size_t)c.n + 1) * sizeof(int));
    int *vert_of = calloc((size_t)t->n_players + 1, sizeof(int));
    struct bracket br = {0};
    int nb = c.n + 1;
    br.in_b = calloc((size_t)nb, sizeof(int));
    br.is_mdp = calloc((size_t)nb, sizeof(int));
    br.in_ns = calloc((size_t)nb, sizeof(int));
    br.pos = calloc((size_t)nb, sizeof(int));
    br.s1 = calloc((size_t)nb, sizeof(int));
    br.in_rem = calloc((size_t)nb, sizeof(int));
    br.rem_pos = calloc((size_t)nb, sizeof(int));
    br.mdp_index = calloc((size_t)nb, sizeof(int));
    br.tight = calloc((size_t)c.n * (size_t)c.n + 1, 1);
    struct board *boards = calloc((size_t)c.n / 2 + 1, sizeof *boards);
    int rc = SWISS_OK;
    if (!c.p || !c.met || !c.paired || !mate || !vert_of || !br.in_b || !br.is_mdp || !br.in_ns ||
        !br.pos || !br.s1 || !br.in_rem || !br.rem_pos || !br.mdp_index || !br.tight || !boards) {
        snprintf(err, err_size, "out of memory");
        rc = SWISS_ERROR;
        goto out;
    }
    {
        int k = 0;
        for (int i = 0; i < t->n_players; i++)
            if (!t->players[i].withdrawn)
                dutch_fill_player(t, i + 1, &c.p[k++]);
        if (c.has_bye) {
            c.p[k].id = 0;
            c.p[k].score = -1000000;
        }
    }
    qsort(c.p, (size_t)c.n, sizeof *c.p, dutch_cmp_rank);
    c.lowest_score = count ? c.p[count - 1].score : 0;
    for (int v = 0; v < c.n; v++) {
        if (c.p[v].id)
            vert_of[c.p[v].id] = v + 1;
        c.paired[v] = -1;
    }
    for (int v = 0; v < c.n; v++) {
        if (!c.p[v].id)
            continue;
        const struct swiss_player *pl = &t->players[c.p[v].id - 1];
        for (int r = 0; r < t->rounds_played; r++)
            if (swiss_played(&pl->games[r]) && vert_of[pl->games[r].opponent]) {
                int u = vert_of[pl->games[r].opponent] - 1;
                c.met[v * c.n + u] = c.met[u * c.n + v] = 1;
            }
    }
    /* the scoregroups, highest first */
    for (int start = 0; start < c.n;) {
        if (!c.p[start].id)
            break;
        SwissPoints s = c.p[start].score;
        int end = start;
        while (end < c.n && c.p[end].id && c.p[end].score == s)
            end++;
        int next_end = end;
        while (next_end < c.n && c.p[next_end].id && c.p[next_end].score == c.p[end].score)
            next_end++;
        /* the bracket: unpaired players above (MDPs) and the residents */
        memset(br.in_b, 0, (size_t)nb * sizeof(int));
        memset(br.is_mdp, 0, (size_t)nb * sizeof(int));
        memset(br.in_ns, 0, (size_t)nb * sizeof(int));
        br.size = 0;
        br.n_mdp = 0;
        for (int v = 0; v < end; v++)
            if (c.paired[v] < 0) {
                br.in_b[v] = 1;
                br.pos[v] = br.size++;
                if (v < start) {
                    br.is_mdp[v] = 1;
                    br.mdp_index[v] = br.n_mdp++;
                }
            }
        br.lowest = s;
        int is_last = end >= c.n || !c.p[end].id;
        int is_ppb = !is_last && (next_end >= c.n || !c.p[next_end].id);
        br.has_next = !is_last && !is_ppb;
        br.is_last = is_last;
        if (!is_last) {
            br.next_score = c.p[end].score;
            for (int v = end; v < next_end; v++)
                br.in_ns[v] = 1;
        }
        if (br.size == 0) {
            start = end;
            continue;
        }
        /* first pass: the MDPs' partners.  Without MDPs it would only count the
         * remainder's pairs: they are guessed below and the guess checked. */
        br.phase = 1;
        br.c9 = 0;
        int guess = br.n_mdp == 0, r = 0;
        if (!guess) {
            br.want_tight = 1;
            r = solve_bracket(&c, &br, mate);
            if (r == 0 && c.has_bye && bracket_floaters(&br, mate, end) == 1) {
                /* C9 (the bye's assignee with the fewest unplayed games) applies to a
                 * bracket that floats exactly one player down: C6 fixed that number */
                br.c9 = 1;
                r = solve_bracket(&c, &br, mate);
            }
            br.want_tight = 0;
        }
        if (r < 0) {
            snprintf(err, err_size, "out of memory");
            rc = SWISS_ERROR;
            goto out;
        }
        if (r == 2) {
            snprintf(err, err_size, "too many different scores in one bracket");
            rc = SWISS_ERROR;
            goto out;
        }
        if (r > 0) {
            rc = SWISS_NO_PAIRING;
            snprintf(err, err_size, "no pairing satisfies the absolute criteria");
            goto out;
        }
        for (int v = 0; v < end && !guess; v++) {
            if (!br.in_b[v])
                continue;
            int u = mate[v];
            if (br.is_mdp[v] && u >= 0 && br.in_b[u]) {
                c.paired[v] = u;
                c.paired[u] = v;
            }
        }
        memset(br.in_rem, 0, (size_t)nb * sizeof(int));
        br.n_rem = 0;
        for (int v = 0; v < end; v++)
            if (br.in_b[v] && !br.is_mdp[v] && c.paired[v] < 0) {
                br.in_rem[v] = 1;
                br.rem_pos[v] = br.n_rem++;
            }
        int p_rem = guess ? br.n_rem / 2 : remainder_pairs(&br, mate, end);
        if (br.n_rem > 0) {
            br.phase = 2;
            for (;;) {
                memset(br.s1, 0, (size_t)nb * sizeof(int));
                int k = 0;
                for (int v = 0; v < end; v++)
                    if (br.in_rem[v] && k < p_rem) {
                        br.s1[v] = 1;
                        k++;
                    }
                br.p_rem = p_rem;
                /* the criteria and the exchanges' count and sum, keeping the edges of
                 * the optimal matchings */
                br.narrow = 2;
                br.want_tight = 1;
                /* with the MDPs' pairs fixed, the optimal matchings are among the
                 * first pass's optimal matchings: solved on their edges */
                br.use_tight = !guess;
                r = solve_bracket(&c, &br, mate);
                br.narrow = 0;
                br.want_tight = 0;
                br.use_tight = 0;
                if (r != 0 || !guess)
                    break;
                /* the criteria fixed the number of pairs whatever S1 was: if the guess
                 * was wrong, solve again with the right S1 */
                int got = remainder_pairs(&br, mate, end);
                if (got != p_rem) {
                    p_rem = got;
                    continue;
                }
                if (c.has_bye && !br.c9 && bracket_floaters(&br, mate, end) == 1) {
                    br.c9 = 1;
                    continue;
                }
                break;
            }
            /* then the order (exchanges, transposition) on those edges only */
            if (r == 0) {
                br.use_tight = 1;
                r = solve_bracket(&c, &br, mate);
                br.use_tight = 0;
            }
            if (r == 1 && guess) {
                rc = SWISS_NO_PAIRING;
                snprintf(err, err_size, "no pairing satisfies the absolute criteria");
                goto out;
            }
            if (r != 0) {
                snprintf(err, err_size,
                         r < 0    ? "out of memory"
                         : r == 2 ? "too many different scores in one bracket"
                                  : "internal: remainder lost");
                rc = SWISS_ERROR;
                goto out;
            }
            for (int v = 0; v < end; v++)
                if (br.in_rem[v] && br.in_b[mate[v]]) {
                    c.paired[v] = mate[v];
                    c.paired[mate[v]] = v;
                }
        }
        start = end;
    }
    /* the bye, if any, goes to whoever is left */
    for (int v = 0; v < c.n; v++)
        if (c.paired[v] < 0) {
            int u = -1;
            for (int x = 0; x < c.n; x++)
                if (x != v && c.paired[x] < 0) {
                    u = x;
                    break;
                }
            if (u < 0) {
                rc = SWISS_NO_PAIRING;
                snprintf(err, err_size, "no pairing satisfies the absolute criteria");
                goto out;
            }
            c.paired[v] = u;
            c.paired[u] = v;
        }
    int nbd = 0;
    for (int v = 0; v < c.n; v++) {
        int u = c.paired[v];
        if (u < v && c.p[u].id && c.p[v].id)
            continue;
        if (!c.p[v].id)
            continue;
        if (!c.p[u].id) {
            boards[nbd++] = (struct board){c.p[v].id, 0, c.p[v].score, c.p[v].score, v};
            continue;
        }
        int a = v < u ? v : u, b = v < u ? u : v;
        int col = dutch_allocate(&c, a, b);
        struct board bd;
        bd.white = col == SWISS_WHITE ? c.p[a].id : c.p[b].id;
        bd.black = col == SWISS_WHITE ? c.p[b].id : c.p[a].id;
        bd.hi = c.p[a].score > c.p[b].score ? c.p[a].score : c.p[b].score;
        bd.sum = c.p[a].score + c.p[b].score;
        bd.top_rank = a;
        boards[nbd++] = bd;
    }
    qsort(boards, (size_t)nbd, sizeof *boards, cmp_boards);
    for (int i = 0; i < nbd; i++) {
        pairs[i].white = boards[i].white;
        pairs[i].black = boards[i].black;
    }
    *n_pairs = nbd;
out:
    free(c.p);
    free(c.met);
    free(c.paired);
    free(mate);
    free(vert_of);
    free(br.in_b);
    free(br.is_mdp);
    free(br.in_ns);
    free(br.pos);
    free(br.s1);
    free(br.in_rem);
    free(br.rem_pos);
    free(br.mdp_index);
    free(br.tight);
    free(boards);
    return rc;
}
