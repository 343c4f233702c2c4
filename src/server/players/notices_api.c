#include "server/players/notices_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/api_util.h"
#include "server/common/notify.h"
#include "server/common/stream_hub.h"
#include "server/common/token.h"
#include "server/server_state.h"
#include "store/store.h"

#define NOTICES_LISTED 50

/* The player's hash (a device's token stands for its player): 0, or 403 with r set. */
static int player_hash(struct server *srv, const struct api_request *req, char *hash,
                       struct api_response *r)
{
    if (api_bearer_hash(srv, req, hash) != 0) {
        api_set_error_code(r, 403, "no_token", "missing or malformed token");
        return 403;
    }
    return 0;
}

static void one(void *ctx, const struct store_notice *n)
{
    notify_json(ctx, n);
}

void players_notices(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (player_hash(srv, req, hash, r) != 0)
        return;
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "notifications");
    jout_open(&j, '[');
    int unread = 0;
    int rc = store_list_notifications(srv->store, hash, 0, NOTICES_LISTED, &unread, one, &j, err,
                                      sizeof err);
    jout_close(&j, ']');
    jout_kint(&j, "unread", unread);
    jout_close(&j, '}');
    char *text = jout_finish(&j);
    if (rc != 0) {
        free(text);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, text);
}

void players_notices_read(struct server *srv, const struct api_request *req,
                          const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (player_hash(srv, req, hash, r) != 0)
        return;
    json_t *body = api_body_object(req, true, r);
    if (!body)
        return;
    json_t *ju = json_object_get(body, "upto");
    long long upto = ju ? (json_is_integer(ju) ? json_integer_value(ju) : -1) : 0;
    json_decref(body);
    if (upto < 0) {
        api_set_error(r, 400, "bad \"upto\": expected a notification's id, or none for all");
        return;
    }
    int marked = 0, unread = 0;
    int rc = store_read_notifications(srv->store, hash, upto, &marked, err, sizeof err);
    if (rc == 0)
        rc = store_list_notifications(srv->store, hash, 0, 0, &unread, one, NULL, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (marked > 0) /* the player's other pages show the count anew */
        notify_news(srv, hash);
    struct jout j;
    jout_init(&j, 64);
    jout_open(&j, '{');
    jout_kint(&j, "marked", marked);
    jout_kint(&j, "unread", unread);
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

void players_notice_events(struct server *srv, const struct api_request *req,
                           const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1];
    if (player_hash(srv, req, hash, r) != 0)
        return;
    r->kind = API_NOTICE_STREAM;
    snprintf(r->notice_hash, sizeof r->notice_hash, "%s", hash);
}
