/* Notifications (notify.c; API.md "Notifications"): what happened to a player that
 * their pages tell them, on every device they use.  Any room tells a player of an
 * event with notify_player (people: a challenge to them, theirs accepted; games: their
 * turn in a correspondence game; clubs: a club challenge; tournaments: a start): the
 * notification is kept in the store until read, and the player's event streams
 * (GET /api/me/events, one per page) are woken through the stream hub under the
 * player's key, which only the token's hash names (never the token). */
#pragma once

#include <stddef.h>

struct jout;
struct server;
struct store_notice;

/* The kinds a page knows (web/js/notices/); a room may add one with its text there. */
#define NOTICE_CHALLENGE "challenge"           /* a challenge made to the player */
#define NOTICE_ACCEPTED "accepted"             /* a challenge of theirs accepted */
#define NOTICE_YOUR_TURN "your_turn"           /* their move in a correspondence game */
#define NOTICE_CLUB_CHALLENGE "club_challenge" /* a challenge in a club of theirs */
#define NOTICE_TOURNAMENT "tournament"         /* a tournament of theirs starts */

/* The stream hub's key of a player's notification streams (stream_hub_key's "notice"
 * kind: "notices:" and the first 32 digits of the token's hash); key holds at least 48
 * bytes. */
void notify_key(const char *token_hash, char *key, size_t size);

/* The player's notifications changed (a new one, some marked read): their streams on
 * this server are woken, and those on the other servers through the outbox (outbox.c,
 * srv->tell_others: nothing with it off). */
void notify_news(struct server *srv, const char *token_hash);

/* Tell the player whose token's hash is `token_hash` of an event: `kind` (at most 31
 * bytes) and `body`, a JSON object's text (at most 4 KiB: the event's fields, such as
 * {"game_id": "...", "name": "..."}), kept unread and told to the player's streams at
 * once.  0, or the store's answer (-1 or STORE_BUSY, with err): a caller whose own change
 * is done already logs it and goes on (a notification lost is not a move lost). */
int notify_player(struct server *srv, const char *token_hash, const char *kind, const char *body,
                  char *err, size_t err_size);

/* A notification as the API writes it: {"id", "kind", "read", "at", "data"} (`at` Unix
 * ms, `data` the body given to notify_player). */
void notify_json(struct jout *j, const struct store_notice *n);
