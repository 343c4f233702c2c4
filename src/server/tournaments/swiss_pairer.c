/* The Swiss pairer (swiss_pairer.h). */
#include "server/tournaments/swiss_pairer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "server/tournaments/swiss_play.h"
#include "server/tournaments/tourney_data.h"

#define WAITING_MAX 256 /* tournaments waiting for a round at once */

struct swiss_pairer {
    pthread_mutex_t mu; /* a leaf */
    pthread_cond_t cv;
    pthread_t thread;
    bool stop;
    char waiting[WAITING_MAX][STORE_ID_LEN + 1];
    int n_waiting;
    char busy[STORE_ID_LEN + 1]; /* the one being paired ("" none) */
    void (*done)(struct server *srv, const char *id);
};

/* The next round, once every game of this one is over: paired by the Dutch system (the
 * library `agora swiss pair` runs), its games and bye stored in one transaction that
 * only the first of two servers makes.  After the last round, the end.  Whether this
 * server stored either. */
static bool run_swiss(struct server *srv, struct tourney_data *d)
{
    char err[ERROR_TEXT_MAX];
    if (d->t.kind != TOURNEY_SWISS || d->t.status != TOURNEY_RUNNING ||
        !tswiss_round_over(d, d->t.round))
        return false;
    if (d->t.round >= d->t.rounds) {
        int rc = store_set_tournament_status(srv->store, d->t.id, TOURNEY_RUNNING, TOURNEY_FINISHED,
                                             -1, err, sizeof err);
        if (rc < 0)
            fprintf(stderr, "agora: tournament %s: %s\n", d->t.id, err);
        return rc == 0;
    }
    int active = 0;
    for (int i = 0; i < d->n; i++)
        active += d->e[i].state == ENTRANT_ACTIVE;
    if (active < 2)
        return false; /* nobody to pair yet */
    struct tswiss ts;
    if (tswiss_build(d, d->t.round, &ts) != 0)
        return false;
    struct swiss_pair *pairs = malloc(sizeof *pairs * (size_t)(d->n / 2 + 1));
    struct store_game *games = malloc(sizeof *games * (size_t)(d->n / 2 + 1));
    int np = 0, ng = 0,
        rc = pairs && games ? swiss_pair_next(ts.t, pairs, &np, err, sizeof err) : SWISS_ERROR;
    /* The games are made now, after the pairing: their first move's time starts here. */
    int64_t now = server_now_ms();
    char bye[STORE_HASH_LEN + 1] = "";
    int round = d->t.round + 1;
    for (int i = 0; rc == SWISS_OK && i < np; i++) {
        const struct store_entrant *w = &d->e[ts.entrant_of[pairs[i].white - 1]];
        if (pairs[i].black == 0) {
            snprintf(bye, sizeof bye, "%s", w->token_hash);
            continue;
        }
        const struct store_entrant *b = &d->e[ts.entrant_of[pairs[i].black - 1]];
        if (tourney_game_row(srv, d, w, b, now, round, &games[ng], err, sizeof err) != 0)
            rc = SWISS_ERROR;
        else
            ng++;
    }
    int stored = 1; /* 0: this server stored the round (1: another did first) */
    if (rc == SWISS_OK) {
        stored = store_swiss_round(srv->store, d->t.id, round, games, ng, bye, err, sizeof err);
        if (stored < 0)
            rc = SWISS_ERROR;
    }
    if (rc != SWISS_OK)
        fprintf(stderr, "agora: tournament %s: round %d: %s\n", d->t.id, round,
                rc == SWISS_NO_PAIRING ? "no pairing satisfies the rules" : err);
    free(pairs);
    free(games);
    tswiss_free(&ts);
    return rc == SWISS_OK && stored == 0;
}

static void *pairer(void *arg)
{
    struct server *srv = arg;
    struct swiss_pairer *p = srv->td_pairer;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->n_waiting == 0)
            pthread_cond_wait(&p->cv, &p->mu);
        if (p->stop || atomic_load(&srv->stopping))
            break;
        snprintf(p->busy, sizeof p->busy, "%s", p->waiting[0]);
        memmove(p->waiting[0], p->waiting[1], sizeof p->waiting[0] * (size_t)--p->n_waiting);
        pthread_mutex_unlock(&p->mu);

        if (srv->cfg.test_swiss_pairing)
            srv->cfg.test_swiss_pairing(srv->cfg.test_swiss_ctx, p->busy);
        struct tourney_data d;
        char err[ERROR_TEXT_MAX];
        int rc = tourney_load(srv, p->busy, &d, err, sizeof err); /* afresh */
        if (rc < 0)
            fprintf(stderr, "agora: tournament %s: %s\n", p->busy, err);
        bool changed = rc == 0 && run_swiss(srv, &d);
        tourney_data_free(&d);
        if (changed && p->done)
            p->done(srv, p->busy); /* its streams hear of the round at once */

        pthread_mutex_lock(&p->mu);
        p->busy[0] = 0;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int swiss_pairer_start(struct server *srv, void (*done)(struct server *srv, const char *id),
                       char *err, size_t err_size)
{
    struct swiss_pairer *p = calloc(1, sizeof *p);
    if (!p)
        return fail(err, err_size, "out of memory");
    p->done = done;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    srv->td_pairer = p;
    if (pthread_create(&p->thread, NULL, pairer, srv) != 0) {
        srv->td_pairer = NULL;
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return fail(err, err_size, "cannot start the Swiss pairer's thread");
    }
    return 0;
}

void swiss_pairer_stop(struct server *srv)
{
    struct swiss_pairer *p = srv->td_pairer;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
    srv->td_pairer = NULL;
}

void swiss_pairer_ask(struct server *srv, const char *id)
{
    struct swiss_pairer *p = srv->td_pairer;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    bool known = !strcmp(p->busy, id);
    for (int i = 0; i < p->n_waiting && !known; i++)
        known = !strcmp(p->waiting[i], id);
    if (!known && p->n_waiting < WAITING_MAX) {
        snprintf(p->waiting[p->n_waiting++], sizeof p->waiting[0], "%s", id);
        pthread_cond_signal(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
}
