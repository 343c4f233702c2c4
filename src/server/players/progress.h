/* What a player did in the browser, kept by the server too (progress.c; API.md
 * "Progress"): the lessons' stars, the coordinates trainer's best scores and the
 * opening repertoire with its cards, so they follow the player's token to another
 * browser.  A browser sends its copy; the server merges it into its own (never one
 * overwriting the other) and answers the merge, which the browser keeps. */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "server/common/route.h"

/* Merge `incoming` (a browser's copy, checked here) into `into` (the stored copy,
 * trusted): stars and best scores the higher of the two, the repertoire's lines those
 * of the copy changed last (its "changed", a time: a removed line stays removed), or
 * both copies' when they say the same time (the stored ones first, a line once), and
 * each card the one due later (the one reviewed further).  0; -1 with one line in err, `into`
 * unchanged, when `incoming` is malformed or over a limit. */
int progress_merge(json_t *into, json_t *incoming, char *err, size_t err_size);

/* GET /api/me/progress (token), POST /api/me/progress (a copy to merge; a visitor
 * without a token gets one). */
route_handler players_progress_get, players_progress_post;
