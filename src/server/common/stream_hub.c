/* Event streams by game id: a hash table of doubly linked lists (stream_hub.h). */
#include "server/common/stream_hub.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 1024

struct stream_hub {
    pthread_mutex_t mu;
    struct hub_watch *buckets[BUCKETS];
    int count;
    int64_t next_due; /* no watch is due before this (0: none is); may be early, never late */
};

static unsigned bucket_of(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 16777619u;
    return h % BUCKETS;
}

struct stream_hub *stream_hub_new(void)
{
    struct stream_hub *h = calloc(1, sizeof *h);
    if (h)
        pthread_mutex_init(&h->mu, NULL);
    return h;
}

void stream_hub_free(struct stream_hub *h)
{
    if (!h)
        return;
    pthread_mutex_destroy(&h->mu);
    free(h);
}

static void wake(struct hub_watch *w);

/* A spectator or a player came or went (under the mutex): the game's other streams have news. */
static void viewers_changed(struct stream_hub *h, const struct hub_watch *w)
{
    for (struct hub_watch *o = h->buckets[bucket_of(w->id)]; o; o = o->next)
        if (o != w && !strcmp(o->id, w->id)) {
            o->news = true;
            wake(o);
        }
}

bool stream_hub_add(struct stream_hub *h, struct hub_watch *w, const char *id, int per_game)
{
    snprintf(w->id, sizeof w->id, "%s", id);
    w->suspended = w->ping = w->gone = false;
    w->news = true;
    w->due_ms = 0;
    w->prev = NULL;
    unsigned b = bucket_of(w->id);
    pthread_mutex_lock(&h->mu);
    int same = 0;
    for (struct hub_watch *o = h->buckets[b]; o; o = o->next)
        same += !o->seat && !strcmp(o->id, w->id);
    bool ok = w->seat || per_game <= 0 || same < per_game;
    if (ok) {
        w->next = h->buckets[b];
        if (w->next)
            w->next->prev = w;
        h->buckets[b] = w;
        h->count++;
        w->linked = true;
        if (w->viewer || w->seat)
            viewers_changed(h, w);
    }
    pthread_mutex_unlock(&h->mu);
    return ok;
}

void stream_hub_remove(struct stream_hub *h, struct hub_watch *w)
{
    pthread_mutex_lock(&h->mu);
    if (w->linked) {
        if (w->prev)
            w->prev->next = w->next;
        else
            h->buckets[bucket_of(w->id)] = w->next;
        if (w->next)
            w->next->prev = w->prev;
        w->prev = w->next = NULL;
        w->linked = false;
        h->count--;
        if (w->viewer || w->seat)
            viewers_changed(h, w);
    }
    pthread_mutex_unlock(&h->mu);
}

static void wake(struct hub_watch *w)
{
    if (w->suspended) {
        w->suspended = false;
        w->wake(w);
    }
}

void stream_hub_news(struct stream_hub *h, const char *id)
{
    pthread_mutex_lock(&h->mu);
    for (struct hub_watch *w = h->buckets[bucket_of(id)]; w; w = w->next)
        if (!strcmp(w->id, id)) {
            w->news = true;
            wake(w);
        }
    pthread_mutex_unlock(&h->mu);
}

void stream_hub_due(struct stream_hub *h, struct hub_watch *w, int64_t due_ms)
{
    pthread_mutex_lock(&h->mu);
    w->due_ms = due_ms;
    if (due_ms && (!h->next_due || due_ms < h->next_due))
        h->next_due = due_ms;
    pthread_mutex_unlock(&h->mu);
}

void stream_hub_wake_due(struct stream_hub *h, int64_t now_ms)
{
    pthread_mutex_lock(&h->mu);
    if (h->next_due && now_ms >= h->next_due) {
        int64_t next = 0;
        for (int b = 0; b < BUCKETS; b++)
            for (struct hub_watch *w = h->buckets[b]; w; w = w->next) {
                if (!w->due_ms)
                    continue;
                if (w->due_ms <= now_ms) {
                    w->due_ms = 0;
                    w->news = true;
                    wake(w);
                } else if (!next || w->due_ms < next) {
                    next = w->due_ms;
                }
            }
        h->next_due = next;
    }
    pthread_mutex_unlock(&h->mu);
}

void stream_hub_ping_all(struct stream_hub *h, bool gone)
{
    pthread_mutex_lock(&h->mu);
    for (int b = 0; b < BUCKETS; b++)
        for (struct hub_watch *w = h->buckets[b]; w; w = w->next) {
            w->ping = true;
            w->gone |= gone;
            wake(w);
        }
    pthread_mutex_unlock(&h->mu);
}

void stream_hub_gone(struct stream_hub *h, struct hub_watch *w)
{
    pthread_mutex_lock(&h->mu);
    w->gone = true;
    wake(w);
    pthread_mutex_unlock(&h->mu);
}

void stream_hub_lock(struct stream_hub *h)
{
    pthread_mutex_lock(&h->mu);
}

void stream_hub_unlock(struct stream_hub *h)
{
    pthread_mutex_unlock(&h->mu);
}

int stream_hub_count(struct stream_hub *h)
{
    pthread_mutex_lock(&h->mu);
    int n = h->count;
    pthread_mutex_unlock(&h->mu);
    return n;
}

int stream_hub_viewers(struct stream_hub *h, const char *id)
{
    int n = 0;
    pthread_mutex_lock(&h->mu);
    for (struct hub_watch *w = h->buckets[bucket_of(id)]; w; w = w->next) {
        if (!w->viewer || strcmp(w->id, id))
            continue;
        /* Counted once per address: at its first stream in the list. */
        bool first = true;
        for (struct hub_watch *o = h->buckets[bucket_of(id)]; first && o != w; o = o->next)
            first = !(o->viewer && !strcmp(o->id, id) && !strcmp(o->addr, w->addr));
        n += first;
    }
    pthread_mutex_unlock(&h->mu);
    return n;
}

bool stream_hub_seated(struct stream_hub *h, const char *id, int side)
{
    bool seated = false;
    pthread_mutex_lock(&h->mu);
    for (struct hub_watch *w = h->buckets[bucket_of(id)]; w && !seated; w = w->next)
        seated = w->seat == side + 1 && !strcmp(w->id, id);
    pthread_mutex_unlock(&h->mu);
    return seated;
}

int stream_hub_key(const char *kind, const char *id, char *key, size_t size)
{
    static const struct {
        const char *kind, *prefix;
    } kinds[] = {
        {HUB_KIND_GAME, ""},
        {HUB_KIND_CHALLENGE, "challenge:"},
        {HUB_KIND_TOURNAMENT, "tournament:"},
        {HUB_KIND_NOTICE, "notices:"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kind, kinds[i].kind)) {
            snprintf(key, size, "%s%s", kinds[i].prefix, id);
            return 0;
        }
    return -1;
}
