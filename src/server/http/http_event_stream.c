#include "server/http/http_event_stream.h"

#include <stdio.h>
#include <stdlib.h>

#include "server/common/api_util.h"
#include "server/http/http_reply.h"
#include "server/server_state.h"

bool event_stream_take(struct event_stream *es, bool *news, bool *ping)
{
    struct hub_watch *w = &es->w;
    stream_hub_lock(es->srv->hub);
    bool gone = w->gone;
    *news = w->news;
    *ping = w->ping;
    w->news = w->ping = false;
    stream_hub_unlock(es->srv->hub);
    return gone;
}

void event_stream_park(struct event_stream *es)
{
    struct hub_watch *w = &es->w;
    stream_hub_lock(es->srv->hub);
    if (!w->news && !w->gone && !w->ping) {
        w->suspended = true;
        MHD_suspend_connection(es->mc);
    }
    stream_hub_unlock(es->srv->hub);
}

static void wake(struct hub_watch *w)
{
    MHD_resume_connection(((struct event_stream *)w)->mc);
}

/* The guard saw the client hang up (under its mutex): wake the stream so that it ends
 * now rather than at its next ping. */
static void gone(void *arg)
{
    struct event_stream *es = arg;
    stream_hub_gone(es->srv->hub, &es->w);
}

static void release(void *cls)
{
    struct event_stream *es = cls;
    if (es->srv->limits)
        conn_limits_stream_close(es->srv->limits, &es->ticket);
    if (es->closed)
        es->closed(es);
    stream_hub_remove(es->srv->hub, &es->w);
    free(es);
}

enum MHD_Result event_stream_start(struct event_stream *es, const char *key, const char *what,
                                   const char *client, MHD_ContentReaderCallback read,
                                   void (*added)(struct event_stream *es))
{
    struct server *srv = es->srv;
    struct MHD_Connection *mc = es->mc;
    es->w.wake = wake;
    snprintf(es->w.addr, sizeof es->w.addr, "%s", client ? client : "");
    if (!stream_hub_add(srv->hub, &es->w, key, srv->cfg.streams_per_game)) {
        free(es);
        return http_send_body(mc, 429,
                              api_error_body(429, "too_many_streams",
                                             "this %s has %d event streams open already; try later",
                                             what, srv->cfg.streams_per_game),
                              "application/json");
    }
    if (added)
        added(es);
    if (srv->limits && !conn_limits_stream_open(srv->limits, &es->ticket, mc, client, gone, es)) {
        stream_hub_remove(srv->hub, &es->w);
        free(es);
        return http_send_body(
            mc, 429,
            api_error_body(429, "too_many_streams",
                           "this address has %d event streams open already; close some",
                           srv->cfg.streams_per_address),
            "application/json");
    }
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read, es, release);
    if (!r) {
        release(es);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    http_security_headers(r);
    enum MHD_Result ok = MHD_queue_response(mc, MHD_HTTP_OK, r);
    MHD_destroy_response(r); /* the stream is released when the response goes */
    return ok;
}
