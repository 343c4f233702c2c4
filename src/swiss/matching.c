/* Maximum-weight matching: Edmonds' blossom algorithm in its primal-dual form (Galil,
 * "Efficient algorithms for finding maximum matching in graphs", 1986), O(V^3).
 *
 * Vertices are 0..n-1; blossoms n..2n-1.  An edge k has two endpoints 2k and 2k+1
 * (endpoint p belongs to vertex endpoint[p]; p^1 is the other end).  mate[v] is the
 * remote endpoint of v's matched edge.  Labels: 0 free, 1 S (outer), 2 T (inner).
 * Duals are kept doubled with weights doubled too, so that every quantity stays an
 * integer.  The integers are multi-word (struct wide below) so that the lexicographic
 * weights of the Dutch criteria fit. */
#include <stdlib.h>
#include <string.h>

#include "swiss/matching.h"

/* --- multi-word signed integers (two's complement, `nl` words) --- */

static void w_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
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

static void w_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int nl)
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

static int w_cmp(const uint64_t *a, const uint64_t *b, int nl)
{
    int na = (int)(a[nl - 1] >> 63), nb = (int)(b[nl - 1] >> 63);
    if (na != nb)
        return na ? -1 : 1;
    for (int i = nl - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int w_is_zero(const uint64_t *a, int nl)
{
    for (int i = 0; i < nl; i++)
        if (a[i])
            return 0;
    return 1;
}

/* a >>= 1, arithmetic. */
static void w_half(uint64_t *a, int nl)
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
static void slack(struct swiss_matcher *m, int k, uint64_t *out)
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
static void slack_at(struct swiss_matcher *m, int v, int w, int q, uint64_t *out)
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
static const uint64_t *best_slack(struct swiss_matcher *m, int x)
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
static void set_best(struct swiss_matcher *m, int x, int k, const uint64_t *s)
{
    m->bestedge[x] = k;
    memcpy(&m->bslack[(size_t)x * (size_t)m->nl], s, (size_t)m->nl * sizeof(uint64_t));
    m->bepoch[x] = m->epoch;
    m->bedge[x] = k;
}

/* The vertices inside blossom b, appended to buf from *len. */
static void leaves(struct swiss_matcher *m, int b, int *buf, int *len)
{
    if (b < m->n) {
        buf[(*len)++] = b;
        return;
    }
    for (int i = 0; i < m->n_childs[b]; i++)
        leaves(m, m->childs[b][i], buf, len);
}

static void assign_label(struct swiss_matcher *m, int w, int t, int p)
{
    for (;;) {
        int b = m->inblossom[w];
        m->label[w] = m->label[b] = t;
        m->labelend[w] = m->labelend[b] = p;
        m->bestedge[w] = m->bestedge[b] = -1;
        if (t == 1) {
            leaves(m, b, m->queue, &m->queue_len);
            return;
        }
        int base = m->blossombase[b];
        int mb = m->mate[base];
        w = m->endpoint[mb];
        t = 1;
        p = mb ^ 1;
    }
}

static int scan_blossom(struct swiss_matcher *m, int v, int w)
{
    int *path = m->leaves_buf, np = 0, base = -1;
    while (v != -1 || w != -1) {
        int b = m->inblossom[v];
        if (m->label[b] & 4) {
            base = m->blossombase[b];
            break;
        }
        path[np++] = b;
        m->label[b] = 5;
        if (m->labelend[b] == -1)
            v = -1;
        else {
            v = m->endpoint[m->labelend[b]];
            b = m->inblossom[v];
            v = m->endpoint[m->labelend[b]];
        }
        if (w != -1) {
            int t = v;
            v = w;
            w = t;
        }
    }
    for (int i = 0; i < np; i++)
        m->label[path[i]] = 1;
    return base;
}

static void add_blossom(struct swiss_matcher *m, int base, int k)
{
    int n = m->n, nl = m->nl;
    int v = m->ends[2 * k], w = m->ends[2 * k + 1];
    int bb = m->inblossom[base], bv = m->inblossom[v], bw = m->inblossom[w];
    int b = m->unused[--m->n_unused];
    m->blossombase[b] = base;
    m->blossomparent[b] = -1;
    m->blossomparent[bb] = b;
    int *path = m->childs[b], *endps = m->endps[b], np = 0;
    /* path from bv back to bb, reversed afterwards */
    while (bv != bb) {
        m->blossomparent[bv] = b;
        path[np] = bv;
        endps[np] = m->labelend[bv];
        np++;
        v = m->endpoint[m->labelend[bv]];
        bv = m->inblossom[v];
    }
    path[np++] = bb;
    /* reverse path[0..np) and endps[0..np-1) */
    for (int i = 0, j = np - 1; i < j; i++, j--) {
        int t = path[i];
        path[i] = path[j];
        path[j] = t;
    }
    for (int i = 0, j = np - 2; i < j; i++, j--) {
        int t = endps[i];
        endps[i] = endps[j];
        endps[j] = t;
    }
    int ne = np - 1;
    endps[ne++] = 2 * k;
    while (bw != bb) {
        m->blossomparent[bw] = b;
        path[np++] = bw;
        endps[ne++] = m->labelend[bw] ^ 1;
        w = m->endpoint[m->labelend[bw]];
        bw = m->inblossom[w];
    }
    m->n_childs[b] = np;
    m->label[b] = 1;
    m->labelend[b] = m->labelend[bb];
    memset(DUAL(m, b), 0, (size_t)nl * sizeof(uint64_t));
    int *buf = malloc((size_t)n * sizeof(int)), len = 0;
    if (!buf)
        abort();
    leaves(m, b, buf, &len);
    for (int i = 0; i < len; i++) {
        int x = buf[i];
        if (m->label[m->inblossom[x]] == 2)
            m->queue[m->queue_len++] = x;
        m->inblossom[x] = b;
    }
    int *bestedgeto = m->bestedgeto;
    for (int i = 0; i < 2 * n; i++)
        bestedgeto[i] = -1;
    uint64_t *s1 = m->tmp, *s2 = m->tmp + nl;
    for (int c = 0; c < np; c++) {
        int bc = path[c];
        /* the candidate edges: bc's best edges, or every edge of its leaves */
        int cnt = 0;
        int *list;
        int own = 0;
        if (m->n_bestedges[bc] < 0) {
            int ll = 0;
            leaves(m, bc, buf, &ll);
            int total = 0;
            for (int i = 0; i < ll; i++)
                total += m->neighb_start[buf[i] + 1] - m->neighb_start[buf[i]];
            list = malloc((size_t)(total + 1) * sizeof(int));
            if (!list)
                abort();
            own = 1;
            for (int i = 0; i < ll; i++)
                for (int q = m->neighb_start[buf[i]]; q < m->neighb_start[buf[i] + 1]; q++)
                    list[cnt++] = m->neighb[q] / 2;
        } else {
            list = m->bestedges[bc];
            cnt = m->n_bestedges[bc];
        }
        for (int q = 0; q < cnt; q++) {
            int kk = list[q];
            int i = m->ends[2 * kk], j = m->ends[2 * kk + 1];
            if (m->inblossom[j] == b) {
                int t = i;
                i = j;
                j = t;
            }
            (void)i;
            int bj = m->inblossom[j];
            if (bj != b && m->label[bj] == 1) {
                if (bestedgeto[bj] == -1) {
                    bestedgeto[bj] = kk;
                } else {
                    slack(m, kk, s1);
                    slack(m, bestedgeto[bj], s2);
                    if (w_cmp(s1, s2, nl) < 0)
                        bestedgeto[bj] = kk;
                }
            }
        }
        if (own)
            free(list);
        m->n_bestedges[bc] = -1;
        m->bestedge[bc] = -1;
    }
    free(buf);
    int nb = 0;
    for (int i = 0; i < 2 * n; i++)
        if (bestedgeto[i] != -1)
            m->bestedges[b][nb++] = bestedgeto[i];
    m->n_bestedges[b] = nb;
    m->bestedge[b] = -1;
    for (int i = 0; i < nb; i++) {
        int kk = m->bestedges[b][i];
        if (m->bestedge[b] == -1) {
            m->bestedge[b] = kk;
            continue;
        }
        slack(m, kk, s1);
        slack(m, m->bestedge[b], s2);
        if (w_cmp(s1, s2, nl) < 0)
            m->bestedge[b] = kk;
    }
}

static int child_index(struct swiss_matcher *m, int b, int child)
{
    for (int i = 0; i < m->n_childs[b]; i++)
        if (m->childs[b][i] == child)
            return i;
    return -1;
}

/* Python-like index into a blossom's child list (negative counts from the end). */
#define CH(m, b, j) ((m)->childs[b][((j) % (m)->n_childs[b] + (m)->n_childs[b]) % (m)->n_childs[b]])
#define EP(m, b, j) ((m)->endps[b][((j) % (m)->n_childs[b] + (m)->n_childs[b]) % (m)->n_childs[b]])

static void expand_blossom(struct swiss_matcher *m, int b, int endstage)
{
    int n = m->n;
    int *buf = malloc((size_t)n * sizeof(int));
    if (!buf)
        abort();
    for (int c = 0; c < m->n_childs[b]; c++) {
        int s = m->childs[b][c];
        m->blossomparent[s] = -1;
        if (s < n)
            m->inblossom[s] = s;
        else if (endstage && w_is_zero(DUAL(m, s), m->nl))
            expand_blossom(m, s, endstage);
        else {
            int len = 0;
            leaves(m, s, buf, &len);
            for (int i = 0; i < len; i++)
                m->inblossom[buf[i]] = s;
        }
    }
    if (!endstage && m->label[b] == 2) {
        int entrychild = m->inblossom[m->endpoint[m->labelend[b] ^ 1]];
        int j = child_index(m, b, entrychild), jstep, endptrick;
        if (j & 1) {
            j -= m->n_childs[b];
            jstep = 1;
            endptrick = 0;
        } else {
            jstep = -1;
            endptrick = 1;
        }
        int p = m->labelend[b];
        while (j != 0) {
            m->label[m->endpoint[p ^ 1]] = 0;
            m->label[m->endpoint[EP(m, b, j - endptrick) ^ endptrick ^ 1]] = 0;
            assign_label(m, m->endpoint[p ^ 1], 2, p);
            m->allowedge[EP(m, b, j - endptrick) / 2] = 1;
            j += jstep;
            p = EP(m, b, j - endptrick) ^ endptrick;
            m->allowedge[p / 2] = 1;
            j += jstep;
        }
        int bv = CH(m, b, j);
        m->label[m->endpoint[p ^ 1]] = m->label[bv] = 2;
        m->labelend[m->endpoint[p ^ 1]] = m->labelend[bv] = p;
        m->bestedge[bv] = -1;
        j += jstep;
        while (CH(m, b, j) != entrychild) {
            bv = CH(m, b, j);
            if (m->label[bv] == 1) {
                j += jstep;
                continue;
            }
            int len = 0, v = -1;
            leaves(m, bv, buf, &len);
            for (int i = 0; i < len; i++) {
                v = buf[i];
                if (m->label[v] != 0)
                    break;
            }
            if (v >= 0 && m->label[v] != 0) {
                m->label[v] = 0;
                m->label[m->endpoint[m->mate[m->blossombase[bv]]]] = 0;
                assign_label(m, v, 2, m->labelend[v]);
            }
            j += jstep;
        }
    }
    free(buf);
    m->label[b] = m->labelend[b] = -1;
    m->n_childs[b] = 0;
    m->blossombase[b] = -1;
    m->n_bestedges[b] = -1;
    m->bestedge[b] = -1;
    m->unused[m->n_unused++] = b;
}

static void rotate(int *a, int len, int i)
{
    int *t = malloc((size_t)(len + 1) * sizeof(int));
    if (!t)
        abort();
    for (int x = 0; x < len; x++)
        t[x] = a[(x + i) % len];
    memcpy(a, t, (size_t)len * sizeof(int));
    free(t);
}

static void augment_blossom(struct swiss_matcher *m, int b, int v)
{
    int n = m->n;
    int t = v;
    while (m->blossomparent[t] != b)
        t = m->blossomparent[t];
    if (t >= n)
        augment_blossom(m, t, v);
    int i = child_index(m, b, t), j = i, jstep, endptrick;
    if (i & 1) {
        j -= m->n_childs[b];
        jstep = 1;
        endptrick = 0;
    } else {
        jstep = -1;
        endptrick = 1;
    }
    while (j != 0) {
        j += jstep;
        t = CH(m, b, j);
        int p = EP(m, b, j - endptrick) ^ endptrick;
        if (t >= n)
            augment_blossom(m, t, m->endpoint[p]);
        j += jstep;
        t = CH(m, b, j);
        if (t >= n)
            augment_blossom(m, t, m->endpoint[p ^ 1]);
        m->mate[m->endpoint[p]] = p ^ 1;
        m->mate[m->endpoint[p ^ 1]] = p;
    }
    rotate(m->childs[b], m->n_childs[b], i);
    rotate(m->endps[b], m->n_childs[b], i);
    m->blossombase[b] = m->blossombase[m->childs[b][0]];
}

static void augment_matching(struct swiss_matcher *m, int k)
{
    int n = m->n;
    int v = m->ends[2 * k], w = m->ends[2 * k + 1];
    int ss[2] = {v, w}, pp[2] = {2 * k + 1, 2 * k};
    for (int side = 0; side < 2; side++) {
        int s = ss[side], p = pp[side];
        for (;;) {
            int bs = m->inblossom[s];
            if (bs >= n)
                augment_blossom(m, bs, s);
            m->mate[s] = p;
            if (m->labelend[bs] == -1)
                break;
            int t = m->endpoint[m->labelend[bs]];
            int bt = m->inblossom[t];
            s = m->endpoint[m->labelend[bt]];
            int j = m->endpoint[m->labelend[bt] ^ 1];
            if (bt >= n)
                augment_blossom(m, bt, j);
            m->mate[j] = m->labelend[bt];
            p = m->labelend[bt] ^ 1;
        }
    }
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
                assign_label(m, v, 1, -1);
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
                            assign_label(m, w, 2, p ^ 1);
                        else if (m->label[m->inblossom[w]] == 1) {
                            int base = scan_blossom(m, v, w);
                            if (base >= 0)
                                add_blossom(m, base, k);
                            else {
                                augment_matching(m, k);
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
                expand_blossom(m, deltablossom, 0);
            }
        }
        if (!augmented)
            break;
        for (int b = n; b < 2 * n; b++)
            if (m->blossomparent[b] == -1 && m->blossombase[b] >= 0 && m->label[b] == 1 &&
                w_is_zero(DUAL(m, b), nl))
                expand_blossom(m, b, 1);
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
