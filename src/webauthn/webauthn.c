#include "webauthn/webauthn.h"

#include <cbor.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t err_size, const char *what)
{
    snprintf(err, err_size, "%s", what);
    return -1;
}

void webauthn_sha256(const void *data, size_t len, unsigned char out[32])
{
    SHA256(data, len, out);
}

/* ---- base64url ---- */

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int b64_value(char c)
{
    const char *p = c ? strchr(B64, c) : NULL;
    return p ? (int)(p - B64) : -1;
}

int webauthn_b64url_decode(const char *in, unsigned char *out, size_t max, size_t *len)
{
    size_t n = 0, bits = 0;
    unsigned acc = 0;
    for (const char *p = in; *p; p++) {
        int v = b64_value(*p);
        if (v < 0)
            return -1;
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n == max)
                return -1;
            out[n++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (bits >= 6) /* a lone character: no whole byte */
        return -1;
    *len = n;
    return 0;
}

void webauthn_b64url_encode(const unsigned char *in, size_t len, char *out)
{
    size_t o = 0;
    unsigned acc = 0, bits = 0;
    for (size_t i = 0; i < len; i++) {
        acc = (acc << 8) | in[i];
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out[o++] = B64[(acc >> bits) & 63];
        }
        acc &= (1u << bits) - 1;
    }
    if (bits)
        out[o++] = B64[(acc << (6 - bits)) & 63];
    out[o] = 0;
}

/* ---- CBOR (libcbor) ---- */

/* An integer item's value (negative ones too); false when it is none. */
static bool int_of(const cbor_item_t *it, int64_t *v)
{
    if (cbor_isa_uint(it)) {
        uint64_t u = cbor_get_int(it);
        if (u > INT64_MAX)
            return false;
        *v = (int64_t)u;
        return true;
    }
    if (cbor_isa_negint(it)) {
        uint64_t u = cbor_get_int(it);
        if (u > INT64_MAX - 1)
            return false;
        *v = -1 - (int64_t)u;
        return true;
    }
    return false;
}

/* A definite byte string's bytes; NULL when it is none. */
static const unsigned char *bytes_of(const cbor_item_t *it, size_t *len)
{
    if (!cbor_isa_bytestring(it) || !cbor_bytestring_is_definite(it))
        return NULL;
    *len = cbor_bytestring_length(it);
    return cbor_bytestring_handle(it);
}

int webauthn_cose_es256(const unsigned char *cbor, size_t len, struct webauthn_key *out,
                        size_t *used, char *err, size_t err_size)
{
    struct cbor_load_result res;
    cbor_item_t *map = cbor_load(cbor, len, &res);
    if (!map)
        return fail(err, err_size, "the credential public key is not CBOR");
    *used = res.read;
    int kty = 0, alg = 0, crv = 0, rc = -1;
    bool have_x = false, have_y = false;
    if (!cbor_isa_map(map) || !cbor_map_is_definite(map)) {
        fail(err, err_size, "the credential public key is not a CBOR map");
        goto done;
    }
    struct cbor_pair *pairs = cbor_map_handle(map);
    for (size_t i = 0; i < cbor_map_size(map); i++) {
        int64_t label, v;
        if (!int_of(pairs[i].key, &label))
            continue; /* text labels are not ES256's */
        size_t n = 0;
        const unsigned char *b = NULL;
        if (label == 1 && int_of(pairs[i].value, &v))
            kty = (int)v;
        else if (label == 3 && int_of(pairs[i].value, &v))
            alg = (int)v;
        else if (label == -1 && int_of(pairs[i].value, &v))
            crv = (int)v;
        else if ((label == -2 || label == -3) && (b = bytes_of(pairs[i].value, &n)) && n == 32) {
            memcpy(label == -2 ? out->x : out->y, b, 32);
            have_x |= label == -2;
            have_y |= label == -3;
        }
    }
    if (kty != 2 || alg != -7 || crv != 1)
        fail(err, err_size, "the credential public key is not ES256 (EC2, P-256, alg -7)");
    else if (!have_x || !have_y)
        fail(err, err_size, "the credential public key lacks a 32-byte x or y");
    else
        rc = 0;
done:
    cbor_decref(&map);
    return rc;
}

