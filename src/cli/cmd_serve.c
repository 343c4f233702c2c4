/* agora serve [--port N] [--host ADDR] [--db FILE|sqlite:FILE|postgresql://...] [--db-pool N]
 *             [--web DIR] [--puzzles DIR]
 *             [--sync full|normal]
 *             [--workers N] [--threads N] [--move-ms N] [--new-games-per-minute N]
 *             [--cache-mb N] [--committers N] [--book PATH|none] [--trust-proxy]
 *             [--analysis-threads N] [--analyses N] [--analyses-per-address N]
 *             [--analysis-ms N] [--analysis-nice 0..19] [--connections-per-address N]
 *             [--analysis-engine PATH|none] [--analysis-engines N] [--analysis-engine-ms N]
 *             [--tablebases DIR]
 *             [--streams-per-address N] [--streams-per-game N] [--header-ms N] [--idle-ms N]
 *             [--max-connections N]
 *             [--queued-moves-per-address N] [--db-waiters N] [--abandon-ms N]
 *             [--challenge-ms N] [--seek-ms N] [--seeks-per-token N]
 *             [--seeks-per-address N] [--people-per-minute N] [--draw-offers-per-minute N]
 *             [--rated-per-pair N] [--host-name LIST]
 *             [--board-games N] [--board-deviation N] [--board-days N]
 * Runs the game server until SIGINT or SIGTERM. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/server.h"

static const char serve_usage[] =
    "usage: agora serve [OPTION VALUE]...   the web server (src/server/API.md), until SIGINT\n"
    "  --port N (8080)  --host ADDR (127.0.0.1)  --db FILE|sqlite:FILE (agora.db)  --web DIR "
    "(web)\n"
    "  --db postgresql://USER@HOST:PORT/DB  PostgreSQL instead (also postgres://; what the\n"
    "                    URL leaves out comes from PGHOST, PGUSER, PGPASSWORD...)\n"
    "  --db-pool N       connections to PostgreSQL (1..256; default 8)\n"
    "  --puzzles DIR (data/puzzles)  --sync full|normal  --book PATH|none  --trust-proxy\n"
    "  --workers N  --committers N  --threads N  --move-ms N (a computer move's cap)\n"
    "  --workers 0       (PostgreSQL) no move thought here: `agora worker` processes make\n"
    "                    them, on any machine\n"
    "  --shared-jobs     (PostgreSQL, --workers N > 0) idle engine threads also make the\n"
    "                    moves --workers 0 servers queue\n"
    "  --new-games-per-minute N  --cache-mb N  --db-waiters N\n"
    "  --analysis-threads N  --analyses N  --analyses-per-address N  --analysis-ms N\n"
    "  --analysis-nice 0..19  --connections-per-address N  --streams-per-address N\n"
    "  --analysis-engine PATH|none  the external analysis engine (default: each game's\n"
    "                    profile's, /usr/games/stockfish for chess, when installed;\n"
    "                    $AGORA_ANALYSIS_ENGINE); agora's own judges without one\n"
    "  --analysis-engines N  its processes at most per game (default: one per analysis\n"
    "                    and review thread, 3)\n"
    "  --analysis-engine-ms N  its longest silence before it is killed (default 10000)\n"
    "  --tablebases DIR  the endgame tables (Egara-guti; default $AGORA_TABLEBASES or\n"
    "                    tablebases/egara-guti): level 8 and the analysis board use them\n"
    "  --streams-per-game N  --header-ms N  --idle-ms N  --queued-moves-per-address N\n"
    "  --max-connections N  open at once in all (16..1000000; default: the limit on\n"
    "                    open files, raised to its hard limit, less 256 for the rest)\n"
    "  --host-name LIST  the Host names served besides the server's own addresses and\n"
    "                    localhost, comma-separated (a.org,b.org:8443); others get 421\n"
    "games between people (milliseconds):\n"
    "  --abandon-ms N    away this long without a move, the opponent may claim the game\n"
    "                    when no clock runs (1000..604800000; default 120000, 2 minutes)\n"
    "  --challenge-ms N  an invite link stays open this long (1000..2592000000; default\n"
    "                    604800000, 7 days)\n"
    "  --seek-ms N       a seek stays in the lobby this long (1000..86400000; default\n"
    "                    900000, 15 minutes)\n"
    "limits of games between people (0: none):\n"
    "  --seeks-per-token N         open seeks at once per token (0..16; default 3)\n"
    "  --seeks-per-address N       open seeks at once per address (0..16; default 6)\n"
    "  --people-per-minute N       challenges, seeks and accepts a minute per token, 3N\n"
    "                              per address (default 20)\n"
    "  --draw-offers-per-minute N  draw offers a minute per token, 3N per address\n"
    "                              (default 10)\n"
    "  --rated-per-pair N          rated games of the same two players that count in\n"
    "                              24 hours; later ones are unrated (default 5)\n"
    "leaderboards (a player stands on one with):\n"
    "  --board-games N             at least N rated games in its game and class\n"
    "                              (default 10)\n"
    "  --board-deviation N         a rating deviation below N (default 110)\n"
    "  --board-days N              a rated game within N days (default 90)\n";

/* The database's URL as the serving line shows it: a password in it as "***". */
static void shown_url(const char *url, char *out, size_t size)
{
    const char *scheme = strstr(url, "://");
    const char *at = scheme ? strchr(scheme + 3, '@') : NULL;
    const char *colon = scheme ? strchr(scheme + 3, ':') : NULL;
    if (at && colon && colon < at && !memchr(scheme + 3, '/', (size_t)(at - scheme - 3)))
        snprintf(out, size, "%.*s:***%s", (int)(colon - url), url, at);
    else
        snprintf(out, size, "%s", url);
}

