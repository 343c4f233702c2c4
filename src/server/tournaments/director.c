/* The tournaments' director (director.h). */
#include "server/tournaments/director.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/game.h"
#include "core/json_out.h"
#include "server/common/log_every.h"
#include "server/common/news.h"
#include "server/common/notify.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/people.h"
#include "server/games/people_rating.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "server/tournaments/arena.h"
#include "server/tournaments/swiss_pairer.h"
#include "server/tournaments/swiss_play.h"
#include "server/tournaments/tourney_data.h"

#define DEFAULT_TICK_MS 1000
#define DEFAULT_FIRST_MOVE_MS 30000
#define RUNNING_MAX 256 /* tournaments looked after in one tick */
/* After an arena's end, its games still on that never got a first move are forfeited
 * for this long (a server down at the time does it when it is back). */
#define ENDED_WATCH_MS (24 * 3600 * 1000LL)

/* The signature of a running tournament's standings, last told to its streams; and,
 * for a finished arena, whether none of its games waits for a first move any more (its
 * late first moves are all forfeited: it need not be read again). */
struct director_news {
    char id[STORE_ID_LEN + 1];
    uint64_t sig;
    bool settled;
};

void director_stream_key(const char *id, char *key, size_t size)
{
    stream_hub_key(HUB_KIND_TOURNAMENT, id, key, size);
}

void director_news(struct server *srv, const char *id)
{
    news_everywhere(srv, HUB_KIND_TOURNAMENT, id);
}

/* The players to tell of a start, read first and told after: a notification is a
 * write, which may not wait inside the read. */
struct start_notice {
    int n;
    char hash[NOTICE_START_MAX][STORE_HASH_LEN + 1];
};

static void member_hash(void *ctx, const struct store_member *m)
{
    struct start_notice *n = ctx;
    if (n->n < NOTICE_START_MAX)
        snprintf(n->hash[n->n++], sizeof n->hash[0], "%s", m->token_hash);
}

static void entrant_hash(void *ctx, const struct store_entrant *e)
{
    struct start_notice *n = ctx;
    if (n->n < NOTICE_START_MAX && e->state != ENTRANT_WITHDRAWN)
        snprintf(n->hash[n->n++], sizeof n->hash[0], "%s", e->token_hash);
}

/* Tell each player of `n` that tournament `t` starts: {"tournament", "name", "game"}. */
static void notify_start(struct server *srv, const struct store_tournament *t,
                         const struct start_notice *n)
{
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "tournament", t->id);
    jout_kstr(&j, "name", t->name);
    jout_kstr(&j, "game", t->game);
    jout_close(&j, '}');
    char *body = jout_finish(&j);
    char err[ERROR_TEXT_MAX];
    for (int i = 0; body && i < n->n; i++)
        if (notify_player(srv, n->hash[i], NOTICE_TOURNAMENT, body, err, sizeof err) != 0)
            fprintf(stderr, "agora: notification of tournament %s: %s\n", t->id, err);
    free(body);
}

void director_club_start_hook(struct server *srv, const struct store_tournament *t)
{
    struct start_notice *n = calloc(1, sizeof *n);
    char err[ERROR_TEXT_MAX];
    if (!n || store_list_members(srv->store, t->club_id, member_hash, n, err, sizeof err) != 0)
        fprintf(stderr, "agora: notification of tournament %s: %s\n", t->id,
                n ? err : "out of memory");
    else
        notify_start(srv, t, n);
    free(n);
    director_news(srv, t->id);
}

/* A tournament of no club starts: its entrants are told. */
static void entrants_start_hook(struct server *srv, const struct store_tournament *t)
{
    struct start_notice *n = calloc(1, sizeof *n);
    char err[ERROR_TEXT_MAX];
    if (!n || store_list_entrants(srv->store, t->id, entrant_hash, n, err, sizeof err) != 0)
        fprintf(stderr, "agora: notification of tournament %s: %s\n", t->id,
                n ? err : "out of memory");
    else
        notify_start(srv, t, n);
    free(n);
    director_news(srv, t->id);
}

/* Tell the streams when the tournament's entrants or games changed since last told. */
static void news_if_changed(struct server *srv, const struct tourney_data *d)
{
    uint64_t h = 1469598103934665603ULL;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ULL)
    MIX(d->t.status);
    MIX(d->t.round);
    for (int i = 0; i < d->n; i++) {
        MIX(d->e[i].state);
        MIX(d->e[i].token_hash[0]);
        MIX(d->e[i].active_ms);
    }
    for (int k = 0; k < d->m; k++) {
        MIX(d->g[k].result);
        MIX(d->g[k].berserk);
        MIX(d->g[k].id[0]);
        MIX(d->g[k].id[1]);
    }
    MIX(d->n);
    MIX(d->m);
