/* The event streams by game (stream_hub.c): a stream waits here, by the game's id,
 * without holding the game itself, so a streamed game can leave the cache like any
 * other and be loaded again for the stream's next event.  The game model tells the hub
 * of news (server.stream_news, called under the session's mutex); the hub wakes the
 * game's suspended streams.  The hub's mutex is a leaf: taken under a session's mutex
 * or the connection guard's, nothing is taken under it but the wake callbacks'. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stream_hub;

/* One waiting stream (a member of the HTTP layer's stream); its flags change under
 * the hub's mutex (stream_hub_lock). */
struct hub_watch {
    char id[48];
    bool suspended; /* parked until woken */
    bool news;      /* the game changed since the stream last read it */
    bool ping;      /* a keep-alive comment is due */
    bool gone;      /* the client hung up or the server stops */
    bool linked;    /* in the hub (stream_hub_add succeeded) */
    bool viewer;    /* a spectator's stream (set before stream_hub_add): counted in the
                       game's viewers, and its coming and going is news to the others */
    char addr[64];  /* the client's address (set before stream_hub_add): viewers are
                       counted by address, not by socket */
    int seat;       /* a player's stream: the side + 1 (0: none), set before stream_hub_add;
                       never counted in the per-game cap (spectators cannot fill it), and
                       its coming and going is news to the others (the player's presence) */
    int64_t due_ms; /* news at this time (Unix ms) even if nothing happens: stream_hub_due */
    void (*wake)(struct hub_watch *w);
    struct hub_watch *prev, *next;
};

struct stream_hub *stream_hub_new(void);
void stream_hub_free(struct stream_hub *h);
/* Add w for game `id` (news set, so its first read looks at the game); false when the
 * game has per_game streams already (0: no cap), not counting players' streams (a
 * player's own stream is always added). */
bool stream_hub_add(struct stream_hub *h, struct hub_watch *w, const char *id, int per_game);
/* Take w out (nothing when it is not in). */
void stream_hub_remove(struct stream_hub *h, struct hub_watch *w);
/* Game `id` changed: its streams have news; the suspended ones are woken. */
void stream_hub_news(struct stream_hub *h, const char *id);
/* w is to have news at due_ms (Unix ms) even when nothing happens by then (a
 * challenge's expiry, which nobody writes); 0: no such time.  w must be in the hub. */
void stream_hub_due(struct stream_hub *h, struct hub_watch *w, int64_t due_ms);
/* The streams due by now_ms have news and are woken (the workers' ticker calls it, every
 * 20 ms: cheap when none is due). */
void stream_hub_wake_due(struct stream_hub *h, int64_t now_ms);
/* Every stream: a ping is due (or, with gone, the server stops). */
void stream_hub_ping_all(struct stream_hub *h, bool gone);
/* Mark w gone and wake it. */
void stream_hub_gone(struct stream_hub *h, struct hub_watch *w);
void stream_hub_lock(struct stream_hub *h);
void stream_hub_unlock(struct stream_hub *h);
/* Streams open now. */
int stream_hub_count(struct stream_hub *h);
/* The spectators watching game `id` now: the addresses of its spectators' streams
 * (many streams from one address are one viewer). */
int stream_hub_viewers(struct stream_hub *h, const char *id);
/* A stream of `side`'s player (hub_watch.seat) is open now on game `id`. */
bool stream_hub_seated(struct stream_hub *h, const char *id, int side);
/* What streams wait for, by kind, as the outbox's events name it too (outbox.c): the
 * one map from a kind and an id to the hub's key, used both by the server that wakes its
 * own streams and by the others when they read the event.
 *   "game"        a game's streams:           the game's id itself
 *   "challenge"   a challenge's streams:      "challenge:ID"
 *   "tournament"  a tournament's streams:     "tournament:ID" (director.c tells them)
 *   "notice"      a player's notifications:   "notices:ID", ID the first 32 digits of
 *                                             the token's hash (notify.h)
 * (a game's id has no colon, so no two kinds meet).  0 with the key in key (which must
 * hold sizeof ((struct hub_watch *)0)->id bytes), or -1 for a kind not here. */
#define HUB_KIND_GAME "game"
#define HUB_KIND_CHALLENGE "challenge"
#define HUB_KIND_TOURNAMENT "tournament"
#define HUB_KIND_NOTICE "notice"
int stream_hub_key(const char *kind, const char *id, char *key, size_t size);
