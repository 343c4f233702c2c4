/* Presence across servers (presence.c): with a PostgreSQL store several servers share
 * the games, and each sees only the event streams and requests it serves itself.  Once
 * a second (the outbox's thread) a server publishes its own presence in the people
 * games it holds (spectators' streams, players' streams, when it last saw each player)
 * with a heartbeat, and reads what the other live servers published, summed by game:
 * the viewer count is the sum over the servers, a player whose page streams from
 * another server is present there too (no abandonment claim through this one), and a
 * player seen by another server was seen.  Off (nothing published, nothing read) on
 * SQLite, one server a database. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct server;

/* A server silent this long no longer counts (its streams are gone with it). */
#define PRESENCE_FRESH_MS 5000
/* How often a server publishes and reads. */
#define PRESENCE_EVERY_MS 1000

/* Publish this server's presence and read the others' (the outbox thread); the games
 * whose viewers or seats changed elsewhere are news for this server's streams. */
void presence_tick(struct server *srv, int64_t now_ms);
