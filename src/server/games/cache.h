/* The games in memory (cache.c): sessions by id, with reference counts and an LRU
 * list.  Above the model (it builds sessions from the store), below the workers and
 * the API. */
#pragma once

#include <stddef.h>

struct game;
struct server;
struct session;
struct store_game;

void cache_init(struct server *srv);
void cache_free(struct server *srv);
/* The game `id` with a reference held, loaded from the store on a miss; 0, or 404
 * when no such game, or 500/503 with a message. */
int cache_get(struct server *srv, const char *id, struct session **out, char *err, size_t err_size);
/* The step of a new game that writes it to the store: 0, or the store's code (< 0 an
 * error with a message, > 0 a refusal of the step's own, such as a challenge taken). */
typedef int cache_store_step(struct server *srv, const struct store_game *row, void *ctx, char *err,
                             size_t err_size);
/* A new game, in the one order for both kinds of game: room in memory first (a full
 * server stores no game it cannot play), then the store (store_step: the row written,
 * or a challenge taken with it), and only then does anyone learn its id.  0 with *out
 * (one reference held); an HTTP status (500, 503) with a message when there is no room
 * or memory; -1 when the store step did not write it (*store_rc: what it returned),
 * and nothing is left of the game. */
int cache_create(struct server *srv, const struct game *g, const struct store_game *row,
                 cache_store_step *store_step, void *ctx, int *store_rc, struct session **out,
                 char *err, size_t err_size);
/* Another reference, for a caller that already holds one (allowed under s->mu). */
void cache_ref(struct session *s);
/* Give a reference back. */
void cache_put(struct session *s);
/* The cached games against the computer of token hash `old_hash` become `new_hash`'s,
 * as the store's merge_token made them (API.md "One identity"). */
void cache_retoken(struct server *srv, const char *old_hash, const char *new_hash);
/* Every cached game's player hash `old_hash` (either kind of game, either side) becomes
 * `new_hash`, as the store's rekey_player made it (API.md "Devices"). */
void cache_rekey(struct server *srv, const char *old_hash, const char *new_hash);
/* Another server changed game `id` (outbox.c): its cached copy is marked stale, and
 * the next cache_get loads the game again, keeping the copy's players' public ids (the
 * old copy is freed by its last cache_put); an unused stale copy may also be evicted. */
void cache_drop(struct server *srv, const char *id);
/* Call fn on every cached session (under cache_mu; fn may lock the session). */
void cache_each(struct server *srv, void (*fn)(struct session *s));
/* The same with a context (under the cache's lock: fn takes no other lock). */
void cache_each_ctx(struct server *srv, void (*fn)(void *ctx, struct session *s), void *ctx);
