/* The games in memory: a hash table by id with an LRU list, bounded by
 * cfg.cache_games.  A session in use (a request, a queued computer move, an event
 * stream) holds a reference and is never evicted; an unused one is dropped when room
 * is needed and rebuilt from the store on its next request. */
#include "server/games/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "games/registry.h"
#include "server/games/people.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

static size_t id_bucket(const struct server *srv, const char *id)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a 64 */
    for (; *id; id++)
        h = (h ^ (uint8_t)*id) * 1099511628211ull;
    return (size_t)(h & (srv->n_buckets - 1));
}

_Static_assert(SERVER_GAME_ID_MAX == STORE_ID_LEN + 1, "a game id fits the orphans' list");

static void changed_out_of_cache(struct server *srv, const char *id);

void cache_init(struct server *srv)
{
    pthread_mutex_init(&srv->cache_mu, NULL);
    pthread_mutex_init(&srv->orphans_mu, NULL);
    atomic_store(&srv->n_orphans, 0);
    srv->changed_out_of_cache = changed_out_of_cache;
    size_t n = 16;
    while (n < (size_t)srv->cfg.cache_games * 2)
        n *= 2;
    srv->buckets = calloc(n, sizeof *srv->buckets);
    srv->n_buckets = srv->buckets ? n : 0;
}

void cache_free(struct server *srv)
{
    for (size_t i = 0; i < srv->n_buckets; i++)
        for (struct session *s = srv->buckets[i], *next; s; s = next) {
            next = s->hash_next;
            session_free(s);
        }
    free(srv->buckets);
    srv->buckets = NULL;
    pthread_mutex_destroy(&srv->orphans_mu);
    pthread_mutex_destroy(&srv->cache_mu);
}

static struct session *find(struct server *srv, const char *id)
{
    for (struct session *s = srv->buckets[id_bucket(srv, id)]; s; s = s->hash_next)
        if (!strcmp(s->row.id, id))
            return s;
    return NULL;
}

static void lru_unlink(struct server *srv, struct session *s)
{
    if (s->lru_prev)
        s->lru_prev->lru_next = s->lru_next;
    else
        srv->lru_head = s->lru_next;
    if (s->lru_next)
        s->lru_next->lru_prev = s->lru_prev;
    else
        srv->lru_tail = s->lru_prev;
    s->lru_prev = s->lru_next = NULL;
}

static void lru_push_front(struct server *srv, struct session *s)
{
    s->lru_prev = NULL;
    s->lru_next = srv->lru_head;
    if (srv->lru_head)
        srv->lru_head->lru_prev = s;
    srv->lru_head = s;
    if (!srv->lru_tail)
        srv->lru_tail = s;
}

static void hash_unlink(struct server *srv, struct session *s)
{
    struct session **p = &srv->buckets[id_bucket(srv, s->row.id)];
    while (*p != s)
        p = &(*p)->hash_next;
    *p = s->hash_next;
}

/* Make room for one more; false when every cached game is in use. */
static bool make_room(struct server *srv)
{
    if (srv->n_cached < srv->cfg.cache_games)
        return true;
    for (struct session *s = srv->lru_tail; s; s = s->lru_prev)
        if (s->refs == 0) {
            lru_unlink(srv, s);
            hash_unlink(srv, s);
            srv->n_cached--;
            session_free(s);
            return true;
        }
    return false;
}

static void add(struct server *srv, struct session *s)
{
    size_t b = id_bucket(srv, s->row.id);
    s->hash_next = srv->buckets[b];
    srv->buckets[b] = s;
    lru_push_front(srv, s);
    srv->n_cached++;
}

static int cache_insert(struct server *srv, struct session *s, char *err, size_t err_size)
{
    pthread_mutex_lock(&srv->cache_mu);
    bool ok = make_room(srv);
    if (ok) {
        s->refs = 1;
        add(srv, s);
    }
    pthread_mutex_unlock(&srv->cache_mu);
    if (!ok) {
        fail(err, err_size, "the server is full: every game in memory is in use; try again soon");
        return 503;
    }
    return 0;
}

static void cache_discard(struct server *srv, struct session *s)
{
    pthread_mutex_lock(&srv->cache_mu);
    lru_unlink(srv, s);
    hash_unlink(srv, s);
    srv->n_cached--;
    pthread_mutex_unlock(&srv->cache_mu);
    session_free(s);
}

