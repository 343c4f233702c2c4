/* agora worker --db postgresql://... [--threads N] [--move-ms N] [--lease-ms N]
 *              [--max-plies N] [--book PATH|none] [--analysis-engine PATH|none]
 *              [--analysis-engines N] [--analysis-engine-ms N]
 * Makes the computer's moves that servers on that database queue (src/worker/), until
 * SIGINT or SIGTERM: then it claims no more, finishes the moves it is thinking and
 * commits them. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engines/profile.h"
#include "worker/worker.h"

static const char worker_usage[] =
    "usage: agora worker --db postgresql://USER@HOST:PORT/DB [OPTION VALUE]...\n"
    "  makes the computer's moves and the reviews of the servers on that database (agora\n"
    "  serve --db URL --workers 0; beside --shared-jobs servers' threads), until SIGINT\n"
    "  or SIGTERM (a review being made then goes back to the queue with its lease)\n"
    "  --threads N     moves thought at once (1..64; default 1; one a core at most helps)\n"
    "  --move-ms N     a move's cap, as the servers' --move-ms (default 5000)\n"
    "  --lease-ms N    a claimed move not committed by then goes back to the queue (a\n"
    "                  review renews its lease each second)\n"
    "                  (default 30000; longer than --move-ms)\n"
    "  --max-plies N   a game this long is a draw, as the servers' cap (default 1000)\n"
    "  --book PATH|none  the levels' opening book, as the servers'\n"
    "  --analysis-engine PATH|none  the reviews' external engine, as the servers'\n"
    "                  (default: each game's profile's, /usr/games/stockfish for chess,\n"
    "                  when installed; $AGORA_ANALYSIS_ENGINE); agora's own judges\n"
    "                  without one, and when it is missing or fails\n"
    "  --analysis-engines N  its processes at most per game (default: one a thread)\n"
    "  --analysis-engine-ms N  its longest silence before it is killed (default 10000)\n"
    "  --quiet         no line a move or a review\n";

int cmd_worker(int argc, char **argv, struct cli_io *io)
{
    struct worker_config cfg;
    worker_config_default(&cfg);
    cfg.log = io->out;
    const char *book_path = NULL;
    struct cli_engine_options engine;
    cli_engine_options_default(&engine);
    for (int i = 0; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
            fputs(worker_usage, io->out);
            return 0;
        }
        if (!strcmp(opt, "--quiet")) {
            cfg.log = NULL;
            continue;
        }
        if (i + 1 >= argc)
            return cli_error(io, "worker: option '%s' needs a value (or is unknown)", opt);
        const char *val = argv[++i];
        long v;
        int engine_opt = cli_engine_option(io, opt, val, &engine);
        if (engine_opt < 0)
            return CLI_BAD_INPUT;
        if (engine_opt > 0)
            continue;
        if (!strcmp(opt, "--db")) {
            cfg.db_url = val;
        } else if (!strcmp(opt, "--book")) {
            book_path = val;
        } else if (!strcmp(opt, "--threads")) {
            if (cli_int(io, "threads", val, 1, 64, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.threads = (int)v;
        } else if (!strcmp(opt, "--move-ms")) {
            if (cli_int(io, "move-ms", val, 10, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.move_time_ms = v;
        } else if (!strcmp(opt, "--lease-ms")) {
            if (cli_int(io, "lease-ms", val, 100, 3600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.lease_ms = v;
        } else if (!strcmp(opt, "--max-plies")) {
            if (cli_int(io, "max-plies", val, 1, 1000000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.max_plies = (int)v;
        } else if (!strcmp(opt, "--test-think-ms")) { /* tests: a slow move */
            if (cli_int(io, "test-think-ms", val, 0, 600000, &v) != 0)
                return CLI_BAD_INPUT;
            cfg.test_think_ms = (int)v;
        } else {
            return cli_error(io, "worker: unknown option '%s'", opt);
        }
    }
    if (engine.path)
        cfg.analysis_engine = engine.path;
    if (engine.count > 0)
        cfg.analysis_engines = engine.count;
    if (engine.silence_ms > 0)
        cfg.analysis_engine_ms = engine.silence_ms;
    if (!cfg.db_url ||
        (strncmp(cfg.db_url, "postgresql://", 13) && strncmp(cfg.db_url, "postgres://", 11)))
        return cli_error(io, "worker: needs --db postgresql://... (the servers' PostgreSQL; on "
                             "SQLite the server makes its own moves)");
    if (cfg.lease_ms <= cfg.move_time_ms)
        return cli_error(io, "worker: --lease-ms (%ld) must be longer than --move-ms (%ld)",
                         (long)cfg.lease_ms, (long)cfg.move_time_ms);
    struct engine_book *book = NULL;
    if (cli_book(io, NULL, book_path, &book))
        return CLI_BAD_INPUT;
    cfg.book = book;
    /* The stop signals wait for this thread alone (blocked in every worker thread). */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    char err[256];
    struct worker *w = worker_start(&cfg, err, sizeof err);
    if (!w) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        engine_book_close(book);
        return cli_error(io, "worker: %s", err);
    }
    fprintf(io->out, "agora worker: %d thread%s on the database, moves of %ld ms at most\n",
            cfg.threads, cfg.threads == 1 ? "" : "s", (long)cfg.move_time_ms);
    fflush(io->out);
    int sig;
    sigwait(&stop, &sig);
    fprintf(io->out, "agora worker: stopping (the moves being thought are finished first)\n");
    fflush(io->out);
    long moves = worker_moves(w), reviews = worker_reviews(w), stale = worker_stale(w);
    worker_stop(w);
    fprintf(io->out,
            "agora worker: stopped after %ld moves and %ld reviews (%ld jobs found stale)\n", moves,
            reviews, stale);
    fflush(io->out); /* said before a second stop signal, pending, ends the process */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    engine_book_close(book);
    return 0;
}
