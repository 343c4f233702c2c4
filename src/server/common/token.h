/* Secrets: random ids and tokens, and the hash under which a token is stored. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define TOKEN_HEX_LEN 32 /* 128 bits as lowercase hex */

/* `bytes` random bytes from getrandom(2) as 2*bytes hex digits + NUL in out; -1 if the
 * kernel gives none (never silently weaker randomness). */
int token_random_hex(char *out, size_t bytes);
/* A random 64-bit number (for engine seeds); -1 on failure. */
int token_random_u64(uint64_t *out);
/* 1 when text is exactly TOKEN_HEX_LEN lowercase hex digits. */
int token_well_formed(const char *text);
/* SHA-256 of text as 64 hex digits + NUL. */
void token_hash(const char *text, char out[65]);
/* Compare two NUL-terminated strings of equal length in time independent of their
 * contents; 1 when equal. */
int token_equal(const char *a, const char *b);
