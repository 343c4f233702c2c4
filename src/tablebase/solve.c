/* The layered solve of a pair of signatures (solve.h, NOTES.md "How the tables are
 * made").
 *
 * Within a pair, quiet moves go from (m, o) to (o, m) and back, and each takes one
 * ply off r; captures leave the pair for a signature of fewer pieces at r = 40 (the
 * count starts again), whose values are known.  So the value at r follows from the
 * values at r - 1 alone, and 40 passes over the pair give every layer: no cycles, no
 * fixed point to find.  Captures are compulsory, so a position either has only
 * captures (its value is the same for every r >= 1) or only steps; a position without
 * moves is lost (blocked) for every r >= 1, and r = 0 is the count's verdict. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "games/egara/positions.h"
#include "solve.h"

#define FULL ((1u << TB_POINTS) - 1)
#define CHUNK 4096 /* positions a thread takes at a time */

struct sig {
    int m, o;
    uint64_t size, per; /* positions; other sets per own set */
    uint64_t owns;      /* own sets: C(23, m) */
    TbValue *prev, *cur;
    uint8_t *fixed; /* 1: captures or blocked, the value is the same at every r >= 1 */
};

struct pass {
    struct tb_known *known;
    struct sig *sig[2]; /* the pair; sig[1] is NULL when m == o */
    int count;
    int r;
    atomic_ulong next[2]; /* the next chunk of own sets of each signature */
};

/* The value of (own, other) of signature s at layer p->r, the other signature of the
 * pair (its r - 1 values) being `swapped`. */
static TbValue solve_one(const struct pass *p, const struct sig *s, const struct sig *swapped,
                         uint32_t own, uint32_t other, TbIndex i)
{
    if (p->r > 1 && s->fixed[i])
        return s->prev[i];
    struct egara_child child[EGARA_CHILDREN_MAX];
    int n = egara_children(own, other, child);
    if (n == 0) {
        s->fixed[i] = 1;
        return (TbValue)-TB_WIN; /* blocked: lost now */
    }
    TbValue best = (TbValue)-TB_WIN;
    if (child[0].captured) {
        s->fixed[i] = 1;
        for (int k = 0; k < n; k++) {
            TbValue v;
            if (!child[k].own) {
                v = TB_WIN - 1; /* the last piece taken */
            } else {
                const TbValue *q0 = p->known->q0[s->o - child[k].captured][s->m];
                v = tb_parent_value(q0[tb_index(child[k].own, child[k].other)]);
            }
            if (v > best)
                best = v;
        }
        return best;
    }
    for (int k = 0; k < n; k++) {
        TbValue v = tb_parent_value(swapped->prev[tb_index(child[k].own, child[k].other)]);
        if (v > best)
            best = v;
    }
    return best;
}

/* The next set of the same number of points, as numbers go (colex order). */
static inline uint32_t next_set(uint32_t set)
{
    uint32_t low = set & -set, up = set + low;
    return (((up ^ set) >> 2) / low) | up;
}

static void solve_chunk(struct pass *p, int which, TbIndex first)
{
    struct sig *s = p->sig[which];
    const struct sig *swapped = p->count == 2 ? p->sig[!which] : s;
    TbIndex last = first + CHUNK < s->size ? first + CHUNK : s->size;
    uint32_t own = tb_subset_unrank(s->m, first / s->per);
    uint32_t mask = tb_subset_unrank(s->o, first % s->per);
    uint64_t b = first % s->per;
    for (TbIndex i = first; i < last; i++) {
        s->cur[i] = solve_one(p, s, swapped, own, tb_deposit(mask, FULL & ~own), i);
        if (++b < s->per) {
            mask = next_set(mask);
        } else if (i + 1 < last) {
            b = 0;
            own = next_set(own);
            mask = (1u << s->o) - 1;
        }
    }
}

static void *worker(void *arg)
{
    struct pass *p = arg;
    for (int which = 0; which < p->count; which++)
        for (;;) {
            uint64_t first = atomic_fetch_add(&p->next[which], CHUNK);
            if (first >= p->sig[which]->size)
                break;
            solve_chunk(p, which, first);
        }
    return NULL;
}

static void run_pass(struct pass *p, int threads)
{
    atomic_store(&p->next[0], 0);
    atomic_store(&p->next[1], 0);
    pthread_t tid[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++)
        if (!pthread_create(&tid[started], NULL, worker, p))
            started++;
    worker(p);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

static int sig_init(struct sig *s, int m, int o)
{
    s->m = m;
    s->o = o;
    s->owns = tb_binomial(TB_POINTS, m);
    s->per = tb_binomial(TB_POINTS - m, o);
    s->size = s->owns * s->per;
    s->prev = malloc(s->size * sizeof(TbValue));
    s->cur = malloc(s->size * sizeof(TbValue));
    s->fixed = calloc(s->size, 1);
    if (!s->prev || !s->cur || !s->fixed)
        return -1;
    TbValue count = tb_count_value(m, o);
    for (uint64_t i = 0; i < s->size; i++)
        s->prev[i] = count;
    return 0;
}

static void sig_free(struct sig *s)
{
    free(s->prev);
    free(s->cur);
    free(s->fixed);
}

int tb_solve_pair(struct tb_known *known, int m, int o, int threads, tb_layer_fn layer,
                  void *layer_ctx, void (*progress)(void *ctx, double done), void *progress_ctx)
{
    struct sig sigs[2];
    memset(sigs, 0, sizeof sigs);
    struct pass p = {.known = known, .count = m == o ? 1 : 2};
    int rc = 0;
    for (int k = 0; k < p.count; k++) {
        p.sig[k] = &sigs[k];
        if (sig_init(&sigs[k], k ? o : m, k ? m : o))
            rc = -1;
    }
    for (int r = 1; r <= TB_QUIET_LIMIT && !rc; r++) {
        p.r = r;
        run_pass(&p, threads < 1 ? 1 : threads);
        for (int k = 0; k < p.count; k++) {
            if (layer)
                layer(layer_ctx, sigs[k].m, sigs[k].o, r, sigs[k].cur);
            TbValue *t = sigs[k].prev;
            sigs[k].prev = sigs[k].cur;
            sigs[k].cur = t;
        }
        if (progress)
            progress(progress_ctx, (double)r / TB_QUIET_LIMIT);
    }
    for (int k = 0; k < p.count && !rc; k++) {
        known->q0[sigs[k].m][sigs[k].o] = sigs[k].prev;
        sigs[k].prev = NULL;
    }
    for (int k = 0; k < p.count; k++)
        sig_free(&sigs[k]);
    return rc;
}
