/* The WebAuthn parts a server needs (src/webauthn/), with vectors made here: a P-256 key
 * made with OpenSSL signs, the signature verifies, a tampered one (or tampered data,
 * or another key) does not; a COSE_Key, authenticator data and an attestation object
 * built byte by byte are read back, and broken ones are refused; base64url both ways. */
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <string.h>

#include "harness.h"
#include "webauthn/webauthn.h"

/* A fresh P-256 key and its public point as a webauthn_key. */
static EVP_PKEY *new_key(struct webauthn_key *pub)
{
    EVP_PKEY *k = EVP_EC_gen("P-256");
    unsigned char point[65];
    size_t n = 0;
    if (!k ||
        !EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &n) ||
        n != 65) {
        EVP_PKEY_free(k);
        return NULL;
    }
    memcpy(pub->x, point + 1, 32);
    memcpy(pub->y, point + 33, 32);
    return k;
}

static size_t sign(EVP_PKEY *k, const unsigned char *data, size_t len, unsigned char *sig,
                   size_t max)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    size_t n = max;
    int ok = md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, k) == 1 &&
             EVP_DigestSign(md, sig, &n, data, len) == 1;
    EVP_MD_CTX_free(md);
    return ok ? n : 0;
}

TEST(webauthn_es256_verifies_and_refuses_tampering)
{
    struct webauthn_key pub, other;
    EVP_PKEY *k = new_key(&pub), *k2 = new_key(&other);
    CHECK(k && k2);
    if (!k || !k2)
        return;
    const unsigned char data[] = "authenticator data, then the hash of the client data";
    unsigned char sig[128];
    size_t n = sign(k, data, sizeof data, sig, sizeof sig);
    CHECK(n > 8);
    CHECK_EQ_INT(webauthn_verify_es256(&pub, data, sizeof data, sig, n), 1);
    unsigned char bad[128];
    memcpy(bad, sig, n);
    bad[n - 3] ^= 0x01; /* tampered signature */
    CHECK_EQ_INT(webauthn_verify_es256(&pub, data, sizeof data, bad, n), 0);
    unsigned char data2[sizeof data];
    memcpy(data2, data, sizeof data);
    data2[0] ^= 0x80; /* tampered data */
    CHECK_EQ_INT(webauthn_verify_es256(&pub, data2, sizeof data2, sig, n), 0);
    CHECK_EQ_INT(webauthn_verify_es256(&other, data, sizeof data, sig, n), 0); /* another key */
    CHECK_EQ_INT(webauthn_verify_es256(&pub, data, sizeof data, sig, 5), 0);   /* cut short */
    struct webauthn_key off = pub;
    off.y[31] ^= 0x01; /* not a point of the curve */
    CHECK_EQ_INT(webauthn_verify_es256(&off, data, sizeof data, sig, n), -1);
    EVP_PKEY_free(k);
    EVP_PKEY_free(k2);
}

/* The COSE_Key of x (32 bytes of 0x11) and y (32 bytes of 0x22): a map of 5 pairs. */
static size_t cose(unsigned char *out, int alg_rs256)
{
    size_t n = 0;
    const unsigned char head[] = {0xa5, 0x01, 0x02, 0x03};
    memcpy(out, head, sizeof head);
    n = sizeof head;
    if (alg_rs256) { /* -257: 0x39 0x01 0x00 */
        out[n++] = 0x39;
        out[n++] = 0x01;
        out[n++] = 0x00;
    } else {
        out[n++] = 0x26; /* -7 */
    }
    out[n++] = 0x20; /* -1: crv */
    out[n++] = 0x01; /* P-256 */
    out[n++] = 0x21; /* -2: x */
    out[n++] = 0x58;
    out[n++] = 32;
    memset(out + n, 0x11, 32);
    n += 32;
    out[n++] = 0x22; /* -3: y */
    out[n++] = 0x58;
    out[n++] = 32;
    memset(out + n, 0x22, 32);
    return n + 32;
}

