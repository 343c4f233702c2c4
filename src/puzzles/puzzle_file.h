/* The puzzle file: one JSON object a line,
 *   {"id", "game", "position", "moves": [...], "alternatives": [...], "themes": [...],
 *    "rating", "judge": {"engine", "by", "nodes"}}
 * `position` is the game's position text, `moves` the solution in the game's move text
 * (the solver's move first, the replies between), `alternatives` (only where there are
 * some) the other moves accepted as the solver's last move: each ends the game with the
 * solver's win at once, as the solution's last move does; `rating` the first rating.
 * `id` is the game's name and 12 hex digits of a hash of the position itself (the
 * leading fields of its text that the game's puzzle rules name: no counters), so one
 * position is one puzzle.  `judge` says who proved it: `engine` "agora GAME" (agora's own,
 * as `agora uci` names itself), `by` "search" (with its `nodes` a search) or "tables"
 * (the game's endgame tables: exact); optional when read (lines written before it). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

#define PUZZLE_ID_MAX 40
#define PUZZLE_THEME_NAME_MAX 32

struct puzzle_entry {
    char id[PUZZLE_ID_MAX];
    const struct game *g;
    char position[POSITION_TEXT_MAX];
    int n;
    char moves[PUZZLE_LINE_MAX][MOVE_TEXT_MAX];
    int nalt;
    char alternatives[PUZZLE_ALT_MAX][MOVE_TEXT_MAX];
    int nthemes;
    char themes[PUZZLE_THEMES_MAX][PUZZLE_THEME_NAME_MAX];
    int rating;
    enum puzzle_judge by; /* PUZZLE_BY_ANY: the line names no judge */
    uint64_t nodes;       /* by the search: its budget */
};

/* One line of a puzzle file: 0, or -1 with err naming the problem (the game, the
 * position and every move are checked against the rules). */
int puzzle_entry_parse(const char *line, struct puzzle_entry *out, char *err, size_t err_size);
/* The entry as one JSON line (no newline), malloc'ed; NULL without memory. */
char *puzzle_entry_json(const struct puzzle_entry *e);
/* The entry of a solved position `st` of g. */
void puzzle_entry_make(const struct game *g, const void *st, const struct puzzle_solution *s,
                       struct puzzle_entry *out);
/* The id of a position text: "GAME-" and 12 hex digits of the hash of the position
 * itself (puzzle_position_hash). */
void puzzle_id(const struct game *g, const char *position, char *buf, size_t size);
uint64_t puzzle_text_hash(const char *text);
/* The position itself: the leading fields of the position text that the game's puzzle
 * rules name (position_fields; no counters), each separated by one space, into buf. */
void puzzle_position_key(const struct game *g, const char *position, char *buf, size_t size);
/* The hash of puzzle_position_key: one position, one puzzle (the generator's set of
 * positions written, `check`'s one puzzle per position, the id). */
uint64_t puzzle_position_hash(const struct game *g, const char *position);
/* Is `move` (a move text) accepted at solver step `step` (0-based)?  The solution's
 * move, or at the last step one of the alternatives. */
int puzzle_entry_accepts(const struct puzzle_entry *e, int step, const char *move);
/* Has `theme` among its themes? */
int puzzle_entry_has_theme(const struct puzzle_entry *e, const char *theme);

/* Prove the entry again at `nodes` a search (0: the game's prove budget): 0 when the
 * judge finds the same puzzle (the same line, the same alternatives, the same themes,
 * the id of its position; at the prove budget the same first rating), else -1 with why
 * (the judge's reason, or what differs). */
int puzzle_entry_check(const struct puzzle_entry *e, uint64_t nodes, struct engine *eng, char *why,
                       size_t why_size);
