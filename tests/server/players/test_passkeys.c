/* Passkeys (issue 28 item 2) against a real server on loopback, with a software
 * authenticator made here (an OpenSSL P-256 key, the CBOR built byte by byte): a passkey
 * registered by the player signs another device in as them; a foreign passkey, a bad
 * signature, a replayed challenge, another site's passkey and a counter going back are
 * refused, changing nothing; a passkey revoked signs no one in. */
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"
#include "webauthn/webauthn.h"

#define ORIGIN "http://127.0.0.1" /* the tests' client sends Host: 127.0.0.1 */

struct authenticator {
    EVP_PKEY *key;
    unsigned char x[32], y[32], cred[16];
    uint32_t count;
};

static int make_authenticator(struct authenticator *a, unsigned char first)
{
    a->key = EVP_EC_gen("P-256");
    unsigned char point[65];
    size_t n = 0;
    if (!a->key ||
        !EVP_PKEY_get_octet_string_param(a->key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &n))
        return -1;
    memcpy(a->x, point + 1, 32);
    memcpy(a->y, point + 33, 32);
    for (int i = 0; i < 16; i++)
        a->cred[i] = (unsigned char)(first + i);
    a->count = 0;
    return 0;
}

/* Authenticator data for rp: with the credential (registering) or not; its length. */
static size_t auth_data(const struct authenticator *a, const char *rp, bool with_cred,
                        unsigned char *out)
{
    size_t n = 32;
    webauthn_sha256(rp, strlen(rp), out);
    out[n++] = (unsigned char)(WEBAUTHN_FLAG_UP | WEBAUTHN_FLAG_UV | (with_cred ? 0x40 : 0));
    out[n++] = (unsigned char)(a->count >> 24), out[n++] = (unsigned char)(a->count >> 16);
    out[n++] = (unsigned char)(a->count >> 8), out[n++] = (unsigned char)a->count;
    if (!with_cred)
        return n;
    memset(out + n, 0, 16);
    n += 16;
    out[n++] = 0, out[n++] = 16;
    memcpy(out + n, a->cred, 16);
    n += 16;
    const unsigned char head[] = {0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20};
    memcpy(out + n, head, sizeof head);
    n += sizeof head;
    memcpy(out + n, a->x, 32);
    n += 32;
    out[n++] = 0x22, out[n++] = 0x58, out[n++] = 0x20;
    memcpy(out + n, a->y, 32);
    return n + 32;
}

static void b64(const unsigned char *in, size_t len, char *out)
{
    webauthn_b64url_encode(in, len, out);
}

static size_t client_data(const char *type, const char *challenge, const char *origin, char *out)
{
    return (size_t)sprintf(out, "{\"type\":\"%s\",\"challenge\":\"%s\",\"origin\":\"%s\"}", type,
                           challenge, origin);
}

/* POST /api/me/passkeys with a registration of a for the token: the status. */
static int register_key(int port, const char *token, const struct authenticator *a, const char *rp)
{
    json_t *j = NULL;
    if (api_call(port, "POST", "/api/me/passkeys/options", token, "{}", &j) != 200)
        return -1;
    char challenge[64], cd[300], cd64[420], att64[600], body[1200];
    snprintf(challenge, sizeof challenge, "%s", fx_str(j, "challenge"));
    json_decref(j);
    size_t cdn = client_data("webauthn.create", challenge, ORIGIN, cd);
    b64((unsigned char *)cd, cdn, cd64);
    unsigned char ad[300], att[400];
    size_t adn = auth_data(a, rp, true, ad), m = 0;
    const unsigned char head[] = {0xa3, 0x63, 'f', 'm', 't', 0x64, 'n', 'o', 'n',  'e',
                                  0x67, 'a',  't', 't', 'S', 't',  'm', 't', 0xa0, 0x68,
                                  'a',  'u',  't', 'h', 'D', 'a',  't', 'a', 0x58};
    memcpy(att, head, sizeof head);
    m = sizeof head;
    att[m++] = (unsigned char)adn;
    memcpy(att + m, ad, adn);
    m += adn;
    b64(att, m, att64);
    snprintf(body, sizeof body,
             "{\"clientDataJSON\":\"%s\",\"attestationObject\":\"%s\",\"name\":\"laptop\"}", cd64,
             att64);
    return api_call(port, "POST", "/api/me/passkeys", token, body, NULL);
}

/* A sign-in assertion of a (its counter moved on by `step`), its signature tampered
 * when asked; the status and *out. */
