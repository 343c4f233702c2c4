/* The flag's timer (clock.h). */
#include "server/games/clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "server/games/cache.h"
#include "server/games/deadline.h"
#include "server/games/people.h"
#include "server/games/people_rating.h"
#include "server/server_state.h"

/* Look again at least this often: another server on the same database may have set
 * an earlier deadline than the one this one waits for. */
#define CLOCK_POLL_MS 30000

static void flag_one(void *ctx, const char *id)
{
    struct server *srv = ctx;
    struct session *s;
    char err[ERROR_TEXT_MAX];
    if (cache_get(srv, id, &s, err, sizeof err) != 0) {
        fprintf(stderr, "agora: clock: %s\n", err);
        return;
    }
    pthread_mutex_lock(&s->mu);
    if (people_check_flag(s, server_now_ms(), err, sizeof err) < 0)
        fprintf(stderr, "agora: clock: game %s: %s\n", id, err);
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
}

static void rate_one(void *ctx, const char *id)
{
    people_rate(ctx, id, NULL, NULL);
}

static void *timer(void *arg)
{
    struct server *srv = arg;
    char err[ERROR_TEXT_MAX];
    /* Rated games that ended just before a crash, not yet in the ratings. */
    if (store_unrated_games(srv->store, rate_one, srv, err, sizeof err) != 0)
        fprintf(stderr, "agora: ratings: %s\n", err);
    pthread_mutex_lock(&srv->ck_mu);
    while (!atomic_load(&srv->stopping)) {
        srv->ck_kicked = false;
        pthread_mutex_unlock(&srv->ck_mu);
        int64_t now = server_now_ms(), next = 0;
        if (store_due_games(srv->store, now, flag_one, srv, err, sizeof err) != 0)
            fprintf(stderr, "agora: clock: %s\n", err);
        int rc = store_next_deadline(srv->store, &next, err, sizeof err);
        int64_t until = now + CLOCK_POLL_MS;
        if (rc == 0 && next < until)
            until = next;
        pthread_mutex_lock(&srv->ck_mu);
        srv->ck_until = until;
        /* Still due: more than one round takes, or a game that could not be ended now
         * (the cache full, the store failing): look again soon, without spinning. */
        if (until <= now)
            until = now + 50;
        struct timespec ts = {(time_t)(until / 1000), (long)(until % 1000) * 1000000L};
        while (!srv->ck_kicked && !atomic_load(&srv->stopping) &&
               pthread_cond_timedwait(&srv->ck_cv, &srv->ck_mu, &ts) == 0)
            ;
    }
    pthread_mutex_unlock(&srv->ck_mu);
    return NULL;
}

int clock_start(struct server *srv, char *err, size_t err_size)
{
    pthread_mutex_init(&srv->ck_mu, NULL);
    pthread_cond_init(&srv->ck_cv, NULL); /* CLOCK_REALTIME: the store's deadlines */
    if (pthread_create(&srv->ck_thread, NULL, timer, srv) != 0)
        return fail(err, err_size, "cannot start the clock's thread");
    srv->ck_running = true;
    return 0;
}

void clock_stop(struct server *srv)
{
    if (!srv->ck_running)
        return;
    pthread_mutex_lock(&srv->ck_mu);
    srv->ck_kicked = true;
    pthread_cond_broadcast(&srv->ck_cv);
    pthread_mutex_unlock(&srv->ck_mu);
    pthread_join(srv->ck_thread, NULL);
    srv->ck_running = false;
    pthread_cond_destroy(&srv->ck_cv);
    pthread_mutex_destroy(&srv->ck_mu);
}
