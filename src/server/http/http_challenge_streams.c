/* A challenge's event stream over HTTP (http_challenge_streams.h).  The challenge lives
 * in the store, not in memory: the stream keeps only its id and the status it last told.
 * It waits in the stream hub under the challenge's key (stream_hub_key),
 * suspended; an accept or a withdrawal is news on that key (people_api.c), and the
 * stream then reads the challenge from the store.  An open challenge's expiry (which
 * nobody writes) is a due time in the hub: the stream has news then too.  It reads the
 * store again at each ping as well, which shows a change made by another server on the
 * same database. */
#include "server/http/http_challenge_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/stream_hub.h"
#include "server/games/people_json.h"
#include "server/games/session.h"
#include "server/http/http_event_stream.h"
#include "server/server_state.h"
#include "store/store.h"

/* What a stream has told: nothing yet, or a status (an expired challenge's own). */
enum told { TOLD_NOTHING = -1, TOLD_OPEN, TOLD_ACCEPTED, TOLD_CANCELLED, TOLD_EXPIRED };

struct cstream {
    struct event_stream es; /* first: a struct event_stream * is a struct cstream * */
    char id[STORE_ID_LEN + 1];
    int told; /* enum told */
};

static int status_of(const struct store_challenge *c, int64_t now)
{
    if (c->status == CHALLENGE_ACCEPTED)
        return TOLD_ACCEPTED;
    if (c->status == CHALLENGE_CANCELLED)
        return TOLD_CANCELLED;
    return c->expires_ms <= now ? TOLD_EXPIRED : TOLD_OPEN;
}

/* The challenge from the store, as an event when its status is new: its text (0 bytes
 * when nothing changed); -1 when the store could not say (the stream ends, the client
 * reconnects and is told the status then). */
static ssize_t challenge_event(struct cstream *st, char *buf, size_t max)
{
    struct store_challenge c;
    char err[ERROR_TEXT_MAX];
    struct store *store = st->es.srv->store;
    if (store_get_challenge(store, st->id, &c, err, sizeof err) != 0)
        return -1;
    int64_t now = server_now_ms();
    int status = status_of(&c, now);
    if (status == TOLD_OPEN) /* woken when it expires, if nothing comes first */
        stream_hub_due(st->es.srv->hub, &st->es.w, c.expires_ms);
    if (status == st->told)
        return 0;
    struct jout j;
    jout_init(&j, 512);
    challenge_out(&j, &c, now);
    char *data = jout_finish(&j);
    if (!data)
        return -1;
    int n = snprintf(buf, max, "event: challenge\ndata: %s\n\n", data);
    free(data);
    if (n < 0 || (size_t)n >= max)
        return -1; /* a challenge is far smaller than the buffer */
    st->told = status;
    return n;
}

static ssize_t cstream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct cstream *st = cls;
    bool news, ping;
    if (event_stream_take(&st->es, &news, &ping))
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (atomic_load(&st->es.srv->stopping) || (st->told != TOLD_NOTHING && st->told != TOLD_OPEN))
        return MHD_CONTENT_READER_END_OF_STREAM; /* the last status went out */
    ssize_t n = 0;
    if (news || ping) {
        n = challenge_event(st, buf, max);
        if (n < 0)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    if (!n && ping && max > 16)
        n = snprintf(buf, max, ": ping\n\n");
    if (n)
        return n;
    /* Nothing to say: park until the hub wakes it (news that came since the store was
     * read is seen by the park: then read again). */
    event_stream_park(&st->es);
    return 0;
}

enum MHD_Result http_start_challenge_stream(struct server *srv, struct MHD_Connection *mc,
                                            const struct api_response *ar, const char *client)
{
    struct cstream *st = calloc(1, sizeof *st);
    if (!st)
        return MHD_NO;
    st->es.srv = srv;
    st->es.mc = mc;
    st->told = TOLD_NOTHING;
    snprintf(st->id, sizeof st->id, "%.*s", STORE_ID_LEN, ar->challenge);
    char key[sizeof st->es.w.id];
    stream_hub_key(HUB_KIND_CHALLENGE, st->id, key, sizeof key);
    /* Added with news set: its first read tells the status from the store at once. */
    return event_stream_start(&st->es, key, "challenge", client, cstream_read, NULL);
}
