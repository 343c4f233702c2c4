/* Analyses and reviews written for the browser (analysis_json.c; the shapes are in
 * API.md): an analysis's lines as stream events.  Beside state_json, above the
 * model; it knows no job and no HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"
#include "search/search_types.h"

/* The win chance (0..1) of the side to move for an engine score of game g. */
double analysis_win_chance(const struct game *g, Score score);
/* Moves to a proven win (> 0) or loss (< 0) for a score, 0 for none. */
int analysis_mate_moves(Score score);
/* One event: "event: line" (or "event: done") with {"lines": [...]}, the lines'
 * pv replayed on `root` for their display texts.  Malloc'ed; NULL without memory. */
char *analysis_event_text(const struct game *g, const void *root, const struct engine_info *lines,
                          int n, bool done);
