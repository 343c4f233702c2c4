/* Analyses and reviews written for the browser (analysis_json.c; the shapes are in
 * API.md): an analysis's lines as stream events, a review's progress and its finished
 * text.  Below the server and the engine worker, which both write reviews with it; it
 * knows no job, no store and no HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* One event: "event: line" (or "event: done") with {"engine", "lines": [...]},
 * "engine_error" when `why` is not "" (why the external engine did not judge), and
 * "tablebase" {"result", "plies", "text"} when `tb` is not NULL (the endgame tables'
 * verdict), and "proof" {"word", "plies", "text"} when `proof` is not NULL (a forced
 * win the proof search found: "formation in 3").  Malloc'ed; NULL without memory. */
char *analysis_event_text(const struct analysis_line *lines, int n, bool done, const char *engine,
                          const char *why, const struct analysis_tablebase *tb,
                          const struct analysis_proof *proof);
/* A finished review (API.md): its id, game, start position ("": the game's start), the
 * engine that judged (and why not the external one, when `why` is not ""), every ply
 * judged, the accuracy and class counts per side, the thresholds. */
char *review_done_text(const char *id, const struct game *g, const char *start,
                       const struct analysis_ply *plies, int n, const struct analysis_summary *sum,
                       const char *engine, const char *why);
/* A review's progress: status "running" (or "none"), done of total positions. */
char *review_progress_text(const char *id, const struct game *g, const char *status, int done,
                           int total);
