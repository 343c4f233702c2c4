/* agora puzzles: make and prove puzzles (src/puzzles/).
 *
 *   agora puzzles generate GAME [--from FILE] [--selfplay N] [--seed N] [--out FILE]
 *                               [--target N] [--themes T,T..] [--blunders]
 *                               [--find-nodes N] [--prove-nodes N]
 *       puzzles from the records of FILE (the game's record format), or from N
 *       self-play games (default 100), appended to FILE (default stdout) one JSON line
 *       each; positions already in the file are not written again, and a self-play
 *       run resumes at the game FILE.progress names.  --themes: only puzzles with one
 *       of these themes (the game's names, comma-separated).  --blunders: self-play
 *       also judges the positions after the moves a game did not play that let the
 *       other side win at once (src/puzzles/generate.h).  Progress on stderr:
 *       positions judged, candidates found and proven, puzzles proven per core-minute.
 *   agora puzzles check FILE [--nodes N] [--jobs N]
 *       every puzzle proven again at its game's prove budget (or N nodes a search), on
 *       N threads (default 1; the verdicts are the same on any number): the
 *       same line, alternatives, themes, id (and at the prove budget the same first
 *       rating), and one puzzle per position in the file (puzzle_position_key); one
 *       line per failure naming the puzzle, a summary, and exit status 1 when any
 *       failed (2 for a line that does not read). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engines/engine.h"
#include "puzzles/generate.h"

#define CHECK_JOBS_MAX 64

#define PUZZLES_USAGE                                                                              \
    "usage: agora puzzles generate GAME [--from FILE] [--selfplay N] [--seed N] [--out FILE] "     \
    "[--target N] [--themes T,T..] [--blunders] [--find-nodes N] [--prove-nodes N] | agora "       \
    "puzzles check FILE [--nodes N] [--jobs N]"

#define PUZZLE_THEMES_WANTED_MAX 16

/* --themes T,T..: each one of g's theme names, into out[] (NULL-terminated, the names
 * in buf); *proven_only when each is a proven win's "X-in-N" (the first
 * PUZZLE_STEPS_MAX names). */
static int read_themes(struct cli_io *io, const struct game *g, const char *list, char *buf,
                       size_t size, const char **out, int *proven_only)
{
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    if (!rules || strlen(list) >= size)
        return cli_error(io, "puzzles: --themes: too long, or %s has no puzzles", g->name);
    strcpy(buf, list);
    int n = 0;
    *proven_only = 1;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (rules->theme_names[k] && strcmp(rules->theme_names[k], t) != 0)
            k++;
        if (!rules->theme_names[k])
            return cli_error(io, "puzzles: --themes: '%s' is no theme of %s", t, g->name);
        if (n == PUZZLE_THEMES_WANTED_MAX)
            return cli_error(io, "puzzles: --themes: at most %d", PUZZLE_THEMES_WANTED_MAX);
        *proven_only &= k < PUZZLE_STEPS_MAX;
        out[n++] = t;
    }
    if (!n)
        return cli_error(io, "puzzles: --themes: no theme named");
    out[n] = NULL;
    return 0;
}

