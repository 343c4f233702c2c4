/* The matcher's insides (matching.c, blossom.c), for those two files only: the graph
 * and the solve's state, the multi-word integers the weights and duals are made of, and
 * the slacks, inlined where the solve's inner loop reads them.  What each field means:
 * matching.c's opening comment. */
#pragma once

#include <stdint.h>
#include <string.h>

#include "swiss/matching.h"

/* --- multi-word signed integers (two's complement, `nl` words) --- */

static inline void w_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
{
    unsigned carry = 0;
    for (int i = 0; i < nl; i++) {
        uint64_t s = a[i] + b[i];
        unsigned c1 = s < a[i];
        uint64_t t = s + carry;
        unsigned c2 = t < s;
        r[i] = t;
        carry = c1 | c2;
    }
}

static inline void w_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
{
    unsigned borrow = 0;
    for (int i = 0; i < nl; i++) {
        uint64_t d = a[i] - b[i];
        unsigned b1 = a[i] < b[i];
        uint64_t t = d - borrow;
        unsigned b2 = d < borrow;
        r[i] = t;
        borrow = b1 | b2;
    }
}

static inline int w_cmp(const uint64_t *a, const uint64_t *b, int nl)
{
    int na = (int)(a[nl - 1] >> 63), nb = (int)(b[nl - 1] >> 63);
    if (na != nb)
        return na ? -1 : 1;
    for (int i = nl - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static inline int w_is_zero(const uint64_t *a, int nl)
{
    for (int i = 0; i < nl; i++)
        if (a[i])
            return 0;
    return 1;
}

/* a >>= 1, arithmetic. */
static inline void w_half(uint64_t *a, int nl)
{
    uint64_t sign = a[nl - 1] >> 63;
    for (int i = 0; i < nl; i++) {
        uint64_t hi = i + 1 < nl ? a[i + 1] : (sign ? ~(uint64_t)0 : 0);
        a[i] = (a[i] >> 1) | (hi << 63);
    }
}

/* --- the matcher --- */

struct swiss_matcher {
    int n, nl, max_edges, n_edges;
    int *ends;    /* [2 * max_edges] */
    uint64_t *wt; /* [max_edges * nl], doubled at solve */
    /* solve state */
    int *endpoint, *neighb_start, *neighb, *mate, *label, *labelend, *inblossom;
    int *blossomparent, *blossombase, *bestedge, *queue, *allowedge;
    int **childs, **endps, *n_childs; /* per blossom */
    int **bestedges, *n_bestedges;    /* per blossom; n_bestedges -1: none */
    int *unused, n_unused;
    int *leaves_buf, *bestedgeto;
    uint64_t *dual; /* [2n * nl] */
    /* the slack of bestedge[x], as computed at dual epoch bepoch[x] for edge bedge[x]:
     * duals change only between epochs */
    uint64_t *bslack; /* [2n * nl] */
    /* per adjacency entry q (neighb order): the remote vertex and the doubled weight,
     * so that scanning a vertex's edges reads memory in order */
    int *nbv;
    uint64_t *wq;
    int *bepoch, *bedge, epoch;
    uint64_t *tmp; /* scratch [8 * nl] */
    int queue_len;
};

#define DUAL(m, i) (&(m)->dual[(size_t)(i) * (size_t)(m)->nl])
#define WT(m, k) (&(m)->wt[(size_t)(k) * (size_t)(m)->nl])

/* out = a + b - 2 w over nl words, in one pass: the sum's carry, the doubled weight's
 * shifted bit, the borrow.  Inlined with a constant nl, the loop unrolls. */
static inline void slack_words(const uint64_t *a, const uint64_t *b, const uint64_t *w,
                               uint64_t *out, int nl)
{
    uint64_t carry = 0, borrow = 0, top = 0;
    for (int i = 0; i < nl; i++) {
        uint64_t w2 = (w[i] << 1) | top;
        top = w[i] >> 63;
        unsigned __int128 sum = (unsigned __int128)a[i] + b[i] + carry;
        carry = (uint64_t)(sum >> 64);
        unsigned __int128 d = (unsigned __int128)(uint64_t)sum - w2 - borrow;
        out[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) ? 1 : 0;
    }
}

/* out = dual[i] + dual[j] - 2 w[k] (the weights are doubled while solving). */
static inline void slack(struct swiss_matcher *m, int k, uint64_t *out)
{
    const uint64_t *a = DUAL(m, m->ends[2 * k]), *b = DUAL(m, m->ends[2 * k + 1]), *w = WT(m, k);
    if (m->nl == 3) {
        slack_words(a, b, w, out, 3);
        return;
    }
    if (m->nl == 4) {
        slack_words(a, b, w, out, 4);
        return;
    }
    if (m->nl == 1) {
        out[0] = a[0] + b[0] - (w[0] << 1);
        return;
    }
    if (m->nl == 2) {
        /* two's complement over 128 bits */
        unsigned __int128 x = ((unsigned __int128)a[1] << 64 | a[0]) +
                              ((unsigned __int128)b[1] << 64 | b[0]) -
                              (((unsigned __int128)w[1] << 64 | w[0]) << 1);
        out[0] = (uint64_t)x;
        out[1] = (uint64_t)(x >> 64);
        return;
    }
    slack_words(a, b, w, out, m->nl);
}

/* The slack of the edge at adjacency entry q, from v to w. */
static inline void slack_at(struct swiss_matcher *m, int v, int w, int q, uint64_t *out)
{
    const uint64_t *a = DUAL(m, v), *b = DUAL(m, w), *wt = &m->wq[(size_t)q * (size_t)m->nl];
    switch (m->nl) {
    case 1: out[0] = a[0] + b[0] - (wt[0] << 1); return;
    case 2: slack_words(a, b, wt, out, 2); return;
    case 3: slack_words(a, b, wt, out, 3); return;
    case 4: slack_words(a, b, wt, out, 4); return;
    default: slack_words(a, b, wt, out, m->nl);
    }
}

/* The slack of bestedge[x] under the current duals, computed once an epoch. */
static inline const uint64_t *best_slack(struct swiss_matcher *m, int x)
{
    uint64_t *c = &m->bslack[(size_t)x * (size_t)m->nl];
    if (m->bepoch[x] != m->epoch || m->bedge[x] != m->bestedge[x]) {
        slack(m, m->bestedge[x], c);
        m->bepoch[x] = m->epoch;
        m->bedge[x] = m->bestedge[x];
    }
    return c;
}

/* bestedge[x] = k, whose slack s is known. */
static inline void set_best(struct swiss_matcher *m, int x, int k, const uint64_t *s)
{
    m->bestedge[x] = k;
    memcpy(&m->bslack[(size_t)x * (size_t)m->nl], s, (size_t)m->nl * sizeof(uint64_t));
    m->bepoch[x] = m->epoch;
    m->bedge[x] = k;
}

/* --- the blossoms (blossom.c) --- */

/* Label the blossom holding w with t (1 S, 2 T), reached through endpoint p. */
void blossom_assign_label(struct swiss_matcher *m, int w, int t, int p);
/* The base of the blossom that the edge between S-vertices v and w closes, or -1 when
 * it joins two trees (an augmenting path). */
int blossom_scan(struct swiss_matcher *m, int v, int w);
/* Make the blossom closed by edge k with base `base`. */
void blossom_add(struct swiss_matcher *m, int base, int k);
/* Undo blossom b: its children become top-level (relabelled unless at the end stage). */
void blossom_expand(struct swiss_matcher *m, int b, int endstage);
/* Flip the matching along the augmenting path through edge k. */
void blossom_augment_matching(struct swiss_matcher *m, int k);
