/* Passkeys (passkeys_api.h), after the WebAuthn Level 2 ceremonies (§7.1 registering a
 * credential, §7.2 verifying an assertion), for ES256 and "none" attestation:
 *
 *   the challenge   32 random bytes, base64url, given out once, for 5 minutes, kept in
 *                   the store (one use: taken when answered);
 *   the client data its type (webauthn.create / webauthn.get), the challenge given,
 *                   and the origin: this server's own (http:// or https:// and Host);
 *   the RP id       the Host's name without the port; the authenticator data's rpIdHash
 *                   is its SHA-256, and the user was present (UP);
 *   the signature   (sign-in) ES256 over authenticatorData || SHA-256(clientDataJSON),
 *                   under the key registered; the signature counter must grow (or both
 *                   stay 0), else the key was cloned. */
#include "server/players/passkeys_api.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"
#include "webauthn/webauthn.h"

#define CHALLENGE_MS (5 * 60 * 1000)
#define BLOB_MAX 4096 /* decoded bytes of one of the browser's fields */

static int me(struct server *srv, const struct api_request *req, char *hash, struct api_response *r)
{
    if (api_bearer_hash(srv, req, hash) != 0) {
        api_set_error_code(r, 403, "no_token", "missing or malformed token");
        return -1;
    }
    return 0;
}

/* The RP id: the request's Host without its port. */
static void rp_id(const struct api_request *req, char *out, size_t size)
{
    const char *h = req->host ? req->host : "localhost";
    size_t n = h[0] == '[' ? strcspn(h, "]") + 1 : strcspn(h, ":");
    snprintf(out, size, "%.*s", (int)n, h);
}