int cache_create(struct server *srv, const struct game *g, const struct store_game *row,
                 cache_store_step *store_step, void *ctx, int *store_rc, struct session **out,
                 char *err, size_t err_size)
{
    struct session *s = session_new(srv, g, row, err, err_size);
    if (!s)
        return 500;
    int code = cache_insert(srv, s, err, err_size);
    if (code) {
        session_free(s);
        return code;
    }
    /* Nobody else can reach the new id before the caller gives it out. */
    *store_rc = store_step(srv, row, ctx, err, err_size);
    if (*store_rc != 0) {
        cache_discard(srv, s);
        return -1;
    }
    if (row->people)
        people_read_ids(s);
    *out = s;
    return 0;
}

/* The players' public ids of a game read again after another server changed it (its
 * copy here marked stale): kept from that copy, not asked of the store again (two
 * reads a move between servers).  Like every copy's, they are those of its first read. */
struct known_ids {
    bool known;
    char id[2][STORE_PLAYER_ID_LEN + 1];
};

static struct session *load(struct server *srv, const char *id, const struct known_ids *ids,
                            int *code, char *err, size_t err_size)
{
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    int rc = store_load_game(srv->store, id, &row, &moves, &n, err, err_size);
    if (rc != 0) {
        *code = rc == 1 ? 404 : rc == STORE_BUSY ? 503 : 500;
        if (rc == 1)
            fail(err, err_size, "no game '%s'", id);
        return NULL;
    }
    const struct game *g = game_find(row.game);
    struct session *s = NULL;
    if (!g)
        fail(err, err_size, "game %s is of an unknown kind '%s'", id, row.game);
    else
        s = session_new(srv, g, &row, err, err_size);
    if (s && (session_replay(s, moves, n, err, err_size) != 0 ||
              (row.people && (rc = people_load(s, err, err_size)) != 0))) {
        session_free(s);
        s = NULL;
    }
    free(moves);
    if (s && row.people && ids->known)
        memcpy(s->player_id, ids->id, sizeof s->player_id);
    else if (s && row.people)
        people_read_ids(s);
    if (!s)
        *code = rc == STORE_BUSY ? 503 : 500;
    return s;
}

static void unlink_changed(struct server *srv, struct session *s);
static void drop_orphans_changed(struct server *srv);

int cache_get(struct server *srv, const char *id, struct session **out, char *err, size_t err_size)
{
    pthread_mutex_lock(&srv->cache_mu);
    drop_orphans_changed(srv);
    struct session *s = find(srv, id);
    struct known_ids ids = {.known = false};
    if (s && atomic_load(&s->stale)) {
        /* Both shown (a hidden player's, or one the store failed to give, is asked again). */
        memcpy(ids.id, s->player_id, sizeof ids.id);
        ids.id[0][STORE_PLAYER_ID_LEN] = ids.id[1][STORE_PLAYER_ID_LEN] = 0;
        ids.known = ids.id[0][0] && ids.id[1][0];
        unlink_changed(srv, s); /* another server changed it: load it again */
        s = NULL;
    }
    if (s) {
        s->refs++;
        lru_unlink(srv, s);
        lru_push_front(srv, s);
    }
    unsigned drops = srv->cache_drops;
    pthread_mutex_unlock(&srv->cache_mu);
    if (s) {
        *out = s;
        return 0;
    }
    /* Load outside the cache lock; if another request loaded it meanwhile, use theirs. */
    int code = 0;
    struct session *fresh = load(srv, id, &ids, &code, err, err_size);
    if (!fresh)
        return code;
    pthread_mutex_lock(&srv->cache_mu);
    s = find(srv, id);
    if (s && atomic_load(&s->stale)) {
        unlink_changed(srv, s);
        s = NULL;
    }
    if (s) {
        s->refs++;
    } else if (make_room(srv)) {
        s = fresh;
        fresh = NULL;
        s->refs = 1;
        /* Another server changed a game while this one was read: perhaps this one,
         * read before that change, so the next request reads it again. */
        if (srv->cache_drops != drops)
            atomic_store(&s->stale, true);
        add(srv, s);
    }
    pthread_mutex_unlock(&srv->cache_mu);
    if (fresh)
        session_free(fresh);
    if (!s) {
        fail(err, err_size, "the server is full: every game in memory is in use; try again soon");
        return 503;
    }
    *out = s;
    return 0;
}

/* References are atomic so a holder can take another under the session mutex (the
 * lock order forbids cache_mu there).  Eviction needs refs == 0, which no holder can
 * see change under it: a new reference is taken only by a holder or under cache_mu. */
void cache_ref(struct session *s)
{
    atomic_fetch_add(&s->refs, 1);
}