static int generate(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1)
        return cli_error(io, PUZZLES_USAGE);
    const struct game *g = cli_game(io, argv[0]);
    if (!g)
        return CLI_BAD_INPUT;
    const char *from = NULL, *out = NULL, *themes = NULL;
    long selfplay = 100, seed = 1, target = 0, find = 0, prove = 0;
    static const char *const options[] = {"--from",       "--out",         "--selfplay",
                                          "--seed",       "--target",      "--themes",
                                          "--find-nodes", "--prove-nodes", NULL};
    int blunders = 0;
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--blunders") == 0) {
            blunders = 1;
            i--; /* a flag: no value */
            continue;
        }
        int known = 0;
        for (int k = 0; options[k]; k++)
            known |= strcmp(a, options[k]) == 0;
        if (!known)
            return cli_error(io, "puzzles: unknown option '%s'", a);
        if (!v)
            return cli_error(io, "puzzles: %s needs a value", a);
        int rc = 0;
        if (strcmp(a, "--from") == 0)
            from = v;
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--themes") == 0)
            themes = v;
        else if (strcmp(a, "--selfplay") == 0)
            rc = cli_int(io, "--selfplay", v, 1, 10000000, &selfplay);
        else if (strcmp(a, "--seed") == 0)
            rc = cli_int(io, "--seed", v, 0, 2000000000, &seed);
        else if (strcmp(a, "--target") == 0)
            rc = cli_int(io, "--target", v, 0, 100000000, &target);
        else if (strcmp(a, "--find-nodes") == 0)
            rc = cli_int(io, "--find-nodes", v, 1, 2000000000, &find);
        else if (strcmp(a, "--prove-nodes") == 0)
            rc = cli_int(io, "--prove-nodes", v, 1, 2000000000, &prove);
        else
            return cli_error(io, "puzzles: unknown option '%s'", a);
        if (rc)
            return CLI_BAD_INPUT;
    }
    const char *wanted[PUZZLE_THEMES_WANTED_MAX + 1];
    char theme_text[512];
    int proven_only = 1;
    if (themes &&
        read_themes(io, g, themes, theme_text, sizeof theme_text, wanted, &proven_only) != 0)
        return CLI_BAD_INPUT;
    char *text = NULL;
    if (from) {
        FILE *f = fopen(from, "r");
        if (!f)
            return cli_error(io, "puzzles: cannot open '%s'", from);
        text = cli_read_all(f, NULL);
        fclose(f);
        if (!text)
            return cli_error(io, "puzzles: out of memory");
    }
    struct puzzle_gen pg;
    char err[ERROR_TEXT_MAX];
    if (puzzle_gen_open(&pg, g, out, err, sizeof err) != 0) {
        puzzle_gen_close(&pg);
        free(text);
        return cli_error(io, "puzzles: %s", err);
    }
    if (find)
        pg.find_nodes = (uint64_t)find;
    if (prove)
        pg.prove_nodes = (uint64_t)prove;
    if (pg.prove_nodes <= pg.find_nodes) {
        puzzle_gen_close(&pg);
        free(text);
        return cli_error(io, "puzzles: the prove budget must exceed the find budget");
    }
    if (!out)
        pg.out = io->out;
    pg.log = io->err;
    pg.target = (int)target;
    pg.blunders = blunders;
    if (themes) {
        pg.themes = wanted;
        pg.proven_only = proven_only;
    }
    fprintf(io->err, "puzzles: %s, find %llu nodes, prove %llu nodes a search, %ld in file\n",
            g->name, (unsigned long long)pg.find_nodes, (unsigned long long)pg.prove_nodes,
            pg.total);
    int rc = from ? puzzle_gen_records(&pg, text, err, sizeof err)
                  : puzzle_gen_selfplay(&pg, (int)selfplay, (uint64_t)seed);
    fprintf(io->err,
            "puzzles: positions %ld, found %ld, proven %ld, in file %ld, %.2f proven per "
            "core-minute\n",
            pg.positions, pg.found, pg.proven, pg.total, puzzle_gen_rate(&pg));
    fprintf(io->err, "puzzles: CPU seconds: self-play %.1f, glance %.1f, find %.1f, prove %.1f\n",
            pg.cpu_play, pg.cpu_glance, pg.cpu_find, pg.cpu_prove);
    fprintf(io->err, "puzzles: rejected");
    for (int i = 1; i < PUZZLE_REJECT_COUNT; i++)
        fprintf(io->err, " %s %ld", puzzle_reject_name((enum puzzle_reject)i), pg.rejected[i]);
    if (themes)
        fprintf(io->err, " other-themes %ld", pg.rejected[PUZZLE_OK]);
    fprintf(io->err, "\n");
    puzzle_gen_close(&pg);
    free(text);
    if (rc != 0)
        return cli_error(io, "puzzles: %s", from ? err : "out of memory");
    return 0;
}

/* The positions of a file checked so far: hash -> line (open addressing). */
struct positions {
    uint64_t *hash;
    long *line;
    size_t size, count;
};

/* The line of an earlier puzzle of the same position, 0 after adding this one, -1
 * without memory. */
static long position_seen(struct positions *p, uint64_t h, long line)
{
    h = h ? h : 1;
    if ((p->count + 1) * 2 > p->size) {
        size_t size = p->size ? p->size * 2 : 1024;
        uint64_t *hash = calloc(size, sizeof *hash);
        long *lines = calloc(size, sizeof *lines);
        if (!hash || !lines) {
            free(hash);
            free(lines);
            return -1;
        }
        for (size_t i = 0; i < p->size; i++) {
            if (!p->hash[i])
                continue;
            size_t k = p->hash[i] & (size - 1);
            while (hash[k])
                k = (k + 1) & (size - 1);
            hash[k] = p->hash[i];
            lines[k] = p->line[i];
        }
        free(p->hash);
        free(p->line);
        p->hash = hash;
        p->line = lines;
        p->size = size;
    }
    size_t k = h & (p->size - 1);
    while (p->hash[k]) {
        if (p->hash[k] == h)
            return p->line[k];
        k = (k + 1) & (p->size - 1);
    }
    p->hash[k] = h;
    p->line[k] = line;
    p->count++;
    return 0;
}

/* One line of the file to check, and its verdict. */
struct check_item {
    long number;
    struct puzzle_entry p;
    int failed; /* 1 failed, 0 proven */
    char why[ERROR_TEXT_MAX];
};