int webauthn_auth_data(const unsigned char *d, size_t len, struct webauthn_auth_data *out,
                       char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    if (len < 37)
        return fail(err, err_size, "the authenticator data is shorter than 37 bytes");
    memcpy(out->rp_id_hash, d, 32);
    out->flags = d[32];
    out->sign_count = (uint32_t)d[33] << 24 | (uint32_t)d[34] << 16 | (uint32_t)d[35] << 8 | d[36];
    size_t at = 37;
    if (out->flags & WEBAUTHN_FLAG_AT) {
        if (len < at + 18)
            return fail(err, err_size, "the attested credential data is cut short");
        at += 16; /* aaguid */
        size_t n = (size_t)d[at] << 8 | d[at + 1];
        at += 2;
        if (n == 0 || n > WEBAUTHN_CRED_ID_MAX || len < at + n)
            return fail(err, err_size, "the credential id is empty, too long or cut short");
        memcpy(out->cred_id, d + at, n);
        out->cred_id_len = n;
        at += n;
        size_t used = 0;
        if (webauthn_cose_es256(d + at, len - at, &out->key, &used, err, err_size) != 0)
            return -1;
        at += used;
        out->has_credential = true;
    }
    if (out->flags & WEBAUTHN_FLAG_ED) {
        struct cbor_load_result res;
        cbor_item_t *ext = cbor_load(d + at, len - at, &res);
        if (!ext)
            return fail(err, err_size, "the extensions are not CBOR");
        bool map = cbor_isa_map(ext);
        cbor_decref(&ext);
        if (!map)
            return fail(err, err_size, "the extensions are not a CBOR map");
        at += res.read;
    }
    if (at != len)
        return fail(err, err_size, "the authenticator data has bytes left over");
    return 0;
}

int webauthn_attestation(const unsigned char *cbor, size_t len, struct webauthn_auth_data *out,
                         char *err, size_t err_size)
{
    struct cbor_load_result res;
    cbor_item_t *map = cbor_load(cbor, len, &res);
    if (!map)
        return fail(err, err_size, "the attestation object is not CBOR");
    int rc = -1;
    const unsigned char *auth = NULL;
    size_t auth_len = 0;
    if (res.read != len || !cbor_isa_map(map) || !cbor_map_is_definite(map)) {
        fail(err, err_size, "the attestation object is not one CBOR map");
        goto done;
    }
    struct cbor_pair *pairs = cbor_map_handle(map);
    for (size_t i = 0; i < cbor_map_size(map); i++) {
        cbor_item_t *k = pairs[i].key;
        if (cbor_isa_string(k) && cbor_string_is_definite(k) && cbor_string_length(k) == 8 &&
            !memcmp(cbor_string_handle(k), "authData", 8))
            auth = bytes_of(pairs[i].value, &auth_len);
    }
    if (!auth)
        fail(err, err_size, "the attestation object has no authData");
    else if (webauthn_auth_data(auth, auth_len, out, err, err_size) == 0 && !out->has_credential)
        fail(err, err_size, "the attestation object's authData carries no credential");
    else if (out->has_credential)
        rc = 0;
done:
    cbor_decref(&map);
    return rc;
}

/* ---- ES256 (OpenSSL 3) ---- */

static EVP_PKEY *p256_key(const struct webauthn_key *key)
{
    unsigned char point[65];
    point[0] = 0x04; /* uncompressed: x then y */
    memcpy(point + 1, key->x, 32);
    memcpy(point + 33, key->y, 32);
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (bld && ctx &&
        OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point) &&
        (params = OSSL_PARAM_BLD_to_param(bld)) && EVP_PKEY_fromdata_init(ctx) > 0 &&
        EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        pkey = NULL;
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    EVP_PKEY_CTX_free(ctx);
    if (pkey) { /* a point off the curve is refused here */
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new(pkey, NULL);
        int ok = check && EVP_PKEY_public_check(check) == 1;
        EVP_PKEY_CTX_free(check);
        if (!ok) {
            EVP_PKEY_free(pkey);
            pkey = NULL;
        }
    }
    return pkey;
}

int webauthn_verify_es256(const struct webauthn_key *key, const unsigned char *data, size_t len,
                          const unsigned char *sig, size_t sig_len)
{
    EVP_PKEY *pkey = p256_key(key);
    if (!pkey)
        return -1;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    int ok = md && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pkey) == 1 &&
             EVP_DigestVerify(md, sig, sig_len, data, len) == 1;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pkey);
    return ok ? 1 : 0;
}
