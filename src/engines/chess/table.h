/* The chess search's transposition table: lockless, shared by the Lazy SMP threads.
 * It lives in the memory of the engine's generic table (struct tt), so one Hash
 * setting sizes both searches; engine.c clears it when the search using it changes.
 *
 * A bucket is four entries, 64 bytes (one cache line).  Each entry is two 64-bit
 * words written and read with relaxed atomics; `check` holds key ^ data, so an
 * entry torn by two threads writing at once fails the key test instead of being
 * believed (Hyatt's lockless hashing).
 *
 *   data bits  0-15  move (the chess move encoding, 0: none)
 *             16-31  score (int16, win scores relative to the node: tt_score_to)
 *             32-47  static evaluation (int16)
 *             48-55  depth + CS_TT_DEPTH_OFFSET (quiescence stores depth 0)
 *             56-57  bound (enum tt_bound)
 *             58-63  age of the search that stored it
 */
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "search/tt.h"

#define CS_TT_DEPTH_OFFSET 8
#define CS_TT_WAYS 4

struct cs_tt_slot {
    _Atomic uint64_t check, data;
};

struct cs_tt {
    struct cs_tt_slot *slots; /* buckets * CS_TT_WAYS */
    uint64_t buckets;
    unsigned age;
};

/* What a probe found. */
struct cs_tt_hit {
    Move move;
    Score score; /* still relative to the node: tt_score_from */
    Score eval;
    int depth;
    enum tt_bound bound;
};

/* A view of the generic table's memory (at least one bucket). */
void cs_tt_view(struct cs_tt *t, struct tt *mem);
int cs_tt_probe(const struct cs_tt *t, Key key, struct cs_tt_hit *out);
void cs_tt_store(struct cs_tt *t, Key key, Move move, Score score, Score eval, int depth,
                 enum tt_bound bound);
/* Per mille of a sample of entries written by this search. */
int cs_tt_hashfull(const struct cs_tt *t);
static inline void cs_tt_prefetch(const struct cs_tt *t, Key key)
{
    __builtin_prefetch(
        &t->slots[(uint64_t)(((unsigned __int128)key * t->buckets) >> 64) * CS_TT_WAYS]);
}
