/* A per-address token bucket for new games, in a fixed table (bounded memory: an
 * address that does not fit evicts the least recently seen one). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ratelimit;
/* `per_minute` new games per minute per address, bursts up to the same number. */
struct ratelimit *ratelimit_new(int per_minute);
void ratelimit_free(struct ratelimit *rl);
/* true when `addr` may start one more game now (and counts it). */
bool ratelimit_take(struct ratelimit *rl, const char *addr, int64_t now_ms);
/* The client address behind a reverse proxy: the last entry of its X-Forwarded-For
 * header (the one the proxy appended; a client chooses only those before it), copied
 * into out.  false when there is no header or the entry is not an IPv4/IPv6 address. */
bool ratelimit_forwarded_addr(const char *xff, char *out, size_t size);
