/* The test runner.  Usage: agora-tests [--light | --heavy] [NAME-SUBSTRING...]
 *   --light  every TEST (the sanitizer build runs these)
 *   --heavy  every TEST_HEAVY (the optimised build runs these)
 *   NAME-SUBSTRING...  only the tests whose name holds one of them
 * Last line: "N passed, N failed, N skipped". */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "games/registry.h"
#include "harness.h"

#define TEST_ENTRY(name, heavy) void test_##name(struct test_ctx *);
#include "test_list.h"
#undef TEST_ENTRY

struct test_entry {
    const char *name;
    void (*run)(struct test_ctx *);
    int heavy;
};

static const struct test_entry tests[] = {
#define TEST_ENTRY(name, heavy) {#name, test_##name, heavy},
#include "test_list.h"
#undef TEST_ENTRY
};

void test_fail(struct test_ctx *t, const char *file, int line, const char *fmt, ...)
{
    if (t->failures < 20) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stdout, "  %s: %s:%d: ", t->name, file, line);
        vfprintf(stdout, fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    }
    t->failures++;
}

void test_skip(struct test_ctx *t, const char *why)
{
    fprintf(stdout, "  %s: skipped: %s\n", t->name, why);
    t->skipped = 1;
}

const char *test_data_dir(void)
{
    static const char *const candidates[] = {NULL, "../shared/data", "../../shared/data"};
    const char *env = getenv("AGORA_DATA");
    struct stat sb;
    if (env)
        return stat(env, &sb) == 0 ? env : NULL;
    for (size_t i = 1; i < sizeof candidates / sizeof candidates[0]; i++)
        if (stat(candidates[i], &sb) == 0 && S_ISDIR(sb.st_mode))
            return candidates[i];
    return NULL;
}

int main(int argc, char **argv)
{
    int want_heavy = -1; /* -1: all */
    const char *filters[16];
    int n_filters = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--light"))
            want_heavy = 0;
        else if (!strcmp(argv[i], "--heavy"))
            want_heavy = 1;
        else if (n_filters < 16)
            filters[n_filters++] = argv[i];
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    games_init();
    int passed = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        const struct test_entry *e = &tests[i];
        bool named = n_filters == 0;
        for (int f = 0; f < n_filters && !named; f++)
            named = strstr(e->name, filters[f]) != NULL;
        if ((want_heavy >= 0 && e->heavy != want_heavy) || !named)
            continue;
        struct test_ctx t = {e->name, 0, 0};
        e->run(&t);
        if (t.failures) {
            printf("FAIL %s (%d failed checks)\n", e->name, t.failures);
            failed++;
        } else if (t.skipped) {
            skipped++;
        } else {
            printf("ok   %s\n", e->name);
            passed++;
        }
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
