/* The Agon board: 91 hexagonal cells, their Glinski names, rings and neighbours.
 *
 * A cell is numbered by its axial coordinates in an 11 x 11 rhombus,
 *
 *   cell = (q + 5) * 11 + (r + 5)      q = file index - 5, r = axial row
 *
 * so a file's cells are consecutive from rank 1 upward, and every direction is a
 * constant offset; 30 of the 121 slots lie off the hexagon and are never used.  The
 * throne f6 (0, 0) is 60.  Index AGON_OFF (121) is an off-board sentinel: every
 * neighbour that would leave the board is AGON_OFF, and its own neighbours are
 * AGON_OFF, so two steps along a direction need no bounds test.
 *
 * Directions (axial dq, dr) and their offsets, opposite directions 3 apart, so the
 * three straight lines through a cell are the pairs (0,3) (1,4) (2,5):
 *
 *   0 (+1, 0) +11   1 (0,+1) +1   2 (-1,+1) -10   3 (-1, 0) -11   4 (0,-1) -1   5 (+1,-1) +10
 *
 * A set of cells is a `Cells`, a 128-bit word with bit `cell` for each cell.
 */
#pragma once

#include <stdint.h>

#define AGON_CELLS 91
#define AGON_SLOTS 121
#define AGON_OFF 121
#define AGON_THRONE 60
#define AGON_FILES 11
#define AGON_DIRS 6
#define AGON_OUTER_CELLS 30
#define AGON_MAX_STEPS 4 /* sideways and inward neighbours of one cell */

typedef uint8_t Cell;
typedef unsigned __int128 Cells;

#define AG_BIT(c) ((Cells)1 << (c))

struct agon_board {
    Cell nb[AGON_SLOTS + 1][AGON_DIRS];  /* neighbour in each direction, or AGON_OFF */
    int8_t ring[AGON_SLOTS + 1];         /* 0 for the throne .. 5; -1 off the board */
    int8_t q[AGON_SLOTS], r[AGON_SLOTS]; /* axial coordinates */
    int8_t file[AGON_SLOTS], rank[AGON_SLOTS];
    /* Where a piece on the cell may step: the same ring or the next one inward. */
    uint8_t step_count[AGON_SLOTS];
    Cell steps[AGON_SLOTS][AGON_MAX_STEPS];
    Cells step_mask[AGON_SLOTS];
    Cells adjacent[AGON_SLOTS]; /* all six neighbours */
    /* The same step targets in a 64-bit window of the cell set: bits
     * agon_window_base[step_window[c]] .. +63 hold every neighbour of c.  Guards
     * never step onto the throne, so theirs leave it out. */
    uint8_t step_window[AGON_SLOTS];
    uint64_t queen_steps[AGON_SLOTS], guard_steps[AGON_SLOTS];
    /* The cells in position-text order: file a..l, each from rank 1 upward. */
    Cell cells[AGON_CELLS];
    /* The outer ring anticlockwise from f1 (rule book positions 0..29). */
    Cell outer[AGON_OUTER_CELLS];
    Cell ring1[6];
    Cells all, outer_mask, ring1_mask;
    Cells has_nb[AGON_DIRS]; /* cells with an on-board neighbour in direction d */
    char name[AGON_SLOTS][4];
};

extern struct agon_board agon_board;
/* Three overlapping 64-bit windows cover every cell's neighbourhood (c-11 .. c+11). */
#define AGON_WINDOWS 3
extern const uint8_t agon_window_base[AGON_WINDOWS];
extern const char agon_file_letters[AGON_FILES + 1]; /* "abcdefghikl" */
extern const uint8_t agon_file_length[AGON_FILES];

void agon_board_init(void);
/* The cell named `name` ("f6", lower case), or -1. */
int agon_cell_by_name(const char *name);
/* The cell at axial (q, r), or -1 off the board. */
int agon_cell_at(int q, int r);
/* The cell of file x (0..10) and rank (1..), or -1. */
int agon_cell_of(int x, int rank);

static inline int ag_popcount(Cells x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* Cells where a piece would stand between two pieces of `them` on one line. */
static inline Cells ag_sandwich_cells(Cells them, const Cells *has_nb)
{
    /* Cells whose d-neighbour is in `them`: shift back those of `them` that have
     * a neighbour the other way, so nothing wraps around a row. */
    Cells axis0 = ((them & has_nb[3]) >> 11) & ((them & has_nb[0]) << 11);
    Cells axis1 = ((them & has_nb[4]) >> 1) & ((them & has_nb[1]) << 1);
    Cells axis2 = ((them & has_nb[5]) << 10) & ((them & has_nb[2]) >> 10);
    return axis0 | axis1 | axis2;
}
