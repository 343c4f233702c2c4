/* Analysis: the lines of one position (the analysis board) and the review of a whole
 * game (a judgement of every move), for any registered game.
 *
 * Written against the game interface and the engine profile alone: the search is the
 * profile's (engine_go at full strength, no noise, no book, no contempt), a score's win
 * chance is the profile's curve (engine_win_chance), a review's node budget the
 * profile's review_nodes.  Nothing here names a game.
 *
 * Points of view: a line's score and win chance are the side to move's; a reviewed
 * ply's are the MOVER's (the side that played it), before and after its move.  Win
 * chances are 0..1; the thresholds of the classes are drops in percentage points.
 *
 * The external engine: a request may carry a pool of the game's external UCI engine
 * (engines/uci_engine.h, named by the profile's analysis_engine: Stockfish for
 * chess).  It then judges, through the game's own move parser and the profile's
 * curve; when it fails (it exits, hangs, answers garbage) agora's own engine judges
 * instead, and the report says so and why.
 *
 * Thread safety: no global state; one call uses one engine (its own, or the caller's
 * `struct engine`, which then serves that call alone). */
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "core/game.h"

struct engine;   /* engines/engine.h */
struct uci_pool; /* engines/uci_engine.h */

#define ANALYSIS_MAX_LINES 5 /* MultiPV lines of one position */
#define ANALYSIS_PV_MAX 24   /* moves of a line kept */

/* One line of a position: the engine's move and what follows, with its score. */
struct analysis_line {
    int multipv; /* 1 = the best line */
    int depth, seldepth;
    Score score;    /* side to move's view */
    int mate;       /* moves (not plies) to a proven win (>0) or loss (<0); 0: none */
    double win;     /* side to move's chance 0..1 (engine_win_chance) */
    uint64_t nodes; /* of the whole analysis so far (all lines) */
    int64_t time_ms;
    int pv_len;
    char pv[ANALYSIS_PV_MAX][MOVE_TEXT_MAX];         /* move texts (parse_move's) */
    char pv_display[ANALYSIS_PV_MAX][MOVE_TEXT_MAX]; /* display texts (game_move_display) */
};

#define ANALYSIS_ENGINE_MAX 64

/* Which engine judged ("Stockfish 15.1", or agora's own: "agora chess"), and, when the
 * external engine was asked and failed, why ("" otherwise).  The name is set before
 * the first lines are reported. */
struct analysis_engine_report {
    char name[ANALYSIS_ENGINE_MAX];
    char error[ERROR_TEXT_MAX];
};

/* agora's own engine's name for game g, as `agora uci` gives it ("agora chess"). */
void analysis_own_engine_name(const struct game *g, char *buf, size_t size);

/* What analysis_position is asked.  Budget: nodes and/or movetime_ms for the whole
 * analysis (all lines); with neither, the profile's review_nodes times the lines. */
struct analysis_request {
    int multipv; /* lines, clamped into 1..ANALYSIS_MAX_LINES (0: 1) */
    uint64_t nodes;
    int64_t movetime_ms;
    const atomic_int *stop; /* set non-zero by another thread to stop soon; may be NULL */
    /* Called after every finished iteration with the current lines, best first (may
     * be NULL). */
    void (*on_lines)(void *ctx, const struct analysis_line *lines, int n);
    void *ctx;
    struct uci_pool *external;             /* the game's external engine, or NULL */
    struct analysis_engine_report *report; /* who judged (may be NULL) */
};

/* The best `rq->multipv` lines of `st` (left unchanged), best first, distinct first
 * moves, into out[ANALYSIS_MAX_LINES].  `e` may be NULL (an engine of its own for the
 * call).  Returns the lines found (fewer when the position has fewer legal moves; 0
 * when the game is over), or -1 without memory. */
int analysis_position(const struct game *g, const void *st, const struct analysis_request *rq,
                      struct engine *e, struct analysis_line *out);

/* ---- Review ----------------------------------------------------------------------- */

enum analysis_class {
    ANALYSIS_BEST = 0,
    ANALYSIS_GOOD,
    ANALYSIS_INACCURACY,
    ANALYSIS_MISTAKE,
    ANALYSIS_BLUNDER,
};
#define ANALYSIS_CLASSES 5
/* "best", "good", "inaccuracy", "mistake", "blunder" ("?" otherwise). */
const char *analysis_class_name(enum analysis_class c);

/* The classes by the drop of the mover's win chance, in percentage points (the chess
 * sites' 10/20/30).  A move is `best` when it is the engine's move, or when its drop
 * is at most ANALYSIS_BEST_DROP (it scores as well within the search's noise).  A
 * move other than the engine's that lets a proven win go (mate_before > 0, mate_after
 * <= 0) or walks into a proven loss (mate_before >= 0, mate_after < 0) is at least an
 * inaccuracy, whatever its drop. */
#define ANALYSIS_INACCURACY_DROP 10.0
#define ANALYSIS_MISTAKE_DROP 20.0
#define ANALYSIS_BLUNDER_DROP 30.0
#define ANALYSIS_BEST_DROP 0.5

/* The class of a move that drops the mover's chance by `drop` points, not the
 * engine's move. */
enum analysis_class analysis_classify(double drop);
/* A move's accuracy 0..100 from its drop in points (Lichess's curve
 * 103.1668 * exp(-0.04354 * drop) - 3.1669, clamped; a negative drop counts as 0). */
double analysis_move_accuracy(double drop);

/* One reviewed ply. */
struct analysis_ply {
    int ply; /* 1 for the record's first move */
    enum side mover;
    char move[MOVE_TEXT_MAX], move_display[MOVE_TEXT_MAX];
    char best[MOVE_TEXT_MAX], best_display[MOVE_TEXT_MAX]; /* the engine's, at score_before */
    /* The mover's view; score_after is the move's score as seen from the position
     * before it (a proven result counts its plies from there: a move that keeps a
     * mate in n scores as a mate in n, and scores as the final result's at the end). */
    Score score_before, score_after;
    int mate_before, mate_after;  /* as analysis_line.mate */
    double win_before, win_after; /* the mover's chance 0..1 */
    double drop;                  /* points, >= 0 */
    enum analysis_class cls;
};

/* Per side (index enum side): the moves reviewed, the mean of their accuracies (the
 * arithmetic mean of analysis_move_accuracy over that side's moves; 0 without
 * moves) and the count of each class. */
struct analysis_summary {
    int moves[2];
    double accuracy[2];
    int count[2][ANALYSIS_CLASSES];
};

struct analysis_review_request {
    uint64_t nodes;         /* per position; 0: the profile's review_nodes */
    int64_t movetime_ms;    /* per position; 0: none */
    const atomic_int *stop; /* may be NULL */
    /* Called after each position searched: `done` of `total` (n + 1) positions. */
    void (*on_progress)(void *ctx, int done, int total);
    void *ctx;
    /* As analysis_request's: one engine judges the whole review (when the external
     * one fails midway, agora's own reviews the game again from its start). */
    struct uci_pool *external;
    struct analysis_engine_report *report;
};

/* Review the game of `n` moves played from `start` (left unchanged): out[0..n-1], and
 * *sum (may be NULL).  Every position is searched once, with one engine throughout:
 * the position after ply k is the one before ply k+1, and a finished game's last
 * position is scored by its result.  Returns the plies reviewed (n, or fewer when
 * stopped), or -1 with err (an illegal move, named; no memory). */
int analysis_review(const struct game *g, const void *start, const Move *moves, int n,
                    const struct analysis_review_request *rq, struct analysis_ply *out,
                    struct analysis_summary *sum, char *err, size_t err_size);
