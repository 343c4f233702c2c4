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
/* The event that `id` changed (kind "game": a game's id; "challenge": a challenge's
 * id), attached to the next store operation of this thread (store_attach_event): the
 * change and its event commit in one transaction, so a server killed after the commit
 * cannot keep the news from the others.  Nothing when the outbox is off.  The model
 * (session.c, people.c) calls it through srv->attach_event before a change. */
void outbox_attach(struct server *srv, const char *kind, const char *id);
/* Tell the other servers that `id` changed, once the change is committed: nothing
 * when the change's own transaction wrote the event (outbox_attach), else an event of
 * its own, a separate transaction after the change's (the fallback for a change made
 * without an attached event).  Nothing when the outbox is off.  The model calls it
 * through srv->tell_others (session_notify). */
void outbox_put(struct server *srv, const char *kind, const char *id);
