/* The tournaments' director (director.c): one thread per server that, every tick
 * (cfg.tournament_tick_ms) or when kicked, starts the tournaments whose time has come,
 * ends the arenas whose time is up, forfeits the tournament games whose first move did
 * not come in time (the player to move loses and is paused), and pairs each running
 * arena's free players (arena.c), off the HTTP threads; a Swiss whose round is over is
 * handed to the Swiss pairer's thread (swiss_pairer.h), so its pairing waits for
 * nothing here and nothing here waits for it.  It keeps nothing the store
 * does not: a restart, or a second server on the same database, takes over where it
 * stood (every change is a conditional write: of two directors only one makes it). */
#pragma once

#include <stddef.h>

struct server;
struct store_tournament;

int director_start(struct server *srv, char *err, size_t err_size);
void director_stop(struct server *srv);
/* Look now (a player joined or came back). */
void director_kick(struct server *srv);
/* The stream hub's key of a tournament's event streams ("tournament:ID"); key holds
 * sizeof ((struct hub_watch *)0)->id bytes. */
void director_stream_key(const char *id, char *key, size_t size);
/* A tournament changed (a join, a pause): its streams are told, on every server. */
void director_news(struct server *srv, const char *id);
/* A tournament of a club (t->club_id) starts: each member of the club is told
 * (notify_player, NOTICE_TOURNAMENT; the first NOTICE_START_MAX), and its streams.  A
 * tournament of no club tells its entrants so. */
#define NOTICE_START_MAX 1024
void director_club_start_hook(struct server *srv, const struct store_tournament *t);
