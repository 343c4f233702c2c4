/* Events across servers: the writer (outbox_put) and the reader thread (outbox.h). */
#include "server/games/outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/db_jobs.h"
#include "server/games/presence.h"
#include "server/games/presence_table.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

/* Events are kept this long (then trimmed, every OUTBOX_TRIM_EVERY_MS by each server):
 * far longer than a server connected to the database needs to read them (ms), so only
 * one cut off from it for that long misses any, and it then reads every game again. */
#define OUTBOX_KEEP_MS (10 * 60 * 1000)
#define OUTBOX_TRIM_EVERY_MS (60 * 1000)

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

void outbox_attach(struct server *srv, const char *kind, const char *id)
{
    if (!srv->ob_on || atomic_load(&srv->stopping))
        return;
    char body[64];
    snprintf(body, sizeof body, "{\"server\":\"%s\"}", srv->ob_self);
    store_attach_event(id, kind, body, wall_ms());
}

void outbox_put(struct server *srv, const char *kind, const char *id)
{
    if (!srv->ob_on || atomic_load(&srv->stopping))
        return;
    /* Written with the change, in its transaction (outbox_attach): only a game's and a
     * challenge's events ever are.  For the others (a player's notifications, a
     * tournament's news) asking would forget the mark that a change just committed
     * leaves for its own put, which then wrote a second event (a correspondence move
     * notifies the player to move before its session_notify). */
    bool attachable = !strcmp(kind, HUB_KIND_GAME) || !strcmp(kind, HUB_KIND_CHALLENGE);
    if (attachable && store_event_told(id))
        return;
    char body[64], err[256];
    snprintf(body, sizeof body, "{\"server\":\"%s\"}", srv->ob_self);
    int64_t seq = 0;
    if (store_put_event(srv->store, id, kind, body, wall_ms(), &seq, err, sizeof err) != 0)
        fprintf(stderr, "agora: the event of %s %s is not in the outbox: %s\n", kind, id, err);
}

/* The games in the cache, to read again and whose streams to wake (after a gap). */
struct all_games {
    int n, cap;
    char (*ids)[STORE_ID_LEN + 1];
};

static void stale_one(void *ctx, struct session *s)
{
    struct all_games *a = ctx;
    atomic_store(&s->stale, true);
    if (a->n < a->cap)
        snprintf(a->ids[a->n++], sizeof a->ids[0], "%s", s->row.id);
}

/* Events this server never read were trimmed (it was cut off from the database for
 * longer than OUTBOX_KEEP_MS): any game it holds may have changed, so every one is read
 * again and its streams woken. */
static void missed_some(struct server *srv)
{
    struct all_games a = {0, 4096, malloc(4096 * sizeof *a.ids)};
    if (!a.ids)
        a.cap = 0;
    cache_each_ctx(srv, stale_one, &a);
    for (int i = 0; i < a.n; i++)
        stream_hub_news(srv->hub, a.ids[i]);
    free(a.ids);
    fprintf(stderr, "agora: events missed (trimmed meanwhile): every game read again\n");
}

/* One event of the outbox: another server's news is this server's news too. */
static void deliver(void *ctx, const struct store_event *e)
{
    struct server *srv = ctx;
    if (e->seq > srv->ob_last + 1)
        missed_some(srv);
    srv->ob_last = e->seq;
    if (strstr(e->body, srv->ob_self))
        return; /* this server's own: its streams heard of it already */
    char key[sizeof((struct hub_watch *)0)->id];
    if (strcmp(e->kind, HUB_KIND_GAME) != 0) { /* a challenge, a tournament, notifications */
        if (stream_hub_key(e->kind, e->game_id, key, sizeof key) == 0)
            stream_hub_news(srv->hub, key);
        return;
    }
    db_jobs_heard(srv, e->game_id); /* a worker's move answers the waiting request */
    cache_drop(srv, e->game_id);
    stream_hub_news(srv->hub, e->game_id);
}

static void *reader(void *arg)
{
    struct server *srv = arg;
    char err[256];
    int64_t trimmed = 0, present = 0;
    while (!atomic_load(&srv->stopping)) {
        int64_t now = wall_ms();
        if (now - present >= PRESENCE_EVERY_MS) {
            present = now;
            presence_tick(srv, now);
        }
        if (now - trimmed >= OUTBOX_TRIM_EVERY_MS) {
            int deleted = 0;
            trimmed = now;
            if (store_trim_events(srv->store, now - OUTBOX_KEEP_MS, &deleted, err, sizeof err) != 0)
                fprintf(stderr, "agora: old events not trimmed: %s\n", err);
        }
        int64_t newest = 0;
        int rc = store_wait_events(srv->store, srv->ob_last, 250, &newest, err, sizeof err);
        if (rc == 1)
            continue;
        while (rc == 0 && srv->ob_last < newest && !atomic_load(&srv->stopping)) {
            int64_t before = srv->ob_last;
            rc = store_events_since(srv->store, srv->ob_last, 256, deliver, srv, err, sizeof err);
            if (srv->ob_last == before)
                break;
        }
        if (rc != 0)
            pause_ms(250); /* the database is away: try again soon, from where it stopped */
    }
    return NULL;
}

int outbox_start(struct server *srv, char *err, size_t err_size)
{
    const char *url = srv->cfg.db_path ? srv->cfg.db_path : "";
    if (strncmp(url, "postgresql://", 13) && strncmp(url, "postgres://", 11))
        return 0;
    if (token_random_hex(srv->ob_self, 8) != 0)
        return fail(err, err_size, "no random bytes for the server's id");
    /* The events from now on: what was told before this server started is in the store. */
    int64_t newest = 0;
    int rc = store_wait_events(srv->store, 0, 0, &newest, err, err_size);
    if (rc < 0)
        return -1;
    srv->ob_last = rc == 0 ? newest : 0;
    pthread_mutex_init(&srv->pr_mu, NULL);
    srv->ob_on = true;
    srv->tell_others = outbox_put;
    srv->attach_event = outbox_attach;
    if (pthread_create(&srv->ob_thread, NULL, reader, srv) != 0)
        return fail(err, err_size, "cannot start the outbox thread");
    srv->ob_running = true;
    return 0;
}

void outbox_stop(struct server *srv)
{
    if (!srv->ob_running)
        return;
    pthread_join(srv->ob_thread, NULL);
    srv->ob_running = false;
    presence_free(srv);
}
