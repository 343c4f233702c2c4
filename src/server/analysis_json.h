/* Analyses and reviews written for the browser (analysis_json.c; the shapes are in
 * API.md): an analysis's lines as stream events.  Beside state_json, above the
 * model; it knows no job and no HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* One event: "event: line" (or "event: done") with {"lines": [...]}.  Malloc'ed;
 * NULL without memory. */
char *analysis_event_text(const struct analysis_line *lines, int n, bool done);
