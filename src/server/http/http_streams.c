/* The game's event streams over HTTP (http_streams.h): each waits in the stream hub by
 * its game's id, suspended while there is no news, and reads the game from the cache
 * when there is. */
#include "server/http/http_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "server/common/stream_hub.h"
#include "server/games/cache.h"
#include "server/games/people.h"
#include "server/games/people_json.h"
#include "server/games/presence_table.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/http/http_event_stream.h"
#include "server/server_state.h"

/* The players' streams open on the stream's game: bit 0 white's, bit 1 black's (here or
 * on another server: presence.h). */
static int seats(struct event_stream *es)
{
    struct store_presence there;
    bool far = presence_remote(es->srv, es->w.id, &there);
    return (stream_hub_seated(es->srv->hub, es->w.id, SIDE_WHITE) || (far && there.seated[0])) |
           (stream_hub_seated(es->srv->hub, es->w.id, SIDE_BLACK) || (far && there.seated[1])) << 1;
}

/* The spectators' streams on the game, here and on the other servers. */
static int all_viewers(struct event_stream *es)
{
    struct store_presence there;
    int far = presence_remote(es->srv, es->w.id, &there) ? there.viewers : 0;
    return stream_hub_viewers(es->srv->hub, es->w.id) + far;
}

/* An event stream reading a game.  It holds no reference to the game (the cache may
 * drop it): it waits in the stream hub by the game's id and gets the game from the cache
 * when there is news.  `sent`, `takebacks` and `end_sent` are the reader's own. */
struct stream {
    struct event_stream es; /* first: a struct event_stream * is a struct stream * */
    int sent;               /* moves already sent: the stream's last event id */
    int takebacks;          /* the game's takebacks when the stream last looked */
    bool end_sent;          /* the final "end" event went out */
    unsigned version;       /* people games: the changes other than moves told */
    int viewers_told;       /* people games: the viewer count last told */
    int seats_told;         /* people games: the players' streams open, last told (seats()) */
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
        int viewers = all_viewers(&st->es);
        int open = seats(&st->es); /* a player's page came or went: their presence */
        if (st->version != s->version || st->viewers_told != viewers || st->seats_told != open) {
            size_t k = event_update_text(s, buf + n, max - n);
            if (k) {
                st->version = s->version;
                st->viewers_told = viewers;
                st->seats_told = open;
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
    struct server *srv = st->es.srv;
    struct hub_watch *w = &st->es.w;
    bool news, ping;
    if (event_stream_take(&st->es, &news, &ping))
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
    /* Nothing to say: park until the hub wakes it (news that came since the game was
     * read is seen by the park: then read again). */
    event_stream_park(&st->es);
    return 0;
}

/* A player's stream ends: they were present until now (people_away). */
static void stream_closed(struct event_stream *es)
{
    struct session *s;
    char err[ERROR_TEXT_MAX];
    if (!es->w.seat || cache_get(es->srv, es->w.id, &s, err, sizeof err) != 0)
        return;
    pthread_mutex_lock(&s->mu);
    people_seen(s, es->w.seat - 1, server_now_ms());
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
}

/* The viewer count it starts from includes itself: its arrival is news for the others
 * (told by their update), not for itself. */
static void stream_added(struct event_stream *es)
{
    struct stream *st = (struct stream *)es;
    st->viewers_told = all_viewers(es);
    st->seats_told = seats(es);
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
    st->es.srv = srv;
    st->es.mc = mc;
    st->sent = ar->stream_from;
    char id[sizeof st->es.w.id];
    pthread_mutex_lock(&s->mu);
    st->takebacks = s->row.takebacks;
    st->version = s->version;
    /* A spectator's stream: a game between people watched by someone with no seat in it. */
    st->es.w.viewer = s->row.people && !ar->stream_seat;
    snprintf(id, sizeof id, "%s", s->row.id);
    pthread_mutex_unlock(&s->mu);
    cache_put(s); /* the stream does not keep the game in memory */
    st->es.w.seat = ar->stream_seat;
    st->es.closed = stream_closed;
    return event_stream_start(&st->es, id, "game", client, stream_read, stream_added);
}
