/* agora tablebase generate|probe|verify GAME ...: the endgame tables
 * (src/tablebase/NOTES.md). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tablebase/tablebase.h"

#define USAGE                                                                                      \
    "usage: agora tablebase generate GAME --pieces N [--dir DIR] [--threads T]\n"                  \
    "       agora tablebase probe GAME POSITION [--dir DIR]\n"                                     \
    "       agora tablebase verify GAME --pieces N [--dir DIR]\n"                                  \
    "       agora tablebase scan GAME RECORDS [--dir DIR] [--positions FILE]"

struct tb_args {
    const char *what, *game, *position, *dir, *positions;
    long pieces, threads;
};

static int parse_args(int argc, char **argv, struct cli_io *io, struct tb_args *a)
{
    *a = (struct tb_args){.dir = TB_DEFAULT_DIR, .pieces = 0, .threads = 0};
    const char *plain[3] = {0};
    int nplain = 0;
    for (int i = 0; i < argc; i++) {
        int has_value = i + 1 < argc;
        if (!strcmp(argv[i], "--dir") && has_value)
            a->dir = argv[++i];
        else if (!strcmp(argv[i], "--positions") && has_value)
            a->positions = argv[++i];
        else if (!strcmp(argv[i], "--pieces") && has_value) {
            if (cli_int(io, "--pieces", argv[++i], 2, 22, &a->pieces))
                return -1;
        } else if (!strcmp(argv[i], "--threads") && has_value) {
            if (cli_int(io, "--threads", argv[++i], 1, 64, &a->threads))
                return -1;
        } else if (argv[i][0] == '-' && argv[i][1] == '-')
            return cli_error(io, "tablebase: unknown option '%s'\n%s", argv[i], USAGE), -1;
        else if (nplain < 3)
            plain[nplain++] = argv[i];
        else
            return cli_error(io, "tablebase: unexpected argument '%s'\n%s", argv[i], USAGE), -1;
    }
    a->what = plain[0];
    a->game = plain[1];
    a->position = plain[2];
    if (!a->what || !a->game)
        return cli_error(io, "%s", USAGE), -1;
    return 0;
}

/* agora tablebase scan GAME RECORDS: a line a game, then the totals. */
static int scan(struct cli_io *io, const struct game *g, const struct tb_args *a)
{
    if (!a->position)
        return cli_error(io, "tablebase scan: a RECORDS file is needed\n%s", USAGE);
    FILE *f = fopen(a->position, "r");
    if (!f)
        return cli_error(io, "tablebase scan: cannot open '%s'", a->position);
    size_t len;
    char *text = cli_read_all(f, &len);
    fclose(f);
    if (!text)
        return cli_error(io, "tablebase scan: out of memory");
    FILE *pos = a->positions ? fopen(a->positions, "w") : NULL;
    if (a->positions && !pos) {
        free(text);
        return cli_error(io, "tablebase scan: cannot write '%s'", a->positions);
    }
    struct tb_tables *t = tb_open(a->dir);
    struct tb_scan_options opt = {.report = io->out, .positions = pos};
    struct tb_scan_totals tot;
    char err[1024] = "out of memory";
    int rc = t ? tb_scan(t, g, text, &opt, &tot, err, sizeof err) : -1;
    tb_close(t);
    free(text);
    if (pos && fclose(pos) != 0 && rc == 0)
        rc = -1, snprintf(err, sizeof err, "cannot write '%s'", a->positions);
    if (rc)
        return cli_error(io, "tablebase scan: %s", err);
    fprintf(io->out,
            "scan: %d games, %d passed a position the tables win; %d drawn by the 40-ply "
            "count, %d of them passed a position the tables win\n",
            tot.games, tot.won_positions, tot.quiet_draws, tot.quiet_draws_won);
    return 0;
}

int cmd_tablebase(int argc, char **argv, struct cli_io *io)
{
    struct tb_args a;
    if (parse_args(argc, argv, io, &a))
        return CLI_BAD_INPUT;
    const struct game *g = cli_game(io, a.game);
    if (!g)
        return CLI_BAD_INPUT;
    if (!tb_game_has_tables(g))
        return cli_error(io, "tablebase: %s has no endgame tables", g->name);
    char err[1024];
    int tty = io->err == stderr && isatty(STDERR_FILENO);
    if (!strcmp(a.what, "generate") || !strcmp(a.what, "verify")) {
        if (!a.pieces)
            return cli_error(io, "tablebase %s: --pieces N is needed\n%s", a.what, USAGE);
        if (a.position)
            return cli_error(io, "tablebase %s: unexpected argument '%s'", a.what, a.position);
        int rc;
        if (!strcmp(a.what, "verify")) {
            rc = tb_verify(a.dir, (int)a.pieces, io->err, tty, err, sizeof err);
        } else {
            long cpus = sysconf(_SC_NPROCESSORS_ONLN);
            struct tb_generate_options opt = {
                .pieces = (int)a.pieces,
                .dir = a.dir,
                .threads = a.threads  ? (int)a.threads
                           : cpus > 0 ? (int)cpus
                                      : 1,
                .progress = io->err,
                .progress_tty = tty,
            };
            rc = tb_generate(&opt, err, sizeof err);
        }
        if (rc)
            return cli_error(io, "tablebase %s: %s", a.what, err);
        return 0;
    }
    if (!strcmp(a.what, "probe")) {
        if (!a.position)
            return cli_error(io, "tablebase probe: a POSITION is needed\n%s", USAGE);
        void *st = cli_position(io, g, a.position);
        if (!st)
            return CLI_BAD_INPUT;
        struct tb_tables *t = tb_open(a.dir);
        struct tb_answer ans;
        int rc = t ? tb_probe(t, g, st, 1, &ans, err, sizeof err) : -1;
        if (!t)
            snprintf(err, sizeof err, "out of memory");
        tb_close(t);
        free(st);
        if (rc < 0)
            return cli_error(io, "tablebase probe: %s", err);
        if (rc > 0)
            return cli_error(io, "tablebase probe: the position is not in the tables of %s", a.dir);
        if (ans.outcome == TB_OUTCOME_DRAW)
            fprintf(io->out, "draw\n");
        else
            fprintf(io->out, "%s %d\n", ans.outcome == TB_OUTCOME_WIN ? "win" : "loss", ans.plies);
        return 0;
    }
    if (!strcmp(a.what, "scan"))
        return scan(io, g, &a);
    return cli_error(io, "tablebase: unknown action '%s'\n%s", a.what, USAGE);
}

int cli_tablebase_note(struct cli_io *io, const struct game *g, const void *st, const char *dir,
                       struct cli_tablebase_note *out)
{
    if (!tb_game_has_tables(g) || !dir)
        return 0;
    struct tb_tables *t = tb_open(dir);
    struct tb_answer ans;
    char err[1024];
    int rc = t ? tb_probe(t, g, st, 1, &ans, err, sizeof err) : 1;
    tb_close(t);
    if (rc < 0)
        fprintf(io->err, "agora: tablebase: %s\n", err);
    if (rc)
        return 0;
    out->result = ans.outcome == TB_OUTCOME_WIN    ? "win"
                  : ans.outcome == TB_OUTCOME_LOSS ? "loss"
                                                   : "draw";
    out->plies = ans.plies;
    if (ans.outcome == TB_OUTCOME_DRAW)
        snprintf(out->text, sizeof out->text, "draw");
    else
        snprintf(out->text, sizeof out->text, "%s in %d",
                 ans.outcome == TB_OUTCOME_WIN ? "wins" : "loses", ans.plies);
    return 1;
}
