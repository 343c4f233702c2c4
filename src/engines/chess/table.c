#include "table.h"

#define DATA_MOVE(d) ((Move)((d)&0xFFFF))
#define DATA_SCORE(d) ((Score)(int16_t)(((d) >> 16) & 0xFFFF))
#define DATA_EVAL(d) ((Score)(int16_t)(((d) >> 32) & 0xFFFF))
#define DATA_DEPTH(d) ((int)(((d) >> 48) & 0xFF) - CS_TT_DEPTH_OFFSET)
#define DATA_BOUND(d) ((enum tt_bound)(((d) >> 56) & 3))
#define DATA_AGE(d) ((unsigned)((d) >> 58))

void cs_tt_view(struct cs_tt *t, struct tt *mem)
{
    size_t bytes = (mem->mask + 1) * 2 * sizeof(struct tt_entry);
    t->slots = (struct cs_tt_slot *)(void *)mem->entries;
    t->buckets = bytes / (CS_TT_WAYS * sizeof(struct cs_tt_slot));
    t->age = mem->age & 63;
}

static struct cs_tt_slot *bucket(const struct cs_tt *t, Key key)
{
    return &t->slots[(uint64_t)(((unsigned __int128)key * t->buckets) >> 64) * CS_TT_WAYS];
}

int cs_tt_probe(const struct cs_tt *t, Key key, struct cs_tt_hit *out)
{
    struct cs_tt_slot *b = bucket(t, key);
    for (int i = 0; i < CS_TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) != key || DATA_BOUND(d) == TT_NONE)
            continue;
        out->move = DATA_MOVE(d);
        out->score = DATA_SCORE(d);
        out->eval = DATA_EVAL(d);
        out->depth = DATA_DEPTH(d);
        out->bound = DATA_BOUND(d);
        return 1;
    }
    return 0;
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void cs_tt_store(struct cs_tt *t, Key key, Move move, Score score, Score eval, int depth,
                 enum tt_bound bound)
{
    struct cs_tt_slot *b = bucket(t, key);
    int victim = 0, worst = 1 << 30, same = 0;
    uint64_t old = 0;
    for (int i = 0; i < CS_TT_WAYS; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key) {
            victim = i;
            old = d;
            same = 1;
            break;
        }
        /* The least worth keeping: empty, else another search's, else the shallowest. */
        int worth = DATA_BOUND(d) == TT_NONE ? -1000
                    : DATA_AGE(d) != t->age  ? DATA_DEPTH(d) - 256
                                             : DATA_DEPTH(d);
        if (worth < worst) {
            worst = worth;
            victim = i;
        }
    }
    if (same) {
        /* The same position: keep a deeper exact-ish entry of this search against a
         * much shallower non-exact store, and keep the old move when there is none. */
        if (!move)
            move = DATA_MOVE(old);
        if (bound != TT_EXACT && DATA_AGE(old) == t->age && DATA_DEPTH(old) > depth + 3)
            return;
    }
    uint64_t d = (uint64_t)(move & 0xFFFF) | ((uint64_t)(uint16_t)(int16_t)score << 16) |
                 ((uint64_t)(uint16_t)(int16_t)clamp(eval, -32000, 32000) << 32) |
                 ((uint64_t)clamp(depth + CS_TT_DEPTH_OFFSET, 0, 255) << 48) |
                 ((uint64_t)bound << 56) | ((uint64_t)t->age << 58);
    atomic_store_explicit(&b[victim].data, d, memory_order_relaxed);
    atomic_store_explicit(&b[victim].check, key ^ d, memory_order_relaxed);
}

int cs_tt_hashfull(const struct cs_tt *t)
{
    uint64_t n = t->buckets * CS_TT_WAYS < 1000 ? t->buckets * CS_TT_WAYS : 1000, used = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t d = atomic_load_explicit(&t->slots[i].data, memory_order_relaxed);
        used += DATA_BOUND(d) != TT_NONE && DATA_AGE(d) == t->age;
    }
    return n ? (int)(used * 1000 / n) : 0;
}
