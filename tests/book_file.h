/* Polyglot book files written by the tests (16-byte big-endian entries). */
#pragma once

#include <stdint.h>

#define TEST_BOOK_START_KEY 0x463b96181691fc9cULL /* the start position */

struct test_book_entry {
    uint64_t key;
    unsigned move, weight;
};

/* Polyglot move bits for a move from `from` to `to` ("e2", "e4"), promotion 0..4. */
unsigned test_book_move(const char *from, const char *to, unsigned promo);
/* A new temp file of `n` entries and `extra` stray zero bytes; its name in path
 * (at least 32 bytes; the caller unlinks it). */
void test_book_write(char *path, const struct test_book_entry *e, int n, int extra);
