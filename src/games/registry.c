/* The table of games, in the order they are offered to people, its lookup and its
 * initialisation. */
#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "agon/agon.h"
#include "chess/chess.h"
#include "core/record.h"
#include "egara/egara.h"

const struct game *const game_registry[] = {
    &agon_game,
    &egara_game,
    &chess_game,
    NULL,
};

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

const struct game *game_of_record(const char *text)
{
    struct record_header *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    record_peek_tags(text, h); /* a bad tag pair is the reader's to report */
    const char *variant = record_tag(h, "Variant");
    const struct game *standard = NULL, *named = NULL;
    for (int i = 0; game_registry[i] && !named; i++) {
        const struct game *g = game_registry[i];
        if (!g->record_variant && !standard)
            standard = g;
        else if (g->record_variant && variant && record_names_game(g, variant))
            named = g;
    }
    free(h);
    return named ? named : standard ? standard : game_registry[0];
}
