/* The transposition table: what earlier searches learnt about a position, keyed by
 * the game's Zobrist hash.  It belongs to one search context (struct engine), never
 * to the process, so several engines can search at once; the threads of one search
 * share it (entries below). */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

enum tt_bound { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* One entry, 24 bytes, written and read by several search threads at once (Lazy SMP:
 * alphabeta.c) without a lock.  Each word is one relaxed atomic access, and `check`
 * is the key XORed with the other two: an entry half written by one thread while
 * another reads it fails the check and reads as empty, so a hit is a real hit except
 * for 64-bit collisions; the move is still checked against the generated list before
 * it is used, so a collision can cost strength but never legality.
 *
 *   check  64 bits  key ^ move ^ info
 *   move   64 bits  best or refuting move, 0 if none
 *   info   64 bits  score (16, win scores stored relative to this node, see
 *                   tt_score_to), depth (8, remaining depth of the search that stored
 *                   it), meta (8: bits 0-1 the bound, enum tt_bound, bits 2-7 the
 *                   search's age), from the low bits up
 */
struct tt_entry {
    _Atomic uint64_t check;
    _Atomic uint64_t move;
    _Atomic uint64_t info;
};

/* What a probe found. */
struct tt_hit {
    Move move;
    Score score;
    int depth;
    enum tt_bound bound;
};

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

/* 1 with the entry of `key` in *out, 0 when there is none. */
int tt_probe(const struct tt *tt, Key key, struct tt_hit *out);
void tt_store(struct tt *tt, Key key, Move move, Score score, int depth, enum tt_bound bound);

/* Win scores count plies from the root; the table stores them from the node. */
Score tt_score_to(Score s, int ply);
Score tt_score_from(Score s, int ply);
