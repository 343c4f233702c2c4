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

/* The WAL's bounds (backend.c sets them on its connection):
 * - a checkpoint once the WAL holds CKPT_PAGES pages (1 MiB of 4 KiB pages, a quarter
 *   of SQLite's default 1000): each checkpoint copies little, and the WAL a reader
 *   must search stays short;
 * - once a checkpoint has caught up, the next commit restarts the WAL and cuts the
 *   file back to CKPT_WAL_LIMIT bytes (PRAGMA journal_size_limit, 2 MiB: twice what
 *   normal work reaches, so it is cut only after a burst, never on every cycle).
 *   Without the limit the -wal file keeps the largest size it ever had. */
/* - a hard bound: a commit that finds the WAL at CKPT_HARD_PAGES (16 MiB) copies it
 *   back itself before it returns, so a writer faster than the thread's checkpoints
 *   waits for the disk instead of growing the WAL without end. */
#define CKPT_PAGES 256
#define CKPT_HARD_PAGES 4096
#define CKPT_WAL_LIMIT (2 * 1024 * 1024)

struct checkpointer;
/* Start checkpointing the WAL of `writer` (a connection to `path` in WAL mode, whose
 * users hold `writer_mu`); replaces the connection's automatic checkpoints.  NULL
 * (automatic checkpoints stay) when a second connection or the thread cannot start. */
struct checkpointer *checkpointer_start(const char *path, sqlite3 *writer,
                                        pthread_mutex_t *writer_mu);
/* Stop the thread and close its connection (before the writer's connection closes). */
void checkpointer_stop(struct checkpointer *c);
