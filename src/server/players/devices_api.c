/* The personal link (devices_api.h): a code of 128 random bits, kept only as its hash,
 * one a player (a new one replaces the old), valid for LINK_DAYS; opened on another
 * device (the page #/signin/CODE) it gives that device a token of its own, kept as a
 * device of the player's until revoked. */
#include "server/players/devices_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/api_util.h"
#include "server/common/qr.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

#define LINK_DAYS 7
#define DEVICE_NAME_MAX 60

static int me(struct server *srv, const struct api_request *req, char *hash, struct api_response *r)
{
    if (api_bearer_hash(srv, req, hash) != 0) {
        api_set_error_code(r, 403, "no_token", "missing or malformed token");
        return -1;
    }
    return 0;
}

/* "base": the site's address as the page sees it (http:// or https:// and a host), for
 * the link's URL in the QR code; absent: http:// and the request's Host. */
static int link_base(const struct api_request *req, json_t *body, char *out, size_t size,
                     struct api_response *r)
{
    json_t *jb = json_object_get(body, "base");
    const char *b = json_is_string(jb) ? json_string_value(jb) : NULL;
    if (!jb) {
        snprintf(out, size, "http://%s", req->host ? req->host : "localhost");
        return 0;
    }
    size_t skip = b && !strncmp(b, "https://", 8) ? 8 : b && !strncmp(b, "http://", 7) ? 7 : 0;
    bool ok = skip && strlen(b) > skip && strlen(b) < 200;
    for (const char *c = b ? b + skip : ""; ok && *c; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
             strchr(".-:[]", *c);
    if (!ok) {
        api_set_error(r, 400, "bad \"base\": expected http:// or https:// and a host name");
        return 400;
    }
    snprintf(out, size, "%s", b);
    return 0;
}

void players_link(struct server *srv, const struct api_request *req, const struct route_args *a,
                  struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX], base[256];
    if (me(srv, req, hash, r) != 0)
        return;
    json_t *body = api_body_object(req, true, r);
    if (!body)
        return;
    int bad = link_base(req, body, base, sizeof base, r);
    json_decref(body);
    if (bad)
        return;
    char code[TOKEN_HEX_LEN + 1], code_hash[STORE_HASH_LEN + 1];
    if (token_random_hex(code, TOKEN_HEX_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    token_hash(code, code_hash);
    int64_t now = server_now_ms(), expires = now + (int64_t)LINK_DAYS * 86400 * 1000;
    int rc = store_put_link(srv->store, hash, code_hash, now, expires, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    char path[80], url[400];
    snprintf(path, sizeof path, "/#/signin/%s", code);
    snprintf(url, sizeof url, "%s%s", base, path);
    char *svg = qr_svg(url, "QR code of your personal link");
    struct jout j;
    jout_init(&j, 8192);
    jout_open(&j, '{');
    jout_kstr(&j, "code", code);
    jout_kstr(&j, "path", path);
    jout_kstr(&j, "url", url);
    jout_kint(&j, "expires", expires);
    if (svg)
        jout_kstr(&j, "svg", svg);
    jout_close(&j, '}');
    free(svg);
    if (!svg) {
        free(jout_finish(&j));
        api_set_error(r, 500, "the QR code could not be made");
        return;
    }
    api_set_text(r, 201, jout_finish(&j));
}

void players_link_revoke(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (me(srv, req, hash, r) != 0)
        return;
    int rc = store_drop_link(srv->store, hash, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, strdup(rc == 0 ? "{\"revoked\":true}" : "{\"revoked\":false}"));
}

void players_signin(struct server *srv, const struct api_request *req, const struct route_args *a,
                    struct api_response *r)
{
    (void)a;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    json_t *jc = json_object_get(body, "code"), *jd = json_object_get(body, "device");
    const char *code = json_is_string(jc) ? json_string_value(jc) : "";
    char name[DEVICE_NAME_MAX + 1] = "";
    bool bad_name = jd && (!json_is_string(jd) || json_string_length(jd) > DEVICE_NAME_MAX ||
                           !utf8_valid(json_string_value(jd), json_string_length(jd)));
    for (size_t i = 0; !bad_name && jd && i < json_string_length(jd); i++)
        bad_name = (unsigned char)json_string_value(jd)[i] < 0x20;
    if (!bad_name && jd)
        snprintf(name, sizeof name, "%s", json_string_value(jd));
    bool bad_code = !token_well_formed(code);
    char code_hash[STORE_HASH_LEN + 1];
    if (!bad_code)
        token_hash(code, code_hash);
    json_decref(body);
    if (bad_code || bad_name) {
        api_set_error(r, 400,
                      bad_code ? "bad \"code\": expected the link's 32 hex digits"
                               : "bad \"device\": at most 60 bytes of text");
        return;
    }
    char token[TOKEN_HEX_LEN + 1], token_h[STORE_HASH_LEN + 1], player[STORE_HASH_LEN + 1];
    char err[ERROR_TEXT_MAX];
    if (token_random_hex(token, TOKEN_HEX_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    token_hash(token, token_h);
    int rc = store_device_add(srv->store, code_hash, token_h, name, server_now_ms(), player, err,
                              sizeof err);
    if (rc == 1) {
        api_set_error_code(r, 403, "bad_link",
                           "this link signs no one in: it was revoked, replaced or never made");
        return;
    }
    if (rc == 2) {
        api_set_error_code(r, 403, "link_expired",
                           "this link has expired: make a new one on your other device");
        return;
    }
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    struct store_player p;
    int known = store_player_by_hash(srv->store, player, &p, err, sizeof err) == 0;
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "token", token);
    char id[17];
    snprintf(id, sizeof id, "%.16s", token_h);
    jout_kstr(&j, "device", id);
    if (known) {
        jout_kstr(&j, "name", p.name);
        jout_kstr(&j, "id", p.id);
    }
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

static void device_one(void *ctx, const struct store_device *d)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "id", d->id);
    jout_kstr(j, "name", d->name);
    jout_kint(j, "created", d->created_ms);
    jout_close(j, '}');
}

/* The player's devices: {"devices", "this"} ("this": the device asking, or null for the
 * player's own first token). */
static void reply_devices(struct server *srv, const struct api_request *req, const char *hash,
                          int status, struct api_response *r)
{
    char err[ERROR_TEXT_MAX], own[STORE_HASH_LEN + 1];
    token_hash(api_bearer(req), own);
    struct jout j;
    jout_init(&j, 2048);
    jout_open(&j, '{');
    jout_key(&j, "devices");
    jout_open(&j, '[');
    int rc = store_list_devices(srv->store, hash, device_one, &j, err, sizeof err);
    jout_close(&j, ']');
    char id[17];
    snprintf(id, sizeof id, "%.16s", own);
    if (strcmp(own, hash) != 0)
        jout_kstr(&j, "this", id);
    else {
        jout_key(&j, "this");
        jout_null(&j);
    }
    jout_close(&j, '}');
    char *text = jout_finish(&j);
    if (rc != 0) {
        free(text);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, status, text);
}

void players_devices(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1];
    if (me(srv, req, hash, r) == 0)
        reply_devices(srv, req, hash, 200, r);
}

/* The first token revoked: the player's data moves under a key no token hashes to (the
 * hash of 128 random bits nobody keeps), so only their devices reach it from now on. */
static void revoke_first(struct server *srv, const struct api_request *req, const char *hash,
                         struct api_response *r)
{
    char own[STORE_HASH_LEN + 1], key[STORE_HASH_LEN + 1], secret[TOKEN_HEX_LEN + 1];
    char err[ERROR_TEXT_MAX];
    token_hash(api_bearer(req), own);
    if (token_random_hex(secret, TOKEN_HEX_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    token_hash(secret, key);
    int rc = store_rekey_player(srv->store, hash, key, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error(r, 500, "a new key collided: try again");
        return;
    }
    cache_rekey(srv, hash, key);
    if (!strcmp(own, hash)) { /* the first device signed itself out */
        api_set_text(r, 200, strdup("{\"devices\":[],\"this\":null,\"signed_out\":true}"));
        return;
    }
    reply_devices(srv, req, key, 200, r);
}

void players_device_revoke(struct server *srv, const struct api_request *req,
                           const struct route_args *a, struct api_response *r)
{
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (me(srv, req, hash, r) != 0)
        return;
    const char *id = a->param[0];
    if (!strcmp(id, "first")) { /* the player's first token (API.md "Devices") */
        revoke_first(srv, req, hash, r);
        return;
    }
    if (strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16) {
        api_set_error_code(r, 404, "no_device", "no device '%.20s' of yours", id);
        return;
    }
    int rc = store_drop_device(srv->store, hash, id, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error_code(r, 404, "no_device", "no device '%s' of yours", id);
        return;
    }
    /* A device that revoked itself (signed out) is no one now: the list of its player
     * is not its to read. */
    char own[STORE_HASH_LEN + 1];
    token_hash(api_bearer(req), own);
    if (!strncmp(own, id, 16)) {
        api_set_text(r, 200, strdup("{\"devices\":[],\"this\":null,\"signed_out\":true}"));
        return;
    }
    reply_devices(srv, req, hash, 200, r);
}
