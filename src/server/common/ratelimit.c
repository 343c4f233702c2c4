#include "server/common/ratelimit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

#define RL_SLOTS 1024
#define RL_ADDR_MAX 64

struct rl_slot {
    char addr[RL_ADDR_MAX];
    double tokens;
    int64_t last_ms;
};

struct ratelimit {
    pthread_mutex_t mu;
    double per_ms, burst;
    int per_minute;
    struct store *store; /* shared: the store's buckets (NULL: this table) */
    char name[32];
    struct rl_slot slots[RL_SLOTS];
};

struct ratelimit *ratelimit_new(int per_minute)
{
    struct ratelimit *rl = calloc(1, sizeof *rl);
    if (!rl)
        return NULL;
    pthread_mutex_init(&rl->mu, NULL);
    rl->burst = per_minute;
    rl->per_minute = per_minute;
    rl->per_ms = per_minute / 60000.0;
    return rl;
}

void ratelimit_share(struct ratelimit *rl, struct store *s, const char *name)
{
    if (!rl)
        return;
    rl->store = s;
    snprintf(rl->name, sizeof rl->name, "%s", name);
}

void ratelimit_free(struct ratelimit *rl)
{
    if (!rl)
        return;
    pthread_mutex_destroy(&rl->mu);
    free(rl);
}

static uint32_t addr_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

bool ratelimit_take(struct ratelimit *rl, const char *addr, int64_t now_ms)
{
    if (rl->store) {
        int allowed = 0;
        char err[ERROR_TEXT_MAX];
        if (store_rate_take(rl->store, rl->name, addr, rl->per_minute, now_ms, &allowed, err,
                            sizeof err) == 0)
            return allowed != 0;
        /* The database did not answer: this server's own count limits meanwhile. */
    }
    /* Open addressing over 8 probes; when all are taken, the stalest is reused. */
    pthread_mutex_lock(&rl->mu);
    uint32_t h = addr_hash(addr);
    struct rl_slot *slot = NULL, *stalest = NULL;
    for (int i = 0; i < 8 && !slot; i++) {
        struct rl_slot *c = &rl->slots[(h + (uint32_t)i) % RL_SLOTS];
        if (!strncmp(c->addr, addr, RL_ADDR_MAX - 1))
            slot = c;
        else if (!stalest || c->last_ms < stalest->last_ms)
            stalest = c;
    }
    if (!slot) {
        slot = stalest;
        snprintf(slot->addr, sizeof slot->addr, "%s", addr);
        slot->tokens = rl->burst;
        slot->last_ms = now_ms;
    }
    double t = slot->tokens + (double)(now_ms - slot->last_ms) * rl->per_ms;
    slot->tokens = t > rl->burst ? rl->burst : t;
    slot->last_ms = now_ms;
    bool ok = slot->tokens >= 1.0;
    if (ok)
        slot->tokens -= 1.0;
    pthread_mutex_unlock(&rl->mu);
    return ok;
}

int ratelimit_take_pair(struct ratelimit *by_addr, const char *addr, struct ratelimit *by_key,
                        const char *key, int64_t now_ms)
{
    /* The key first: a client refused for its own key does not use its address's. */
    if (by_key && key && !ratelimit_take(by_key, key, now_ms))
        return 2;
    if (by_addr && addr && !ratelimit_take(by_addr, addr, now_ms))
        return 1;
    return 0;
}

/* The last address of an X-Forwarded-For list ("client, proxy1, proxy2"): the one
 * our own proxy appended, the only one a client cannot choose.  Copied into out when
 * it looks like an IPv4 or IPv6 address; false otherwise. */
bool ratelimit_forwarded_addr(const char *xff, char *out, size_t size)
{
    if (!xff)
        return false;
    const char *last = strrchr(xff, ',');
    last = last ? last + 1 : xff;
    last += strspn(last, " \t");
    size_t n = strcspn(last, " \t");
    if (n == 0 || n >= size || last[n + strspn(last + n, " \t")] != 0 ||
        strspn(last, "0123456789abcdefABCDEF.:") != n)
        return false;
    memcpy(out, last, n);
    out[n] = 0;
    return true;
}
