/* Small helpers the games' puzzle rules share (puzzle_rules.h). */
#include "puzzle_rules.h"

#include <string.h>

int puzzle_theme_add(const char **out, int n, int max, const char *name)
{
    if (!name)
        return n;
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], name) == 0)
            return n;
    if (n < max)
        out[n++] = name;
    return n;
}

const char *puzzle_theme_in(const char *const *names, int moves)
{
    return moves >= 1 && moves <= PUZZLE_STEPS_MAX ? names[moves - 1] : NULL;
}

void puzzle_line_end(const struct game *g, void *st, const Move *line, int n,
                     struct game_status *out)
{
    for (int i = 0; i < n; i++)
        g->make_move(st, line[i]);
    g->status(st, out);
    for (int i = n; i > 0; i--)
        g->unmake_move(st, line[i - 1]);
}
