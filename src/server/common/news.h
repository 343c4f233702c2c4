/* News of something event streams wait for (news.c): its streams on this server are
 * woken through the stream hub, and those on the other servers through the outbox
 * (srv->tell_others; nothing when it is off).  One call for every kind the hub knows
 * (stream_hub_key: a challenge, a tournament, a player's notifications); a game's news
 * goes through its session (session_notify), which also keeps the cache right. */
#pragma once

struct server;

/* `kind` one of stream_hub.h's HUB_KIND_*, `id` its id (for "notice" the first 32
 * digits of the token's hash).  A kind the hub does not know is nobody's news. */
void news_everywhere(struct server *srv, const char *kind, const char *id);
