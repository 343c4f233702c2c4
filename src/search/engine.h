/* The engine API: what the CLI (play, match, uci) and the server call to get a
 * computer move for any registered game.  src/search implements it over the game
 * interface (alpha-beta and MCTS), with levels 1..8 mapped onto search limits.
 *
 * engine_think searches a copy of nothing: it makes and unmakes moves on `st` and
 * returns it unchanged.  It never returns an illegal move, and returns 0 (no move)
 * only when the game is over.
 *
 * Thread safety: nothing here has mutable global state.  engine_think may run on
 * many threads at once on different states; one `struct engine` serves one thread
 * at a time. */
#pragma once

#include <stdatomic.h>

#include "core/game.h"

#define ENGINE_LEVEL_MIN 1
#define ENGINE_LEVEL_MAX 8

/* Scores at or beyond ENGINE_WIN_BOUND are wins (or, negated, losses) at a known
 * distance: SCORE_WIN - score plies from the root. */
#define ENGINE_MAX_PLY 128
#define ENGINE_WIN_BOUND (SCORE_WIN - ENGINE_MAX_PLY)

enum engine_algo {
    ENGINE_ALGO_AUTO = 0,  /* the game's (or the level's) choice */
    ENGINE_ALGO_ALPHABETA, /* PVS, iterative deepening, TT, quiescence */
    ENGINE_ALGO_MCTS,      /* UCT with a win/loss solver and random playouts */
    ENGINE_ALGO_CHESS,     /* the dedicated chess search (chess only; elsewhere alpha-beta) */
};

/* An info line's score: exact, or from a search that failed outside its aspiration
 * window (UCI's lowerbound: at least this; upperbound: at most this). */
enum engine_bound { ENGINE_BOUND_EXACT, ENGINE_BOUND_LOWER, ENGINE_BOUND_UPPER };

/* What a search reports after each finished iteration (alpha-beta) or now and then
 * (MCTS): the UCI `info` line. */
#define ENGINE_PV_TEXT_MAX 512
struct engine_info {
    int depth, seldepth;
    Score score; /* side to move's view; |score| >= ENGINE_WIN_BOUND: a win/loss */
    uint64_t nodes;
    int64_t time_ms;
    int multipv;                 /* which line this is, 1 = the best (0 is read as 1) */
    int hashfull;                /* per mille of the transposition table in use (-1: not known) */
    char pv[ENGINE_PV_TEXT_MAX]; /* move texts separated by spaces */
    enum engine_bound bound;     /* an exact score, or only a bound on it */
};

struct chess_book;

struct engine_limits {
    int depth;           /* 0: no depth limit */
    uint64_t nodes;      /* 0: no node limit */
    int64_t movetime_ms; /* 0: none; otherwise a hard cap on this move */
    /* A clock (0 when not playing on a clock), by side. */
    int64_t time_ms[2], inc_ms[2];
    int movestogo;
    /* Set to non-zero by another thread to stop the search soon. */
    const atomic_int *stop;
    /* Extensions (zero means the default). */
    int infinite;          /* search until *stop (UCI `go infinite`) */
    enum engine_algo algo; /* force one search */
    int noise;             /* extra root noise in centipawns (low levels have their own) */
    int contempt;          /* a draw's cost to the side to move, centipawns (-1: none) */
    int blunder;           /* per mille of random (not at once losing) moves */
    int multipv;           /* lines to report (0 or 1: the best only) */
    int threads;           /* search threads (0 or 1: one); a search may use fewer */
    int mate;              /* UCI `go mate N`: look for a mate in N moves (0: no) */
    /* UCI `go ponder`: while *ponder is non-zero, the clock limits do not stop the
     * search (depth, nodes and *stop still do); the caller clears it on ponderhit. */
    const atomic_int *ponder;
    /* An opening book (chess): a level (1..8) plays a book move, picked by weight
     * with the seed, while the position has one and fewer than the level's book plies
     * (level_plan.book_plies) were played from the state's start.  NULL: none. */
    const struct chess_book *book;
    /* UCI `go searchmoves`: search only these root moves (those of them that are
     * legal; when none is, every move).  No book move or deliberate blunder then. */
    const Move *searchmoves;
    int nsearchmoves;
    void (*on_info)(void *ctx, const struct engine_info *info);
    void *info_ctx;
};

struct engine_result {
    Move best;
    Score score; /* side to move's view */
    int depth;
    uint64_t nodes;
    int64_t time_ms;
};

/* Think at `level` (1..8; 0 means: full strength within `limits` alone).  `limits`
 * may tighten the level's own limits (e.g. the server's per-move time cap) and may
 * be NULL.  The seed makes the low levels' deliberate mistakes reproducible. */
Move engine_think(const struct game *g, void *st, int level, const struct engine_limits *limits,
                  uint64_t seed, struct engine_result *out);

/* A persistent engine: its transposition table lives across moves of one game (UCI,
 * match).  NULL without memory. */
struct engine;
struct engine *engine_new(size_t hash_mb);
void engine_free(struct engine *e);
/* Forget everything learnt (a new game). */
void engine_clear(struct engine *e);
/* engine_think with this engine's table. */
Move engine_go(struct engine *e, const struct game *g, void *st, int level,
               const struct engine_limits *limits, uint64_t seed, struct engine_result *out);

/* A draw offer to the computer (playing `computer`): accepted when a short search
 * scores the position below ENGINE_DRAW_ACCEPT_BELOW centipawns for it.  Returns 1
 * to accept; 0 to decline, and always once the game is over. */
#define ENGINE_DRAW_ACCEPT_BELOW (-50)
int engine_accepts_draw(const struct game *g, void *st, enum side computer, uint64_t seed);

/* The search each game plays with at full strength, decided by measurement. */
enum engine_algo engine_game_algo(const struct game *g);
/* The fixed depth `agora bench` searches for this game. */
int engine_bench_depth(const struct game *g);
const char *engine_algo_name(enum engine_algo a);
