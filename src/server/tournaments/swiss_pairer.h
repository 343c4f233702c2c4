/* The Swiss pairer (swiss_pairer.c): a thread of each server's own that pairs the next
 * round of the Swiss tournaments the director hands it, so that a slow pairing (a
 * round of 500 players takes seconds) holds neither the HTTP threads nor the director's
 * other work (arena waves, forfeits, starts).  It keeps nothing the store does not: it
 * reads the tournament afresh before pairing and stores the round in one conditional
 * transaction (store_swiss_round), so a restart, or a second server pairing the same
 * round, leaves one round stored. */
#pragma once

#include <stddef.h>

struct server;

/* Start and stop its thread (director_start and director_stop do): stop waits for the
 * pairing on, if any.  `done` is called (on the pairer's thread) after it stored a
 * tournament's round or its end. */
int swiss_pairer_start(struct server *srv, void (*done)(struct server *srv, const char *id),
                       char *err, size_t err_size);
void swiss_pairer_stop(struct server *srv);
/* Pair Swiss tournament `id`'s next round (or end it after its last) soon; nothing when
 * it waits or is being paired already. */
void swiss_pairer_ask(struct server *srv, const char *id);
