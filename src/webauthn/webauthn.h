/* What a server needs of WebAuthn (Web Authentication, Level 2) to take passkeys: the
 * authenticator data, the attestation object's authenticator data (its statement is not
 * checked: "none" attestation, as passkeys are made), an ES256 credential public key
 * (COSE_Key, RFC 9053: EC2, P-256) and an ES256 signature (ECDSA over SHA-256, ASN.1
 * DER) checked with OpenSSL's libcrypto.  CBOR is read with Debian's libcbor.  Knows no
 * server and no store. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WEBAUTHN_CRED_ID_MAX 255 /* bytes of a credential id kept (the spec allows 1023) */

/* The authenticator data's flags (bits of its byte 32). */
#define WEBAUTHN_FLAG_UP 0x01 /* user present */
#define WEBAUTHN_FLAG_UV 0x04 /* user verified */
#define WEBAUTHN_FLAG_AT 0x40 /* attested credential data follows */
#define WEBAUTHN_FLAG_ED 0x80 /* extensions follow */

/* A P-256 public key: its affine coordinates, big-endian. */
struct webauthn_key {
    unsigned char x[32], y[32];
};

/* The authenticator data (WebAuthn §6.1):
 *   rpIdHash (32) | flags (1) | signCount (4, big-endian)
 *   [ aaguid (16) | credentialIdLength (2) | credentialId | credentialPublicKey (COSE) ]
 *   [ extensions (CBOR map) ]                                                           */
struct webauthn_auth_data {
    unsigned char rp_id_hash[32];
    unsigned flags;
    uint32_t sign_count;
    bool has_credential; /* AT: the credential below was read */
    unsigned char cred_id[WEBAUTHN_CRED_ID_MAX];
    size_t cred_id_len;
    struct webauthn_key key;
};

/* An ES256 COSE_Key at cbor (a map {1: 2, 3: -7, -1: 1, -2: x, -3: y}) into out, *used its
 * bytes.  0, or -1 with one line in err (another algorithm, curve or key type, a bad
 * coordinate length, malformed CBOR). */
int webauthn_cose_es256(const unsigned char *cbor, size_t len, struct webauthn_key *out,
                        size_t *used, char *err, size_t err_size);
/* Authenticator data of len bytes into out: 0, or -1 with err. */
int webauthn_auth_data(const unsigned char *data, size_t len, struct webauthn_auth_data *out,
                       char *err, size_t err_size);
/* An attestation object (a CBOR map {"fmt", "attStmt", "authData"}): its authenticator
 * data, which must carry a credential.  0, or -1 with err. */
int webauthn_attestation(const unsigned char *cbor, size_t len, struct webauthn_auth_data *out,
                         char *err, size_t err_size);
/* Whether `sig` (ASN.1 DER ECDSA) signs `data` under key with SHA-256: 1 yes, 0 no (a
 * tampered signature or data, another key, a malformed signature), -1 when the key is
 * not a point of P-256. */
int webauthn_verify_es256(const struct webauthn_key *key, const unsigned char *data, size_t len,
                          const unsigned char *sig, size_t sig_len);
/* SHA-256. */
void webauthn_sha256(const void *data, size_t len, unsigned char out[32]);
/* base64url without padding (RFC 4648 §5): decode into out (at most max bytes), *len;
 * 0, or -1 for a character outside the alphabet, padding, or too long. */
int webauthn_b64url_decode(const char *in, unsigned char *out, size_t max, size_t *len);
/* Encode len bytes into out (room for 4 * len / 3 + 4). */
void webauthn_b64url_encode(const unsigned char *in, size_t len, char *out);
