/* What a puzzle is in one game: the judgement the puzzle generator (src/puzzles/) asks
 * of a game's engine profile, so the generator itself names no game.
 *
 * Scores are the solver's (the side to move at the puzzle's start), from the engine's
 * search.  A move WINS when its score is a proven win (|score| >= ENGINE_WIN_BOUND: a
 * mate, a formation, an elimination) or at least `win` (a decisive gain: material, or
 * the win chance that goes with it).  At each of the solver's steps exactly one move
 * wins: every other move must prove no win (of any length: a slower mate is a win too)
 * and score at most `not_win` (above it is a decisive gain, or doubt: no puzzle),
 * whether the best move proves a win or makes a decisive gain.  At the last step of a
 * proven line only, other moves that end the game with the same win at once are
 * accepted beside the solution's (its alternatives).  A decisive gain must be the
 * move's own (the static score before it is below `win`).  A game whose only wins are
 * proven ones sets `win` to ENGINE_WIN_BOUND. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

#define PUZZLE_THEMES_MAX 8

/* The solver's moves in one puzzle at most (every game's max_steps), and so the
 * "PREFIX-in-N" themes a game names: N = 1..PUZZLE_STEPS_MAX. */
#define PUZZLE_STEPS_MAX 5

struct puzzle_rules {
    Score win;     /* a decisive score (not proven) */
    Score not_win; /* beside the winning move, every other move scores at most this */
    int max_steps; /* the solver's moves in one puzzle, at most (<= PUZZLE_STEPS_MAX) */
    /* The leading fields of the game's position text (separated by spaces) that name
     * the position itself, so one position is one puzzle whatever its counters (the
     * halfmove clock, the move number, a quiet count); 0: the whole text. */
    int position_fields;
    /* Node budgets of one search: to find candidates, and to prove them again (the
     * budget `agora puzzles check` proves the shipped set at). */
    uint64_t find_nodes, prove_nodes;
    /* Every theme this game can find, by its stable name ("fork"), NULL-terminated:
     * first the PUZZLE_STEPS_MAX themes of a proven win in N of the solver's moves
     * ("mate-in-1" .. "mate-in-5"), then the others. */
    const char *const *theme_names;
    /* The themes of the easy track for beginners (the shortest wins), NULL-terminated. */
    const char *const *easy_themes;
    /* The themes of the solution `line[0..n)` played from `st` (the solver's move
     * first, the replies between): their names into out[0..max), the count.  `st` may be
     * changed during the call and is left as it was given. */
    int (*themes)(void *st, const Move *line, int n, const char **out, int max);
};

/* Append `name` to out[0..n) unless it is there or out is full: the new count. */
int puzzle_theme_add(const char **out, int n, int max, const char *name);
/* The theme "PREFIX-in-N" of a line of exactly `moves` solver moves, from
 * names[0..PUZZLE_STEPS_MAX) (in 1, 2, .. 5); NULL beyond. */
const char *puzzle_theme_in(const char *const *names, int moves);
/* The status after the whole line `line[0..n)` from `st` (left as it was given). */
void puzzle_line_end(const struct game *g, void *st, const Move *line, int n,
                     struct game_status *out);
