/* The games in memory (cache.c): sessions by id, with reference counts and an LRU
 * list.  Above the model (it builds sessions from the store), below the workers and
 * the API. */
#pragma once

#include <stddef.h>

struct server;
struct session;

void cache_init(struct server *srv);
void cache_free(struct server *srv);
/* The game `id` with a reference held, loaded from the store on a miss; 0, or 404
 * when no such game, or 500/503 with a message. */
int cache_get(struct server *srv, const char *id, struct session **out, char *err, size_t err_size);
/* Add a new game's session (one reference held); 0, or 503 with a message when every
 * game in memory is in use. */
int cache_insert(struct server *srv, struct session *s, char *err, size_t err_size);
/* Take back a session just inserted (its only reference the caller's) and free it. */
void cache_discard(struct server *srv, struct session *s);
/* Another reference, for a caller that already holds one (allowed under s->mu). */
void cache_ref(struct session *s);
/* Give a reference back. */
void cache_put(struct session *s);
/* Call fn on every cached session (under cache_mu; fn may lock the session). */
void cache_each(struct server *srv, void (*fn)(struct session *s));
