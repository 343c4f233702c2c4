/* A tournament read from the store (tourney_data.h). */
#include "server/tournaments/tourney_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "server/games/people_rating.h"
#include "server/server_state.h"

static void entrant_one(void *ctx, const struct store_entrant *e)
{
    struct tourney_data *d = ctx;
    if (d->n == d->cap_e) {
        int cap = d->cap_e ? 2 * d->cap_e : 16;
        struct store_entrant *q = realloc(d->e, sizeof *q * (size_t)cap);
        if (!q)
            return;
        d->e = q;
        d->cap_e = cap;
    }
    d->e[d->n++] = *e;
}

static void game_one(void *ctx, const struct store_game *g)
{
    struct tourney_data *d = ctx;
    if (d->m == d->cap_g) {
        int cap = d->cap_g ? 2 * d->cap_g : 16;
        struct store_game *q = realloc(d->g, sizeof *q * (size_t)cap);
        if (!q)
            return;
        d->g = q;
        d->cap_g = cap;
    }
    d->g[d->m++] = *g;
}

static void bye_one(void *ctx, int round, const char *hash)
{
    struct tourney_data *d = ctx;
    if (d->n_byes == d->cap_byes) {
        int cap = d->cap_byes ? 2 * d->cap_byes : 8;
        struct tourney_bye *q = realloc(d->byes, sizeof *q * (size_t)cap);
        if (!q)
            return;
        d->byes = q;
        d->cap_byes = cap;
    }
    d->byes[d->n_byes].round = round;
    snprintf(d->byes[d->n_byes++].hash, sizeof d->byes[0].hash, "%s", hash);
}

int tourney_load(struct server *srv, const char *id, struct tourney_data *d, char *err,
                 size_t err_size)
{
    memset(d, 0, sizeof *d);
    int rc = store_get_tournament(srv->store, id, &d->t, err, err_size);
    if (rc == 0)
        rc = store_list_entrants(srv->store, id, entrant_one, d, err, err_size);
    if (rc == 0)
        rc = store_tournament_games(srv->store, id, game_one, d, err, err_size);
    if (rc == 0 && d->t.kind == TOURNEY_SWISS)
        rc = store_tournament_byes(srv->store, id, bye_one, d, err, err_size);
    return rc;
}

void tourney_data_free(struct tourney_data *d)
{
    free(d->e);
    free(d->g);
    free(d->byes);
    memset(d, 0, sizeof *d);
}

int tourney_entrant(const struct tourney_data *d, const char *token_hash)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->e[i].token_hash, token_hash))
            return i;
    return -1;
}

int64_t tourney_end_ms(const struct store_tournament *t)
{
    return t->starts_ms + t->duration_ms;
}

/* As a challenge of white's that black accepted would make it. */
int tourney_game_row(struct server *srv, const struct tourney_data *d,
                     const struct store_entrant *w, const struct store_entrant *b, int64_t now,
                     int round, struct store_game *row, char *err, size_t err_size)
{
    struct store_challenge c;
    memset(&c, 0, sizeof c);
    snprintf(c.game, sizeof c.game, "%s", d->t.game);
    c.clock_initial_ms = d->t.clock_initial_ms;
    c.clock_increment_ms = d->t.clock_increment_ms;
    c.days = d->t.days;
    c.side = SIDE_WHITE;
    c.rated = d->t.rated;
    snprintf(c.creator_hash, sizeof c.creator_hash, "%s", w->token_hash);
    snprintf(c.creator_name, sizeof c.creator_name, "%s", w->name);
    snprintf(c.club_id, sizeof c.club_id, "%s", d->t.club_id);
    if (people_game_row(srv, &c, b->token_hash, b->name, now, row) != 0)
        return fail(err, err_size, "no randomness from the kernel");
    snprintf(row->tournament_id, sizeof row->tournament_id, "%s", d->t.id);
    row->round = round;
    return 0;
}
