/* The flag timer's wake-up, apart from the timer (clock.c, above the cache) so that the
 * game model below the cache (people.c) wakes it when a committed move sets an earlier
 * deadline. */
#pragma once

#include <stdint.h>

struct server;

/* A move set a deadline: wake the timer if it is earlier than its next wake. */
void deadline_kick(struct server *srv, int64_t deadline_ms);
