/* Checkpoints of a SQLite WAL off the commit path.
 *
 * SQLite's own automatic checkpoint runs inside the COMMIT that crosses its threshold
 * (1000 pages): that commit copies the pages into the database file and syncs it,
 * some milliseconds to tens of milliseconds, while every other write waits behind it
 * (measured: commits p50 30 us, p99.9 20-30 ms).  Instead, a checkpointer thread with
 * its own connection copies the WAL back (PASSIVE: writers go on meanwhile) whenever a
 * commit reports the WAL past CKPT_PAGES.  The WAL restarts from its beginning only
 * once a checkpoint has caught up with every frame, which a steady stream of commits
 * can keep from happening: when the WAL keeps growing, a short last pass runs while
 * holding the writer's mutex, so nothing is appended under it. */
#pragma once

#include <pthread.h>
#include <sqlite3.h>

struct checkpointer;
/* Start checkpointing the WAL of `writer` (a connection to `path` in WAL mode, whose
 * users hold `writer_mu`); replaces the connection's automatic checkpoints.  NULL
 * (automatic checkpoints stay) when a second connection or the thread cannot start. */
struct checkpointer *checkpointer_start(const char *path, sqlite3 *writer,
                                        pthread_mutex_t *writer_mu);
/* Stop the thread and close its connection (before the writer's connection closes). */
void checkpointer_stop(struct checkpointer *c);
