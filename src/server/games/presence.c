/* Presence across servers: publish this server's, read the others' (presence.h). */
#include "server/games/presence.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/common/log_every.h"
#include "server/common/stream_hub.h"
#include "server/games/cache.h"
#include "server/games/presence_table.h"
#include "server/games/session.h"
#include "server/server_state.h"

/* A growing list of presence rows. */
struct rows {
    int n, cap;
    struct store_presence *rows;
};

/* A row more at the end (NULL without memory). */
static struct store_presence *more(struct rows *l)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        struct store_presence *rows = realloc(l->rows, sizeof *rows * (size_t)cap);
        if (!rows)
            return NULL;
        l->rows = rows;
        l->cap = cap;
    }
    return &l->rows[l->n++];
}

/* The games of the cache, each with a reference (under the cache's lock: no other
 * lock is taken there). */
struct held {
    int n, cap;
    struct session **s;
};

static void hold(void *ctx, struct session *s)
{
    struct held *h = ctx;
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 64;
        struct session **more_s = realloc(h->s, sizeof *more_s * (size_t)cap);
        if (!more_s)
            return;
        h->s = more_s;
        h->cap = cap;
    }
    cache_ref(s);
    h->s[h->n++] = s;
}

static void take_theirs(void *ctx, const struct store_presence *p)
{
    struct store_presence *r = more(ctx);
    if (r)
        *r = *p;
}

static void publish(struct server *srv, int64_t now_ms)
{
    struct held h = {0, 0, NULL};
    cache_each_ctx(srv, hold, &h);
    /* The people games being played, with what each session knows of its players,
     * then the streams from the hub (one lock at a time). */
    struct rows m = {0, 0, NULL};
    for (int i = 0; i < h.n; i++) {
        struct session *s = h.s[i];
        pthread_mutex_lock(&s->mu);
        struct store_presence *r = s->row.people && !session_over(s) ? more(&m) : NULL;
        if (r) {
            memset(r, 0, sizeof *r);
            snprintf(r->game_id, sizeof r->game_id, "%s", s->row.id);
            r->seen_ms[0] = s->seen_ms[0];
            r->seen_ms[1] = s->seen_ms[1];
        }
        pthread_mutex_unlock(&s->mu);
        cache_put(s);
    }
    free(h.s);
    for (int i = 0; i < m.n; i++) {
        struct store_presence *r = &m.rows[i];
        r->viewers = stream_hub_viewers(srv->hub, r->game_id);
        r->seated[0] = stream_hub_seated(srv->hub, r->game_id, 0);
        r->seated[1] = stream_hub_seated(srv->hub, r->game_id, 1);
    }
    char err[ERROR_TEXT_MAX];
    static struct log_every said; /* a line each 10 s while the database is away */
    if (store_presence_publish(srv->store, srv->ob_self, m.rows, m.n, now_ms, err, sizeof err) != 0)
        log_every(&said, 10000, "presence not published: %s", err);
    free(m.rows);
}

static void read_theirs(struct server *srv, int64_t now_ms)
{
    struct rows t = {0, 0, NULL};
    char err[ERROR_TEXT_MAX];
    if (store_presence_others(srv->store, srv->ob_self, now_ms - PRESENCE_FRESH_MS, take_theirs, &t,
                              err, sizeof err) != 0) {
        free(t.rows);
        return; /* the last read stands until the store answers */
    }
    presence_table_set(srv, t.rows, t.n);
}

void presence_tick(struct server *srv, int64_t now_ms)
{
    publish(srv, now_ms);
    read_theirs(srv, now_ms);
}
