/* The table of engine profiles, the default profile for a game without one, and what
 * every caller asks of a profile: levels, ratings, search names, books. */
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"

extern const struct engine_profile agon_profile, egara_profile, chess_profile;

const struct engine_profile *const engine_profiles[] = {
    &agon_profile,
    &egara_profile,
    &chess_profile,
    NULL,
};

#define AB ENGINE_ALGO_ALPHABETA

/* Games without a profile of their own until they are measured: the shape the
 * measured games share (alpha-beta beat MCTS in both, see src/engines/NOTES.md). */
static const struct engine_profile default_profile = {
    .game = NULL,
    .algo = AB,
    .bench_depth = 5,
    .levels =
        {
            {AB, 1, 0, 1000, 300, 350, 0, 1},
            {AB, 2, 0, 1000, 150, 250, 0, 1},
            {AB, 3, 0, 1000, 60, 200, 0, 1},
            {AB, 4, 0, 1000, 30, 100, 0, 1},
            {AB, 0, 3000, 1000, 0, 80, 0, 0},
            {AB, 0, 12000, 1000, 0, 55, 0, 0},
            {AB, 0, 60000, 1000, 0, 35, 0, 0},
            {AB, 0, 1000000, 2000, 0, 0, 0, 0},
        },
    .random_plies = 8,
    /* Until its own curve is fitted (tools/winfit): between the fitted games' curves. */
    .win_k = 0.005,
    .review_nodes = 100000,
};

const struct engine_profile *engine_profile_of(const struct game *g)
{
    for (int i = 0; engine_profiles[i]; i++)
        if (engine_profiles[i]->game == g)
            return engine_profiles[i];
    return &default_profile;
}

static int clamp_level(int level)
{
    return level < ENGINE_LEVEL_MIN   ? ENGINE_LEVEL_MIN
           : level > ENGINE_LEVEL_MAX ? ENGINE_LEVEL_MAX
                                      : level;
}

void engine_level_plan(const struct engine_profile *p, int level, struct level_plan *out)
{
    *out = p->levels[clamp_level(level) - 1];
}

int engine_level_elo(const struct engine_profile *p, int level)
{
    return p->level_elo ? p->level_elo[clamp_level(level) - 1] : 0;
}

int engine_elo_level(const struct engine_profile *p, int elo)
{
    if (!p->level_elo)
        return 0;
    int best = ENGINE_LEVEL_MIN;
    for (int l = ENGINE_LEVEL_MIN; l <= ENGINE_LEVEL_MAX; l++)
        if (abs(p->level_elo[l - 1] - elo) < abs(p->level_elo[best - 1] - elo))
            best = l;
    return best;
}

double engine_win_chance(const struct engine_profile *p, Score s)
{
    if (s >= ENGINE_WIN_BOUND)
        return 1.0;
    if (s <= -ENGINE_WIN_BOUND)
        return 0.0;
    return 1.0 / (1.0 + exp(-p->win_k * (double)s));
}

/* ---- search names ---------------------------------------------------------------- */

static const char *const generic_names[] = {"auto", "alphabeta", "mcts"};
#define NGENERIC ((int)(sizeof generic_names / sizeof generic_names[0]))

const char *engine_algo_name(const struct engine_profile *p, enum engine_algo a)
{
    if ((int)a >= 0 && (int)a < NGENERIC)
        return generic_names[a];
    if (a == ENGINE_ALGO_OWN)
        return p->own_search_name ? p->own_search_name : generic_names[ENGINE_ALGO_ALPHABETA];
    return "?";
}

int engine_algo_parse(const struct engine_profile *p, const char *name, enum engine_algo *out)
{
    for (int i = 0; i < NGENERIC; i++)
        if (!strcasecmp(name, generic_names[i])) {
            *out = (enum engine_algo)i;
            return 0;
        }
    if (p->own_search_name && !strcasecmp(name, p->own_search_name)) {
        *out = ENGINE_ALGO_OWN;
        return 0;
    }
    return -1;
}

void engine_algo_list(const struct engine_profile *p, const char *sep, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s%s%s%s%s", generic_names[0], sep, generic_names[1], sep,
                     generic_names[2]);
    if (p->own_search_name && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "%s%s", sep, p->own_search_name);
}

/* ---- books ----------------------------------------------------------------------- */

struct engine_book {
    const struct engine_profile *profile;
    void *impl;
    char *path;
    struct engine_book *next;
};

const char *engine_book_default(const struct engine_profile *p)
{
    return p->book ? p->book->default_path : NULL;
}

int engine_book_open(const struct engine_profile *p, const char *path, struct engine_book **list,
                     char *err, size_t err_size)
{
    if (!p->book)
        return fail(err, err_size, "%s has no opening books",
                    p->game ? p->game->name : "this game");
    if (!path)
        path = p->book->default_path;
    if (!path)
        return fail(err, err_size, "no book file given");
    struct engine_book *b = calloc(1, sizeof *b);
    char *copy = strdup(path);
    if (!b || !copy) {
        free(b);
        free(copy);
        return fail(err, err_size, "out of memory");
    }
    if (p->book->open(path, &b->impl, err, err_size) != 0) {
        free(b);
        free(copy);
        return -1;
    }
    b->profile = p;
    b->path = copy;
    b->next = *list;
    *list = b;
    return 0;
}

void engine_book_close(struct engine_book *list)
{
    while (list) {
        struct engine_book *next = list->next;
        list->profile->book->close(list->impl);
        free(list->path);
        free(list);
        list = next;
    }
}

int engine_book_pick(const struct engine_book *list, const struct game *g, const void *st,
                     struct rng *r, Move *out, char *err, size_t err_size)
{
    *out = 0;
    for (; list; list = list->next)
        if (list->profile->game == g)
            return list->profile->book->pick(list->impl, st, r, out, err, err_size);
    return 0;
}

int engine_book_moves(const struct engine_book *list, const struct game *g, const void *st,
                      Move *out, unsigned *weight, int max, char *err, size_t err_size)
{
    for (; list; list = list->next)
        if (list->profile->game == g && list->profile->book->moves)
            return list->profile->book->moves(list->impl, st, out, weight, max, err, err_size);
    return 0;
}

const char *engine_book_names_default(const struct engine_profile *p)
{
    return p->book ? p->book->names_path : NULL;
}

const char *engine_book_path(const struct engine_book *b)
{
    return b->path;
}
