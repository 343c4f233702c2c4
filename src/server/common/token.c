/* Random ids and tokens from getrandom(2), and SHA-256 (FIPS 180-4) so that the
 * database holds only hashes of players' tokens. */
#include "server/common/token.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static const char hex_digits[] = "0123456789abcdef";

static void to_hex(const uint8_t *in, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex_digits[in[i] >> 4];
        out[2 * i + 1] = hex_digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

static int fill_random(uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(buf + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

int token_random_hex(char *out, size_t bytes)
{
    uint8_t buf[64];
    if (bytes > sizeof buf || fill_random(buf, bytes) != 0)
        return -1;
    to_hex(buf, bytes, out);
    return 0;
}

int token_random_u64(uint64_t *out)
{
    uint8_t buf[8];
    if (fill_random(buf, sizeof buf) != 0)
        return -1;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | buf[i];
    *out = v;
    return 0;
}

int token_well_formed(const char *text)
{
    size_t n = 0;
    for (; text[n]; n++)
        if (n >= TOKEN_HEX_LEN || !strchr(hex_digits, text[n]))
            return 0;
    return n == TOKEN_HEX_LEN;
}

int token_equal(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb)
        return 0;
    unsigned diff = 0;
    for (size_t i = 0; i < la; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

/* SHA-256: the round constants are the first 32 bits of the fractional parts of the
 * cube roots of the first 64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
    return x >> n | x << (32 - n);
}

static void sha_block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t v[8];
    memcpy(v, h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t e = v[4], a = v[0];
        uint32_t t1 = v[7] + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & v[5]) ^ (~e & v[6])) +
                      sha_k[i] + w[i];
        uint32_t t2 =
            (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        h[i] += v[i];
}

void token_hash(const char *text, char out[65])
{
    /* Initial values: fractional parts of the square roots of the first 8 primes. */
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t len = strlen(text), i = 0;
    for (; i + 64 <= len; i += 64)
        sha_block(h, (const uint8_t *)text + i);
    uint8_t tail[128] = {0};
    size_t rest = len - i;
    memcpy(tail, text + i, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int k = 0; k < 8; k++)
        tail[tail_len - 1 - k] = (uint8_t)(bits >> (8 * k));
    for (size_t k = 0; k < tail_len; k += 64)
        sha_block(h, tail + k);
    uint8_t digest[32];
    for (int k = 0; k < 8; k++)
        for (int b = 0; b < 4; b++)
            digest[4 * k + b] = (uint8_t)(h[k] >> (24 - 8 * b));
    to_hex(digest, 32, out);
}
