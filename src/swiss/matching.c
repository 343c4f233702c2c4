/* Maximum-weight matching: Edmonds' blossom algorithm in its primal-dual form (Galil,
 * "Efficient algorithms for finding maximum matching in graphs", 1986), O(V^3).
 *
 * Vertices are 0..n-1; blossoms n..2n-1.  An edge k has two endpoints 2k and 2k+1
 * (endpoint p belongs to vertex endpoint[p]; p^1 is the other end).  mate[v] is the
 * remote endpoint of v's matched edge.  Labels: 0 free, 1 S (outer), 2 T (inner).
 * Duals are kept doubled with weights doubled too, so that every quantity stays an
 * integer.  The integers are multi-word (matching_core.h) so that the lexicographic
 * weights of the Dutch criteria fit.  This file holds the graph and the solve (the
 * search for augmenting paths and the dual updates); blossom.c the blossoms. */
#include <stdlib.h>
#include <string.h>

#include "swiss/matching_core.h"

struct swiss_matcher *swiss_matcher_new(int n, int max_edges, int limbs)
{
    struct swiss_matcher *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = n;
    m->nl = limbs;
    m->max_edges = max_edges;
    size_t n2 = (size_t)(2 * n + 1);
    m->ends = malloc((size_t)(2 * max_edges + 1) * sizeof(int));
    m->wt = malloc(((size_t)max_edges + 1) * (size_t)limbs * sizeof(uint64_t));
    m->endpoint = malloc((size_t)(2 * max_edges + 1) * sizeof(int));
    m->neighb_start = malloc((n2 + 1) * sizeof(int));
    m->neighb = malloc((size_t)(2 * max_edges + 1) * sizeof(int));
    m->mate = malloc(n2 * sizeof(int));
    m->label = malloc(n2 * sizeof(int));
    m->labelend = malloc(n2 * sizeof(int));
    m->inblossom = malloc(n2 * sizeof(int));
    m->blossomparent = malloc(n2 * sizeof(int));
    m->blossombase = malloc(n2 * sizeof(int));
    m->bestedge = malloc(n2 * sizeof(int));
    m->queue = malloc(n2 * sizeof(int));
    m->allowedge = malloc(((size_t)max_edges + 1) * sizeof(int));
    m->childs = calloc(n2, sizeof(int *));
    m->endps = calloc(n2, sizeof(int *));
    m->n_childs = calloc(n2, sizeof(int));
    m->bestedges = calloc(n2, sizeof(int *));
    m->n_bestedges = calloc(n2, sizeof(int));
    m->unused = malloc(n2 * sizeof(int));
    m->leaves_buf = malloc(n2 * sizeof(int));
    m->bestedgeto = malloc(n2 * sizeof(int));
    m->dual = malloc(n2 * (size_t)limbs * sizeof(uint64_t));
    m->bslack = malloc(n2 * (size_t)limbs * sizeof(uint64_t));
    m->bepoch = malloc(n2 * sizeof(int));
    m->bedge = malloc(n2 * sizeof(int));
    m->tmp = malloc(8 * (size_t)limbs * sizeof(uint64_t));
    if (!m->ends || !m->wt || !m->endpoint || !m->neighb_start || !m->neighb || !m->mate ||
        !m->label || !m->labelend || !m->inblossom || !m->blossomparent || !m->blossombase ||
        !m->bestedge || !m->queue || !m->allowedge || !m->childs || !m->endps || !m->n_childs ||
        !m->bestedges || !m->n_bestedges || !m->unused || !m->leaves_buf || !m->bestedgeto ||
        !m->dual || !m->tmp || !m->bslack || !m->bepoch || !m->bedge) {
        swiss_matcher_free(m);
        return NULL;
    }
    for (int b = n; b < 2 * n; b++) {
        m->childs[b] = malloc((size_t)(n + 1) * sizeof(int));
        m->endps[b] = malloc((size_t)(n + 1) * sizeof(int));
        m->bestedges[b] = malloc(n2 * sizeof(int));
        if (!m->childs[b] || !m->endps[b] || !m->bestedges[b]) {
            swiss_matcher_free(m);
            return NULL;
        }
    }
    for (int v = 0; v < n; v++) {
        m->bestedges[v] = malloc(n2 * sizeof(int));
        if (!m->bestedges[v]) {
            swiss_matcher_free(m);
            return NULL;
        }
    }
    return m;
}

