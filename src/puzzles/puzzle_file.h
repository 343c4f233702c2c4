/* The puzzle file: one JSON object a line,
 *   {"id", "game", "position", "moves": [...], "themes": [...], "rating"}
 * `position` is the game's position text, `moves` the solution in the game's move text
 * (the solver's move first, the replies between), `rating` the first rating. */
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
    int nthemes;
    char themes[PUZZLE_THEMES_MAX][PUZZLE_THEME_NAME_MAX];
    int rating;
};

/* One line of a puzzle file: 0, or -1 with err naming the problem (the game, the
 * position and every move are checked against the rules). */
int puzzle_entry_parse(const char *line, struct puzzle_entry *out, char *err, size_t err_size);
/* The entry as one JSON line (no newline), malloc'ed; NULL without memory. */
char *puzzle_entry_json(const struct puzzle_entry *e);
/* The entry of a solved position `st` of g. */
void puzzle_entry_make(const struct game *g, const void *st, const struct puzzle_solution *s,
                       struct puzzle_entry *out);
/* The id of a position text: "GAME-" and 12 hex digits of its hash. */
void puzzle_id(const struct game *g, const char *position, char *buf, size_t size);
uint64_t puzzle_text_hash(const char *text);
/* Has `theme` among its themes? */
int puzzle_entry_has_theme(const struct puzzle_entry *e, const char *theme);

/* Prove the entry again at `nodes` a search (0: the game's prove budget): 0 when the
 * judge finds the same solution, else -1 with why (the judge's reason, or where the
 * lines part). */
int puzzle_entry_check(const struct puzzle_entry *e, uint64_t nodes, struct engine *eng, char *why,
                       size_t why_size);
