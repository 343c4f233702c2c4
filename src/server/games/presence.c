/* Presence across servers: publish this server's, read the others' (presence.h). */
#include "server/games/presence.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/common/stream_hub.h"
#include "server/games/cache.h"
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

/* The people games of the cache, with what the sessions know of the players. */
static void take_mine(void *ctx, struct session *s)
{
    struct rows *m = ctx;
    pthread_mutex_lock(&s->mu); /* (under the cache's lock: its order, as cache_retoken) */
    struct store_presence *r = s->row.people && !session_over(s) ? more(m) : NULL;
    if (r) {
        memset(r, 0, sizeof *r);
        snprintf(r->game_id, sizeof r->game_id, "%s", s->row.id);
        r->seen_ms[0] = s->seen_ms[0];
        r->seen_ms[1] = s->seen_ms[1];
    }
    pthread_mutex_unlock(&s->mu);
}

static void take_theirs(void *ctx, const struct store_presence *p)
{
    struct store_presence *r = more(ctx);
    if (r)
        *r = *p;
}

static int by_game(const void *a, const void *b)
{
    return strcmp(((const struct store_presence *)a)->game_id,
                  ((const struct store_presence *)b)->game_id);
}

static const struct store_presence *find(const struct store_presence *rows, int n, const char *id)
{
    struct store_presence key;
    snprintf(key.game_id, sizeof key.game_id, "%s", id);
    return n > 0 ? bsearch(&key, rows, (size_t)n, sizeof *rows, by_game) : NULL;
}

static bool same_streams(const struct store_presence *a, const struct store_presence *b)
{
    if (!a || !b)
        return !a && !b;
    return a->viewers == b->viewers && a->seated[0] == b->seated[0] && a->seated[1] == b->seated[1];
}

static void publish(struct server *srv, int64_t now_ms)
{
    struct rows m = {0, 0, NULL};
    cache_each_ctx(srv, take_mine, &m);
    /* The streams, from the hub (outside the cache's lock). */
    for (int i = 0; i < m.n; i++) {
        struct store_presence *r = &m.rows[i];
        r->viewers = stream_hub_viewers(srv->hub, r->game_id);
        r->seated[0] = stream_hub_seated(srv->hub, r->game_id, 0);
        r->seated[1] = stream_hub_seated(srv->hub, r->game_id, 1);
    }
    char err[ERROR_TEXT_MAX];
    if (store_presence_publish(srv->store, srv->ob_self, m.rows, m.n, now_ms, err, sizeof err) != 0)
        fprintf(stderr, "agora: presence not published: %s\n", err);
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
    if (t.n > 1)
        qsort(t.rows, (size_t)t.n, sizeof *t.rows, by_game);
    pthread_mutex_lock(&srv->pr_mu);
    struct store_presence *old = srv->pr_rows;
    int old_n = srv->pr_n;
    srv->pr_rows = t.rows;
    srv->pr_n = t.n;
    pthread_mutex_unlock(&srv->pr_mu);
    /* Streams here tell the viewers and the players' pages: news where they changed
     * (only this thread writes the table, so `old` is its own to read and free). */
    for (int i = 0; i < t.n; i++)
        if (!same_streams(&t.rows[i], find(old, old_n, t.rows[i].game_id)))
            stream_hub_news(srv->hub, t.rows[i].game_id);
    for (int i = 0; i < old_n; i++)
        if (!find(t.rows, t.n, old[i].game_id))
            stream_hub_news(srv->hub, old[i].game_id);
    free(old);
}

void presence_tick(struct server *srv, int64_t now_ms)
{
    publish(srv, now_ms);
    read_theirs(srv, now_ms);
}

bool presence_remote(struct server *srv, const char *id, struct store_presence *out)
{
    if (!srv->ob_on)
        return false;
    pthread_mutex_lock(&srv->pr_mu);
    const struct store_presence *p = find(srv->pr_rows, srv->pr_n, id);
    if (p)
        *out = *p;
    pthread_mutex_unlock(&srv->pr_mu);
    return p != NULL;
}

void presence_free(struct server *srv)
{
    free(srv->pr_rows);
    srv->pr_rows = NULL;
    srv->pr_n = 0;
}