#undef MIX
    pthread_mutex_lock(&srv->td_mu);
    struct director_news *slot = NULL;
    for (int i = 0; i < srv->td_n_news && !slot; i++)
        if (!strcmp(srv->td_news[i].id, d->t.id))
            slot = &srv->td_news[i];
    if (!slot) {
        struct director_news *q = realloc(srv->td_news, sizeof *q * (size_t)(srv->td_n_news + 1));
        if (q) {
            srv->td_news = q;
            slot = &q[srv->td_n_news++];
            memset(slot, 0, sizeof *slot);
            snprintf(slot->id, sizeof slot->id, "%s", d->t.id);
            slot->sig = h + 1;
        }
    }
    bool changed = slot && slot->sig != h;
    if (slot)
        slot->sig = h;
    pthread_mutex_unlock(&srv->td_mu);
    if (changed)
        director_news(srv, d->t.id);
}

/* Whether the finished arena `id` is settled (settle: mark it so). */
static bool settled(struct server *srv, const char *id, bool settle)
{
    bool was = false;
    pthread_mutex_lock(&srv->td_mu);
    struct director_news *slot = NULL;
    for (int i = 0; i < srv->td_n_news && !slot; i++)
        if (!strcmp(srv->td_news[i].id, id))
            slot = &srv->td_news[i];
    if (!slot && settle) {
        struct director_news *q = realloc(srv->td_news, sizeof *q * (size_t)(srv->td_n_news + 1));
        if (q) {
            srv->td_news = q;
            slot = &q[srv->td_n_news++];
            memset(slot, 0, sizeof *slot);
            snprintf(slot->id, sizeof slot->id, "%s", id);
        }
    }
    if (slot) {
        was = slot->settled;
        slot->settled |= settle;
    }
    pthread_mutex_unlock(&srv->td_mu);
    return was;
}

/* ---- forfeits ---- */

/* A game of the tournament whose player to move has not made their first move in time
 * loses it (the game is not rated: fewer than two plies) and is paused (`pause`; not
 * after an arena's end, when there is nothing to pause from).  The number of the
 * tournament's games still on that wait for a first move, not late yet. */
static int forfeit_late_first_moves(struct server *srv, struct tourney_data *d, int64_t now,
                                    bool pause)
{
    int waiting = 0;
    int64_t limit = srv->cfg.first_move_ms > 0 ? srv->cfg.first_move_ms : DEFAULT_FIRST_MOVE_MS;
    if (d->t.days > 0) /* a Swiss at days a move: the first move has its days too */
        limit = d->t.days * PEOPLE_DAY_MS;
    char err[ERROR_TEXT_MAX];
    for (int k = 0; k < d->m; k++) {
        const struct store_game *g = &d->g[k];
        if (g->result != RESULT_ONGOING || g->plies >= 2)
            continue;
        int64_t since = g->plies == 0 ? g->created_ms : g->updated_ms;
        if (now - since < limit) {
            waiting++;
            continue;
        }
        struct session *s;
        if (cache_get(srv, g->id, &s, err, sizeof err) != 0) {
            fprintf(stderr, "agora: tournament %s: %s\n", d->t.id, err);
            continue;
        }
        pthread_mutex_lock(&s->mu);
        int late = -1;
        if (!session_over(s) && s->n_stored < 2)
            late = s->n_stored == 0 ? SIDE_WHITE : SIDE_BLACK;
        int rc = 1;
        if (late >= 0)
            rc = people_end(s, late == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS,
                            REASON_ABANDONED, now, err, sizeof err);
        pthread_mutex_unlock(&s->mu);
        cache_put(s);
        if (rc < 0) {
            fprintf(stderr, "agora: tournament %s: game %s: %s\n", d->t.id, g->id, err);
            continue;
        }
        if (rc == 0 && pause) {
            const char *who = late == SIDE_WHITE ? g->white_hash : g->black_hash;
            if (store_set_entrant_state(srv->store, d->t.id, who, ENTRANT_PAUSED, now, err,
                                        sizeof err) < 0)
                fprintf(stderr, "agora: tournament %s: %s\n", d->t.id, err);
        }
    }
    return waiting;
}

/* ---- pairing ---- */

static int pair_one(struct server *srv, const struct tourney_data *d, const struct store_entrant *w,
                    const struct store_entrant *b, int64_t now, char *err, size_t err_size)
{
    struct store_game row;
    if (tourney_game_row(srv, d, w, b, now, 0, &row, err, err_size) != 0)
        return -1;
    return store_pair_tournament_game(srv->store, d->t.id, 0, &row, err, err_size);
}

