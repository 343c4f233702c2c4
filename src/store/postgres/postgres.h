/* The PostgreSQL backend of the store (store.h): store_open's choice for a URL
 * "postgresql://..." or "postgres://...".  Only store.c opens it by name. */
#pragma once

#include <stddef.h>

#include "store/store.h"

/* Open the database at `url` (libpq's URI; fields left out come from libpq's PG*
 * environment variables) with a pool of `pool` connections (1..), bringing its schema
 * to the last migration (store/migrations.h).  STORE_SURVIVES_POWER_LOSS sets
 * synchronous_commit on for the store's sessions; STORE_SURVIVES_KILL keeps the
 * server's setting.  NULL with one line in err (the URL's password never in it). */
struct store *store_postgres_open(const char *url, int pool, enum store_durability durability,
                                  char *err, size_t err_size);
