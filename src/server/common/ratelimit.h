/* A per-address token bucket for new games, in a fixed table (bounded memory: an
 * address that does not fit evicts the least recently seen one), or, shared, in the
 * store (ratelimit_share). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ratelimit;
/* `per_minute` new games per minute per address, bursts up to the same number. */
struct ratelimit *ratelimit_new(int per_minute);
void ratelimit_free(struct ratelimit *rl);
/* Several servers on one database (PostgreSQL): the limiter's buckets are the
 * store's (store_ops.def rate_take, under `name`, at most 31 bytes), so a client's
 * requests count on every server together; when the store fails, the table in memory
 * counts meanwhile.  Not shared (the default): this process's table only. */
struct store;
void ratelimit_share(struct ratelimit *rl, struct store *s, const char *name);
/* true when `addr` may start one more game now (and counts it). */
bool ratelimit_take(struct ratelimit *rl, const char *addr, int64_t now_ms);
/* One action of a client known by its address and by a key of its own (a token's
 * hash), counted in both limiters (either NULL, or its name NULL: not counted).  0 when
 * both allow it; 2 when the key is at its limit (the address's is then not taken), 1
 * when the address is. */
int ratelimit_take_pair(struct ratelimit *by_addr, const char *addr, struct ratelimit *by_key,
                        const char *key, int64_t now_ms);
/* The client address behind a reverse proxy: the last entry of its X-Forwarded-For
 * header (the one the proxy appended; a client chooses only those before it), copied
 * into out.  false when there is no header or the entry is not an IPv4/IPv6 address. */
bool ratelimit_forwarded_addr(const char *xff, char *out, size_t size);
