/* A tournament's event stream over HTTP (http_tournament_streams.h).  Like a
 * challenge's stream it keeps only the id: it waits in the stream hub under the
 * tournament's key (director_stream_key), suspended; the director and the routes tell
 * the hub of a change, and the stream then reads the tournament from the store.  It
 * reads again at each ping too (a change made by another server on the same
 * database), and says so only when something changed. */
#include "server/http/http_tournament_streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "server/common/stream_hub.h"
#include "server/games/session.h"
#include "server/http/http_event_stream.h"
#include "server/server_state.h"
#include "server/tournaments/director.h"
#include "server/tournaments/tourney_data.h"
#include "server/tournaments/tourney_json.h"
#include "store/store.h"

struct tstream {
    struct event_stream es; /* first: a struct event_stream * is a struct tstream * */
    char id[STORE_ID_LEN + 1];
    char told[160]; /* the last event's data ("" none yet) */
};

static ssize_t tournament_event(struct tstream *st, char *buf, size_t max)
{
    struct tourney_data d;
    char err[ERROR_TEXT_MAX];
    int rc = tourney_load(st->es.srv, st->id, &d, err, sizeof err);
    if (rc != 0) {
        tourney_data_free(&d);
        return -1;
    }
    int on = 0;
    for (int k = 0; k < d.m; k++)
        on += d.g[k].result == 0;
    char data[sizeof st->told];
    snprintf(data, sizeof data,
             "{\"status\":\"%s\",\"players\":%d,\"games\":%d,\"on\":%d,\"round\":%d}",
             tourney_status_name(d.t.status), d.n, d.m, on, d.t.round);
    /* A pause or a berserk changes no count: the state's own sum. */
    unsigned sum = 0;
    for (int i = 0; i < d.n; i++)
        sum = sum * 31 + (unsigned)d.e[i].state;
    for (int k = 0; k < d.m; k++)
        sum = sum * 31 + (unsigned)d.g[k].berserk;
    size_t len = strlen(data);
    snprintf(data + len - 1, sizeof data - len + 1, ",\"v\":%u}", sum);
    tourney_data_free(&d);
    if (!strcmp(data, st->told))
        return 0;
    int n = snprintf(buf, max, "event: tournament\ndata: %s\n\n", data);
    if (n < 0 || (size_t)n >= max)
        return -1;
    snprintf(st->told, sizeof st->told, "%s", data);
    return n;
}

static ssize_t tstream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct tstream *st = cls;
    bool news, ping;
    if (event_stream_take(&st->es, &news, &ping))
        return MHD_CONTENT_READER_END_WITH_ERROR;
    if (atomic_load(&st->es.srv->stopping))
        return MHD_CONTENT_READER_END_OF_STREAM;
    ssize_t n = 0;
    if (news || ping) {
        n = tournament_event(st, buf, max);
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

enum MHD_Result http_start_tournament_stream(struct server *srv, struct MHD_Connection *mc,
                                             const struct api_response *ar, const char *client)
{
    struct tstream *st = calloc(1, sizeof *st);
    if (!st)
        return MHD_NO;
    st->es.srv = srv;
    st->es.mc = mc;
    snprintf(st->id, sizeof st->id, "%.*s", STORE_ID_LEN, ar->challenge);
    char key[sizeof st->es.w.id];
    director_stream_key(st->id, key, sizeof key);
    return event_stream_start(&st->es, key, "tournament", client, tstream_read, NULL);
}
