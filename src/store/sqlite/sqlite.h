/* The SQLite backend of the store (store.h): store_open's choice for a file path,
 * ":memory:" and "sqlite:PATH".  Only store.c opens it by name. */
#pragma once

#include <stddef.h>

#include "store/store.h"

/* Open (creating on first use) the SQLite database at `path` (":memory:" for tests):
 * one connection in WAL mode, synchronous=FULL for STORE_SURVIVES_POWER_LOSS (an
 * fsync on every commit), NORMAL for STORE_SURVIVES_KILL (the commit reaches the OS,
 * fsync at checkpoints). */
struct store *store_sqlite_open(const char *path, enum store_durability durability, char *err,
                                size_t err_size);
