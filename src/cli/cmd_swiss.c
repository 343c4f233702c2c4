/* agora swiss: Swiss tournaments from FIDE's Tournament Report Files (src/swiss/).
 *
 *   agora swiss pair FILE.trf [--out FILE]
 *       pairs the next round of the tournament by the FIDE Dutch system and writes it
 *       as the FIDE-endorsed programs do: the number of pairs on the first line, then
 *       "WHITE BLACK" a board (pairing numbers), the pairing-allocated bye as "N 0".
 *   agora swiss tiebreaks FILE.trf
 *       one line a player, in pairing-number order: number, points, Buchholz,
 *       Buchholz cut 1, Sonneborn-Berger, wins (FIDE C.07).
 *   agora swiss cut FILE.trf ROUNDS [--out FILE]
 *       the tournament as it stood after its first ROUNDS rounds (the next round's
 *       requested byes kept), written as TRF-2026: pairing it pairs round ROUNDS + 1
 *       (scripts/swiss-bench uses it on generated tournaments).
 *
 * Exit status: 0 done; 1 no pairing satisfies the absolute criteria; 2 bad usage;
 * 3 the file is not a valid TRF (one line naming its line and column); 5 a file that
 * cannot be read or written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "swiss/swiss.h"

#define SWISS_USAGE                                                                                \
    "usage: agora swiss pair FILE.trf [--out FILE] | agora swiss tiebreaks FILE.trf | "            \
    "agora swiss cut FILE.trf ROUNDS [--out FILE]"

#define EXIT_NO_PAIRING 1
#define EXIT_INVALID 3
#define EXIT_FILE 5

static struct swiss_tournament *load(struct cli_io *io, const char *path, int *status)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error(io, "swiss: cannot read %s: %s", path, strerror(errno));
        *status = EXIT_FILE;
        return NULL;
    }
    size_t len = 0;
    char *text = cli_read_all(f, &len);
    fclose(f);
    if (!text) {
        cli_error(io, "swiss: cannot read %s", path);
        *status = EXIT_FILE;
        return NULL;
    }
    char err[256];
    struct swiss_tournament *t = swiss_trf_read(text, len, err, sizeof err);
    free(text);
    if (!t) {
        cli_error(io, "swiss: %s: %s", path, err);
        *status = EXIT_INVALID;
    }
    return t;
}

static int pair(int argc, char **argv, struct cli_io *io)
{
    const char *in = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            if (i + 1 >= argc)
                return cli_error(io, "swiss: --out needs a file");
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_error(io, "swiss: unknown option '%s'", argv[i]);
        else if (!in)
            in = argv[i];
        else
            return cli_error(io, SWISS_USAGE);
    }
    if (!in)
        return cli_error(io, SWISS_USAGE);
    int status = 0;
    struct swiss_tournament *t = load(io, in, &status);
    if (!t)
        return status;
    struct swiss_pair *pairs = malloc(((size_t)t->n_players / 2 + 2) * sizeof *pairs);
    size_t size = 32 + 24 * ((size_t)t->n_players / 2 + 2);
    char *text = malloc(size);
    char err[256] = "";
    int n = 0;
    int rc = pairs && text ? swiss_pair_next(t, pairs, &n, err, sizeof err) : SWISS_ERROR;
    if (rc == SWISS_OK && swiss_format_pairs(pairs, n, text, size) < 0)
        rc = SWISS_ERROR;
    swiss_free(t);
    free(pairs);
    if (rc != SWISS_OK) {
        free(text);
        cli_error(io, "swiss: %s: %s", in, err[0] ? err : "out of memory");
        return rc == SWISS_NO_PAIRING ? EXIT_NO_PAIRING : EXIT_INVALID;
    }
    if (out) {
        FILE *f = fopen(out, "wb");
        if (!f || fputs(text, f) < 0 || fclose(f)) {
            free(text);
            cli_error(io, "swiss: cannot write %s: %s", out, strerror(errno));
            return EXIT_FILE;
        }
    } else
        fputs(text, io->out);
    free(text);
    return 0;
}

static void put_tenths(FILE *f, long v)
{
    fprintf(f, " %ld.%ld", v / 10, v % 10);
}

static void put_hundredths(FILE *f, long v)
{
    fprintf(f, " %ld.%02ld", v / 100, v % 100);
}

static int tiebreaks(int argc, char **argv, struct cli_io *io)
{
    if (argc != 1)
        return cli_error(io, SWISS_USAGE);
    int status = 0;
    struct swiss_tournament *t = load(io, argv[0], &status);
    if (!t)
        return status;
    int r = t->rounds_played;
    for (int id = 1; id <= t->n_players; id++) {
        fprintf(io->out, "%d", id);
        put_tenths(io->out, swiss_score(t, id, r));
        put_hundredths(io->out, swiss_tiebreak(t, id, r, SWISS_TB_BUCHHOLZ));
        put_hundredths(io->out, swiss_tiebreak(t, id, r, SWISS_TB_BUCHHOLZ_CUT1));
        put_hundredths(io->out, swiss_tiebreak(t, id, r, SWISS_TB_SONNEBORN_BERGER));
        fprintf(io->out, " %ld\n", swiss_tiebreak(t, id, r, SWISS_TB_WINS));
    }
    swiss_free(t);
    return 0;
}

static int cut(int argc, char **argv, struct cli_io *io)
{
    const char *in = NULL, *out = NULL, *rounds_arg = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            if (i + 1 >= argc)
                return cli_error(io, "swiss: --out needs a file");
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1])
            return cli_error(io, "swiss: unknown option '%s'", argv[i]);
        else if (!in)
            in = argv[i];
        else if (!rounds_arg)
            rounds_arg = argv[i];
        else
            return cli_error(io, SWISS_USAGE);
    }
    if (!in || !rounds_arg)
        return cli_error(io, SWISS_USAGE);
    char *end = NULL;
    long rounds = strtol(rounds_arg, &end, 10);
    if (!*rounds_arg || *end || rounds < 0)
        return cli_error(io, "swiss: ROUNDS must be a number of rounds, not '%s'", rounds_arg);
    int status = 0;
    struct swiss_tournament *t = load(io, in, &status);
    if (!t)
        return status;
    if (rounds > t->rounds_played) {
        int played = t->rounds_played;
        swiss_free(t);
        return cli_error(io, "swiss: %s has %d rounds played, not %ld", in, played, rounds);
    }
    struct swiss_tournament *c = swiss_cut(t, (int)rounds);
    swiss_free(t);
    char *text = c ? swiss_trf_write(c, SWISS_TRF_2026) : NULL;
    swiss_free(c);
    if (!text)
        return cli_error(io, "swiss: out of memory");
    if (out) {
        FILE *f = fopen(out, "wb");
        if (!f || fputs(text, f) < 0 || fclose(f)) {
            free(text);
            cli_error(io, "swiss: cannot write %s: %s", out, strerror(errno));
            return EXIT_FILE;
        }
    } else
        fputs(text, io->out);
    free(text);
    return 0;
}

int cmd_swiss(int argc, char **argv, struct cli_io *io)
{
    if (argc >= 1 && !strcmp(argv[0], "cut"))
        return cut(argc - 1, argv + 1, io);
    if (argc >= 1 && !strcmp(argv[0], "pair"))
        return pair(argc - 1, argv + 1, io);
    if (argc >= 1 && !strcmp(argv[0], "tiebreaks"))
        return tiebreaks(argc - 1, argv + 1, io);
    return cli_error(io, SWISS_USAGE);
}
