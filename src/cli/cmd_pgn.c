/* agora pgn [FILE]: read the chess games of a PGN file (stdin without FILE) and write
 * them back as agora writes PGN: every move checked, SAN normalised, comments and
 * variations dropped.  A game that does not read is reported on stderr with its
 * number, and the command exits with status 2 after the other games. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/registry.h"
#include "games/chess/chess.h"

static char *read_all(FILE *f, size_t *len)
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
    *len = n;
    return buf;
}

static struct game_status status_of(const char *result)
{
    struct game_status s = {RESULT_ONGOING, REASON_NONE, 0};
    if (!strcmp(result, "1-0"))
        s.result = RESULT_WHITE_WINS;
    else if (!strcmp(result, "0-1"))
        s.result = RESULT_BLACK_WINS;
    else if (!strcmp(result, "1/2-1/2"))
        s.result = RESULT_DRAW;
    return s;
}

int cmd_pgn(int argc, char **argv, struct cli_io *io)
{
    if (argc > 1)
        return cli_error(io, "usage: agora pgn [FILE]");
    FILE *f = argc ? fopen(argv[0], "r") : io->in;
    if (!f)
        return cli_error(io, "pgn: cannot open '%s'", argv[0]);
    size_t len;
    char *text = read_all(f, &len);
    if (argc)
        fclose(f);
    if (!text)
        return cli_error(io, "pgn: out of memory");
    if (strlen(text) != len) {
        free(text);
        return cli_error(io, "pgn: the file holds a NUL byte: not PGN text");
    }
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    struct chess_pgn_info *info = malloc(sizeof *info);
    size_t out_size = 1 << 20;
    char *out = malloc(out_size);
    int status = 0, number = 0;
    const char *p = text;
    for (;;) {
        char result[16], err[ERROR_TEXT_MAX];
        long used = chess_pgn_read(p, st, info, result, sizeof result, err, sizeof err);
        if (used == 0)
            break;
        number++;
        if (used < 0) {
            cli_error(io, "pgn: game %d: %s", number, err);
            status = CLI_BAD_INPUT;
            /* resume at the next game: the next tag line after this point */
            p += strspn(p, " \t\r\n");
            const char *next = strstr(p + 1, "\n[");
            if (!next)
                break;
            p = next + 1;
            continue;
        }
        p += used;
        struct game_status end = status_of(result);
        struct game_status own;
        g->status(st, &own);
        if (own.result != RESULT_ONGOING && own.result == end.result)
            end = own; /* the rules say why: mate, stalemate, ... */
        if (chess_pgn_write(st, info, &end, out, out_size) < 0) {
            cli_error(io, "pgn: game %d is too long to write", number);
            status = CLI_BAD_INPUT;
            continue;
        }
        fputs(out, io->out);
    }
    free(out);
    free(info);
    free(st);
    free(text);
    return status;
}