/* A new challenge for `player_hash` ("" a sign-in) into out (44 bytes); 0, or r set. */
static int new_challenge(struct server *srv, const char *player_hash, char *out,
                         struct api_response *r)
{
    char hex[65], err[ERROR_TEXT_MAX];
    unsigned char raw[32];
    if (token_random_hex(hex, 32) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return -1;
    }
    for (int i = 0; i < 32; i++)
        sscanf(hex + 2 * i, "%2hhx", &raw[i]);
    webauthn_b64url_encode(raw, 32, out);
    int rc = store_put_passkey_challenge(srv->store, out, player_hash,
                                         server_now_ms() + CHALLENGE_MS, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    return 0;
}

/* A base64url field of the body, decoded (malloc'ed, *len); NULL after a 400. */
static unsigned char *blob(json_t *body, const char *key, size_t *len, struct api_response *r)
{
    json_t *j = json_object_get(body, key);
    unsigned char *out = malloc(BLOB_MAX);
    if (out && json_is_string(j) &&
        webauthn_b64url_decode(json_string_value(j), out, BLOB_MAX, len) == 0 && *len > 0)
        return out;
    free(out);
    api_set_error(r, 400, "bad \"%s\": expected base64url (at most %d bytes)", key, BLOB_MAX);
    return NULL;
}

/* The client data (§7.1 steps 5-12, §7.2 steps 10-14): its type, the challenge (taken
 * from the store: *player_hash is whose it was) and the origin.  0, or r set. */
static int client_data(struct server *srv, const struct api_request *req, const unsigned char *cd,
                       size_t len, const char *type, char *player_hash, struct api_response *r)
{
    json_error_t jerr;
    json_t *c = json_loadb((const char *)cd, len, 0, &jerr);
    const char *t = json_string_value(json_object_get(c, "type"));
    const char *ch = json_string_value(json_object_get(c, "challenge"));
    const char *origin = json_string_value(json_object_get(c, "origin"));
    int rc = 0;
    char want[300], err[ERROR_TEXT_MAX];
    if (!c || !t || !ch || !origin || strcmp(t, type) != 0 || strlen(ch) > 64) {
        rc = (api_set_error_code(r, 403, "bad_challenge", "the client data is not this ceremony's"),
              -1);
    } else {
        const char *host = req->host ? req->host : "";
        bool same = false;
        snprintf(want, sizeof want, "http://%s", host);
        same |= !strcmp(origin, want);
        snprintf(want, sizeof want, "https://%s", host);
        same |= !strcmp(origin, want);
        if (!same)
            rc = (api_set_error_code(r, 403, "bad_challenge",
                                     "the client data's origin is not this server's"),
                  -1);
    }
    if (rc == 0) {
        int took = store_take_passkey_challenge(srv->store, ch, server_now_ms(), player_hash, err,
                                                sizeof err);
        if (took < 0) {
            api_store_error(r, took, "%s", err);
            rc = -1;
        } else if (took > 0) {
            rc = (api_set_error_code(r, 403, "bad_challenge",
                                     "the challenge is unknown, used or expired"),
                  -1);
        }
    }
    json_decref(c);
    return rc;
}

/* The authenticator data's RP id hash and user presence. */
static int rp_and_presence(const struct api_request *req, const struct webauthn_auth_data *a,
                           struct api_response *r)
{
    char rp[256];
    unsigned char h[32];
    rp_id(req, rp, sizeof rp);
    webauthn_sha256(rp, strlen(rp), h);
    if (memcmp(h, a->rp_id_hash, 32) != 0)
        return (api_set_error_code(r, 403, "bad_passkey", "the passkey is for another site"), -1);
    if (!(a->flags & WEBAUTHN_FLAG_UP))
        return (api_set_error_code(r, 403, "bad_passkey", "the user was not present"), -1);
    return 0;
}

void players_passkey_options(struct server *srv, const struct api_request *req,
                             const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], challenge[48], rp[256], err[ERROR_TEXT_MAX];
    if (me(srv, req, hash, r) != 0 || new_challenge(srv, hash, challenge, r) != 0)
        return;
    rp_id(req, rp, sizeof rp);
    struct store_player p;
    bool named = store_player_by_hash(srv->store, hash, &p, err, sizeof err) == 0;
    char user_id[32];
    unsigned char raw[16];
    for (int i = 0; i < 16; i++) /* the user handle: 16 bytes of the hash, no secret */
        sscanf(hash + 2 * i, "%2hhx", &raw[i]);
    webauthn_b64url_encode(raw, 16, user_id);
    struct jout j;
    jout_init(&j, 1024);
    jout_open(&j, '{');
    jout_kstr(&j, "challenge", challenge);
    jout_key(&j, "rp");
    jout_open(&j, '{');
    jout_kstr(&j, "id", rp);
    jout_kstr(&j, "name", "agora");
    jout_close(&j, '}');
    jout_key(&j, "user");
    jout_open(&j, '{');
    jout_kstr(&j, "id", user_id);
    jout_kstr(&j, "name", named ? p.name : "agora");
    jout_kstr(&j, "displayName", named ? p.name : "agora");
    jout_close(&j, '}');
    jout_key(&j, "pubKeyCredParams");
    jout_raw(&j, "[{\"type\":\"public-key\",\"alg\":-7}]");
    jout_kint(&j, "timeout", CHALLENGE_MS);
    jout_kstr(&j, "attestation", "none");
    jout_key(&j, "authenticatorSelection");
    jout_raw(&j, "{\"residentKey\":\"required\",\"userVerification\":\"preferred\"}");
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

/* A short text field (a passkey's or device's name): 0 (out "" when absent), or 400. */
static int name_field(json_t *body, const char *key, char *out, size_t size, struct api_response *r)
{
    json_t *j = json_object_get(body, key);
    out[0] = 0;
    if (!j)
        return 0;
    const char *s = json_string_value(j);
    bool bad = !s || json_string_length(j) >= size || !utf8_valid(s, json_string_length(j));
    for (size_t i = 0; !bad && s[i]; i++)
        bad = (unsigned char)s[i] < 0x20;
    if (bad) {
        api_set_error(r, 400, "bad \"%s\": at most %zu bytes of text", key, size - 1);
        return 400;
    }
    snprintf(out, size, "%s", s);
    return 0;
}

void players_passkey_add(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], owner[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (me(srv, req, hash, r) != 0)
        return;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    struct store_passkey pk;
    memset(&pk, 0, sizeof pk);
    size_t cd_len = 0, att_len = 0;
    unsigned char *cd = NULL, *att = NULL;
    int bad = name_field(body, "name", pk.name, 61, r);
    if (!bad && !(cd = blob(body, "clientDataJSON", &cd_len, r)))
        bad = 1;
    if (!bad && !(att = blob(body, "attestationObject", &att_len, r)))
        bad = 1;
    json_decref(body);
    struct webauthn_auth_data ad;
    if (!bad && webauthn_attestation(att, att_len, &ad, err, sizeof err) != 0) {
        api_set_error_code(r, 400, "bad_passkey", "bad \"attestationObject\": %s", err);
        bad = 1;
    }
    if (!bad && client_data(srv, req, cd, cd_len, "webauthn.create", owner, r) != 0)
        bad = 1;
    if (!bad && !token_equal(owner, hash))
        bad =
            (api_set_error_code(r, 403, "bad_challenge", "the challenge was given to someone else"),
             -1);
    if (!bad)
        bad = rp_and_presence(req, &ad, r) != 0;
    free(cd);
    free(att);
    if (bad)
        return;
    webauthn_b64url_encode(ad.cred_id, ad.cred_id_len, pk.id);
    snprintf(pk.player_hash, sizeof pk.player_hash, "%s", hash);
    for (int i = 0; i < 64; i++) /* x, then y */
        snprintf(pk.public_key + 2 * i, 3, "%02x", i < 32 ? ad.key.x[i] : ad.key.y[i - 32]);
    pk.sign_count = ad.sign_count;
    pk.created_ms = server_now_ms();
    int rc = store_add_passkey(srv->store, &pk, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error_code(r, 403, "bad_passkey", "this passkey is registered already");
        return;
    }
    struct jout j;
    jout_init(&j, 512);
    jout_open(&j, '{');
    jout_kstr(&j, "id", pk.id);
    jout_kstr(&j, "name", pk.name);
    jout_close(&j, '}');
    api_set_text(r, 201, jout_finish(&j));
}

static void passkey_one(void *ctx, const struct store_passkey *p)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "id", p->id);
    jout_kstr(j, "name", p->name);
    jout_kint(j, "created", p->created_ms);
    jout_kint(j, "used", p->used_ms);
    jout_close(j, '}');
}

