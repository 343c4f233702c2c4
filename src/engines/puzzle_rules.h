/* What a puzzle is in one game: the judgement the puzzle generator (src/puzzles/) asks
 * of a game's engine profile, so the generator itself names no game.
 *
 * Scores are the solver's (the side to move at the puzzle's start), from the engine's
 * search.  A move WINS when its score is a proven win (|score| >= ENGINE_WIN_BOUND: a
 * mate, a formation, an elimination) or at least `win` (a decisive gain: material, or
 * the win chance that goes with it); another move DOES NOT WIN when it scores at most
 * `not_win` and is no proven win.  Between the two is doubt: such a position is no
 * puzzle.  Where the best move proves a win, every other move must prove none or only a
 * slower one (at least one of the solver's moves later: the puzzle is the fastest win,
 * and a second move that wins as fast makes no puzzle); a decisive gain must be the
 * move's own (the static score before it is below `win`).  A game whose only wins are proven ones
 * sets `win` to ENGINE_WIN_BOUND. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

#define PUZZLE_THEMES_MAX 8

struct puzzle_rules {
    Score win;     /* a decisive score (not proven) */
    Score not_win; /* the second best move scores at most this */
    int max_steps; /* the solver's moves in one puzzle, at most */
    /* Node budgets of one search: to find candidates, and to prove them again (the
     * budget `agora puzzles check` proves the shipped set at). */
    uint64_t find_nodes, prove_nodes;
    /* Every theme this game can find, by its stable name ("fork"), NULL-terminated. */
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
/* The theme "PREFIX-in-N" of a line of `moves` solver moves, from names[0..3] (in 1,
 * 2, 3, 4 or more). */
const char *puzzle_theme_in(const char *const *names, int moves);
/* The status after the whole line `line[0..n)` from `st` (left as it was given). */
void puzzle_line_end(const struct game *g, void *st, const Move *line, int n,
                     struct game_status *out);