static int sign_in(int port, struct authenticator *a, int step, bool tamper, const char *challenge,
                   json_t **out)
{
    char ch[64], cd[300], cd64[420], ad64[200], sig64[200], id64[40], body[1400];
    json_t *j = NULL;
    if (!challenge) {
        if (api_call(port, "POST", "/api/signin/passkey/options", NULL, "{}", &j) != 200)
            return -1;
        snprintf(ch, sizeof ch, "%s", fx_str(j, "challenge"));
        json_decref(j);
    } else {
        snprintf(ch, sizeof ch, "%s", challenge);
    }
    a->count += (uint32_t)step;
    size_t cdn = client_data("webauthn.get", ch, ORIGIN, cd);
    unsigned char ad[64], data[128], sig[128];
    size_t adn = auth_data(a, "127.0.0.1", false, ad);
    memcpy(data, ad, adn);
    webauthn_sha256(cd, cdn, data + adn);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t sn = sizeof sig;
    EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, a->key);
    EVP_DigestSign(md, sig, &sn, data, adn + 32);
    EVP_MD_CTX_free(md);
    if (tamper)
        sig[sn - 2] ^= 0x01;
    b64((unsigned char *)cd, cdn, cd64);
    b64(ad, adn, ad64);
    b64(sig, sn, sig64);
    b64(a->cred, 16, id64);
    snprintf(body, sizeof body,
             "{\"id\":\"%s\",\"clientDataJSON\":\"%s\",\"authenticatorData\":\"%s\","
             "\"signature\":\"%s\",\"device\":\"tablet\"}",
             id64, cd64, ad64, sig64);
    if (challenge) { /* keep the challenge for a replay */
    }
    return api_call(port, "POST", "/api/signin/passkey", NULL, body, out);
}

TEST(server_passkeys_register_and_sign_in_elsewhere)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct authenticator a, foreign, other_site;
    CHECK_EQ_INT(make_authenticator(&a, 1), 0);
    CHECK_EQ_INT(make_authenticator(&foreign, 101), 0);
    CHECK_EQ_INT(make_authenticator(&other_site, 201), 0);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, "{\"name\":\"Pia\"}", &j), 200);
    char pia[40], pid[40];
    snprintf(pia, sizeof pia, "%s", fx_str(j, "token"));
    snprintf(pid, sizeof pid, "%s", fx_str(j, "id"));
    json_decref(j);
    /* Registration: another site's passkey is refused; Pia's is kept. */
    CHECK_EQ_INT(register_key(port, pia, &other_site, "elsewhere.example"), 403);
    CHECK_EQ_INT(register_key(port, pia, &a, "127.0.0.1"), 201);
    CHECK_EQ_INT(register_key(port, pia, &a, "127.0.0.1"), 403); /* the same twice */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me/passkeys", pia, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "passkeys")), 1);
    char pkid[64];
    snprintf(pkid, sizeof pkid, "%s",
             fx_str(json_array_get(json_object_get(j, "passkeys"), 0), "id"));
    json_decref(j);
    /* A foreign passkey, a bad signature: refused, no token. */
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &foreign, 1, false, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_passkey");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &a, 1, true, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_signature");
    CHECK(!json_object_get(j, "token"));
    json_decref(j);
    /* Signed in on another device: Pia. */
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &a, 1, false, NULL, &j), 200);
    char second[40];
    snprintf(second, sizeof second, "%s", fx_str(j, "token"));
    CHECK_STR(fx_str(j, "id"), pid);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/me", second, NULL, &j), 200);
    CHECK_STR(fx_str(j, "id"), pid);
    json_decref(j);
    /* A challenge used once; a counter that goes back (a cloned key). */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/signin/passkey/options", NULL, "{}", &j), 200);
    char ch[64];
    snprintf(ch, sizeof ch, "%s", fx_str(j, "challenge"));
    json_decref(j);
    CHECK_EQ_INT(sign_in(port, &a, 1, false, ch, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &a, 1, false, ch, &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_challenge");
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &a, -3, false, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_signature");
    json_decref(j);
    a.count += 3;
    /* Malformed input. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/signin/passkey", NULL, "{\"id\":\"x\"}", NULL), 400);
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/passkeys", pia,
                          "{\"clientDataJSON\":\"e30\",\"attestationObject\":\"_w\"}", NULL),
                 400);
    /* Revoked: it signs no one in. */
    char body[200];
    snprintf(body, sizeof body, "{\"id\":\"%s\"}", pkid);
    CHECK_EQ_INT(api_call(port, "POST", "/api/me/passkeys/revoke", pia, body, NULL), 200);
    j = NULL;
    CHECK_EQ_INT(sign_in(port, &a, 1, false, NULL, &j), 403);
    CHECK_STR(fx_str(j, "code"), "bad_passkey");
    json_decref(j);
    EVP_PKEY_free(a.key);
    EVP_PKEY_free(foreign.key);
    EVP_PKEY_free(other_site.key);
    server_stop(srv);
}
