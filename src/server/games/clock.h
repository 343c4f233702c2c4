/* The flag's timer (clock.c): one thread per server sleeps until the earliest deadline
 * of a game on the clock that the store knows (store.h next_deadline), then ends every
 * game whose flag has fallen (people_check_flag), whether or not anyone is connected.
 * The deadlines live in the store, so after a restart the games whose time ran out
 * meanwhile end at once, at the moment they ran out.  Above the cache. */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct server;

int clock_start(struct server *srv, char *err, size_t err_size);
void clock_stop(struct server *srv);
