/* The other servers' presence in the games (presence.h), as the outbox thread last
 * read it: a table sorted by game id in the server (pr_mu), read by the model (people.c,
 * people_json.c) and the streams.  Apart from presence.c so that those do not depend
 * on the cache presence.c reads. */
#pragma once

#include <stdbool.h>

#include "store/store.h"

struct server;

/* The other servers' presence in game `id`: true and *out filled, or false (none, or
 * presence off: SQLite). */
bool presence_remote(struct server *srv, const char *id, struct store_presence *out);
/* Replace the table by `rows` (n, malloc'ed: the table keeps them); the games whose
 * viewers or seats changed are news for this server's streams.  One thread only. */
void presence_table_set(struct server *srv, struct store_presence *rows, int n);
/* The table freed (at the server's end). */
void presence_free(struct server *srv);
