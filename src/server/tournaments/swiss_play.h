/* A Swiss tournament of the server as the Swiss library sees it (swiss_play.c): the
 * entrants numbered by rating (then by joining: late entrants take their place in that
 * order, as C.04.2 allows), the rounds from the games and byes the store has, results
 * as the library's (a game lost for want of a first move is a forfeit; an aborted game
 * a forfeit of both), withdrawn and paused entrants not paired next.  The same pairing
 * as `agora swiss pair` (src/swiss/dutch.c), and the TRF download. */
#pragma once

#include <stdbool.h>

#include "server/tournaments/tourney_data.h"
#include "swiss/swiss.h"

struct tswiss {
    struct swiss_tournament *t;
    int *entrant_of; /* [pairing number - 1]: the entrant's index in the data */
    int *number_of;  /* [entrant index]: the pairing number */
};

/* Build s from d, its rounds 1..rounds (at most d->t.round; a game still on counts as
 * not played yet); 0, or -1 without memory. */
int tswiss_build(const struct tourney_data *d, int rounds, struct tswiss *s);
void tswiss_free(struct tswiss *s);
/* Whether every game of round `round` is over. */
bool tswiss_round_over(const struct tourney_data *d, int round);
