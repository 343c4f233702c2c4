/* The settings of one `agora serve` (data only; server.h starts a server with them).
 * Every room reads them off struct server (server_state.h). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct engine_book; /* src/engines/profile.h */

struct server_config {
    const char *host;    /* address to listen on: "127.0.0.1" */
    int port;            /* 0: any free port (see server_port) */
    const char *db_path; /* the store's URL (store_open): a SQLite file, ":memory:" for tests,
                            postgresql://USER@HOST:PORT/DB */
    /* --sync: see store.h */
    enum store_durability sync;
    const char *web_dir;      /* static files; NULL or missing: a placeholder page */
    const char *puzzles_dir;  /* the puzzles (DIR/GAME.jsonl); NULL or missing: none (`agora
                                 serve`: data/puzzles) */
    int http_threads;         /* libmicrohttpd's thread pool */
    int engine_workers;       /* threads that think; 0: think inline (fuzzing, no HTTP) */
    int committers;           /* threads committing the computer's moves (waiting on disk) */
    int64_t move_time_ms;     /* hard cap on one computer move */
    int cache_games;          /* games kept in memory at most; 0: from cache_mb */
    int cache_mb;             /* memory for games in memory, by the largest game state */
    int new_games_per_minute; /* per client address; 0: unlimited */
    int trust_proxy;          /* 1: the client address is the last of X-Forwarded-For (behind a
                                 reverse proxy that appends it); 0: the header is ignored */
    int shared_jobs;        /* PostgreSQL with engine workers: idle ones also make the moves of the
                               shared queue (--workers 0 servers' jobs; --shared-jobs) */
    const char *host_names; /* Host names served besides the server's own addresses and
                               localhost: "a.org,b.org:8443" (http_host.h); NULL: none */
    int no_http;            /* 1: no listening socket (fuzzing: server_request only) */
    int max_plies;          /* a game this long is adjudicated a draw (0: the state's limit) */
    int ping_ms;            /* keep-alive comment on idle event streams (0: 15 s) */
    const struct engine_book *book; /* the levels' opening books (the caller's; NULL: none) */
    int analysis_threads;           /* threads for analyses (the lowest priority); 0: none (503) */
    int analysis_max;               /* analyses queued or running at most (503 beyond) */
    int analysis_per_client;        /* at once per client address (429 beyond) */
    int64_t analysis_ms;            /* hard cap on one analysis's time */
    int64_t analysis_nodes_cap;     /* tests: a lower cap on an analysis's nodes (0: the game's) */
    int analysis_nice;              /* the analysis and review threads' nice value (19: the lowest
                                       priority; 0: the games' own, for comparison) */
    int review_threads;             /* threads for reviews (the lowest priority); 0: none (503) */
    int review_max;                 /* reviews queued or running at most (503 beyond) */
    int64_t review_nodes;           /* tests: nodes per reviewed position (0: the game's budget) */
    int64_t challenge_ms;           /* an invite link's life (0: 7 days) */
    int64_t seek_ms;                /* a seek's life in the lobby (0: 15 minutes) */
    int64_t abandon_ms;             /* away this long, the opponent may claim (0: 120 s) */
    int seeks_per_token;            /* open seeks in the lobby at once per token (429 beyond;
                                       0: no cap; at most 16) */
    int seeks_per_address;          /* the same per client address (0: no cap; at most 16) */
    int people_per_minute;          /* challenges, seeks and accepts a minute per token, three
                                       times as many per address (429 beyond; 0: no cap) */
    int draw_offers_per_minute;     /* draw offers a minute per token, three times as many per
                                       address (429 beyond; 0: no cap) */
    int rated_per_pair;             /* rated games between the same two players that count in
                                       24 hours; later ones are played unrated (0: no cap) */
    int board_games;                /* a leaderboard lists players with at least this many rated
                                       games in its game and class (0: 10) */
    int board_deviation;            /* ... whose rating deviation is below this (0: 110) */
    int board_days;                 /* ... rated within this many days (0: 90) */
    int64_t puzzle_read_ms;         /* a puzzle attempt sooner after the puzzle was served is
                                       not counted (0: 2 s; negative: none, for tests) */
    int connections_per_address;    /* open at once from one address (0: no cap; off behind a
                                       proxy, which must cap them) */
    int max_connections;            /* open at once in all (0: what the limit on open files,
                                       raised to its hard limit at start, leaves; http.c) */
    int streams_per_address;        /* event streams open at once from one address (429 beyond) */
    int streams_per_game;           /* event streams open at once on one game (429 beyond) */
    int header_ms;                  /* a request's line, headers and body must arrive within */
    int idle_ms;                    /* a kept-alive connection's next request line within */
    int queued_per_address;         /* computer moves waiting at once for one address (429 beyond;
                                       0: no cap) */
    int db_waiters;                 /* HTTP threads inside the database at once (503 beyond; 0:
                                       half of http_threads) */
    int db_pool;                    /* connections to a pooled database (PostgreSQL; 0:
                                       STORE_POOL_DEFAULT) */
    int test_think_ms;              /* tests: every computer move takes at least this long */
    int test_uncapped_engine;       /* tests: the engine searches without a limit of its own, so
                                       only the watchdog's stop (move_time_ms) ends its move */

    int64_t tournament_tick_ms;   /* the tournaments' director looks this often (0: 1000) */
    int64_t tournament_minute_ms; /* tests: a tournament's minute (0: 60000) */
    int64_t first_move_ms;        /* a tournament game's first move within (0: 30000), or
                                     the player to move loses it and is paused */
    /* tests: called by the Swiss pairer before it pairs a round of tournament `id` (a
     * test holds it there to see that nothing else waits for it) */
    void (*test_swiss_pairing)(void *ctx, const char *id);
    void *test_swiss_ctx;

    /* The external analysis engine (engines/uci_engine.h): a path for every game whose
     * profile names one, "none" for none, NULL for each profile's own (Stockfish for
     * chess) when installed. */
    const char *analysis_engine;
    /* Its processes at most per game (0: one per analysis and review thread). */
    int analysis_engines;
    /* Its longest silence before it is killed (0: 10000 ms). */
    int64_t analysis_engine_ms;
    /* 1: say nothing on stderr of which engine judges each game (tests). */
    int quiet_engines;
};
