/* Agon puzzles: only a forced formation (or an opponent left without a move) wins;
 * the themes come from the solution's moves as the game describes them. */
#include <string.h>

#include "games/agon/agon.h"
#include "puzzle_rules.h"
#include "search/search_types.h"

static const char *const agon_themes[] = {
    "formation-in-1", "formation-in-2", "formation-in-3",  "formation-in-4", "formation-in-5",
    "capture",        "return-tempo",   "queen-to-throne", "blocking",       NULL,
};

/* Is the cell called `name` the throne? */
static int is_throne(const char *name)
{
    const struct board_layout *l = agon_game.layout();
    for (int c = 0; c < l->cells; c++)
        if (strcmp(l->cell[c].name, name) == 0)
            return (l->cell[c].flags & AGON_CELL_THRONE) != 0;
    return 0;
}

static int agon_puzzle_themes(void *st, const Move *line, int n, const char **out, int max)
{
    const struct game *g = &agon_game;
    int capture = 0, tempo = 0, throne = 0;
    for (int i = 0; i < n; i++) {
        struct move_desc d;
        g->describe_move(st, line[i], &d);
        if (i % 2 == 0) {
            capture |= d.captured_len > 0;
            tempo |= d.captured_len > 0 && i + 1 < n;
            char letter = 0;
            const struct board_layout *l = g->layout();
            g->make_move(st, line[i]);
            for (int c = 0; c < l->cells; c++)
                if (strcmp(l->cell[c].name, d.to) == 0)
                    letter = g->piece_at(st, c, NULL);
            g->unmake_move(st, line[i]);
            throne |= (letter == 'Q' || letter == 'q') && is_throne(d.to);
        }
        g->make_move(st, line[i]);
    }
    for (int i = n; i > 0; i--)
        g->unmake_move(st, line[i - 1]);
    struct game_status gs;
    puzzle_line_end(g, st, line, n, &gs);
    int k = 0;
    if (gs.reason == AGON_REASON_FORMATION)
        k = puzzle_theme_add(out, k, max, puzzle_theme_in(agon_themes, (n + 1) / 2));
    if (gs.reason == REASON_BLOCKED)
        k = puzzle_theme_add(out, k, max, "blocking");
    if (capture)
        k = puzzle_theme_add(out, k, max, "capture");
    if (tempo)
        k = puzzle_theme_add(out, k, max, "return-tempo");
    if (throne)
        k = puzzle_theme_add(out, k, max, "queen-to-throne");
    return k;
}

static const char *const agon_easy[] = {"formation-in-1", "formation-in-2", NULL};

const struct puzzle_rules agon_puzzle_rules = {
    .win = ENGINE_WIN_BOUND,
    .not_win = ENGINE_WIN_BOUND - 1,
    .max_steps = PUZZLE_STEPS_MAX,
    .position_fields = 0, /* the cells and the side to move: all of it */
    .find_nodes = 8000,
    .prove_nodes = 40000,
    .theme_names = agon_themes,
    .easy_themes = agon_easy,
    .themes = agon_puzzle_themes,
};