int cmd_serve(int argc, char **argv, struct cli_io *io)
{
    struct server_config cfg;
    server_config_default(&cfg);
    struct cli_engine_options engine;
    cli_engine_options_default(&engine);
    cfg.puzzles_dir = "data/puzzles";
    const char *book_path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(serve_usage, io->out);
            return 0;
        }
        if (!strcmp(opt, "--trust-proxy")) {
            cfg.trust_proxy = 1;
            continue;
        }
        if (!strcmp(opt, "--shared-jobs")) {
            cfg.shared_jobs = 1;
            continue;
        }
        if (i + 1 >= argc)
            return cli_error(io, "serve: option '%s' needs a value (or is unknown)", opt);
        const char *val = argv[++i];
        long v;
        int engine_opt = cli_engine_option(io, opt, val, &engine);
        if (engine_opt < 0)
            return CLI_BAD_INPUT;
        if (engine_opt > 0)
            continue;
        if (!strcmp(opt, "--port")) {
            if (cli_int(io, "port", val, 0, 65535, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.port = (int)v;
        } else if (!strcmp(opt, "--host")) {
            cfg.host = val;
        } else if (!strcmp(opt, "--host-name")) {
            cfg.host_names = val;
        } else if (!strcmp(opt, "--db")) {
            cfg.db_path = val;
        } else if (!strcmp(opt, "--book")) {
            book_path = val;
        } else if (!strcmp(opt, "--web")) {
            cfg.web_dir = val;
        } else if (!strcmp(opt, "--puzzles")) {
            cfg.puzzles_dir = val;
        } else if (!strcmp(opt, "--sync")) {
            if (strcmp(val, "full") && strcmp(val, "normal"))
                return cli_error(io, "serve: bad --sync '%s' (full or normal)", val);
            cfg.sync = !strcmp(val, "full") ? STORE_SURVIVES_POWER_LOSS : STORE_SURVIVES_KILL;
        } else if (!strcmp(opt, "--workers")) {
            if (cli_int(io, "workers", val, 0, 64, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.engine_workers = (int)v;
        } else if (!strcmp(opt, "--threads")) {
            if (cli_int(io, "threads", val, 1, 64, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.http_threads = (int)v;
        } else if (!strcmp(opt, "--move-ms")) {
            if (cli_int(io, "move-ms", val, 10, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.move_time_ms = v;
        } else if (!strcmp(opt, "--committers")) {
            if (cli_int(io, "committers", val, 0, 64, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.committers = (int)v;
        } else if (!strcmp(opt, "--cache-mb")) {
            if (cli_int(io, "cache-mb", val, 16, 1 << 20, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.cache_mb = (int)v;
        } else if (!strcmp(opt, "--new-games-per-minute")) {
            if (cli_int(io, "new-games-per-minute", val, 0, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.new_games_per_minute = (int)v;
        } else if (!strcmp(opt, "--analysis-threads")) {
            if (cli_int(io, "analysis-threads", val, 0, 64, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.analysis_threads = (int)v;
        } else if (!strcmp(opt, "--analyses")) {
            if (cli_int(io, "analyses", val, 1, 10000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.analysis_max = (int)v;
        } else if (!strcmp(opt, "--analyses-per-address")) {
            if (cli_int(io, "analyses-per-address", val, 1, 10000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.analysis_per_client = (int)v;
        } else if (!strcmp(opt, "--tablebases")) {
            for (const struct engine_profile *const *pp = engine_profiles; *pp; pp++)
                if ((*pp)->tablebase_dir)
                    (*pp)->tablebase_dir(val);
        } else if (!strcmp(opt, "--analysis-ms")) {
            if (cli_int(io, "analysis-ms", val, 10, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.analysis_ms = v;
        } else if (!strcmp(opt, "--analysis-nice")) {
            if (cli_int(io, "analysis-nice", val, 0, 19, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.analysis_nice = (int)v;
        } else if (!strcmp(opt, "--connections-per-address")) {
            if (cli_int(io, "connections-per-address", val, 0, 4000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.connections_per_address = (int)v;
        } else if (!strcmp(opt, "--max-connections")) {
            if (cli_int(io, "max-connections", val, 16, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.max_connections = (int)v;
        } else if (!strcmp(opt, "--streams-per-address")) {
            if (cli_int(io, "streams-per-address", val, 0, 4000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.streams_per_address = (int)v;
        } else if (!strcmp(opt, "--seeks-per-token")) {
            if (cli_int(io, "seeks-per-token", val, 0, 16, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.seeks_per_token = (int)v;
        } else if (!strcmp(opt, "--seeks-per-address")) {
            if (cli_int(io, "seeks-per-address", val, 0, 16, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.seeks_per_address = (int)v;
        } else if (!strcmp(opt, "--people-per-minute")) {
            if (cli_int(io, "people-per-minute", val, 0, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.people_per_minute = (int)v;
        } else if (!strcmp(opt, "--draw-offers-per-minute")) {
            if (cli_int(io, "draw-offers-per-minute", val, 0, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.draw_offers_per_minute = (int)v;
        } else if (!strcmp(opt, "--board-games")) {
            if (cli_int(io, "board-games", val, 1, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.board_games = (int)v;
        } else if (!strcmp(opt, "--board-deviation")) {
            if (cli_int(io, "board-deviation", val, 1, 1000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.board_deviation = (int)v;
        } else if (!strcmp(opt, "--board-days")) {
            if (cli_int(io, "board-days", val, 1, 100000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.board_days = (int)v;
        } else if (!strcmp(opt, "--rated-per-pair")) {
            if (cli_int(io, "rated-per-pair", val, 0, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.rated_per_pair = (int)v;
        } else if (!strcmp(opt, "--streams-per-game")) {
            if (cli_int(io, "streams-per-game", val, 0, 4000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.streams_per_game = (int)v;
        } else if (!strcmp(opt, "--header-ms")) {
            if (cli_int(io, "header-ms", val, 0, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.header_ms = (int)v;
        } else if (!strcmp(opt, "--queued-moves-per-address")) {
            if (cli_int(io, "queued-moves-per-address", val, 0, 100000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.queued_per_address = (int)v;
        } else if (!strcmp(opt, "--db-pool")) {
            if (cli_int(io, "db-pool", val, 1, 256, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.db_pool = (int)v;
        } else if (!strcmp(opt, "--db-waiters")) {
            if (cli_int(io, "db-waiters", val, 0, 1000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.db_waiters = (int)v;
        } else if (!strcmp(opt, "--idle-ms")) {
            if (cli_int(io, "idle-ms", val, 0, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.idle_ms = (int)v;
        } else if (!strcmp(opt, "--abandon-ms")) { /* 1 s to a week away */
            if (cli_int(io, "abandon-ms", val, 1000, 604800000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.abandon_ms = v;
        } else if (!strcmp(opt, "--challenge-ms")) { /* 1 s to 30 days open */
            if (cli_int(io, "challenge-ms", val, 1000, 2592000000L, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.challenge_ms = v;
        } else if (!strcmp(opt, "--seek-ms")) { /* 1 s to a day in the lobby */
            if (cli_int(io, "seek-ms", val, 1000, 86400000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.seek_ms = v;
        } else {
            return cli_error(io, "serve: unknown option '%s'", opt);
        }
    }
    if (engine.path)
        cfg.analysis_engine = engine.path;
    if (engine.count > 0)
        cfg.analysis_engines = engine.count;
    if (engine.silence_ms > 0)
        cfg.analysis_engine_ms = engine.silence_ms;
    const char *db = cfg.db_path ? cfg.db_path : "";
    if (cfg.engine_workers == 0 && strncmp(db, "postgresql://", 13) &&
        strncmp(db, "postgres://", 11))
        return cli_error(io, "serve: --workers 0 needs a PostgreSQL database, whose moves "
                             "`agora worker` processes make (on SQLite: 1..64)");
    /* Block the stop signals in every thread the server starts; this one waits for
     * them.  (Restored on failure, so an in-process caller keeps its own mask.) */
    struct engine_book *book = NULL;
    if (cli_book(io, NULL, book_path, &book))
        return CLI_BAD_INPUT;
    cfg.book = book;
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        engine_book_close(book);
        return cli_error(io, "serve: %s", err);
    }
    signal(SIGPIPE, SIG_IGN);
    char shown[512];
    shown_url(cfg.db_path, shown, sizeof shown);
    fprintf(io->out, "agora: serving on http://%s:%d/ (database %s, %s)\n", cfg.host,
            server_port(srv), shown, book ? "the levels open from the book" : "no opening book");
    fflush(io->out);
    int sig;
    sigwait(&stop, &sig);
    fprintf(io->out, "agora: stopping\n");
    server_stop(srv);
    engine_book_close(book);
    return 0;
}
