/* What a search is asked and what it answers, shared by the searches (alpha-beta,
 * MCTS, a game's own), the table, time management and the engine front above them
 * (src/engines/engine.h): the limits of one move, the result, the info lines and the
 * score bounds.  Knows no game. */
#pragma once

#include <stdatomic.h>

#include "core/game.h"

/* Scores at or beyond ENGINE_WIN_BOUND are wins (or, negated, losses) at a known
 * distance: SCORE_WIN - score plies from the root. */
#define ENGINE_MAX_PLY 128
#define ENGINE_WIN_BOUND (SCORE_WIN - ENGINE_MAX_PLY)

enum engine_algo {
    ENGINE_ALGO_AUTO = 0,  /* the game's (or the level's) choice */
    ENGINE_ALGO_ALPHABETA, /* PVS, iterative deepening, TT, quiescence */
    ENGINE_ALGO_MCTS,      /* UCT with a win/loss solver and random playouts */
    ENGINE_ALGO_OWN,       /* the game's own search (its engine profile's; alpha-beta where
                            * a game has none) */
};

/* The refinements of the generic alpha-beta (src/search/ab_refine.c) beyond its plain
 * PVS, each turned on by a game's engine profile (engines/profile.h, `search_features`)
 * only where self-play measured a gain (src/engines/NOTES.md). */
/* Late-move reductions by log(depth) x log(move number), deeper off the principal
 * variation, less for a move with good history. */
#define SEARCH_LMR_TABLE (1u << 0)
/* Counter-move ordering: the quiet reply that refuted the previous move, after the killers. */
#define SEARCH_COUNTER (1u << 1)
/* Aspiration windows around the last iteration's score. */
#define SEARCH_ASPIRATION (1u << 2)
/* Reverse futility: near the horizon, a node with no noisy move pending whose static score
 * beats beta by a margin a ply ends there. */
#define SEARCH_RFP (1u << 3)
#define SEARCH_FEATURES_ALL (SEARCH_LMR_TABLE | SEARCH_COUNTER | SEARCH_ASPIRATION | SEARCH_RFP)
/* engine_limits.features: this bit says the caller chose the features (the rest) itself. */
#define SEARCH_FEATURES_SET (1u << 31)

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

/* Opening books, opaque here: an option of a game's engine profile
 * (src/engines/profile.h). */
struct engine_book;

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
    /* The alpha-beta refinements (SEARCH_*): 0 for the profile's choice at this level,
     * or SEARCH_FEATURES_SET with exactly the bits wanted (`agora match` search=...). */
    unsigned features;
    /* UCI `go ponder`: while *ponder is non-zero, the clock limits do not stop the
     * search (depth, nodes and *stop still do); the caller clears it on ponderhit. */
    const atomic_int *ponder;
    /* Opening books (engine_book_open): a level (1..8) plays a move of the book of
     * its game, picked by weight with the seed, while the position has one and fewer
     * than the level's book plies (level_plan.book_plies) were played from the state's
     * start.  Books of other games are passed over.  NULL: none. */
    const struct engine_book *book;
    /* UCI `go searchmoves`: search only these root moves (those of them that are
     * legal; when none is, every move).  No book move or deliberate blunder then. */
    const Move *searchmoves;
    int nsearchmoves;
    /* A proof at a threshold (prove non-zero): every iteration searches the root with
     * the null window (prove_beta - 1, prove_beta), so the result's score is a bound:
     * at least prove_beta when a root move reached it (the search stops there), else
     * below it (no root move reached it at the depth searched; the result's depth is
     * that depth, 0 when no iteration finished).  Alpha-beta and the game's own
     * searches; MCTS ignores it.  The puzzle judge asks "does any other move win?" so. */
    int prove;
    Score prove_beta;
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
