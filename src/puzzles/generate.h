/* The puzzle generator: positions from self-play games of the engines at mixed levels
 * or from game records, each judged at the game's find budget, and every candidate
 * proven again at the (larger) prove budget before it is written.  Appends to its
 * output, never writes a position twice (positions already in the file are read first)
 * and keeps the next self-play game in OUT.progress, so a stopped run resumes. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "puzzle_file.h"

struct puzzle_gen {
    const struct game *g;
    uint64_t find_nodes, prove_nodes;
    FILE *out;            /* the puzzle file, appended to */
    const char *out_path; /* for OUT.progress; NULL: no progress file */
    FILE *log;            /* progress lines (may be NULL) */
    int target;           /* stop once the file holds this many (0: no target) */
    /* Write only puzzles with one of these themes (NULL-terminated; NULL: every
     * puzzle); `proven_only` when each is a proven win's "X-in-N" (the glance then
     * passes over positions where it sees no proven win). */
    const char *const *themes;
    int proven_only;
    /* Self-play also judges the blunders a game did not play: the positions after each
     * legal move that lets the other side win at once (at most a few of a position). */
    int blunders;
    /* Counters: positions judged, candidates found, candidates proven and written,
     * puzzles in the file (those read at the start included). */
    long positions, found, proven, total;
    /* At the find budget, by reason; rejected[PUZZLE_OK]: puzzles of themes not asked for. */
    long rejected[PUZZLE_REJECT_COUNT];
    double cpu_start; /* process CPU seconds at the start */
    /* CPU seconds by stage: the self-play moves, the glance, the find and the prove
     * judgements (the summary line says where the time goes). */
    double cpu_play, cpu_glance, cpu_find, cpu_prove;
    struct engine *engine;
    void *scratch; /* the position judged, read from its text */
    /* The hashes of the positions in the file (open addressing). */
    uint64_t *seen;
    size_t seen_size, seen_count;
};

/* Open the generator for g writing to `path` (NULL: stdout, nothing read back). 0, or
 * -1 with err. */
int puzzle_gen_open(struct puzzle_gen *pg, const struct game *g, const char *path, char *err,
                    size_t err_size);
void puzzle_gen_close(struct puzzle_gen *pg);

/* Judge one position, as its position text says (without the game's history, as
 * `agora puzzles check` reads it); 1 when a puzzle was written (its plies into
 * *plies), else 0. */
int puzzle_gen_position(struct puzzle_gen *pg, const void *st, int *plies);

/* Self-play games `first`..`first + count - 1` (each seeded by its number and `seed`):
 * each from a few seeded random plies, the sides at levels drawn from 1..4 (the shallow ones: cheap
 * games, and their mistakes make the puzzles).  Resumes at the game OUT.progress names.  0, or -1
 * without memory. */
int puzzle_gen_selfplay(struct puzzle_gen *pg, int count, uint64_t seed);

/* Every position of every record in `text` (the game's record format). 0, or -1 with
 * err naming the bad record. */
int puzzle_gen_records(struct puzzle_gen *pg, const char *text, char *err, size_t err_size);

/* Speed: puzzles proven per CPU minute (of this process) so far. */
double puzzle_gen_rate(const struct puzzle_gen *pg);
