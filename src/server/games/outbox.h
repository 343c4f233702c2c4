/* Events across servers (outbox.c): with a PostgreSQL store, several servers share one
 * database, and each tells the others of its games' news through the store's outbox
 * (store_ops.def "Events").  A server writes an event for every change its streams
 * hear of (session_notify, a challenge's news); one thread per server waits for the
 * events of the other servers, drops the changed game from its cache (the next
 * request or stream loads it from the store again) and wakes its local streams.
 * On SQLite (one server per file) it is off: nothing is written or read. */
#pragma once

#include <stddef.h>

struct server;

/* Start the thread when the store is PostgreSQL (nothing otherwise); 0, or -1 with a
 * message. */
int outbox_start(struct server *srv, char *err, size_t err_size);
/* Stop and join it (nothing when it is not running); srv->stopping is set. */
void outbox_stop(struct server *srv);
/* Tell the other servers that `id` changed: kind "game" (a game's id) or "challenge"
 * (a challenge's id).  A separate transaction after the change's own commit (a server
 * killed between the two commits leaves the others' streams without that news until
 * the game's next event or the stream's next read).  Nothing when the outbox is off.
 * The model (session.c) calls it through srv->tell_others. */
void outbox_put(struct server *srv, const char *kind, const char *id);