struct check_pool {
    struct check_item *items;
    long n, next;
    uint64_t nodes;
    pthread_mutex_t mu;
};

/* A worker: the next unproven puzzle, with its own engine (each search clears its
 * table: the verdicts are the same whatever the number of workers). */
static void *check_worker(void *arg)
{
    struct check_pool *pool = arg;
    struct engine *e = engine_new(1);
    for (;;) {
        pthread_mutex_lock(&pool->mu);
        long i = pool->next++;
        pthread_mutex_unlock(&pool->mu);
        if (i >= pool->n)
            break;
        struct check_item *it = &pool->items[i];
        if (it->failed)
            continue; /* already judged (the same position as an earlier line) */
        if (!e) {
            it->failed = 1;
            snprintf(it->why, sizeof it->why, "out of memory");
        } else if (puzzle_entry_check(&it->p, pool->nodes, e, it->why, sizeof it->why) != 0) {
            it->failed = 1;
        }
    }
    engine_free(e);
    return NULL;
}

static int check(int argc, char **argv, struct cli_io *io)
{
    long nodes = 0, jobs = 1;
    if (argc < 1 || argc % 2 == 0)
        return cli_error(io, PUZZLES_USAGE);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--nodes") == 0) {
            if (cli_int(io, "--nodes", argv[i + 1], 1, 2000000000, &nodes))
                return CLI_BAD_INPUT;
        } else if (strcmp(argv[i], "--jobs") == 0) {
            if (cli_int(io, "--jobs", argv[i + 1], 1, CHECK_JOBS_MAX, &jobs))
                return CLI_BAD_INPUT;
        } else {
            return cli_error(io, PUZZLES_USAGE);
        }
    }
    FILE *f = fopen(argv[0], "r");
    if (!f)
        return cli_error(io, "puzzles: cannot open '%s'", argv[0]);
    char *line = NULL;
    size_t cap = 0;
    long number = 0, failed = 0, bad = 0, n = 0, room = 0;
    struct check_item *items = NULL;
    struct positions seen = {0};
    double t0 = cli_seconds();
    int rc = 0;
    while (getline(&line, &cap, f) > 0) {
        number++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (n == room) {
            long more = room ? 2 * room : 256;
            struct check_item *t = realloc(items, sizeof *items * (size_t)more);
            if (!t) {
                rc = cli_error(io, "puzzles: out of memory");
                goto done;
            }
            items = t;
            room = more;
        }
        struct check_item *it = &items[n];
        memset(it, 0, sizeof *it);
        it->number = number;
        if (puzzle_entry_parse(line, &it->p, it->why, sizeof it->why) != 0) {
            /* Named by its id when the line has one, as a failing puzzle is. */
            if (it->p.id[0])
                fprintf(io->out, "%s (line %ld): %s\n", it->p.id, number, it->why);
            else
                fprintf(io->out, "line %ld: %s\n", number, it->why);
            bad++;
            continue;
        }
        /* One position, one puzzle: its counters make no other. */
        long first = position_seen(&seen, puzzle_position_hash(it->p.g, it->p.position), number);
        if (first != 0) {
            it->failed = 1;
            if (first > 0)
                snprintf(it->why, sizeof it->why, "the same position as line %ld", first);
            else
                snprintf(it->why, sizeof it->why, "out of memory");
        }
        n++;
    }
    struct check_pool pool = {.items = items, .n = n, .nodes = (uint64_t)nodes};
    pthread_mutex_init(&pool.mu, NULL);
    pthread_t tid[CHECK_JOBS_MAX];
    int started = 0;
    for (int i = 1; i < jobs && i < n; i++)
        if (pthread_create(&tid[started], NULL, check_worker, &pool) == 0)
            started++;
    check_worker(&pool);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&pool.mu);
    for (long i = 0; i < n; i++)
        if (items[i].failed) {
            fprintf(io->out, "%s (line %ld): %s\n", items[i].p.id, items[i].number, items[i].why);
            failed++;
        }
    fprintf(io->out, "%ld puzzles, %ld failed, %ld unreadable, %.1f s\n", number, failed, bad,
            cli_seconds() - t0);
    rc = bad ? CLI_BAD_INPUT : failed ? 1 : 0;
done:
    free(items);
    free(seen.hash);
    free(seen.line);
    free(line);
    fclose(f);
    return rc;
}

int cmd_puzzles(int argc, char **argv, struct cli_io *io)
{
    if (argc >= 1 && strcmp(argv[0], "generate") == 0)
        return generate(argc - 1, argv + 1, io);
    if (argc >= 2 && strcmp(argv[0], "check") == 0)
        return check(argc - 1, argv + 1, io);
    return cli_error(io, PUZZLES_USAGE);
}
