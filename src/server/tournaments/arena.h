/* An arena's rules, as arithmetic (arena.c): the standings from the games' results, and
 * the pairing of a wave of waiting players.  No store, no server, no clock of its own:
 * the director (director.c) gives it what the store has, and the tests give it made-up
 * tournaments.
 *
 * Scoring (API.md "Tournaments", the page's rules say the same): a win 2, a draw 1, a
 * loss 0.  After two wins in a row a player is "on fire": each game scores double until
 * one is not won.  A berserk win (half the clock, no increment) with at least 7 of the
 * berserker's own moves scores one point more.  A draw before each side has made 10
 * moves (20 plies) scores nothing.  An aborted game does not count; nor does a game
 * that ends after the arena's end. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

#define ARENA_WIN 2
#define ARENA_DRAW 1
#define ARENA_EARLY_DRAW_PLIES 20 /* a draw in fewer plies scores nothing */
#define ARENA_BERSERK_MOVES 7     /* a berserk win with this many own moves: +1 */
#define ARENA_FIRE_AFTER 2        /* wins in a row before the next games score double */
#define ARENA_SHEET_MAX 64        /* the points of a player's last games kept for the page */

/* One entrant's line of the standings. */
struct arena_line {
    int entrant; /* index into the entrants given */
    int rating;  /* the entrant's, at joining */
    int score, games, wins, draws, losses, berserks;
    int streak;      /* wins in a row now */
    bool fire;       /* on fire: the next game scores double */
    int rank;        /* 1-based; equal scores share no rank (ties: rating, then joining) */
    bool playing;    /* in a game of the arena still on */
    int64_t free_ms; /* since when they are free (their last game's end, or active_ms) */
    int last_opp;    /* the entrant they last played (-1: none) */
    int whites, blacks, last_colour;     /* colours had; last_colour enum side or -1 */
    int sheet[ARENA_SHEET_MAX], n_sheet; /* points of each counted game, in order (the
                                            last ARENA_SHEET_MAX); -1 a game on */
    int fire_sheet[ARENA_SHEET_MAX];     /* 1 where that game was played on fire */
};

/* The points one game gives the side `side` of it (enum side), on fire or not; and
 * whether it counts at all (an aborted game, or one that ended after end_ms, does not). */
bool arena_counts(const struct store_game *g, int64_t end_ms);
int arena_points(const struct store_game *g, int side, bool on_fire);

/* The standings: for n entrants (as the store lists them) and the arena's m games in
 * order of creation, one line each into out[n], sorted by rank (out[0] the leader).
 * end_ms: the arena's end. */
void arena_standings(const struct store_entrant *e, int n, const struct store_game *g, int m,
                     int64_t end_ms, struct arena_line *out);

/* One pairing of a wave: entrants white and black (indices into the entrants). */
struct arena_pair {
    int white, black;
};
/* Pair the free, active entrants of `lines` (standings as arena_standings made them,
 * with `e` the entrants) at now_ms: a maximum-weight matching in which a pair is worth
 * more the nearer the two are in the standings and in rating and the longer both have
 * waited, and the two who just played each other are no pair (unless they are the only two
 * active entrants: then nobody else could come).  Colours: white to the one who had fewer whites
 * than blacks, then to the one who had black last, then by `seed`.  Writes at most
 * n / 2 pairs into out; their count, or -1 without memory. */
int arena_pair_wave(const struct store_entrant *e, const struct arena_line *lines, int n,
                    int64_t now_ms, uint64_t seed, struct arena_pair *out);
