#include "server/common/notify.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/json_out.h"
#include "server/common/news.h"
#include "server/common/stream_hub.h"
#include "server/server_state.h"
#include "store/store.h"

#define NOTICE_BODY_MAX 4096

/* The id of a player's notifications in the hub and the outbox: the token's hash's
 * first 32 digits. */
static void notice_id(const char *token_hash, char id[33])
{
    snprintf(id, 33, "%.32s", token_hash);
}

void notify_key(const char *token_hash, char *key, size_t size)
{
    char id[33];
    notice_id(token_hash, id);
    stream_hub_key(HUB_KIND_NOTICE, id, key, size);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int notify_player(struct server *srv, const char *token_hash, const char *kind, const char *body,
                  char *err, size_t err_size)
{
    if (strlen(kind) >= STORE_NOTICE_KIND_MAX || strlen(body) > NOTICE_BODY_MAX) {
        snprintf(err, err_size, "notification '%s' over its limits", kind);
        return -1;
    }
    int64_t id = 0;
    int rc = store_notify(srv->store, token_hash, kind, body, now_ms(), &id, err, err_size);
    if (rc == 0)
        notify_news(srv, token_hash);
    return rc;
}

void notify_news(struct server *srv, const char *token_hash)
{
    char id[33];
    notice_id(token_hash, id);
    news_everywhere(srv, HUB_KIND_NOTICE, id);
}

void notify_json(struct jout *j, const struct store_notice *n)
{
    jout_open(j, '{');
    jout_kint(j, "id", n->id);
    jout_kstr(j, "kind", n->kind);
    jout_kbool(j, "read", n->read != 0);
    jout_kint(j, "at", n->created_ms);
    jout_key(j, "data");
    jout_raw(j, n->body[0] == '{' ? n->body : "{}");
    jout_close(j, '}');
}
