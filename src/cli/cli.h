/* The `agora` command line: one function per command, each against the game
 * interface only.  Commands read and write through `struct cli_io` so the tests can
 * run them in-process on memory streams. */
#pragma once

#include <stdio.h>

#include "core/game.h"

struct cli_io {
    FILE *in, *out, *err;
};

/* Exit codes: 0 success, 1 a test failed (bench/perft compare), 2 bad input. */
#define CLI_BAD_INPUT 2

int cli_main(int argc, char **argv, struct cli_io *io);

int cmd_perft(int argc, char **argv, struct cli_io *io);
int cmd_moves(int argc, char **argv, struct cli_io *io);
int cmd_play(int argc, char **argv, struct cli_io *io);
int cmd_bench(int argc, char **argv, struct cli_io *io);
int cmd_match(int argc, char **argv, struct cli_io *io);
int cmd_uci(int argc, char **argv, struct cli_io *io);
int cmd_serve(int argc, char **argv, struct cli_io *io);
int cmd_worker(int argc, char **argv, struct cli_io *io);
int cmd_pgn(int argc, char **argv, struct cli_io *io);
int cmd_analyse(int argc, char **argv, struct cli_io *io);
int cmd_puzzles(int argc, char **argv, struct cli_io *io);
int cmd_tablebase(int argc, char **argv, struct cli_io *io);
/* The endgame tables' verdict on a state (cmd_tablebase.c): 1 with *out when the
 * position is in the tables of `dir`, else 0 (no tables for the game, not in them; a
 * corrupt file is reported on io->err). */
struct cli_tablebase_note {
    const char *result; /* "win", "loss" or "draw", for the side to move */
    int plies;          /* to the end of the game under best play */
    char text[32];      /* "wins in 17", "loses in 12", "draw" */
};
int cli_tablebase_note(struct cli_io *io, const struct game *g, const void *st, const char *dir,
                       struct cli_tablebase_note *out);
int cmd_swiss(int argc, char **argv, struct cli_io *io);
int cmd_arena(int argc, char **argv, struct cli_io *io);

/* bench's two measurements (cmd_bench.c), shared by `agora bench` and the
 * bench-signature test (tests/test_bench.c), which compares their signatures with
 * tests/bench-signatures.txt.  BENCH_PLAYOUTS and BENCH_SEED are bench's defaults. */
#define BENCH_PLAYOUTS 20000
#define BENCH_SEED 1
struct bench_run {
    uint64_t signature; /* playouts: the plies of every playout; search: the nodes */
    int count;          /* playouts made, or positions searched */
    double seconds;
};
/* `playouts` seeded random playouts of `g` from its start; progress on io->err when
 * that is a terminal (io may be NULL). */
void bench_playouts(const struct game *g, long playouts, uint64_t seed, struct cli_io *io,
                    struct bench_run *out);
/* The game's own search to `depth` (0: the profile's bench_depth) from bench's fixed
 * positions. */
void bench_search(const struct game *g, int depth, struct bench_run *out);

/* Shared helpers (common.c). */
int cli_error(struct cli_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const struct game *cli_game(struct cli_io *io, const char *name);
/* A new state of `g` at `text`, or at the start when text is NULL; NULL after an error
 * message on bad text. */
void *cli_position(struct cli_io *io, const struct game *g, const char *text);
/* Parse a whole decimal number in [lo, hi]; -1 with a message otherwise. */
int cli_int(struct cli_io *io, const char *what, const char *text, long lo, long hi, long *out);
double cli_seconds(void);
/* The whole of `f`, NUL-terminated (its length in *len when len is not NULL), or NULL
 * without memory. */
char *cli_read_all(FILE *f, size_t *len);
/* The opening books of the levels (`--book PATH|none`): for `path` NULL each game's
 * default book where it is installed (else none, quietly), "none" for none, else that
 * file, for game `g` or (g NULL) every game whose engine profile reads books.  0 with
 * *out (NULL: no book; close with engine_book_close), or -1 after a message naming
 * the problem.  A game without books gets none. */
struct engine_book;
int cli_book(struct cli_io *io, const struct game *g, const char *path, struct engine_book **out);
/* The external analysis engine's options, as `serve` and `worker` take them alike
 * (--analysis-engine PATH|none, --analysis-engines N, --analysis-engine-ms N; the path's
 * default from $AGORA_ANALYSIS_ENGINE). */
struct cli_engine_options {
    const char *path;   /* NULL: each game's profile's */
    int count;          /* its processes at most per game (0: the command's default) */
    int64_t silence_ms; /* its longest silence before it is killed (0: the default) */
};
void cli_engine_options_default(struct cli_engine_options *e);
/* `opt` with its value `val`: 1 when it was one of them (read into e), 0 when not, -1
 * after a message on a bad value. */
int cli_engine_option(struct cli_io *io, const char *opt, const char *val,
                      struct cli_engine_options *e);
/* Sort move texts with strcmp (for `moves` and tests). */
void cli_sort_texts(char (*texts)[MOVE_TEXT_MAX], int n);
