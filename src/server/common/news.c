/* News told here and on the other servers (news.h). */
#include "server/common/news.h"

#include "server/common/stream_hub.h"
#include "server/server_state.h"

void news_everywhere(struct server *srv, const char *kind, const char *id)
{
    char key[sizeof((struct hub_watch *)0)->id];
    if (stream_hub_key(kind, id, key, sizeof key) != 0)
        return;
    if (srv->hub)
        stream_hub_news(srv->hub, key);
    if (srv->tell_others) /* the same kind and id: the others map it to the same key */
        srv->tell_others(srv, kind, id);
}
