#include "tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "search_types.h"

/* A large table comes straight from mmap, aligned to 2 MB and marked for huge pages:
 * a search probes it at random, and with 4 KB pages nearly every probe also missed
 * the TLB (a fifth of the chess search's time in a profile).  It is touched once at
 * once, so the pages arrive now rather than as the search first meets them (a fault
 * a page cost 7 us each on the reference machine), and they go back to the system
 * when it is freed.  A small table is a plain calloc: a few pages either way. */
#define TT_MAP_BYTES (4u << 20)
#define TT_HUGE_PAGE ((size_t)2 << 20)

int tt_init(struct tt *tt, size_t bytes)
{
    size_t buckets = 1;
    while (buckets * 2 * 2 * sizeof(struct tt_entry) <= bytes)
        buckets *= 2;
    tt->bytes = buckets * 2 * sizeof(struct tt_entry);
    tt->mask = buckets - 1;
    tt->age = 0;
    tt->mapped = tt->bytes >= TT_MAP_BYTES;
    tt->map_base = NULL;
    if (!tt->mapped) {
        tt->entries = calloc(buckets * 2, sizeof(struct tt_entry));
        return tt->entries ? 0 : -1;
    }
    tt->map_bytes = tt->bytes + TT_HUGE_PAGE;
    void *p = mmap(NULL, tt->map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        tt->entries = NULL;
        return -1;
    }
    tt->map_base = p;
    uintptr_t aligned = ((uintptr_t)p + TT_HUGE_PAGE - 1) & ~(uintptr_t)(TT_HUGE_PAGE - 1);
    tt->entries = (struct tt_entry *)aligned;
#ifdef MADV_HUGEPAGE
    madvise(tt->entries, tt->bytes, MADV_HUGEPAGE); /* a hint: without it, small pages */
#endif
    memset(tt->entries, 0, tt->bytes);
    return 0;
}

void tt_free(struct tt *tt)
{
    if (tt->entries && tt->mapped)
        munmap(tt->map_base, tt->map_bytes);
    else
        free(tt->entries);
    tt->entries = NULL;
}

void tt_clear(struct tt *tt)
{
    memset(tt->entries, 0, (tt->mask + 1) * 2 * sizeof(struct tt_entry));
    tt->age = 0;
}

void tt_new_search(struct tt *tt)
{
    tt->age = (uint8_t)((tt->age + 1) & 63);
}

#define INFO_SCORE(i) ((Score)(int16_t)((i)&0xFFFF))
#define INFO_DEPTH(i) ((int)(int8_t)(((i) >> 16) & 0xFF))
#define INFO_BOUND(i) ((enum tt_bound)(((i) >> 24) & 3))
#define INFO_AGE(i) ((unsigned)(((i) >> 26) & 63))

/* An entry's words, read once each; its key, or 0 with the others when it is empty
 * or torn (check fails: read as another position's). */
struct entry_words {
    uint64_t key, move, info;
};

static struct entry_words words_of(const struct tt_entry *e)
{
    struct entry_words w;
    uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
    w.move = atomic_load_explicit(&e->move, memory_order_relaxed);
    w.info = atomic_load_explicit(&e->info, memory_order_relaxed);
    w.key = check ^ w.move ^ w.info;
    return w;
}

int tt_probe(const struct tt *tt, Key key, struct tt_hit *out)
{
    const struct tt_entry *b = &tt->entries[(key & tt->mask) * 2];
    for (int i = 0; i < 2; i++) {
        struct entry_words w = words_of(&b[i]);
        if (w.key != key || INFO_BOUND(w.info) == TT_NONE)
            continue;
        out->move = w.move;
        out->score = INFO_SCORE(w.info);
        out->depth = INFO_DEPTH(w.info);
        out->bound = INFO_BOUND(w.info);
        return 1;
    }
    return 0;
}

void tt_store(struct tt *tt, Key key, Move move, Score score, int depth, enum tt_bound bound)
{
    struct tt_entry *b = &tt->entries[(key & tt->mask) * 2];
    struct entry_words w0 = words_of(&b[0]), w1 = words_of(&b[1]), old;
    struct tt_entry *e;
    if (w0.key == key) {
        e = &b[0];
        old = w0;
    } else if (w1.key == key) {
        e = &b[1];
        old = w1;
    } else {
        /* Replace the entry worth less: an old search's, else the shallower. */
        int v0 = INFO_DEPTH(w0.info) - (INFO_AGE(w0.info) != tt->age ? 64 : 0);
        int v1 = INFO_DEPTH(w1.info) - (INFO_AGE(w1.info) != tt->age ? 64 : 0);
        e = v0 <= v1 ? &b[0] : &b[1];
        old = v0 <= v1 ? w0 : w1;
    }
    /* Keep the old move when this search found none for the same position. */
    if (!move && old.key == key)
        move = old.move;
    int d = depth > 127 ? 127 : depth < -128 ? -128 : depth;
    uint64_t info = (uint64_t)(uint16_t)(int16_t)score | (uint64_t)(uint8_t)(int8_t)d << 16 |
                    (uint64_t)(bound | (tt->age << 2)) << 24;
    atomic_store_explicit(&e->move, move, memory_order_relaxed);
    atomic_store_explicit(&e->info, info, memory_order_relaxed);
    atomic_store_explicit(&e->check, key ^ move ^ info, memory_order_relaxed);
}

Score tt_score_to(Score s, int ply)
{
    return s >= ENGINE_WIN_BOUND ? s + ply : s <= -ENGINE_WIN_BOUND ? s - ply : s;
}

Score tt_score_from(Score s, int ply)
{
    return s >= ENGINE_WIN_BOUND ? s - ply : s <= -ENGINE_WIN_BOUND ? s + ply : s;
}
