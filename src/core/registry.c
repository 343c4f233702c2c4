#include "registry.h"

#include <string.h>

void games_init(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (int i = 0; game_registry[i]; i++)
        if (game_registry[i]->init)
            game_registry[i]->init();
}

const struct game *game_find(const char *name)
{
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        if (strcmp(g->name, name) == 0)
            return g;
        for (int a = 0; g->aliases && g->aliases[a]; a++)
            if (strcmp(g->aliases[a], name) == 0)
                return g;
    }
    return NULL;
}
