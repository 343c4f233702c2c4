/* The blossoms of the maximum-weight matching (matching.c's solve): making one when an
 * edge closes an odd cycle of the search's trees, labelling, undoing one whose dual came
 * to zero, and augmenting the matching through them (Galil 1986, as matching.c). */
#include <stdlib.h>
#include <string.h>

#include "swiss/matching_core.h"

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

void blossom_assign_label(struct swiss_matcher *m, int w, int t, int p)
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

int blossom_scan(struct swiss_matcher *m, int v, int w)
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

void blossom_add(struct swiss_matcher *m, int base, int k)
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

void blossom_expand(struct swiss_matcher *m, int b, int endstage)
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
            blossom_expand(m, s, endstage);
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
            blossom_assign_label(m, m->endpoint[p ^ 1], 2, p);
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
                blossom_assign_label(m, v, 2, m->labelend[v]);
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

void blossom_augment_matching(struct swiss_matcher *m, int k)
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
