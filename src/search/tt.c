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

const struct tt_entry *tt_probe(const struct tt *tt, Key key)
{
    const struct tt_entry *b = &tt->entries[(key & tt->mask) * 2];
    if (b[0].key == key && TT_BOUND(&b[0]) != TT_NONE)
        return &b[0];
    if (b[1].key == key && TT_BOUND(&b[1]) != TT_NONE)
        return &b[1];
    return NULL;
}

void tt_store(struct tt *tt, Key key, Move move, Score score, int depth, enum tt_bound bound)
{
    struct tt_entry *b = &tt->entries[(key & tt->mask) * 2];
    struct tt_entry *e;
    if (b[0].key == key)
        e = &b[0];
    else if (b[1].key == key)
        e = &b[1];
    else {
        /* Replace the entry worth less: an old search's, else the shallower. */
        int v0 = b[0].depth - (TT_AGE(&b[0]) != tt->age ? 64 : 0);
        int v1 = b[1].depth - (TT_AGE(&b[1]) != tt->age ? 64 : 0);
        e = v0 <= v1 ? &b[0] : &b[1];
    }
    /* Keep the old move when this search found none for the same position. */
    if (move || e->key != key)
        e->move = move;
    e->key = key;
    e->score = (int16_t)score;
    e->depth = (int8_t)(depth > 127 ? 127 : depth < -128 ? -128 : depth);
    e->meta = (uint8_t)(bound | (tt->age << 2));
}

Score tt_score_to(Score s, int ply)
{
    return s >= ENGINE_WIN_BOUND ? s + ply : s <= -ENGINE_WIN_BOUND ? s - ply : s;
}

Score tt_score_from(Score s, int ply)
{
    return s >= ENGINE_WIN_BOUND ? s - ply : s <= -ENGINE_WIN_BOUND ? s + ply : s;
}
