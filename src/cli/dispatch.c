#include <string.h>

#include "cli.h"
#include "core/registry.h"

static const char usage[] =
    "usage: agora COMMAND ...\n"
    "\n"
    "  perft GAME DEPTH [POSITION] [--divide]   leaves of the move tree: \"d NODES SECONDS\"\n"
    "  moves GAME [POSITION]                    the legal moves, one a line, sorted\n"
    "  play GAME [--as white|black|both|none] [--position TEXT] [--seed N]\n"
    "                                           play in the terminal\n"
    "  bench [GAME] [--playouts N] [--seed N]   random-playout speed of every game\n"
    "  pgn [FILE]                               read chess games (PGN), write them back checked\n"
    "  serve [--port 8080] [--host 127.0.0.1] [--db agora.db] [--web web]\n"
    "        [--sync full|normal] [--workers N] [--committers N] [--threads N] [--move-ms N]\n"
    "        [--new-games-per-minute N] [--cache-mb N]   the web server (API + web/)\n"
    "\n"
    "GAME is chess, egara-guti (or egara) or agon. POSITION is the game's position text,\n"
    "one argument (chess: FEN).\n";

struct command {
    const char *name;
    int (*run)(int argc, char **argv, struct cli_io *io);
};

static const struct command commands[] = {
    {"perft", cmd_perft},
    {"moves", cmd_moves},
    {"play", cmd_play},
    {"bench", cmd_bench},
    {"serve", cmd_serve},
    {"pgn", cmd_pgn},
};

int cli_main(int argc, char **argv, struct cli_io *io)
{
    games_init();
    if (argc < 2) {
        fputs(usage, io->err);
        return CLI_BAD_INPUT;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, io->out);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 2, argv + 2, io);
    return cli_error(io, "unknown command '%s' (try 'agora help')", argv[1]);
}
