/* Puzzles: positions where the side to move has exactly one winning move, and after
 * each of the opponent's best defences again exactly one, until the win is clear (at
 * the last step of a line that ends the game, other moves that end it with the same
 * win at once are accepted beside the solution's).
 *
 * Written against the game interface and the engine profile alone (what wins and the
 * themes are the profile's puzzle_rules, engines/puzzle_rules.h); nothing here names a
 * game.  Every search runs on a node budget with its table cleared first, so a puzzle
 * judged once is judged the same on any machine (the search is deterministic at a
 * node budget on one thread). */
#pragma once

#include <stdint.h>

#include "core/game.h"
#include "engines/puzzle_rules.h"

struct engine; /* engines/engine.h */

/* Plies of a solution at most: the solver's moves and the replies between them. */
#define PUZZLE_LINE_MAX 24
/* Other moves accepted at the last step at most (each ends the game with the solver's
 * win at once); a position with more is no puzzle. */
#define PUZZLE_ALT_MAX 3

/* Who proved a puzzle: the search at a node budget, or the game's endgame tables
 * (exact: no budget).  PUZZLE_BY_ANY asks for the tables where they hold the position,
 * else the search. */
enum puzzle_judge { PUZZLE_BY_ANY = 0, PUZZLE_BY_SEARCH, PUZZLE_BY_TABLES };
const char *puzzle_judge_name(enum puzzle_judge by); /* "search", "tables" */

struct puzzle_solution {
    enum puzzle_judge by;       /* who proved it (never PUZZLE_BY_ANY once proven) */
    uint64_t nodes;             /* the search's budget (by the search) */
    int n;                      /* plies, odd: the line ends with the solver's move */
    Move line[PUZZLE_LINE_MAX]; /* the solver's move first */
    int proven;                 /* the line ends the game (mate, formation, elimination) */
    /* At the last step of a proven line, the other moves that end the game with the
     * solver's win at once (another mate in one): accepted as the last move too. */
    int nalt;
    Move alt[PUZZLE_ALT_MAX];
    int depth_needed; /* the first iteration whose best score was a win (step 1) */
    int tempting;     /* other first moves that look as good at one ply */
    int easy;         /* of the easy track: a theme among the rules' easy_themes */
    int rating;       /* the first rating, puzzle_first_rating */
    int nthemes;
    const char *themes[PUZZLE_THEMES_MAX];
};

/* Why a position is no puzzle (puzzle_reject_name): */
enum puzzle_reject {
    PUZZLE_OK = 0,
    PUZZLE_NO_RULES,    /* the game's profile has no puzzle rules */
    PUZZLE_OVER,        /* the game is over, or a single legal move */
    PUZZLE_WON_ALREADY, /* a decisive gain, but the static score was decisive before it */
    PUZZLE_NO_WIN,      /* the best move does not win (at some step) */
    PUZZLE_NOT_UNIQUE,  /* a second move wins too (at some step) */
    PUZZLE_UNCLEAR,     /* a second move is in doubt, or the line does not end clearly */
    PUZZLE_NO_MEMORY,
    PUZZLE_NO_TABLES, /* the tables were asked for and do not hold the position */
    PUZZLE_REJECT_COUNT
};
const char *puzzle_reject_name(enum puzzle_reject r);

/* Judge the position `st` (left unchanged) at `nodes` a search: PUZZLE_OK with *out
 * filled (line, themes, first rating), else why not.  `e` is the caller's engine (its
 * table is cleared before every search); NULL: one of its own for the call. */
enum puzzle_reject puzzle_solve(const struct game *g, const void *st, uint64_t nodes,
                                struct engine *e, struct puzzle_solution *out);
/* The same by one judge only (`check` proves a puzzle again by the judge that proved
 * it): PUZZLE_BY_SEARCH never asks the tables, PUZZLE_BY_TABLES answers
 * PUZZLE_NO_TABLES where the tables do not hold the position. */
enum puzzle_reject puzzle_solve_by(const struct game *g, const void *st, uint64_t nodes,
                                   struct engine *e, enum puzzle_judge by,
                                   struct puzzle_solution *out);

/* The first rating of a puzzle (Glicko scale), in two bands that do not meet: the
 * easy track (a win in one or two: mate, formation, elimination) from 500, into
 * PUZZLE_EASY_LOW..PUZZLE_EASY_HIGH; every other puzzle from 1300, into
 * PUZZLE_HARD_LOW..PUZZLE_HARD_HIGH; each plus 150 * (solver moves - 1) + 40 *
 * tempting + 30 * (depth_needed - 1). */
#define PUZZLE_EASY_LOW 400
#define PUZZLE_EASY_HIGH 1100
#define PUZZLE_HARD_LOW 1200
#define PUZZLE_HARD_HIGH 2800
int puzzle_first_rating(int easy, int depth_needed, int tempting, int solver_moves);
