/* A game between people as JSON (people_json.c): the fields its state and events add
 * (players, clocks, offers, viewers; API.md "People"), and challenges.  Beside
 * state_json.c, which calls it; reads the model under s->mu. */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct jout;
struct session;
struct store_challenge;

/* The state's people fields, written into the open object: "you" is `viewer` (a side,
 * or -1 for a spectator). */
void people_state_out(struct jout *j, const struct session *s, int viewer, int64_t now_ms);
/* "clock": {...} or null. */
void people_clock_out(struct jout *j, const struct session *s, int64_t now_ms);
/* The `update` event (offers, viewers, clocks changed without a move); 0: no room. */
size_t event_update_text(const struct session *s, char *buf, size_t size);
/* A challenge as GET /api/challenges/{id} answers it (malloc'ed). */
void challenge_out(struct jout *j, const struct store_challenge *c, int64_t now_ms);