TEST(webauthn_reads_cose_auth_data_and_attestation)
{
    unsigned char key[128];
    size_t klen = cose(key, 0), used = 0;
    struct webauthn_key k;
    char err[160];
    CHECK_EQ_INT(webauthn_cose_es256(key, klen, &k, &used, err, sizeof err), 0);
    CHECK_EQ_INT((long long)used, (long long)klen);
    CHECK(k.x[0] == 0x11 && k.x[31] == 0x11 && k.y[0] == 0x22 && k.y[31] == 0x22);
    unsigned char rs[128];
    size_t rlen = cose(rs, 1);
    CHECK_EQ_INT(webauthn_cose_es256(rs, rlen, &k, &used, err, sizeof err), -1);
    CHECK(strstr(err, "ES256") != NULL);
    CHECK_EQ_INT(webauthn_cose_es256(key, klen - 10, &k, &used, err, sizeof err), -1);
    const unsigned char junk[] = {0xff, 0x00};
    CHECK_EQ_INT(webauthn_cose_es256(junk, sizeof junk, &k, &used, err, sizeof err), -1);
    /* Authenticator data with a credential of 16 bytes. */
    unsigned char ad[256];
    size_t n = 0;
    memset(ad, 0xab, 32); /* rpIdHash */
    n = 32;
    ad[n++] = WEBAUTHN_FLAG_UP | WEBAUTHN_FLAG_UV | WEBAUTHN_FLAG_AT;
    ad[n++] = 0, ad[n++] = 0, ad[n++] = 1, ad[n++] = 2; /* signCount 258 */
    memset(ad + n, 0, 16);                              /* aaguid */
    n += 16;
    ad[n++] = 0, ad[n++] = 16;
    for (int i = 0; i < 16; i++)
        ad[n++] = (unsigned char)i;
    memcpy(ad + n, key, klen);
    n += klen;
    struct webauthn_auth_data a;
    CHECK_EQ_INT(webauthn_auth_data(ad, n, &a, err, sizeof err), 0);
    CHECK_EQ_INT(a.sign_count, 258);
    CHECK(a.has_credential && a.cred_id_len == 16 && a.cred_id[15] == 15);
    CHECK(a.key.y[5] == 0x22 && a.rp_id_hash[0] == 0xab);
    CHECK_EQ_INT(webauthn_auth_data(ad, n - 1, &a, err, sizeof err), -1); /* cut short */
    unsigned char longer[260];
    memcpy(longer, ad, n);
    longer[n] = 0;
    CHECK_EQ_INT(webauthn_auth_data(longer, n + 1, &a, err, sizeof err), -1); /* left over */
    CHECK_EQ_INT(webauthn_auth_data(ad, 36, &a, err, sizeof err), -1);
    /* The attestation object {"fmt": "none", "attStmt": {}, "authData": ad}. */
    unsigned char att[400];
    size_t m = 0;
    const unsigned char head[] = {0xa3, 0x63, 'f', 'm', 't', 0x64, 'n', 'o', 'n',  'e',
                                  0x67, 'a',  't', 't', 'S', 't',  'm', 't', 0xa0, 0x68,
                                  'a',  'u',  't', 'h', 'D', 'a',  't', 'a', 0x58};
    memcpy(att, head, sizeof head);
    m = sizeof head;
    att[m++] = (unsigned char)n;
    memcpy(att + m, ad, n);
    m += n;
    CHECK_EQ_INT(webauthn_attestation(att, m, &a, err, sizeof err), 0);
    CHECK(a.has_credential && a.cred_id_len == 16);
    CHECK_EQ_INT(webauthn_attestation(att, m - 4, &a, err, sizeof err), -1);
    att[1] = 0x64; /* "fmt" becomes a 4-byte text: the map no longer reads */
    CHECK_EQ_INT(webauthn_attestation(att, m, &a, err, sizeof err), -1);
}

TEST(webauthn_base64url_both_ways)
{
    const unsigned char in[] = {0xfb, 0xff, 0x00, 0x10, 0x7e};
    char text[16];
    webauthn_b64url_encode(in, sizeof in, text);
    CHECK_STR(text, "-_8AEH4");
    unsigned char out[8];
    size_t n = 0;
    CHECK_EQ_INT(webauthn_b64url_decode(text, out, sizeof out, &n), 0);
    CHECK_EQ_INT((long long)n, 5);
    CHECK(memcmp(in, out, 5) == 0);
    CHECK_EQ_INT(webauthn_b64url_decode("ab=", out, sizeof out, &n), -1);
    CHECK_EQ_INT(webauthn_b64url_decode("a+b", out, sizeof out, &n), -1);
    CHECK_EQ_INT(webauthn_b64url_decode("abcdefghijklmnop", out, 4, &n), -1);
}