static void pair_arena(struct server *srv, struct tourney_data *d, int64_t now)
{
    if (d->n < 2)
        return;
    struct arena_line *lines = malloc(sizeof *lines * (size_t)d->n);
    struct arena_pair *pairs = malloc(sizeof *pairs * (size_t)(d->n / 2 + 1));
    uint64_t seed = 0;
    char err[ERROR_TEXT_MAX];
    if (lines && pairs && token_random_u64(&seed) == 0) {
        arena_standings(d->e, d->n, d->g, d->m, tourney_end_ms(&d->t), lines);
        int np = arena_pair_wave(d->e, lines, d->n, now, seed, pairs);
        for (int i = 0; i < np; i++) {
            int rc = pair_one(srv, d, &d->e[pairs[i].white], &d->e[pairs[i].black], now, err,
                              sizeof err);
            if (rc < 0)
                fprintf(stderr, "agora: tournament %s: pairing: %s\n", d->t.id, err);
        }
    }
    free(lines);
    free(pairs);
}

/* ---- the tick ---- */

struct ids {
    struct store_tournament t[RUNNING_MAX];
    int n;
};

static void id_one(void *ctx, const struct store_tournament *t)
{
    struct ids *l = ctx;
    if (l->n < RUNNING_MAX)
        l->t[l->n++] = *t;
}

static void look_after(struct server *srv, const char *id, int64_t now)
{
    struct tourney_data d;
    char err[ERROR_TEXT_MAX];
    int rc = tourney_load(srv, id, &d, err, sizeof err);
    if (rc != 0) {
        if (rc < 0)
            fprintf(stderr, "agora: tournament %s: %s\n", id, err);
        tourney_data_free(&d);
        return;
    }
    if (d.t.kind == TOURNEY_SWISS && d.t.status == TOURNEY_RUNNING) {
        forfeit_late_first_moves(srv, &d, now, true);
        tourney_data_free(&d);
        /* The next round (or the end) on the pairer's thread: a round of hundreds of
         * players takes seconds, which the arenas do not wait for. */
        if (tourney_load(srv, id, &d, err, sizeof err) == 0 && tswiss_round_over(&d, d.t.round))
            swiss_pairer_ask(srv, id);
        tourney_data_free(&d);
        if (tourney_load(srv, id, &d, err, sizeof err) == 0)
            news_if_changed(srv, &d);
    } else if (d.t.kind == TOURNEY_ARENA && d.t.status == TOURNEY_RUNNING) {
        if (now >= tourney_end_ms(&d.t)) {
            /* Time is up: no more pairings; the games on are played out, uncounted. */
            rc = store_set_tournament_status(srv->store, id, TOURNEY_RUNNING, TOURNEY_FINISHED, -1,
                                             err, sizeof err);
            if (rc < 0)
                fprintf(stderr, "agora: tournament %s: %s\n", id, err);
        } else {
            forfeit_late_first_moves(srv, &d, now, true);
            tourney_data_free(&d);
            if (tourney_load(srv, id, &d, err, sizeof err) == 0)
                pair_arena(srv, &d, now);
        }
        tourney_data_free(&d);
        if (tourney_load(srv, id, &d, err, sizeof err) == 0)
            news_if_changed(srv, &d);
    }
    tourney_data_free(&d);
}

/* A finished arena: the games on at its end are played out (they do not count), but one
 * whose first move does not come in time still ends, lost by the player to move, as
 * during the arena; until none waits for a first move any more. */
static void after_end(struct server *srv, const char *id, int64_t now)
{
    if (settled(srv, id, false))
        return;
    struct tourney_data d;
    char err[ERROR_TEXT_MAX];
    int rc = tourney_load(srv, id, &d, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "agora: tournament %s: %s\n", id, err);
    if (rc == 0 && d.t.kind == TOURNEY_ARENA && d.t.status == TOURNEY_FINISHED) {
        if (forfeit_late_first_moves(srv, &d, now, false) == 0) {
            bool any = false; /* a game forfeited just now: its row is read again next */
            for (int k = 0; k < d.m && !any; k++)
                any = d.g[k].result == RESULT_ONGOING && d.g[k].plies < 2;
            if (!any)
                settled(srv, id, true);
        }
        tourney_data_free(&d);
        if (tourney_load(srv, id, &d, err, sizeof err) == 0)
            news_if_changed(srv, &d);
    }
    tourney_data_free(&d);
}

/* The director's lines while the database is away: one each 10 s. */
static struct log_every tick_log;

