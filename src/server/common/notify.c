#include "server/common/notify.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/json_out.h"
#include "server/common/stream_hub.h"
#include "server/server_state.h"
#include "store/store.h"

#define NOTICE_BODY_MAX 4096

_Static_assert(sizeof NOTIFY_KEY_PREFIX - 1 == NOTIFY_KEY_PREFIX_LEN, "the key's prefix length");

void notify_key(const char *token_hash, char *key, size_t size)
{
    snprintf(key, size, NOTIFY_KEY_PREFIX "%.32s", token_hash);
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
    char key[48];
    notify_key(token_hash, key, sizeof key);
    if (srv->hub)
        stream_hub_news(srv->hub, key);
    if (srv->tell_others) /* the player's pages open on other servers (outbox.c) */
        srv->tell_others(srv, NOTIFY_EVENT_KIND, key + NOTIFY_KEY_PREFIX_LEN);
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
