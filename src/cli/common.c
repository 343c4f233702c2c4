#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engines/profile.h"
#include "games/registry.h"

int cli_error(struct cli_io *io, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("agora: ", io->err);
    vfprintf(io->err, fmt, ap);
    fputc('\n', io->err);
    va_end(ap);
    return CLI_BAD_INPUT;
}

const struct game *cli_game(struct cli_io *io, const char *name)
{
    const struct game *g = name ? game_find(name) : NULL;
    if (g)
        return g;
    char list[256] = "";
    for (int i = 0; game_registry[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, game_registry[i]->name, sizeof list - strlen(list) - 1);
    }
    cli_error(io, "unknown game '%s' (games: %s)", name ? name : "", list);
    return NULL;
}

void *cli_position(struct cli_io *io, const struct game *g, const char *text)
{
    void *st = game_state_new(g);
    if (!st) {
        cli_error(io, "out of memory");
        return NULL;
    }
    if (!text) {
        g->start(st);
        return st;
    }
    char err[ERROR_TEXT_MAX];
    if (g->parse_position(st, text, err, sizeof err) == 0)
        return st;
    cli_error(io, "bad %s position: %s", g->name, err);
    free(st);
    return NULL;
}

int cli_int(struct cli_io *io, const char *what, const char *text, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) {
        cli_error(io, "bad %s '%s' (expected a whole number from %ld to %ld)", what, text, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* One game's book into *list. */
static int open_book(struct cli_io *io, const struct engine_profile *p, const char *path,
                     struct engine_book **list)
{
    char err[ERROR_TEXT_MAX];
    const char *def = engine_book_default(p);
    if (!path && (!def || access(def, R_OK) != 0))
        return 0;
    if (engine_book_open(p, path, list, err, sizeof err) != 0) {
        if (path) {
            cli_error(io, "book: %s", err);
            return -1;
        }
        /* The default book is a nicety: a broken one is reported, not fatal. */
        fprintf(io->err, "agora: playing without an opening book: %s\n", err);
    }
    return 0;
}

int cli_book(struct cli_io *io, const struct game *g, const char *path, struct engine_book **out)
{
    *out = NULL;
    if (path && !strcmp(path, "none"))
        return 0;
    for (int i = 0; engine_profiles[i]; i++) {
        const struct engine_profile *p = engine_profiles[i];
        if (!p->book || (g && p->game != g))
            continue;
        if (open_book(io, p, path, out) != 0) {
            engine_book_close(*out);
            *out = NULL;
            return -1;
        }
    }
    return 0;
}

char *cli_read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
        }
    }
    if (buf)
        buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

double cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_texts(const void *a, const void *b)
{
    return strcmp(a, b);
}

void cli_sort_texts(char (*texts)[MOVE_TEXT_MAX], int n)
{
    qsort(texts, (size_t)n, MOVE_TEXT_MAX, compare_texts);
}

void cli_engine_options_default(struct cli_engine_options *e)
{
    const char *env = getenv("AGORA_ANALYSIS_ENGINE");
    *e = (struct cli_engine_options){.path = env && env[0] ? env : NULL};
}

int cli_engine_option(struct cli_io *io, const char *opt, const char *val,
                      struct cli_engine_options *e)
{
    long v;
    if (!strcmp(opt, "--analysis-engine")) {
        e->path = val;
    } else if (!strcmp(opt, "--analysis-engines")) {
        if (cli_int(io, "analysis-engines", val, 1, 64, &v) != 0)
            return -1;
        e->count = (int)v;
    } else if (!strcmp(opt, "--analysis-engine-ms")) {
        if (cli_int(io, "analysis-engine-ms", val, 10, 600000, &v) != 0)
            return -1;
        e->silence_ms = v;
    } else {
        return 0;
    }
    return 1;
}
