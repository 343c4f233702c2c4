/* A tournament as the API shows it (tourney_json.c; API.md "Tournaments"): its terms,
 * its rules, the standings (computed from its games, arena.c), its latest games, the
 * podium once finished, and the viewer's own place.  For GET /api/tournaments/{id} and
 * the tournament's event stream alike. */
#pragma once

#include <stdint.h>

#include "core/json_out.h"
#include "server/tournaments/tourney_data.h"

struct server;

/* The whole view of d for the viewer of token hash `viewer` ("" or NULL: anyone), at
 * now_ms; malloc'ed text, NULL without memory. */
char *tourney_view(struct server *srv, const struct tourney_data *d, const char *viewer,
                   int64_t now_ms);
/* A tournament's terms alone (the lists), as one object into j. */
void tourney_summary(struct jout *j, const struct store_tournament *t, int players);
/* "upcoming", "running", "finished". */
const char *tourney_status_name(int status);
