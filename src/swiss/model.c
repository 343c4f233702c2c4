/* The tournament model: creation, scores and the point system. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swiss/swiss.h"

struct swiss_points swiss_points_default(void)
{
    struct swiss_points p = {
        .win = 10,
        .draw = 5,
        .loss = 0,
        .forfeit_win = 10,
        .forfeit_loss = 0,
        .pairing_bye = 10,
        .full_bye = 10,
        .half_bye = 5,
        .zero_bye = 0,
        .absent = 0,
    };
    return p;
}

SwissPoints swiss_result_points(const struct swiss_points *p, enum swiss_result r)
{
    switch (r) {
    case SWISS_WIN: return p->win;
    case SWISS_DRAW: return p->draw;
    case SWISS_LOSS: return p->loss;
    case SWISS_FORFEIT_WIN: return p->forfeit_win;
    case SWISS_FORFEIT_LOSS: return p->forfeit_loss;
    case SWISS_BYE_PAIRING: return p->pairing_bye;
    case SWISS_BYE_FULL: return p->full_bye;
    case SWISS_BYE_HALF: return p->half_bye;
    case SWISS_BYE_ZERO: return p->zero_bye;
    case SWISS_NONE: return p->absent;
    }
    return 0;
}

SwissPoints swiss_score(const struct swiss_tournament *t, int id, int rounds)
{
    const struct swiss_player *pl = &t->players[id - 1];
    SwissPoints s = 0;
    for (int r = 0; r < rounds && r < t->rounds_played; r++)
        s += swiss_result_points(&t->points, pl->games[r].result);
    return s;
}

int swiss_played(const struct swiss_game *g)
{
    return g->opponent > 0 &&
           (g->result == SWISS_WIN || g->result == SWISS_DRAW || g->result == SWISS_LOSS);
}

struct swiss_tournament *swiss_new(int n_players, int rounds_total)
{
    if (n_players < 0 || n_players > SWISS_MAX_PLAYERS || rounds_total < 0 ||
        rounds_total > SWISS_MAX_ROUNDS)
        return NULL;
    struct swiss_tournament *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n_players = n_players;
    t->rounds_total = rounds_total;
    t->initial_colour = SWISS_WHITE;
    t->points = swiss_points_default();
    t->players = calloc(n_players ? (size_t)n_players : 1, sizeof *t->players);
    if (!t->players) {
        free(t);
        return NULL;
    }
    for (int i = 0; i < n_players; i++) {
        t->players[i].id = i + 1;
        t->players[i].games = calloc(1, sizeof(struct swiss_game));
        if (!t->players[i].games) {
            swiss_free(t);
            return NULL;
        }
    }
    return t;
}

void swiss_free(struct swiss_tournament *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_players; i++)
        free(t->players[i].games);
    free(t->players);
    free(t);
}

int swiss_add_round(struct swiss_tournament *t)
{
    if (t->rounds_played >= SWISS_MAX_ROUNDS)
        return -1;
    for (int i = 0; i < t->n_players; i++) {
        struct swiss_game *g =
            realloc(t->players[i].games, (size_t)(t->rounds_played + 2) * sizeof *g);
        if (!g)
            return -1;
        memset(&g[t->rounds_played + 1], 0, sizeof *g);
        t->players[i].games = g;
    }
    t->rounds_played++;
    return 0;
}

int swiss_format_pairs(const struct swiss_pair *pairs, int n_pairs, char *out, size_t size)
{
    size_t used = 0;
    int n = snprintf(out, size, "%d\n", n_pairs);
    if (n < 0 || (size_t)n >= size)
        return -1;
    used = (size_t)n;
    for (int i = 0; i < n_pairs; i++) {
        n = snprintf(out + used, size - used, "%d %d\n", pairs[i].white, pairs[i].black);
        if (n < 0 || (size_t)n >= size - used)
            return -1;
        used += (size_t)n;
    }
    return (int)used;
}

struct swiss_tournament *swiss_cut(const struct swiss_tournament *t, int rounds)
{
    if (rounds < 0 || rounds > t->rounds_played)
        return NULL;
    struct swiss_tournament *c = swiss_new(t->n_players, t->rounds_total);
    if (!c)
        return NULL;
    memcpy(c->name, t->name, sizeof c->name);
    c->initial_colour = t->initial_colour;
    c->points = t->points;
    for (int r = 0; r < rounds; r++)
        if (swiss_add_round(c)) {
            swiss_free(c);
            return NULL;
        }
    for (int i = 0; i < t->n_players; i++) {
        const struct swiss_player *from = &t->players[i];
        struct swiss_player *to = &c->players[i];
        memcpy(to->name, from->name, sizeof to->name);
        memcpy(to->sex_title, from->sex_title, sizeof to->sex_title);
        memcpy(to->extra, from->extra, sizeof to->extra);
        to->rating = from->rating;
        memcpy(to->games, from->games, (size_t)rounds * sizeof *to->games);
        /* the next round: a requested bye or an absence stays, a game or the
         * pairing-allocated bye (the pairing's own doing) goes */
        const struct swiss_game *next = &from->games[rounds];
        if (rounds == t->rounds_played)
            to->withdrawn = from->withdrawn;
        else if (!next->opponent && next->result != SWISS_BYE_PAIRING) {
            to->games[rounds] = *next;
            to->withdrawn = 1;
        }
        if (to->withdrawn && rounds == t->rounds_played)
            to->games[rounds] = *next;
    }
    return c;
}
