/* The test harness: TEST(name) { ... } anywhere under tests/ is found by the
 * Makefile (grep) and run by tests/main.c; no registration needed.
 *
 *   TEST(egara_perft) { CHECK_EQ_U64(perft(...), 11749); }
 *   TEST_HEAVY(chess_perft_suite) { ... }   only in the optimised build (tests/run)
 *   SKIP("why") inside a test marks it skipped (e.g. ../shared/data is absent).
 *
 * A failed check reports file:line and the values, and the test goes on, so one
 * run shows every failure of a test. */
#pragma once

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct test_ctx {
    const char *name;
    int failures;
    int skipped;
};

void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void test_skip(struct test_ctx *t, const char *why);
/* The folder ../shared/data (or $AGORA_DATA), or NULL when it is not there. */
const char *test_data_dir(void);

#define TEST(name) void test_##name(struct test_ctx *t__)
#define TEST_HEAVY(name) void test_##name(struct test_ctx *t__)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(t__, __FILE__, __LINE__, "CHECK(%s)", #cond);                                \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            test_fail(t__, __FILE__, __LINE__, __VA_ARGS__);                                       \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long a__ = (long long)(a), b__ = (long long)(b);                                      \
        if (a__ != b__)                                                                            \
            test_fail(t__, __FILE__, __LINE__, "%s == %lld, expected %s == %lld", #a, a__, #b,     \
                      b__);                                                                        \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
    do {                                                                                           \
        uint64_t a__ = (uint64_t)(a), b__ = (uint64_t)(b);                                         \
        if (a__ != b__)                                                                            \
            test_fail(t__, __FILE__, __LINE__, "%s == %" PRIu64 ", expected %" PRIu64, #a, a__,    \
                      b__);                                                                        \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *a__ = (a), *b__ = (b);                                                         \
        if (!a__ || !b__ || strcmp(a__, b__) != 0)                                                 \
            test_fail(t__, __FILE__, __LINE__, "%s == \"%s\", expected \"%s\"", #a,                \
                      a__ ? a__ : "(null)", b__ ? b__ : "(null)");                                 \
    } while (0)

/* The test's context, for helper functions that check on a test's behalf. */
#define TEST_CTX t__
#define SKIP(why)                                                                                  \
    do {                                                                                           \
        test_skip(t__, why);                                                                       \
        return;                                                                                    \
    } while (0)
