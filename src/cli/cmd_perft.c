/* agora perft GAME DEPTH [POSITION] [--divide] */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/perft.h"

/* One depth, root move by root move, so a terminal can show progress. */
static uint64_t perft_root(const struct game *g, void *st, int depth, int divide, Move *moves,
                           struct cli_io *io, int show_progress)
{
    if (depth == 1 && !divide)
        return (uint64_t)g->gen_moves(st, moves);
    int n = g->gen_moves(st, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        g->move_text(st, moves[i], text, sizeof text);
        if (show_progress)
            fprintf(io->err, "\rdepth %d: root move %d/%d %-12s", depth, i + 1, n, text);
        g->make_move(st, moves[i]);
        uint64_t sub = perft(g, st, depth - 1);
        g->unmake_move(st, moves[i]);
        if (divide)
            fprintf(io->out, "%s %llu\n", text, (unsigned long long)sub);
        total += sub;
    }
    if (show_progress)
        fprintf(io->err, "\r%40s\r", "");
    return total;
}

int cmd_perft(int argc, char **argv, struct cli_io *io)
{
    const char *args[3] = {0};
    int nargs = 0, divide = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--divide"))
            divide = 1;
        else if (nargs < 3)
            args[nargs++] = argv[i];
        else
            return cli_error(io, "perft: unexpected argument '%s'", argv[i]);
    }
    if (nargs < 2)
        return cli_error(io, "usage: agora perft GAME DEPTH [POSITION] [--divide]");
    const struct game *g = cli_game(io, args[0]);
    if (!g)
        return CLI_BAD_INPUT;
    long depth;
    if (cli_int(io, "depth", args[1], 1, 64, &depth))
        return CLI_BAD_INPUT;
    void *st = cli_position(io, g, args[2]);
    if (!st)
        return CLI_BAD_INPUT;
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    int show_progress = io->err == stderr && isatty(STDERR_FILENO);
    for (int d = divide ? (int)depth : 1; d <= depth; d++) {
        double t0 = cli_seconds();
        uint64_t n = perft_root(g, st, d, divide, moves, io, show_progress && d >= 5);
        fprintf(io->out, "%d %llu %.3f\n", d, (unsigned long long)n, cli_seconds() - t0);
        fflush(io->out);
    }
    free(moves);
    free(st);
    return 0;
}
