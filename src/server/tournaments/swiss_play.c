/* A Swiss tournament for the Swiss library (swiss_play.h). */
#include "server/tournaments/swiss_play.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

/* An entrant's place in the numbering: rating, higher first; then joining, earlier
 * first; then the token's hash. */
struct order {
    int rating;
    int64_t joined_ms;
    const char *hash;
    int index;
};

static int by_rating(const void *pa, const void *pb)
{
    const struct order *a = pa, *b = pb;
    if (a->rating != b->rating)
        return a->rating > b->rating ? -1 : 1;
    if (a->joined_ms != b->joined_ms)
        return a->joined_ms < b->joined_ms ? -1 : 1;
    return strcmp(a->hash, b->hash);
}

static void set_game(struct swiss_tournament *t, int id, int round, int opp,
                     enum swiss_colour colour, enum swiss_result r, char code)
{
    struct swiss_game *g = &t->players[id - 1].games[round - 1];
    g->opponent = opp;
    g->colour = colour;
    g->result = r;
    g->code = code;
}

bool tswiss_round_over(const struct tourney_data *d, int round)
{
    for (int k = 0; k < d->m; k++)
        if (d->g[k].round == round && d->g[k].result == RESULT_ONGOING)
            return false;
    return true;
}

int tswiss_build(const struct tourney_data *d, int rounds, struct tswiss *s)
{
    memset(s, 0, sizeof *s);
    int n = d->n;
    s->entrant_of = malloc(sizeof(int) * (size_t)(n ? n : 1));
    s->number_of = malloc(sizeof(int) * (size_t)(n ? n : 1));
    s->t = swiss_new(n, d->t.rounds);
    if (!s->entrant_of || !s->number_of || !s->t) {
        tswiss_free(s);
        return -1;
    }
    struct order *o = malloc(sizeof *o * (size_t)(n ? n : 1));
    if (!o) {
        tswiss_free(s);
        return -1;
    }
    for (int i = 0; i < n; i++)
        o[i] = (struct order){d->e[i].rating, d->e[i].joined_ms, d->e[i].token_hash, i};
    qsort(o, (size_t)n, sizeof *o, by_rating);
    for (int k = 0; k < n; k++)
        s->entrant_of[k] = o[k].index;
    free(o);
    for (int k = 0; k < n; k++) {
        int i = s->entrant_of[k];
        s->number_of[i] = k + 1;
        struct swiss_player *p = &s->t->players[k];
        snprintf(p->name, sizeof p->name, "%.33s", d->e[i].name);
        p->rating = d->e[i].rating;
        p->withdrawn = d->e[i].state != ENTRANT_ACTIVE;
    }
    snprintf(s->t->name, sizeof s->t->name, "%.127s", d->t.name);
    for (int r = 1; r <= rounds && r <= d->t.round; r++) {
        if (swiss_add_round(s->t) != 0) {
            tswiss_free(s);
            return -1;
        }
        for (int k = 0; k < d->m; k++) {
            const struct store_game *g = &d->g[k];
            if (g->round != r)
                continue;
            int w = tourney_entrant(d, g->white_hash), b = tourney_entrant(d, g->black_hash);
            if (w < 0 || b < 0)
                continue;
            int wi = s->number_of[w], bi = s->number_of[b];
            enum swiss_result rw, rb;
            char cw, cb;
            bool forfeit = g->plies < 2;
            if (g->result == RESULT_ONGOING) {
                rw = rb = SWISS_NONE; /* not known yet: counts nothing */
                cw = cb = ' ';
            } else if (g->reason == REASON_ABORTED) {
                rw = rb = SWISS_FORFEIT_LOSS;
                cw = cb = '-';
            } else if (g->result == RESULT_DRAW) {
                rw = rb = SWISS_DRAW;
                cw = cb = '=';
            } else {
                bool white_won = g->result == RESULT_WHITE_WINS;
                enum swiss_result win = forfeit ? SWISS_FORFEIT_WIN : SWISS_WIN;
                enum swiss_result loss = forfeit ? SWISS_FORFEIT_LOSS : SWISS_LOSS;
                rw = white_won ? win : loss;
                rb = white_won ? loss : win;
                cw = white_won ? (forfeit ? '+' : '1') : (forfeit ? '-' : '0');
                cb = white_won ? (forfeit ? '-' : '0') : (forfeit ? '+' : '1');
            }
            set_game(s->t, wi, r, bi, SWISS_WHITE, rw, cw);
            set_game(s->t, bi, r, wi, SWISS_BLACK, rb, cb);
        }
        for (int k = 0; k < d->n_byes; k++) {
            int i = d->byes[k].round == r ? tourney_entrant(d, d->byes[k].hash) : -1;
            if (i >= 0)
                set_game(s->t, s->number_of[i], r, 0, SWISS_NO_COLOUR, SWISS_BYE_PAIRING, 'U');
        }
    }
    return 0;
}

void tswiss_free(struct tswiss *s)
{
    swiss_free(s->t);
    free(s->entrant_of);
    free(s->number_of);
    memset(s, 0, sizeof *s);
}
