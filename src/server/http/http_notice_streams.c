/* A player's notification stream over HTTP (http_notice_streams.h).  The notifications
 * live in the store: the stream keeps the player's token hash, the newest id it told
 * and the unread count it told.  It waits in the stream hub under the player's key
 * (notify_key); notify_player and a marking read are news there.  It reads the store
 * at each ping too, which shows what another server on the same database wrote. */
#include "server/http/http_notice_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/notify.h"
#include "server/common/stream_hub.h"
#include "server/http/http_event_stream.h"
#include "server/server_state.h"
#include "store/store.h"

#define NOTICES_A_READ 20

struct nstream {
    struct event_stream es; /* first: a struct event_stream * is a struct nstream * */
    char hash[STORE_HASH_LEN + 1];
    int64_t told_id; /* the newest notification told (-1: nothing told yet) */
    int told_unread; /* the unread count told (-1: none yet) */
};

struct collect {
    struct store_notice n[NOTICES_A_READ];
    char *body[NOTICES_A_READ];
    int count;
};

static void keep(void *ctx, const struct store_notice *n)
{
    struct collect *c = ctx;
    if (c->count >= NOTICES_A_READ)
        return;
    c->n[c->count] = *n;
    c->body[c->count] = strdup(n->body);
    c->n[c->count].body = c->body[c->count] ? c->body[c->count] : "{}";
    c->count++;
}

/* What is new since the stream last told: notifications (oldest first, each an
 * `event: notice` with its id) and the unread count (`event: unread`) when it changed.
 * Its text's length, 0 when nothing is new, -1 when the store could not say. */
static ssize_t notice_events(struct nstream *st, char *buf, size_t max)
{
    struct collect c = {.count = 0};
    int unread = 0;
    char err[ERROR_TEXT_MAX];
    int64_t after = st->told_id < 0 ? 0 : st->told_id;
    int limit = st->told_id < 0 ? 0 : NOTICES_A_READ; /* the first read: the count only */
    if (store_list_notifications(st->es.srv->store, st->hash, after, limit, &unread, keep, &c, err,
                                 sizeof err) != 0)
        return -1;
    struct jout j;
    size_t n = 0;
    bool full = false;
    for (int i = c.count - 1; i >= 0; i--) { /* the store gives the newest first */
        jout_init(&j, 512);
        notify_json(&j, &c.n[i]);
        char *data = jout_finish(&j);
        int w = data ? snprintf(buf + n, max - n, "id: %lld\nevent: notice\ndata: %s\n\n",
                                (long long)c.n[i].id, data)
                     : -1;
        free(data);
        if (w < 0 || (size_t)w >= max - n) {
            full = true; /* the rest next time: the id told stays at the last that fitted */
            break;
        }
        n += (size_t)w;
        st->told_id = c.n[i].id;
    }
    for (int i = 0; i < c.count; i++)
        free(c.body[i]);
    if (st->told_id < 0) { /* the newest id from here on: only what comes later is told */
        struct collect last = {.count = 0};
        int ignored;
        if (store_list_notifications(st->es.srv->store, st->hash, 0, 1, &ignored, keep, &last, err,
                                     sizeof err) != 0)
            return -1;
        st->told_id = last.count ? last.n[0].id : 0;
        if (last.count)
            free(last.body[0]);
    }
    if (!full && unread != st->told_unread) {
        int w = snprintf(buf + n, max - n, "event: unread\ndata: {\"unread\":%d}\n\n", unread);
        if (w > 0 && (size_t)w < max - n) {
            n += (size_t)w;
            st->told_unread = unread;
        }
    }
    if (full) /* more to tell: read again at once */
        stream_hub_news(st->es.srv->hub, st->es.w.id);
    return (ssize_t)n;
}

static ssize_t nstream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct nstream *st = cls;
    bool news, ping;
    if (event_stream_take(&st->es, &news, &ping))
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (atomic_load(&st->es.srv->stopping))
        return MHD_CONTENT_READER_END_OF_STREAM;
    ssize_t n = 0;
    if (news || ping) {
        n = notice_events(st, buf, max);
        if (n < 0)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    if (!n && ping && max > 16)
        n = snprintf(buf, max, ": ping\n\n");
    if (n)
        return n;
    event_stream_park(&st->es);
    return 0;
}

enum MHD_Result http_start_notice_stream(struct server *srv, struct MHD_Connection *mc,
                                         const struct api_response *ar, const char *client)
{
    struct nstream *st = calloc(1, sizeof *st);
    if (!st)
        return MHD_NO;
    st->es.srv = srv;
    st->es.mc = mc;
    st->told_id = -1;
    st->told_unread = -1;
    snprintf(st->hash, sizeof st->hash, "%s", ar->notice_hash);
    char key[sizeof st->es.w.id];
    notify_key(st->hash, key, sizeof key);
    return event_stream_start(&st->es, key, "player", client, nstream_read, NULL);
}
