/* What every server-sent event stream over HTTP shares (http_event_stream.c): its watch
 * in the stream hub, its entry in the connection guard, its parking while there is no
 * news, and its start (the caps, the response and its headers).  A stream of a game
 * (http_streams.c) or of a challenge (http_challenge_streams.c) embeds a struct
 * event_stream first and writes only its own events. */
#pragma once

#include <microhttpd.h>
#include <stdbool.h>

#include "server/common/stream_hub.h"
#include "server/http/http_limits.h"

struct server;

struct event_stream {
    struct hub_watch w; /* first: a struct hub_watch * is a struct event_stream * */
    struct server *srv;
    struct MHD_Connection *mc;
    struct conn_stream_ticket ticket; /* its entry in the connection guard */
    /* Runs as the stream ends, while it is still in the hub; or NULL. */
    void (*closed)(struct event_stream *es);
};

/* What the hub has for the stream since its last read (and cleared): *news, *ping;
 * true when the client has gone (the stream ends). */
bool event_stream_take(struct event_stream *es, bool *news, bool *ping);
/* Nothing to send: suspend the connection until the hub wakes it, unless news, a ping
 * or a hang-up came since the last take (then the reader is simply asked again). */
void event_stream_park(struct event_stream *es);

/* Start `es` (allocated with malloc, its struct event_stream first, srv and mc set) as
 * the answer to `es->mc`: in the hub under `key`, at most streams_per_game there, then
 * at most streams_per_address for `client`; `read` writes its events and the stream is
 * freed when the response goes.  Past a cap: 429 JSON naming `what` ("game",
 * "challenge"), and es is freed.  `added` (may be NULL) runs once es is in the hub. */
enum MHD_Result event_stream_start(struct event_stream *es, const char *key, const char *what,
                                   const char *client, MHD_ContentReaderCallback read,
                                   void (*added)(struct event_stream *es));
