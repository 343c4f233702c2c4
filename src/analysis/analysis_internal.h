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

/* One analysis by the external engine `pool` (external.c). */
struct analysis_external_go {
    int lines; /* MultiPV */
    uint64_t nodes;
    int64_t movetime_ms;
    int new_game;
    const atomic_int *stop;
    void (*on_lines)(void *ctx, const struct analysis_line *lines, int n);
    void *ctx;
};
/* The lines of st (left unchanged; `view` a copy of it for replaying the pvs) into
 * out[ANALYSIS_MAX_LINES] and the engine's best move into *best (0 when it was stopped
 * before one): their count (0 when stopped before a full iteration), or -1 with err
 * when the engine failed or answered a move the game does not allow there. */
int analysis_external(const struct game *g, void *st, void *view, struct uci_pool *pool,
                      const struct analysis_external_go *go, struct analysis_line *out, Move *best,
                      char *err, size_t err_size);
