/* The other servers' presence as last read (presence_table.h). */
#include "server/games/presence_table.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/common/stream_hub.h"
#include "server/server_state.h"

static int by_game(const void *a, const void *b)
{
    return strcmp(((const struct store_presence *)a)->game_id,
                  ((const struct store_presence *)b)->game_id);
}

static const struct store_presence *find(const struct store_presence *rows, int n, const char *id)
{
    struct store_presence key;
    snprintf(key.game_id, sizeof key.game_id, "%s", id);
    return n > 0 ? bsearch(&key, rows, (size_t)n, sizeof *rows, by_game) : NULL;
}

static bool same_streams(const struct store_presence *a, const struct store_presence *b)
{
    if (!a || !b)
        return !a && !b;
    return a->viewers == b->viewers && a->seated[0] == b->seated[0] && a->seated[1] == b->seated[1];
}

void presence_table_set(struct server *srv, struct store_presence *rows, int n)
{
    if (n > 1)
        qsort(rows, (size_t)n, sizeof *rows, by_game);
    pthread_mutex_lock(&srv->pr_mu);
    struct store_presence *old = srv->pr_rows;
    int old_n = srv->pr_n;
    srv->pr_rows = rows;
    srv->pr_n = n;
    pthread_mutex_unlock(&srv->pr_mu);
    /* Streams here tell the viewers and the players' pages: news where they changed
     * (only one thread sets the table, so `old` is its own to read and free). */
    for (int i = 0; i < n; i++)
        if (!same_streams(&rows[i], find(old, old_n, rows[i].game_id)))
            stream_hub_news(srv->hub, rows[i].game_id);
    for (int i = 0; i < old_n; i++)
        if (!find(rows, n, old[i].game_id))
            stream_hub_news(srv->hub, old[i].game_id);
    free(old);
}

bool presence_remote(struct server *srv, const char *id, struct store_presence *out)
{
    if (!srv->ob_on)
        return false;
    pthread_mutex_lock(&srv->pr_mu);
    const struct store_presence *p = find(srv->pr_rows, srv->pr_n, id);
    if (p)
        *out = *p;
    pthread_mutex_unlock(&srv->pr_mu);
    return p != NULL;
}

void presence_free(struct server *srv)
{
    free(srv->pr_rows);
    srv->pr_rows = NULL;
    srv->pr_n = 0;
}
