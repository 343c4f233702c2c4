#include <string.h>

#include "cli.h"
#include "games/registry.h"

static const char usage[] =
    "usage: agora COMMAND ...\n"
    "\n"
    "  perft GAME DEPTH [POSITION] [--divide]   leaves of the move tree: \"d NODES SECONDS\"\n"
    "  moves GAME [POSITION]                    the legal moves, one a line, sorted\n"
    "  play GAME [--level 1..8] [--as white|black|both|none] [--position TEXT] [--seed N]\n"
    "        [--book PATH|none]                 play in the terminal (against the engine\n"
    "                                           at --level N, else a random mover)\n"
    "  bench [GAME] [--playouts N] [--seed N] [--depth N]\n"
    "                                           random-playout speed and a fixed-depth\n"
    "                                           search of every game (nodes/s, signature)\n"
    "  match GAME PLAYER PLAYER [--games N] [--concurrency N] [--random-plies N] [--balance CP]\n"
    "        [--openings FILE] [--seed N] [--max-plies N] [--out FILE] [--sprt E0,E1]\n"
    "        [--option NAME=VALUE] [--adjudicate-resign MOVES,SCORE]\n"
    "        [--adjudicate-draw FROM,MOVES,SCORE] [--book PATH] [--quiet]\n"
    "                                           engine against engine; PLAYER is random,\n"
    "                                           level:N, depth:N, nodes:N, movetime:MS or\n"
    "                                           uci:COMMAND, plus ,tc=S+INC ,algo=mcts\n"
    "                                           ,search=plain|all|lmr+counter+aspiration+rfp ...\n"
    "  uci [--game GAME]                        the UCI protocol (chess by default)\n"
    "  pgn [FILE]                               read game records (PGN), write them back checked\n"
    "  analyse GAME [FILE] [--nodes N]          review a game record: a JSON line per ply\n"
    "                                           (score, best move, class), then accuracy\n"
    "  analyse GAME --position TEXT [--multipv K] [--nodes N]\n"
    "                                           the K best lines of a position, as JSON\n"
    "  puzzles generate GAME [--from FILE] [--selfplay N] [--seed N] [--out FILE]\n"
    "                                           find and prove puzzles (JSON lines)\n"
    "  puzzles check FILE [--nodes N]           prove every puzzle of a file again\n"
    "  tablebase generate GAME --pieces N [--dir DIR] [--threads T]\n"
    "                                           endgame tables of up to N pieces (Egara-guti)\n"
    "  tablebase probe GAME POSITION [--dir DIR]\n"
    "                                           \"win N\", \"loss N\" or \"draw\": the side to\n"
    "                                           move's result and plies to the end\n"
    "  tablebase verify GAME --pieces N [--dir DIR]\n"
    "                                           every record checked against its children\n"
    "  tablebase scan GAME RECORDS [--dir DIR] [--positions FILE]\n"
    "                                           played games against the tables: the draws\n"
    "                                           by the 40-ply count that passed a won position\n"
    "  swiss pair FILE.trf [--out FILE]         pair the next round of a TRF tournament\n"
    "                                           (FIDE Dutch): pairs, then WHITE BLACK a\n"
    "                                           line, the bye as N 0 (exit 1: no pairing,\n"
    "                                           3: invalid TRF)\n"
    "  swiss tiebreaks FILE.trf                 points, Buchholz, Buchholz cut 1,\n"
    "                                           Sonneborn-Berger and wins a player\n"
    "  arena bench [--players 1000] [--games-each 6] [--seed N]\n"
    "                                           time one wave of an arena's pairing: the\n"
    "                                           standings, then the matching of every\n"
    "                                           waiting player\n"
    "  serve [--port 8080] [--host 127.0.0.1] [--db agora.db] [--web web] [--puzzles "
    "data/puzzles]\n"
    "        [--sync full|normal] [--workers N] [--committers N] [--threads N] [--move-ms N]\n"
    "        [--new-games-per-minute N] [--cache-mb N] [--book PATH|none] [--trust-proxy]\n"
    "        [--analysis-threads N] [--analyses N] [--analyses-per-address N]\n"
    "        [--analysis-ms N] [--analysis-nice 0..19] [--connections-per-address N]\n"
    "        [--streams-per-address N] [--streams-per-game N] [--header-ms N] [--idle-ms N]\n"
    "        [--queued-moves-per-address N] [--db-waiters N] [--abandon-ms N]\n"
    "        [--challenge-ms N] [--seek-ms N] [--host-name LIST]\n"
    "                                           the web server (API + web/)\n"
    "  worker --db postgresql://... [--threads N]  the computer's moves of the servers on\n"
    "                                           that database (agora worker --help)\n"
    "\n"
    "GAME is chess, egara-guti (or egara) or agon. POSITION is the game's position text,\n"
    "one argument (chess: FEN).\n";

struct command {
    const char *name;
    int (*run)(int argc, char **argv, struct cli_io *io);
};

static const struct command commands[] = {
    {"perft", cmd_perft},     {"moves", cmd_moves},   {"play", cmd_play},
    {"bench", cmd_bench},     {"match", cmd_match},   {"uci", cmd_uci},
    {"serve", cmd_serve},     {"pgn", cmd_pgn},       {"analyse", cmd_analyse},
    {"puzzles", cmd_puzzles}, {"swiss", cmd_swiss},   {"tablebase", cmd_tablebase},
    {"arena", cmd_arena},     {"worker", cmd_worker},
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
