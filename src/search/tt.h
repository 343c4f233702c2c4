/* The transposition table: what earlier searches learnt about a position, keyed by
 * the game's Zobrist hash.  It belongs to one search context (struct engine), never
 * to the process, so several threads can search at once. */
#pragma once

#include <stddef.h>

#include "core/types.h"

enum tt_bound { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* One entry, 24 bytes.  The full key is kept, so a hit is a real hit except for
 * 64-bit collisions; the move is still checked against the generated list before it
 * is used, so a collision can cost strength but never legality.
 *
 *   key    64 bits  the position's hash
 *   move   64 bits  best or refuting move, 0 if none
 *   score  16 bits  win scores stored relative to this node (see tt_score_to)
 *   depth   8 bits  remaining depth of the search that stored it
 *   meta    8 bits  bits 0-1 bound (enum tt_bound), bits 2-7 age of the search
 */
struct tt_entry {
    Key key;
    Move move;
    int16_t score;
    int8_t depth;
    uint8_t meta;
};

#define TT_BOUND(e) ((e)->meta & 3)
#define TT_AGE(e) ((e)->meta >> 2)

/* Two-entry buckets: the slot for the same key, else the shallower or older one is
 * replaced, so deep results survive a flood of shallow ones. */
struct tt {
    struct tt_entry *entries;
    size_t mask;    /* bucket count - 1; entries come in pairs */
    size_t bytes;   /* of the entries */
    int mapped;     /* from mmap (large tables), else calloc */
    void *map_base; /* the mapping (aligned below entries) and its length */
    size_t map_bytes;
    uint8_t age;
};

/* A table of at most `bytes` (a power of two of buckets, at least one); -1 without
 * memory. */
int tt_init(struct tt *tt, size_t bytes);
void tt_free(struct tt *tt);
void tt_clear(struct tt *tt);
/* A new search: entries of older searches become the first to be replaced. */
void tt_new_search(struct tt *tt);

const struct tt_entry *tt_probe(const struct tt *tt, Key key);
void tt_store(struct tt *tt, Key key, Move move, Score score, int depth, enum tt_bound bound);

/* Win scores count plies from the root; the table stores them from the node. */
Score tt_score_to(Score s, int ply);
Score tt_score_from(Score s, int ply);
