/* Analyses and reviews written for the browser (analysis_json.c; the shapes are in
 * API.md): an analysis's lines as stream events.  Beside state_json, above the
 * model; it knows no job and no HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* One event: "event: line" (or "event: done") with {"engine", "lines": [...]} and
 * "engine_error" when `why` is not "" (why the external engine did not judge).
 * Malloc'ed; NULL without memory. */
char *analysis_event_text(const struct analysis_line *lines, int n, bool done, const char *engine,
                          const char *why);
/* A finished review (API.md): its id, game, start position ("": the game's start), the
 * engine that judged (and why not the external one, when `why` is not ""), every ply
 * judged, the accuracy and class counts per side, the thresholds. */
char *review_done_text(const char *id, const struct game *g, const char *start,
                       const struct analysis_ply *plies, int n, const struct analysis_summary *sum,
                       const char *engine, const char *why);
/* A review's progress: status "running" (or "none"), done of total positions. */
char *review_progress_text(const char *id, const struct game *g, const char *status, int done,
                           int total);
