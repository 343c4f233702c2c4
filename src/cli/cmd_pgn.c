/* agora pgn [FILE]: read the records of a PGN file (stdin without FILE) and write them
 * back as agora writes them: every move checked, SAN normalised, comments and
 * variations dropped.  Each record is read by the game its Variant tag names (chess,
 * standard PGN, without one: core/record.h's record_game), through the game interface.
 * A record that does not read is reported on stderr with its number, and the command
 * exits with status 2 after the others. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/record.h"
#include "games/registry.h"

int cmd_pgn(int argc, char **argv, struct cli_io *io)
{
    if (argc > 1)
        return cli_error(io, "usage: agora pgn [FILE]");
    FILE *f = argc ? fopen(argv[0], "r") : io->in;
    if (!f)
        return cli_error(io, "pgn: cannot open '%s'", argv[0]);
    size_t len;
    char *text = cli_read_all(f, &len);
    if (argc)
        fclose(f);
    if (!text)
        return cli_error(io, "pgn: out of memory");
    if (strlen(text) != len) {
        free(text);
        return cli_error(io, "pgn: the file holds a NUL byte: not PGN text");
    }
    size_t state_size = 1;
    for (int i = 0; game_registry[i]; i++)
        if (game_registry[i]->state_size > state_size)
            state_size = game_registry[i]->state_size;
    void *st = calloc(1, state_size); /* room for a state of any game */
    struct record_header *h = malloc(sizeof *h);
    size_t out_size = 1 << 20;
    char *out = malloc(out_size);
    int status = 0, number = 0;
    if (!st || !h || !out) {
        free(out);
        free(h);
        free(st);
        free(text);
        return cli_error(io, "pgn: out of memory");
    }
    for (const char *p = text;;) {
        char result[16], err[ERROR_TEXT_MAX];
        const struct game *g = game_of_record(p);
        long used = g->read_record(p, st, h, result, sizeof result, err, sizeof err);
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
        struct game_status end = {record_result_of(result), REASON_NONE, 0};
        struct game_status own;
        g->status(st, &own);
        if (own.result != RESULT_ONGOING && own.result == end.result)
            end = own; /* the rules say why: mate, stalemate, ... */
        if (g->write_record(st, h, &end, out, out_size) < 0) {
            cli_error(io, "pgn: game %d is too long to write", number);
            status = CLI_BAD_INPUT;
            continue;
        }
        fputs(out, io->out);
    }
    free(out);
    free(h);
    free(st);
    free(text);
    return status;
}