void cache_put(struct session *s)
{
    /* An orphan is marked before the cache gives up its own reference, so whoever
     * gives the last one back sees the mark and frees it. */
    if (atomic_fetch_sub(&s->refs, 1) == 1 && atomic_load(&s->orphan))
        session_free(s);
}

/* Take s out of the cache (under cache_mu): freed now when unused, else by its last
 * cache_put. */
static void unlink_changed(struct server *srv, struct session *s)
{
    lru_unlink(srv, s);
    hash_unlink(srv, s);
    srv->n_cached--;
    atomic_fetch_add(&s->refs, 1);
    atomic_store(&s->orphan, true);
    cache_put(s);
}

/* cache_drop under cache_mu: the copy stays, marked, until its next cache_get reads the
 * game again (keeping its players' public ids) or the LRU evicts it. */
static void drop_locked(struct server *srv, const char *id)
{
    srv->cache_drops++;
    struct session *s = find(srv, id);
    if (s)
        atomic_store(&s->stale, true);
}

void cache_drop(struct server *srv, const char *id)
{
    pthread_mutex_lock(&srv->cache_mu);
    drop_locked(srv, id);
    pthread_mutex_unlock(&srv->cache_mu);
}

/* A change was stored through a copy out of the cache (an orphan: another server's news
 * made it stale while a request held it, and a reader then put a fresh copy in the
 * cache, perhaps read before this change).  Called under that copy's mu, where
 * cache_mu may not be taken: the game is named here, and the next cache_get drops the
 * copy in the cache (session_notify wakes the streams after). */
static void changed_out_of_cache(struct server *srv, const char *id)
{
    pthread_mutex_lock(&srv->orphans_mu);
    int n = atomic_load(&srv->n_orphans);
    if (n < SERVER_ORPHANS_MAX)
        snprintf(srv->orphans[n], sizeof srv->orphans[n], "%s", id);
    if (n <= SERVER_ORPHANS_MAX)
        atomic_store(&srv->n_orphans, n + 1);
    pthread_mutex_unlock(&srv->orphans_mu);
}

/* The games named by changed_out_of_cache are read again (under cache_mu); when more
 * were named than kept, every game is. */
static void drop_orphans_changed(struct server *srv)
{
    if (atomic_load(&srv->n_orphans) == 0)
        return;
    pthread_mutex_lock(&srv->orphans_mu);
    int n = atomic_load(&srv->n_orphans);
    if (n > SERVER_ORPHANS_MAX) {
        srv->cache_drops++;
        for (struct session *s = srv->lru_head; s; s = s->lru_next)
            atomic_store(&s->stale, true);
    }
    for (int i = 0; i < n && i < SERVER_ORPHANS_MAX; i++)
        drop_locked(srv, srv->orphans[i]);
    atomic_store(&srv->n_orphans, 0);
    pthread_mutex_unlock(&srv->orphans_mu);
}

void cache_each_ctx(struct server *srv, void (*fn)(void *ctx, struct session *s), void *ctx)
{
    pthread_mutex_lock(&srv->cache_mu);
    for (struct session *s = srv->lru_head; s; s = s->lru_next)
        fn(ctx, s);
    pthread_mutex_unlock(&srv->cache_mu);
}

void cache_each(struct server *srv, void (*fn)(struct session *s))
{
    pthread_mutex_lock(&srv->cache_mu);
    for (struct session *s = srv->lru_head; s; s = s->lru_next)
        fn(s);
    pthread_mutex_unlock(&srv->cache_mu);
}

void cache_retoken(struct server *srv, const char *old_hash, const char *new_hash)
{
    pthread_mutex_lock(&srv->cache_mu);
    for (struct session *s = srv->lru_head; s; s = s->lru_next) {
        pthread_mutex_lock(&s->mu);
        if (!s->row.people && !strcmp(s->row.token_hash, old_hash))
            snprintf(s->row.token_hash, sizeof s->row.token_hash, "%s", new_hash);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&srv->cache_mu);
}

void cache_rekey(struct server *srv, const char *old_hash, const char *new_hash)
{
    pthread_mutex_lock(&srv->cache_mu);
    for (struct session *s = srv->lru_head; s; s = s->lru_next) {
        pthread_mutex_lock(&s->mu);
        char *hashes[3] = {s->row.token_hash, s->row.white_hash, s->row.black_hash};
        for (int i = 0; i < 3; i++)
            if (!strcmp(hashes[i], old_hash))
                snprintf(hashes[i], STORE_HASH_LEN + 1, "%s", new_hash);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&srv->cache_mu);
}
