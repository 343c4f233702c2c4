/* The debug consistency check's report (debug_check.h). */
#include "debug_check.h"

#include <stdio.h>
#include <stdlib.h>

void debug_check_failed(const char *game, const char *op, const char *move_text, Move m,
                        const char *why)
{
    fprintf(stderr, "agora: debug check failed after %s %s %s (0x%llx): %s\n", game, op, move_text,
            (unsigned long long)m, why);
    fflush(stderr);
    abort();
}

void debug_check_state(const struct game *g, const void *st, const char *op, Move m)
{
    char err[ERROR_TEXT_MAX];
    if (g->check(st, err, sizeof err) == 0)
        return;
    char text[MOVE_TEXT_MAX];
    g->move_text(st, m, text, sizeof text);
    debug_check_failed(g->name, op, text, m, err);
}
