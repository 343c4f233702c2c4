/* External UCI engines for analysis (uci_engine.c): a bounded pool of engine
 * processes (Stockfish for chess, as the engine profile names it), each a child on a
 * socket pair, run at a low priority, asked one analysis at a time.
 *
 * Every read has a timeout: an engine that falls silent longer than the pool's
 * timeout is killed, one that exits (or closes its end) is noticed at once, one that
 * answers what UCI does not allow is a garbage error; in each case the request gets
 * -1 and a message, and the next request starts a fresh process.  Writes never raise
 * SIGPIPE (MSG_NOSIGNAL on the socket), so nothing here touches the process's signal
 * dispositions.  Lines are raw UCI: moves as the engine wrote them, scores in
 * centipawns or moves to mate; mapping them into a game's moves and scores is the
 * caller's (src/analysis/external.c).
 *
 * Thread safety: the pool serves any number of threads; at most `size` requests run
 * at once, the others wait for a free process (or for their stop flag). */
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define UCI_ENGINE_NAME_MAX 64
#define UCI_ENGINE_LINES_MAX 5 /* MultiPV lines at most */
#define UCI_ENGINE_PV_MAX 512  /* characters of a line's pv kept */

struct uci_engine_config {
    const char *path;   /* the engine's executable, run without a shell or arguments */
    int size;           /* processes at most (<= 0: 1) */
    int nice;           /* the processes' nice value (< 0: left as inherited) */
    int hash_mb;        /* the engine's Hash (<= 0: 16) */
    int64_t timeout_ms; /* the longest silence while an answer is due (<= 0: 10000) */
};

/* One line of the engine's answer (its last exact report of that line). */
struct uci_engine_line {
    int multipv; /* 1 = the best */
    int depth, seldepth;
    int is_mate; /* 1: `mate` is the score; 0: `cp` */
    int mate;    /* moves to mate: > 0 the side to move mates, <= 0 it is mated */
    int cp;      /* centipawns, the side to move's view */
    uint64_t nodes;
    int64_t time_ms;
    char pv[UCI_ENGINE_PV_MAX]; /* the moves, space-separated, as the engine wrote them */
};

/* One analysis.  The budget: nodes and/or movetime_ms and/or depth (none: until stop,
 * which the caller must then raise). */
struct uci_engine_go {
    const char *position; /* FEN */
    int multipv;          /* lines asked, 1..UCI_ENGINE_LINES_MAX */
    int expect;           /* lines in a full iteration (fewer when fewer legal moves) */
    uint64_t nodes;
    int64_t movetime_ms;
    int depth;
    int new_game;           /* 1: `ucinewgame` first (forget the hash of earlier requests) */
    const atomic_int *stop; /* raised: `stop`, and the lines so far; may be NULL */
    /* After every full iteration (lines 1..expect), best first; may be NULL. */
    void (*on_lines)(void *ctx, const struct uci_engine_line *lines, int n);
    void *ctx;
};

struct uci_pool;

/* A pool for the engine at cfg->path: one process is started at once and greets
 * (uci/uciok, isready/readyok), so a missing, broken or silent engine is found here.
 * NULL with a message naming the trouble. */
struct uci_pool *uci_pool_new(const struct uci_engine_config *cfg, char *err, size_t err_size);
/* Quit and reap every process (none may be in use). */
void uci_pool_free(struct uci_pool *p);
/* The engine's own name and version (its `id name`: "Stockfish 15.1"). */
const char *uci_pool_name(const struct uci_pool *p);
/* Processes started since the pool was made (the first, and every restart). */
int uci_pool_starts(struct uci_pool *p);

/* Run one analysis on a free process of the pool: the lines of its last full
 * iteration (out[UCI_ENGINE_LINES_MAX], best first) and their count, and its
 * `bestmove` into best[best_size] ("" when stopped before it said one).  -1 with a
 * message when the engine fails (it cannot be started, exits, falls silent, answers
 * garbage): that process is killed, and the next request starts a new one. */
int uci_pool_go(struct uci_pool *p, const struct uci_engine_go *go, struct uci_engine_line *out,
                char *best, size_t best_size, char *err, size_t err_size);
