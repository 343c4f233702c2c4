/* The Dutch pairing's view of the players (internal to src/swiss/): what dutch.c
 * pairs and dutch_players.c computes from the tournament. */
#pragma once

#include "swiss/swiss.h"

#define STRENGTH_NONE 0
#define STRENGTH_MILD 1
#define STRENGTH_STRONG 2
#define STRENGTH_ABSOLUTE 3

#define FLOAT_DOWN 1
#define FLOAT_UP 2

/* A player to pair (or the bye vertex), in rank order: score, then pairing number. */
struct dp {
    int id; /* 0: the bye vertex */
    SwissPoints score;
    int cd;       /* colour difference: games with white less games with black */
    int pref;     /* SWISS_WHITE, SWISS_BLACK or 0 */
    int strength; /* STRENGTH_* */
    int n_col;
    signed char col[SWISS_MAX_ROUNDS]; /* colours of the games played, in order */
    int float1, float2;                /* floats of the last round and the one before */
    int bye_ok;
    int topscorer;
    int unplayed; /* rounds without a game over the board */
};

struct ctx {
    const struct swiss_tournament *t;
    struct dp *p;
    int n; /* vertices, the bye included */
    int has_bye;
    unsigned char *met; /* [n * n]: played each other */
    int *paired;        /* partner vertex, or -1 */
    int last_round;
    SwissPoints one_point;
    SwissPoints lowest_score; /* of the players to pair */
};

/* The state of player `id` for pairing round rounds_played + 1: score, colour
 * difference and preference (article 1.7), floats (1.4), C2's bye eligibility, the
 * unplayed rounds (C9), topscorer (1.8). */
void dutch_fill_player(const struct swiss_tournament *t, int id, struct dp *d);
/* qsort order of players to pair: score, then pairing number; the bye vertex last. */
int dutch_cmp_rank(const void *a, const void *b);
/* The colour of vertex a (SWISS_WHITE or SWISS_BLACK) against vertex b, a < b in rank
 * order (article 5). */
int dutch_allocate(const struct ctx *c, int a, int b);
