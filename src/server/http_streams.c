/* The game's event streams over HTTP (http_streams.h): each waits in the stream hub by
 * its game's id, suspended while there is no news, and reads the game from the cache
 * when there is. */
#include "http_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_util.h"
#include "cache.h"
#include "core/error.h"
#include "http_limits.h"
#include "http_reply.h"
#include "people_json.h"
#include "server_state.h"
#include "session.h"
#include "state_json.h"
#include "stream_hub.h"

/* An event stream reading a game.  It holds no reference to the game (the cache may
 * drop it): it waits in the stream hub by the game's id and gets the game from the cache
 * when there is news.  `sent`, `takebacks` and `end_sent` are the reader's own. */
struct stream {
    struct hub_watch w; /* first: a struct hub_watch * is a struct stream * */
    struct server *srv;
    struct MHD_Connection *mc;
    int sent;                         /* moves already sent: the stream's last event id */
    int takebacks;                    /* the game's takebacks when the stream last looked */
    bool end_sent;                    /* the final "end" event went out */
    struct conn_stream_ticket ticket; /* its entry in the connection guard */
    unsigned version;                 /* people games: the changes other than moves told */
    int viewers_told;                 /* people games: the viewer count last told */
};

/* The events the game has for the stream (under s->mu): their text, 0 bytes when
 * nothing is new; *more when more is waiting than fitted in buf. */
static size_t stream_events(struct stream *st, struct session *s, char *buf, size_t max, bool *more)
{
    size_t n = 0;
    /* Moves taken back since: say so (the ply the game is at), then go on from there. */
    if (st->takebacks != s->row.takebacks || st->sent > s->n_stored) {
        n = event_takeback_text(s, buf, max);
        if (n) {
            st->takebacks = s->row.takebacks;
            st->sent = s->n_stored;
        }
    }
    while (st->sent < s->n_stored) {
        size_t k = event_move_text(s, st->sent + 1, buf + n, max - n);
        if (!k)
            break;
        n += k;
        st->sent++;
    }
    if (s->row.people && !st->end_sent) {
        /* Offers, clocks or the viewers (counted by the hub) changed without a move. */
        int viewers = stream_hub_viewers(st->srv->hub, st->w.id);
        if (st->version != s->version || st->viewers_told != viewers) {
            size_t k = event_update_text(s, buf + n, max - n);
            if (k) {
                st->version = s->version;
                st->viewers_told = viewers;
            }
            n += k;
        }
    }
    if (!n && st->sent == s->n_stored && !st->end_sent && session_over(s)) {
        n = event_end_text(s, buf, max);
        st->end_sent = n > 0;
    }
    *more = st->sent < s->n_stored || (!st->end_sent && session_over(s));
    return n;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct stream *st = cls;
    struct server *srv = st->srv;
    struct hub_watch *w = &st->w;
    stream_hub_lock(srv->hub);
    bool gone = w->gone, news = w->news, ping = w->ping;
    w->news = w->ping = false;
    stream_hub_unlock(srv->hub);
    if (gone)
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (atomic_load(&srv->stopping))
        return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = 0;
    if (news && !st->end_sent) {
        /* The game, from the cache (loaded again if it was dropped meanwhile). */
        struct session *s;
        char err[ERROR_TEXT_MAX];
        if (cache_get(srv, w->id, &s, err, sizeof err) != 0)
            return MHD_CONTENT_READER_END_WITH_ERROR; /* the client reconnects, Last-Event-ID */
        bool more = false;
        pthread_mutex_lock(&s->mu);
        n = stream_events(st, s, buf, max, &more);
        pthread_mutex_unlock(&s->mu);
        cache_put(s);
        if (more) {
            stream_hub_lock(srv->hub);
            w->news = true;
            stream_hub_unlock(srv->hub);
        }
    }
    if (!n && ping && max > 16)
        n = (size_t)snprintf(buf, max, ": ping\n\n");
    if (n)
        return (ssize_t)n;
    if (st->end_sent)
        return MHD_CONTENT_READER_END_OF_STREAM;
    /* Nothing to say: park the connection until the hub wakes it.  News that came since
     * the game was read has set w->news (under the hub's mutex): then read again. */
    stream_hub_lock(srv->hub);
    if (!w->news && !w->gone && !w->ping) {
        w->suspended = true;
        MHD_suspend_connection(st->mc);
    }
    stream_hub_unlock(srv->hub);
    return 0;
}

static void stream_wake(struct hub_watch *w)
{
    MHD_resume_connection(((struct stream *)w)->mc);
}

/* The guard saw the client hang up (under its mutex): wake the stream so that it ends
 * now rather than at its next ping. */
static void stream_gone(void *arg)
{
    struct stream *st = arg;
    stream_hub_gone(st->srv->hub, &st->w);
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    if (st->srv->limits)
        conn_limits_stream_close(st->srv->limits, &st->ticket);
    stream_hub_remove(st->srv->hub, &st->w);
    free(st);
}

enum MHD_Result http_start_stream(struct server *srv, struct MHD_Connection *mc,
                                  struct api_response *ar, const char *client)
{
    struct session *s = ar->session;
    struct stream *st = calloc(1, sizeof *st);
    if (!st) {
        cache_put(s);
        return MHD_NO;
    }
    st->srv = srv;
    st->mc = mc;
    st->sent = ar->stream_from;
    st->w.wake = stream_wake;
    char id[sizeof st->w.id];
    pthread_mutex_lock(&s->mu);
    st->takebacks = s->row.takebacks;
    st->version = s->version;
    snprintf(id, sizeof id, "%s", s->row.id);
    pthread_mutex_unlock(&s->mu);
    cache_put(s); /* the stream does not keep the game in memory */
    st->w.viewer = ar->stream_viewer;
    if (!stream_hub_add(srv->hub, &st->w, id, srv->cfg.streams_per_game)) {
        free(st);
        return http_send_body(
            mc, 429,
            api_error_body("this game has %d event streams open already; try later",
                           srv->cfg.streams_per_game),
            "application/json");
    }
    st->viewers_told = stream_hub_viewers(srv->hub, id); /* its own arrival told to others */
    if (srv->limits) {
        if (!conn_limits_stream_open(srv->limits, &st->ticket, mc, client, stream_gone, st)) {
            stream_hub_remove(srv->hub, &st->w);
            free(st);
            return http_send_body(mc, 429,
                                  api_error_body("this address has %d event streams open already; "
                                                 "close some",
                                                 srv->cfg.streams_per_address),
                                  "application/json");
        }
    }
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
    if (!r) {
        stream_free(st);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    http_security_headers(r);
    enum MHD_Result ok = MHD_queue_response(mc, MHD_HTTP_OK, r);
    MHD_destroy_response(r); /* the stream's free callback runs when the response goes */
    return ok;
}
