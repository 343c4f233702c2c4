/* The bench-signature test: every registered game's `agora bench` signatures (the
 * seeded playouts' plies and the fixed-depth search's nodes, at bench's defaults)
 * against tests/bench-signatures.txt, which says the format.  Heavy: the optimised
 * build runs it (a few seconds). */
#include <inttypes.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "games/registry.h"
#include "harness.h"

#define SIGNATURES_PATH "tests/bench-signatures.txt"
#define SIGNATURES_RULE                                                                            \
    "a change that alters search behaviour updates tests/bench-signatures.txt and says so in "     \
    "its commit message"
#define SIGNATURES_MAX 64

struct signature {
    char game[32];
    char kind[16];
    uint64_t value;
    int line;
};

/* The file's signature lines into sig[]: their count, or -1 (after failing the test)
 * when the file cannot be read. */
static int read_signatures(struct test_ctx *t__, struct signature *sig)
{
    FILE *f = fopen(SIGNATURES_PATH, "r");
    if (!f) {
        CHECK_MSG(0, "cannot open %s (run from the top of the checkout)", SIGNATURES_PATH);
        return -1;
    }
    char text[256];
    int n = 0;
    for (int line = 1; fgets(text, sizeof text, f); line++) {
        char *p = text + strspn(text, " \t");
        if (*p == '#' || *p == '\n' || *p == 0)
            continue;
        struct signature s = {.line = line};
        char extra;
        int fields = sscanf(p, "%31s %15s %" SCNu64 " %c", s.game, s.kind, &s.value, &extra);
        if (fields != 3 || (strcmp(s.kind, "playouts") && strcmp(s.kind, "search"))) {
            CHECK_MSG(0, "%s:%d: expected 'GAME playouts|search NUMBER'", SIGNATURES_PATH, line);
            continue;
        }
        if (!game_find(s.game)) {
            CHECK_MSG(0, "%s:%d: no game '%s'", SIGNATURES_PATH, line, s.game);
            continue;
        }
        if (n == SIGNATURES_MAX) {
            CHECK_MSG(0, "%s: more than %d signatures", SIGNATURES_PATH, SIGNATURES_MAX);
            break;
        }
        sig[n++] = s;
    }
    fclose(f);
    return n;
}

static void compare(struct test_ctx *t__, struct signature *sig, int n, const struct game *g,
                    const char *kind, uint64_t actual)
{
    struct signature *found = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(sig[i].kind, kind) || game_find(sig[i].game) != g)
            continue;
        if (found)
            CHECK_MSG(0, "%s:%d: a second '%s %s' line (the first is line %d)", SIGNATURES_PATH,
                      sig[i].line, g->name, kind, found->line);
        else
            found = &sig[i];
    }
    if (!found)
        CHECK_MSG(0, "%s %s signature: none in %s, actual %" PRIu64 ": " SIGNATURES_RULE, g->name,
                  kind, SIGNATURES_PATH, actual);
    else
        CHECK_MSG(found->value == actual,
                  "%s %s signature: expected %" PRIu64 " (%s:%d), actual %" PRIu64
                  ": " SIGNATURES_RULE,
                  g->name, kind, found->value, SIGNATURES_PATH, found->line, actual);
}

TEST_HEAVY(bench_signatures)
{
    struct signature sig[SIGNATURES_MAX];
    int n = read_signatures(TEST_CTX, sig);
    if (n < 0)
        return;
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        struct bench_run b;
        bench_playouts(g, BENCH_PLAYOUTS, BENCH_SEED, NULL, &b);
        compare(TEST_CTX, sig, n, g, "playouts", b.signature);
        bench_search(g, 0, &b);
        compare(TEST_CTX, sig, n, g, "search", b.signature);
    }
}