void swiss_matcher_free(struct swiss_matcher *m)
{
    if (!m)
        return;
    if (m->childs)
        for (int b = 0; b < 2 * m->n; b++) {
            free(m->childs[b]);
            free(m->endps[b]);
            free(m->bestedges[b]);
        }
    free(m->ends);
    free(m->wt);
    free(m->endpoint);
    free(m->neighb_start);
    free(m->neighb);
    free(m->mate);
    free(m->label);
    free(m->labelend);
    free(m->inblossom);
    free(m->blossomparent);
    free(m->blossombase);
    free(m->bestedge);
    free(m->queue);
    free(m->allowedge);
    free(m->childs);
    free(m->endps);
    free(m->n_childs);
    free(m->bestedges);
    free(m->n_bestedges);
    free(m->unused);
    free(m->leaves_buf);
    free(m->bestedgeto);
    free(m->dual);
    free(m->nbv);
    free(m->wq);
    free(m->bslack);
    free(m->bepoch);
    free(m->bedge);
    free(m->tmp);
    free(m);
}

void swiss_matcher_clear(struct swiss_matcher *m)
{
    m->n_edges = 0;
}

int swiss_matcher_add(struct swiss_matcher *m, int u, int v, const uint64_t *w)
{
    if (m->n_edges >= m->max_edges || u == v || u < 0 || v < 0 || u >= m->n || v >= m->n)
        return -1;
    int k = m->n_edges++;
    m->ends[2 * k] = u;
    m->ends[2 * k + 1] = v;
    memcpy(&m->wt[(size_t)k * (size_t)m->nl], w, (size_t)m->nl * sizeof(uint64_t));
    return 0;
}

