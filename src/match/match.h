/* Matches: engine against engine, for any game (`agora match`).
 *
 * Games come in pairs from the same start with colours swapped: player 0 has White in
 * the even games.  A start is an opening position (or the game's start), then seeded
 * random plies that leave it balanced.  Illegal moves, crashes (an external engine
 * that dies or does not answer) and time losses lose the game and are counted.  The
 * result is the score with an Elo difference and, when asked, an SPRT; every game can
 * be saved as a record (the game's write_record).
 *
 * The module: match.c runs the match (workers, scores, progress), play.c one game,
 * player.c the players' moves, uci_client.c external engines, openings.c the opening
 * files, adjudicate.c early verdicts, stats.c the statistics. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "adjudicate.h"
#include "engines/engine.h"

#define MATCH_MAX_OPTIONS 16

enum match_player_kind {
    MATCH_PLAYER_RANDOM, /* uniformly random legal moves */
    MATCH_PLAYER_ENGINE, /* our engine: at `level`, or (level 0) full strength in lim */
    MATCH_PLAYER_UCI,    /* an external UCI engine: `command`, run by /bin/sh */
};

struct match_player {
    char name[96];
    enum match_player_kind kind;
    int level;
    struct engine_limits lim; /* depth, nodes, movetime, algo, noise ... */
    int64_t tc_ms, inc_ms;    /* a clock, when tc_ms or inc_ms > 0 */
    char command[512];
    /* UCI options set after the handshake; the strings stay the caller's */
    const char *opt_names[MATCH_MAX_OPTIONS], *opt_values[MATCH_MAX_OPTIONS];
    int noptions;
};

struct match_config {
    const struct game *g;
    struct match_player players[2];
    int games, concurrency;
    int random_plies; /* seeded random plies after the opening */
    int balance;      /* centipawns: the largest opening advantage accepted; 0 off */
    int max_plies;    /* then a draw by adjudication */
    int quiet;        /* no progress lines */
    int64_t time_margin_ms;
    uint64_t seed;
    struct match_adjudication adj;
    struct engine_book *book; /* for level players (games with books); may be NULL */
    char *const *openings;    /* position texts, a pair each in turn; none: the start */
    int nopenings;
    FILE *records; /* every game's record (NULL: none) */
    int sprt;      /* stop early when the SPRT decides: pentanomial, over the pairs of games
                    * from one start (stats.h), the trinomial LLR over games shown too */
    double elo0, elo1, sprt_alpha, sprt_beta;
};

/* The defaults of `agora match` for game `g`: 10 games, one at a time, the profile's
 * random plies, balance 60, 1000 plies, a 50 ms time margin, seed 1, SPRT error rates
 * 0.05 (the players are left to the caller). */
void match_config_init(struct match_config *cfg, const struct game *g);

/* Play the match: progress on `err` (one line rewritten in place on a terminal,
 * every tenth game otherwise; none when quiet), the summary on `out`.  Returns 0. */
int match_run(const struct match_config *cfg, FILE *out, FILE *err);