static void reply_passkeys(struct server *srv, const char *hash, struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    struct jout j;
    jout_init(&j, 2048);
    jout_open(&j, '{');
    jout_key(&j, "passkeys");
    jout_open(&j, '[');
    int rc = store_list_passkeys(srv->store, hash, passkey_one, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *text = jout_finish(&j);
    if (rc != 0) {
        free(text);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, text);
}

void players_passkeys(struct server *srv, const struct api_request *req, const struct route_args *a,
                      struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1];
    if (me(srv, req, hash, r) == 0)
        reply_passkeys(srv, hash, r);
}

void players_passkey_revoke(struct server *srv, const struct api_request *req,
                            const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1], err[ERROR_TEXT_MAX];
    if (me(srv, req, hash, r) != 0)
        return;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    const char *id = json_string_value(json_object_get(body, "id"));
    char copy[STORE_PASSKEY_ID_MAX];
    bool ok = id && strlen(id) < sizeof copy;
    if (ok)
        snprintf(copy, sizeof copy, "%s", id);
    json_decref(body);
    if (!ok) {
        api_set_error(r, 400, "bad \"id\": expected a passkey's id");
        return;
    }
    int rc = store_drop_passkey(srv->store, hash, copy, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error_code(r, 404, "no_passkey", "no passkey of yours with that id");
        return;
    }
    reply_passkeys(srv, hash, r);
}

