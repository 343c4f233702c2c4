/* agora puzzles: make and prove puzzles (src/puzzles/).
 *
 *   agora puzzles generate GAME [--from FILE] [--selfplay N] [--seed N] [--out FILE]
 *                               [--target N] [--find-nodes N] [--prove-nodes N]
 *       puzzles from the records of FILE (the game's record format), or from N
 *       self-play games (default 100), appended to FILE (default stdout) one JSON line
 *       each; positions already in the file are not written again, and a self-play
 *       run resumes at the game FILE.progress names.  Progress on stderr: positions
 *       judged, candidates found and proven, puzzles proven per core-minute.
 *   agora puzzles check FILE [--nodes N]
 *       every puzzle proven again at its game's prove budget (or N nodes a search);
 *       one line per failure naming the puzzle, a summary, and exit status 1 when any
 *       failed (2 for a line that does not read). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engines/engine.h"
#include "puzzles/generate.h"

#define PUZZLES_USAGE                                                                              \
    "usage: agora puzzles generate GAME [--from FILE] [--selfplay N] [--seed N] [--out FILE] "     \
    "[--target N] [--find-nodes N] [--prove-nodes N] | agora puzzles check FILE [--nodes N]"

static int generate(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1)
        return cli_error(io, PUZZLES_USAGE);
    const struct game *g = cli_game(io, argv[0]);
    if (!g)
        return CLI_BAD_INPUT;
    const char *from = NULL, *out = NULL;
    long selfplay = 100, seed = 1, target = 0, find = 0, prove = 0;
    static const char *const options[] = {"--from",   "--out",        "--selfplay",    "--seed",
                                          "--target", "--find-nodes", "--prove-nodes", NULL};
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
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
    fprintf(io->err, "puzzles: %s, find %llu nodes, prove %llu nodes a search, %ld in file\n",
            g->name, (unsigned long long)pg.find_nodes, (unsigned long long)pg.prove_nodes,
            pg.total);
    int rc = from ? puzzle_gen_records(&pg, text, err, sizeof err)
                  : puzzle_gen_selfplay(&pg, (int)selfplay, (uint64_t)seed);
    fprintf(io->err,
            "puzzles: positions %ld, found %ld, proven %ld, in file %ld, %.2f proven per "
            "core-minute\n",
            pg.positions, pg.found, pg.proven, pg.total, puzzle_gen_rate(&pg));
    fprintf(io->err, "puzzles: rejected");
    for (int i = 1; i <= PUZZLE_NO_MEMORY; i++)
        fprintf(io->err, " %s %ld", puzzle_reject_name((enum puzzle_reject)i), pg.rejected[i]);
    fprintf(io->err, "\n");
    puzzle_gen_close(&pg);
    free(text);
    if (rc != 0)
        return cli_error(io, "puzzles: %s", from ? err : "out of memory");
    return 0;
}

static int check(int argc, char **argv, struct cli_io *io)
{
    long nodes = 0;
    if (argc != 1 && !(argc == 3 && strcmp(argv[1], "--nodes") == 0))
        return cli_error(io, PUZZLES_USAGE);
    if (argc == 3 && cli_int(io, "--nodes", argv[2], 1, 2000000000, &nodes))
        return CLI_BAD_INPUT;
    FILE *f = fopen(argv[0], "r");
    if (!f)
        return cli_error(io, "puzzles: cannot open '%s'", argv[0]);
    struct engine *e = engine_new(1);
    if (!e) {
        fclose(f);
        return cli_error(io, "puzzles: out of memory");
    }
    char *line = NULL;
    size_t cap = 0;
    long number = 0, failed = 0, bad = 0;
    double t0 = cli_seconds();
    while (getline(&line, &cap, f) > 0) {
        number++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        struct puzzle_entry p;
        char why[ERROR_TEXT_MAX];
        if (puzzle_entry_parse(line, &p, why, sizeof why) != 0) {
            /* Named by its id when the line has one, as a failing puzzle is. */
            if (p.id[0])
                fprintf(io->out, "%s (line %ld): %s\n", p.id, number, why);
            else
                fprintf(io->out, "line %ld: %s\n", number, why);
            bad++;
        } else if (puzzle_entry_check(&p, (uint64_t)nodes, e, why, sizeof why) != 0) {
            fprintf(io->out, "%s (line %ld): %s\n", p.id, number, why);
            failed++;
        }
    }
    free(line);
    fclose(f);
    engine_free(e);
    fprintf(io->out, "%ld puzzles, %ld failed, %ld unreadable, %.1f s\n", number, failed, bad,
            cli_seconds() - t0);
    return bad ? CLI_BAD_INPUT : failed ? 1 : 0;
}

int cmd_puzzles(int argc, char **argv, struct cli_io *io)
{
    if (argc >= 1 && strcmp(argv[0], "generate") == 0)
        return generate(argc - 1, argv + 1, io);
    if (argc >= 2 && strcmp(argv[0], "check") == 0)
        return check(argc - 1, argv + 1, io);
    return cli_error(io, PUZZLES_USAGE);
}