int swiss_matcher_solve(struct swiss_matcher *m, int *mate_out)
{
    int n = m->n, nl = m->nl, ne = m->n_edges;
    uint64_t *maxw = m->tmp + 2 * nl, *kslack = m->tmp + 3 * nl, *delta = m->tmp + 4 * nl,
             *d = m->tmp + 5 * nl;
    /* double the weights; endpoints and neighbour lists */
    memset(maxw, 0, (size_t)nl * sizeof(uint64_t));
    for (int k = 0; k < ne; k++) {
        w_add(WT(m, k), WT(m, k), WT(m, k), nl);
        if (w_cmp(WT(m, k), maxw, nl) > 0)
            memcpy(maxw, WT(m, k), (size_t)nl * sizeof(uint64_t));
    }
    for (int k = 0; k < 2 * ne; k++)
        m->endpoint[k] = m->ends[k];
    for (int v = 0; v <= n; v++)
        m->neighb_start[v] = 0;
    for (int k = 0; k < 2 * ne; k++)
        m->neighb_start[m->ends[k] + 1]++;
    for (int v = 0; v < n; v++)
        m->neighb_start[v + 1] += m->neighb_start[v];
    int *fill = malloc((size_t)(n + 1) * sizeof(int));
    if (!fill)
        return -1;
    for (int v = 0; v < n; v++)
        fill[v] = m->neighb_start[v];
    for (int k = 0; k < ne; k++) {
        /* vertex ends[2k] sees remote endpoint 2k+1, and the other way round */
        m->neighb[fill[m->ends[2 * k]]++] = 2 * k + 1;
        m->neighb[fill[m->ends[2 * k + 1]]++] = 2 * k;
    }
    free(fill);
    free(m->nbv);
    free(m->wq);
    m->nbv = malloc((size_t)(2 * ne + 1) * sizeof(int));
    m->wq = malloc(((size_t)(2 * ne) + 1) * (size_t)nl * sizeof(uint64_t));
    if (!m->nbv || !m->wq)
        return -1;
    for (int q = 0; q < 2 * ne; q++) {
        int p = m->neighb[q];
        m->nbv[q] = m->endpoint[p];
        memcpy(&m->wq[(size_t)q * (size_t)nl], WT(m, p / 2), (size_t)nl * sizeof(uint64_t));
    }
    for (int v = 0; v < 2 * n; v++) {
        m->mate[v] = -1;
        m->label[v] = 0;
        m->labelend[v] = -1;
        m->inblossom[v] = v < n ? v : -1;
        m->blossomparent[v] = -1;
        m->blossombase[v] = v < n ? v : -1;
        m->bestedge[v] = -1;
        m->n_bestedges[v] = -1;
        m->n_childs[v] = 0;
    }
    for (int v = 0; v < n; v++)
        m->inblossom[v] = v;
    m->n_unused = 0;
    for (int b = 2 * n - 1; b >= n; b--)
        m->unused[m->n_unused++] = b;
    /* a vertex's dual starts at the largest (doubled) weight */
    for (int v = 0; v < n; v++)
        memcpy(DUAL(m, v), maxw, (size_t)nl * sizeof(uint64_t));
    for (int b = n; b < 2 * n; b++)
        memset(DUAL(m, b), 0, (size_t)nl * sizeof(uint64_t));

    m->epoch = 0;
    for (int v = 0; v < 2 * n; v++)
        m->bepoch[v] = -1;
    for (int stage = 0; stage < n; stage++) {
        for (int v = 0; v < 2 * n; v++) {
            m->label[v] = 0;
            m->bestedge[v] = -1;
            if (v >= n)
                m->n_bestedges[v] = -1;
        }
        for (int v = 0; v < n; v++)
            m->n_bestedges[v] = -1;
        for (int k = 0; k < ne; k++)
            m->allowedge[k] = 0;
        m->queue_len = 0;
        for (int v = 0; v < n; v++)
            if (m->mate[v] == -1 && m->label[m->inblossom[v]] == 0)
                blossom_assign_label(m, v, 1, -1);
        int augmented = 0;
        for (;;) {
            while (m->queue_len > 0 && !augmented) {
                int v = m->queue[--m->queue_len];
                for (int q = m->neighb_start[v]; q < m->neighb_start[v + 1]; q++) {
                    int w = m->nbv[q];
                    if (m->inblossom[v] == m->inblossom[w])
                        continue;
                    int p = m->neighb[q], k = p / 2;
                    if (!m->allowedge[k]) {
                        slack_at(m, v, w, q, kslack);
                        if (kslack[nl - 1] >> 63 || w_is_zero(kslack, nl))
                            m->allowedge[k] = 1;
                    }
                    if (m->allowedge[k]) {
                        if (m->label[m->inblossom[w]] == 0)
                            blossom_assign_label(m, w, 2, p ^ 1);
                        else if (m->label[m->inblossom[w]] == 1) {
                            int base = blossom_scan(m, v, w);
                            if (base >= 0)
                                blossom_add(m, base, k);
                            else {
                                blossom_augment_matching(m, k);
                                augmented = 1;
                                break;
                            }
                        } else if (m->label[w] == 0) {
                            m->label[w] = 2;
                            m->labelend[w] = p ^ 1;
                        }
                    } else if (m->label[m->inblossom[w]] == 1) {
                        int b = m->inblossom[v];
                        if (m->bestedge[b] == -1 || w_cmp(kslack, best_slack(m, b), nl) < 0)
                            set_best(m, b, k, kslack);
                    } else if (m->label[w] == 0) {
                        if (m->bestedge[w] == -1 || w_cmp(kslack, best_slack(m, w), nl) < 0)
                            set_best(m, w, k, kslack);
                    }
                }
            }
            if (augmented)
                break;
            /* the dual change */
            int deltatype = 1, deltaedge = -1, deltablossom = -1;
            memcpy(delta, DUAL(m, 0), (size_t)nl * sizeof(uint64_t));
            for (int v = 1; v < n; v++)
                if (w_cmp(DUAL(m, v), delta, nl) < 0)
                    memcpy(delta, DUAL(m, v), (size_t)nl * sizeof(uint64_t));
            for (int v = 0; v < n; v++)
                if (m->label[m->inblossom[v]] == 0 && m->bestedge[v] != -1) {
                    memcpy(d, best_slack(m, v), (size_t)nl * sizeof(uint64_t));
                    if (w_cmp(d, delta, nl) < 0) {
                        memcpy(delta, d, (size_t)nl * sizeof(uint64_t));
                        deltatype = 2;
                        deltaedge = m->bestedge[v];
                    }
                }
            for (int b = 0; b < 2 * n; b++)
                if (m->blossomparent[b] == -1 && m->label[b] == 1 && m->bestedge[b] != -1 &&
                    (b < n || m->blossombase[b] >= 0)) {
                    memcpy(d, best_slack(m, b), (size_t)nl * sizeof(uint64_t));
                    w_half(d, nl);
                    if (w_cmp(d, delta, nl) < 0) {
                        memcpy(delta, d, (size_t)nl * sizeof(uint64_t));
                        deltatype = 3;
                        deltaedge = m->bestedge[b];
                    }
                }
            for (int b = n; b < 2 * n; b++)
                if (m->blossombase[b] >= 0 && m->blossomparent[b] == -1 && m->label[b] == 2 &&
                    w_cmp(DUAL(m, b), delta, nl) < 0) {
                    memcpy(delta, DUAL(m, b), (size_t)nl * sizeof(uint64_t));
                    deltatype = 4;
                    deltablossom = b;
                }
            m->epoch++;
            for (int v = 0; v < n; v++) {
                int l = m->label[m->inblossom[v]];
                if (l == 1)
                    w_sub(DUAL(m, v), DUAL(m, v), delta, nl);
                else if (l == 2)
                    w_add(DUAL(m, v), DUAL(m, v), delta, nl);
            }
            for (int b = n; b < 2 * n; b++)
                if (m->blossombase[b] >= 0 && m->blossomparent[b] == -1) {
                    if (m->label[b] == 1)
                        w_add(DUAL(m, b), DUAL(m, b), delta, nl);
                    else if (m->label[b] == 2)
                        w_sub(DUAL(m, b), DUAL(m, b), delta, nl);
                }
            if (deltatype == 1)
                break;
            if (deltatype == 2) {
                m->allowedge[deltaedge] = 1;
                int i = m->ends[2 * deltaedge], j = m->ends[2 * deltaedge + 1];
                if (m->label[m->inblossom[i]] == 0)
                    i = j;
                m->queue[m->queue_len++] = i;
            } else if (deltatype == 3) {
                m->allowedge[deltaedge] = 1;
                m->queue[m->queue_len++] = m->ends[2 * deltaedge];
            } else {
                blossom_expand(m, deltablossom, 0);
            }
        }
        if (!augmented)
            break;
        for (int b = n; b < 2 * n; b++)
            if (m->blossomparent[b] == -1 && m->blossombase[b] >= 0 && m->label[b] == 1 &&
                w_is_zero(DUAL(m, b), nl))
                blossom_expand(m, b, 1);
    }
    for (int v = 0; v < n; v++)
        mate_out[v] = m->mate[v] >= 0 ? m->endpoint[m->mate[v]] : -1;
    /* restore the weights as given */
    for (int k = 0; k < ne; k++)
        w_half(WT(m, k), nl);
    return 0;
}