static void tick(struct server *srv)
{
    char err[ERROR_TEXT_MAX];
    int64_t now = server_now_ms();
    struct ids *l = malloc(sizeof *l);
    if (!l)
        return;
    /* The tournaments whose start has come (soonest first). */
    l->n = 0;
    if (store_list_tournaments(srv->store, TOURNEY_UPCOMING, NULL, RUNNING_MAX, id_one, l, err,
                               sizeof err) != 0)
        log_every(&tick_log, 10000, "tournaments: %s", err);
    for (int i = 0; i < l->n && l->t[i].starts_ms <= now; i++) {
        int rc = store_set_tournament_status(srv->store, l->t[i].id, TOURNEY_UPCOMING,
                                             TOURNEY_RUNNING, -1, err, sizeof err);
        if (rc < 0)
            log_every(&tick_log, 10000, "tournament %s: %s", l->t[i].id, err);
        else if (rc == 0 && l->t[i].club_id[0])
            director_club_start_hook(srv, &l->t[i]);
        else if (rc == 0)
            entrants_start_hook(srv, &l->t[i]);
    }
    l->n = 0;
    if (store_list_tournaments(srv->store, TOURNEY_RUNNING, NULL, RUNNING_MAX, id_one, l, err,
                               sizeof err) != 0)
        log_every(&tick_log, 10000, "tournaments: %s", err);
    for (int i = 0; i < l->n && !atomic_load(&srv->stopping); i++)
        look_after(srv, l->t[i].id, now);
    /* The arenas ended lately (latest start first). */
    l->n = 0;
    if (store_list_tournaments(srv->store, TOURNEY_FINISHED, NULL, RUNNING_MAX, id_one, l, err,
                               sizeof err) != 0)
        log_every(&tick_log, 10000, "tournaments: %s", err);
    for (int i = 0; i < l->n && !atomic_load(&srv->stopping); i++)
        if (l->t[i].kind == TOURNEY_ARENA && now - tourney_end_ms(&l->t[i]) < ENDED_WATCH_MS)
            after_end(srv, l->t[i].id, now);
    free(l);
}

static void *director(void *arg)
{
    struct server *srv = arg;
    int64_t every = srv->cfg.tournament_tick_ms > 0 ? srv->cfg.tournament_tick_ms : DEFAULT_TICK_MS;
    pthread_mutex_lock(&srv->td_mu);
    while (!atomic_load(&srv->stopping)) {
        srv->td_kicked = false;
        pthread_mutex_unlock(&srv->td_mu);
        tick(srv);
        pthread_mutex_lock(&srv->td_mu);
        int64_t until = server_now_ms() + every;
        struct timespec ts = {(time_t)(until / 1000), (long)(until % 1000) * 1000000L};
        while (!srv->td_kicked && !atomic_load(&srv->stopping) &&
               pthread_cond_timedwait(&srv->td_cv, &srv->td_mu, &ts) == 0)
            ;
    }
    pthread_mutex_unlock(&srv->td_mu);
    return NULL;
}

/* The pairer stored a Swiss's round (or its end): its streams hear of it at once. */
static void paired(struct server *srv, const char *id)
{
    (void)id;
    director_kick(srv);
}

int director_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->td_mu, NULL);
    pthread_cond_init(&srv->td_cv, NULL); /* CLOCK_REALTIME: the store's times */
    srv->td_running = true;
    if (swiss_pairer_start(srv, paired, err, err_size) != 0) {
        srv->td_running = false;
        pthread_cond_destroy(&srv->td_cv);
        pthread_mutex_destroy(&srv->td_mu);
        return -1;
    }
    if (pthread_create(&srv->td_thread, NULL, director, srv) != 0) {
        swiss_pairer_stop(srv);
        srv->td_running = false;
        pthread_cond_destroy(&srv->td_cv);
        pthread_mutex_destroy(&srv->td_mu);
        return fail(err, err_size, "cannot start the tournaments' thread");
    }
    return 0;
}

void director_kick(struct server *srv)
{
    if (!srv->td_running)
        return;
    pthread_mutex_lock(&srv->td_mu);
    srv->td_kicked = true;
    pthread_cond_broadcast(&srv->td_cv);
    pthread_mutex_unlock(&srv->td_mu);
}

void director_stop(struct server *srv)
{
    if (!srv->td_running)
        return;
    director_kick(srv);
    pthread_join(srv->td_thread, NULL);
    swiss_pairer_stop(srv); /* after the director, which asks it; it kicks the director */
    srv->td_running = false;
    pthread_cond_destroy(&srv->td_cv);
    pthread_mutex_destroy(&srv->td_mu);
    free(srv->td_news);
    srv->td_news = NULL;
    srv->td_n_news = 0;
}
