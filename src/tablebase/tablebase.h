/* Egara-guti endgame tables: every position of few pieces solved exactly under the
 * rule book, the 40-ply count included (src/tablebase/NOTES.md: what is stored, how
 * it is made, how it is proven).  Everything works without tables: a probe that finds
 * none says so and the caller goes on as before. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"

/* Where the tables are looked for when no folder is named (`make tablebases` makes them). */
#define TB_DEFAULT_DIR "tablebases/egara-guti"

/* The game the tables are for (only Egara-guti has them), or NULL. */
int tb_game_has_tables(const struct game *g);

struct tb_generate_options {
    int pieces;      /* every position of 2..pieces pieces, each side at least one */
    const char *dir; /* where the files go (made if absent) */
    int threads;
    FILE *progress;   /* progress lines, or NULL */
    int progress_tty; /* progress as one line rewritten in place */
};
/* Make the tables, going on from the files already in dir (a signature whose file
 * exists and checks is not made again).  0, or -1 with a message. */
int tb_generate(const struct tb_generate_options *opt, char *err, size_t err_size);

/* A set of tables in a folder, files read on first use. */
struct tb_tables;
struct tb_tables *tb_open(const char *dir);
void tb_close(struct tb_tables *t);

enum tb_outcome { TB_OUTCOME_DRAW = 0, TB_OUTCOME_WIN = 1, TB_OUTCOME_LOSS = 2 };
struct tb_answer {
    enum tb_outcome outcome; /* for the side to move */
    int plies;               /* to the end of the game under best play (0 for a draw) */
    int estimate;            /* plies where known, else a guess (the distance at quiet
                              * count 0 when the result is the same there) */
};

/* The value of an Egara-guti state (its quiet count included).  `exact_plies` 0 asks
 * only for the result (cheap: one record), with plies the distance at quiet count 0's
 * table where the quiet count is 0 and -1 otherwise; 1 asks for the distance too (a
 * small search through the tables when the quiet count is not 0).  Returns 0, 1 when
 * the position is not in the tables (too many pieces, or the file is absent), or -1
 * with a message (a corrupt file, a position that is not Egara-guti's). */
int tb_probe(struct tb_tables *t, const struct game *g, const void *st, int exact_plies,
             struct tb_answer *out, char *err, size_t err_size);
/* tb_probe with the distance (exact_plies 1), the distance search visiting at most
 * `budget` positions: 0 with the exact answer, TB_OVER_BUDGET with the result and plies
 * -1 when the budget did not suffice, else as tb_probe. */
#define TB_OVER_BUDGET 2
int tb_probe_within(struct tb_tables *t, const struct game *g, const void *st, int64_t budget,
                    struct tb_answer *out, char *err, size_t err_size);
/* The same for raw point sets (own to move) and a quiet count. */
int tb_probe_sets(struct tb_tables *t, uint32_t own, uint32_t other, int quiet, int exact_plies,
                  struct tb_answer *out, char *err, size_t err_size);

/* Played games against the tables (scan.c): every record of `records` (the game's
 * record text, e.g. `agora match --out`) replayed along its main line, each position
 * probed; the first one won for the side to move is the game's.  For the question
 * "how many draws by the 40-ply count did the tables hold a win in" (issue 29). */
struct tb_scan_options {
    FILE *report;    /* a line a game, or NULL */
    FILE *positions; /* the first won position of each 40-ply draw, a line each, or NULL */
};
struct tb_scan_totals {
    int games;
    int won_positions;   /* games that passed a position won for the side to move */
    int quiet_draws;     /* games drawn by the 40-ply count (Termination "quiet-limit") */
    int quiet_draws_won; /* of them, those that passed a won position */
};
/* 0, or -1 with err (a record that does not read, a corrupt table). */
int tb_scan(struct tb_tables *t, const struct game *g, const char *records,
            const struct tb_scan_options *opt, struct tb_scan_totals *out, char *err,
            size_t err_size);

/* Check every position of every table of up to `pieces` pieces in dir against its
 * children (NOTES.md "Proven right").  0 when all agree, else -1 with a message naming
 * the first position that does not; progress as for tb_generate. */
int tb_verify(const char *dir, int pieces, FILE *progress, int progress_tty, char *err,
              size_t err_size);
