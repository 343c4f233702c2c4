/* What the analysis module's files share (position.c, review.c); not for callers. */
#pragma once

#include "analysis.h"
#include "engines/profile.h"

/* A table of this size serves one analysis or one review (about 1M entries). */
#define ANALYSIS_HASH_MB 16
/* The node budget per position of a profile without review_nodes. */
#define ANALYSIS_DEFAULT_NODES 100000

/* Moves to a proven win (>0) or loss (<0) at score s, 0 for none. */
int analysis_mate(Score s);
int64_t analysis_now_ms(void);
/* The line's score, mate and win chance at score s (side to move's view). */
void analysis_line_score(const struct engine_profile *prof, Score s, struct analysis_line *l);
/* The line's pv from a search's move texts (space-separated), replayed on st (left as
 * it was); when `first` is a move and the texts do not begin with it, `first` alone. */
void analysis_line_pv(const struct game *g, void *st, const char *pv, Move first,
                      struct analysis_line *l);

/* One search at full strength under `limits` (its on_info its own): the line it gives
 * into *out, and its first move (0 when the game is over).  `view` is a copy of st for
 * replaying the pv. */
struct engine_limits;
Move analysis_search(const struct game *g, void *st, void *view, struct engine *e,
                     const struct engine_limits *limits, struct analysis_line *out);
