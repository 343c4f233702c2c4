/* Ratings of games between people (people_rating.c): Glicko-2 (src/rating/glicko2.h)
 * per game and rating class, each finished rated game its own rating period, put into
 * both players' ratings by the store exactly once (store.h rate_game).  The classes by
 * the clock, with a game's expected length E = initial + 40 x increment seconds:
 * blitz E < 8 minutes, rapid E < 25 minutes, classical beyond; correspondence with
 * days a move.  A game without a clock is never rated; nor is an aborted one. */
#pragma once

#include "store/store.h"

struct server;

/* The class of a game's clock ("blitz", "rapid", "classical", "correspondence"), or
 * NULL for none. */
const char *people_clock_class(int64_t initial_ms, int64_t increment_ms, int days);
/* The initial time a clock asked as initial_ms + increment_ms is played with (the
 * challenge, its game and its class all hold this one): an initial time of 0 starts
 * with the increment or 3 seconds, the larger; any other is played as asked. */
int64_t people_clock_initial_ms(int64_t initial_ms, int64_t increment_ms);
/* A player's rating now, rounded (1500 for a new one). */
int people_rating_of(struct server *srv, const char *token_hash, const char *game,
                     const char *klass);
/* A finished rated game into the ratings (nothing when it is not one, or done); the
 * players' ratings after it into *white_after, *black_after when given and rated. */
void people_rate(struct server *srv, const char *game_id, int *white_after, int *black_after);
/* The game a challenge starts (colours, names, clock, ratings at the start) between its
 * creator and the acceptor; -1 without randomness. */
int people_game_row(struct server *srv, const struct store_challenge *c, const char *acceptor_hash,
                    const char *acceptor_name, int64_t now, struct store_game *g);
