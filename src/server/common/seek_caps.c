/* The open seeks per creator (seek_caps.h). */
#include "server/common/seek_caps.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SC_SLOTS 1024
#define SC_KEY_MAX 80

struct sc_seek {
    char id[SEEK_CAPS_ID];
    int64_t expires_ms;
};

struct sc_slot {
    char key[SC_KEY_MAX];
    int64_t last_ms;
    struct sc_seek seeks[SEEK_CAPS_MAX];
};

struct seek_caps {
    pthread_mutex_t mu;
    struct sc_slot slots[SC_SLOTS];
};

struct seek_caps *seek_caps_new(void)
{
    struct seek_caps *sc = calloc(1, sizeof *sc);
    if (sc)
        pthread_mutex_init(&sc->mu, NULL);
    return sc;
}

void seek_caps_free(struct seek_caps *sc)
{
    if (!sc)
        return;
    pthread_mutex_destroy(&sc->mu);
    free(sc);
}

static uint32_t key_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* The key's slot (under the mutex); with `make`, one is taken for it (the stalest of its
 * 8 probes when all are others'), else NULL when it has none. */
static struct sc_slot *slot_of(struct seek_caps *sc, const char *key, bool make, int64_t now_ms)
{
    uint32_t h = key_hash(key);
    struct sc_slot *stalest = NULL;
    for (int i = 0; i < 8; i++) {
        struct sc_slot *c = &sc->slots[(h + (uint32_t)i) % SC_SLOTS];
        if (!strncmp(c->key, key, SC_KEY_MAX - 1))
            return c;
        if (!stalest || c->last_ms < stalest->last_ms)
            stalest = c;
    }
    if (!make)
        return NULL;
    memset(stalest, 0, sizeof *stalest);
    snprintf(stalest->key, sizeof stalest->key, "%s", key);
    stalest->last_ms = now_ms;
    return stalest;
}

/* The slot's unexpired seeks (the expired ones are dropped). */
static int live(struct sc_slot *s, int64_t now_ms)
{
    int n = 0;
    for (int i = 0; i < SEEK_CAPS_MAX; i++) {
        if (s->seeks[i].id[0] && s->seeks[i].expires_ms <= now_ms)
            s->seeks[i].id[0] = 0;
        n += s->seeks[i].id[0] != 0;
    }
    return n;
}

int seek_caps_list(struct seek_caps *sc, const char *key, int64_t now_ms, char ids[][SEEK_CAPS_ID])
{
    int n = 0;
    pthread_mutex_lock(&sc->mu);
    struct sc_slot *s = slot_of(sc, key, false, now_ms);
    if (s) {
        live(s, now_ms);
        for (int i = 0; i < SEEK_CAPS_MAX; i++)
            if (s->seeks[i].id[0])
                memcpy(ids[n++], s->seeks[i].id, SEEK_CAPS_ID);
    }
    pthread_mutex_unlock(&sc->mu);
    return n;
}

void seek_caps_forget(struct seek_caps *sc, const char *key, const char *id)
{
    pthread_mutex_lock(&sc->mu);
    struct sc_slot *s = slot_of(sc, key, false, 0);
    for (int i = 0; s && i < SEEK_CAPS_MAX; i++)
        if (!strcmp(s->seeks[i].id, id))
            s->seeks[i].id[0] = 0;
    pthread_mutex_unlock(&sc->mu);
}

bool seek_caps_take(struct seek_caps *sc, int n, const char *const *keys, const int *caps,
                    const char *id, int64_t expires_ms, int64_t now_ms, int *full)
{
    struct sc_slot *slot[4];
    bool ok = n <= 4;
    *full = -1;
    pthread_mutex_lock(&sc->mu);
    for (int k = 0; ok && k < n; k++) {
        slot[k] = caps[k] > 0 ? slot_of(sc, keys[k], true, now_ms) : NULL; /* 0: no cap */
        int cap = caps[k] < SEEK_CAPS_MAX ? caps[k] : SEEK_CAPS_MAX;
        if (slot[k] && live(slot[k], now_ms) >= cap) {
            ok = false;
            *full = k;
        }
    }
    for (int k = 0; ok && k < n; k++) {
        if (!slot[k])
            continue;
        slot[k]->last_ms = now_ms;
        for (int i = 0; i < SEEK_CAPS_MAX; i++)
            if (!slot[k]->seeks[i].id[0]) {
                snprintf(slot[k]->seeks[i].id, SEEK_CAPS_ID, "%s", id);
                slot[k]->seeks[i].expires_ms = expires_ms;
                break;
            }
    }
    pthread_mutex_unlock(&sc->mu);
    return ok;
}