void players_signin_options(struct server *srv, const struct api_request *req,
                            const struct route_args *a, struct api_response *r)
{
    (void)a;
    char challenge[48], rp[256];
    if (new_challenge(srv, "", challenge, r) != 0)
        return;
    rp_id(req, rp, sizeof rp);
    struct jout j;
    jout_init(&j, 512);
    jout_open(&j, '{');
    jout_kstr(&j, "challenge", challenge);
    jout_kstr(&j, "rpId", rp);
    jout_kint(&j, "timeout", CHALLENGE_MS);
    jout_kstr(&j, "userVerification", "preferred");
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

static int hex_key(const char *hex, struct webauthn_key *k)
{
    if (strlen(hex) != 128)
        return -1;
    for (int i = 0; i < 32; i++)
        if (sscanf(hex + 2 * i, "%2hhx", &k->x[i]) != 1 ||
            sscanf(hex + 64 + 2 * i, "%2hhx", &k->y[i]) != 1)
            return -1;
    return 0;
}

void players_signin_passkey(struct server *srv, const struct api_request *req,
                            const struct route_args *a, struct api_response *r)
{
    (void)a;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    char err[ERROR_TEXT_MAX], device[61], owner[STORE_HASH_LEN + 1];
    const char *id = json_string_value(json_object_get(body, "id"));
    char cred[STORE_PASSKEY_ID_MAX] = "";
    size_t cd_len = 0, ad_len = 0, sig_len = 0;
    unsigned char *cd = NULL, *adb = NULL, *sig = NULL;
    int bad = 0;
    if (!id || strlen(id) >= sizeof cred) {
        api_set_error(r, 400, "bad \"id\": expected the passkey's credential id");
        bad = 1;
    } else {
        snprintf(cred, sizeof cred, "%s", id);
    }
    if (!bad)
        bad = name_field(body, "device", device, sizeof device, r);
    if (!bad && !(cd = blob(body, "clientDataJSON", &cd_len, r)))
        bad = 1;
    if (!bad && !(adb = blob(body, "authenticatorData", &ad_len, r)))
        bad = 1;
    if (!bad && !(sig = blob(body, "signature", &sig_len, r)))
        bad = 1;
    json_decref(body);
    struct store_passkey pk;
    struct webauthn_auth_data ad;
    struct webauthn_key key;
    int rc = 0;
    if (!bad && (rc = store_get_passkey(srv->store, cred, &pk, err, sizeof err)) != 0) {
        if (rc < 0)
            api_store_error(r, rc, "%s", err);
        else
            api_set_error_code(r, 403, "bad_passkey", "this passkey is no one's here");
        bad = 1;
    }
    if (!bad && webauthn_auth_data(adb, ad_len, &ad, err, sizeof err) != 0) {
        api_set_error_code(r, 400, "bad_passkey", "bad \"authenticatorData\": %s", err);
        bad = 1;
    }
    if (!bad && client_data(srv, req, cd, cd_len, "webauthn.get", owner, r) != 0)
        bad = 1;
    if (!bad && owner[0])
        bad = (api_set_error_code(r, 403, "bad_challenge",
                                  "the challenge was given for another ceremony"),
               -1);
    if (!bad)
        bad = rp_and_presence(req, &ad, r) != 0;
    if (!bad && hex_key(pk.public_key, &key) != 0) {
        api_set_error(r, 500, "passkey %s has a broken key", cred);
        bad = 1;
    }
    if (!bad) { /* §7.2 step 20: over authenticatorData || SHA-256(clientDataJSON) */
        unsigned char *signed_data = malloc(ad_len + 32);
        int ok = signed_data ? 1 : -1;
        if (signed_data) {
            memcpy(signed_data, adb, ad_len);
            webauthn_sha256(cd, cd_len, signed_data + ad_len);
            ok = webauthn_verify_es256(&key, signed_data, ad_len + 32, sig, sig_len);
        }
        free(signed_data);
        if (ok != 1)
            bad = (api_set_error_code(r, 403, "bad_signature",
                                      "the passkey's signature does not verify"),
                   -1);
    }
    free(cd);
    free(adb);
    free(sig);
    if (bad)
        return;
    rc = store_passkey_used(srv->store, cred, ad.sign_count, server_now_ms(), err, sizeof err);
    if (rc != 0) {
        if (rc < 0)
            api_store_error(r, rc, "%s", err);
        else
            api_set_error_code(r, 403, "bad_signature",
                               "the passkey's counter went back: a cloned key?");
        return;
    }
    char token[TOKEN_HEX_LEN + 1], token_h[STORE_HASH_LEN + 1];
    if (token_random_hex(token, TOKEN_HEX_LEN / 2) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    token_hash(token, token_h);
    rc = store_add_device(srv->store, token_h, pk.player_hash, device[0] ? device : pk.name,
                          server_now_ms(), err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    struct store_player p;
    int known = store_player_by_hash(srv->store, pk.player_hash, &p, err, sizeof err) == 0;
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kstr(&j, "token", token);
    char did[17];
    snprintf(did, sizeof did, "%.16s", token_h);
    jout_kstr(&j, "device", did);
    if (known) {
        jout_kstr(&j, "name", p.name);
        jout_kstr(&j, "id", p.id);
    }
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}