/* r = a << s (s < 64), over nl words. */
static void w_shl(uint64_t *r, const uint64_t *a, int s, int nl)
{
    uint64_t carry = 0;
    for (int i = 0; i < nl; i++) {
        uint64_t v = a[i];
        r[i] = (v << s) | carry;
        carry = s ? v >> (64 - s) : 0;
    }
}

int swiss_matcher_tight(struct swiss_matcher *m, unsigned char *tight)
{
    int n = m->n, nl = m->nl;
    uint64_t *acc = m->tmp, *t = m->tmp + nl;
    int *ci = malloc((size_t)(2 * n + 1) * sizeof(int)), *cj = ci ? ci + n : NULL;
    if (!ci)
        return -1;
    for (int k = 0; k < m->n_edges; k++) {
        int i = m->ends[2 * k], j = m->ends[2 * k + 1];
        /* reduced cost, doubled: dual[i] + dual[j] - 2 * (2 w) + 2 * the duals of the
         * blossoms holding both ends */
        w_add(acc, DUAL(m, i), DUAL(m, j), nl);
        w_shl(t, WT(m, k), 2, nl);
        w_sub(acc, acc, t, nl);
        int li = 0, lj = 0;
        for (int b = m->blossomparent[i]; b >= 0 && li < n; b = m->blossomparent[b])
            ci[li++] = b;
        for (int b = m->blossomparent[j]; b >= 0 && lj < n; b = m->blossomparent[b])
            cj[lj++] = b;
        while (li > 0 && lj > 0 && ci[li - 1] == cj[lj - 1]) {
            w_shl(t, DUAL(m, ci[li - 1]), 1, nl);
            w_add(acc, acc, t, nl);
            li--;
            lj--;
        }
        tight[k] = w_is_zero(acc, nl);
    }
    free(ci);
    return 0;
}
