/* The Agon board: 91 hexagonal cells, their Glinski names, rings and neighbours.
 *
 * Cells are numbered in position-text order: file by file a..l (no j), each file
 * from rank 1 upward, so a1 = 0, a6 = 5, b1 = 6, ..., the throne f6 = 45, l6 = 90.
 * Index AGON_OFF (91) is an off-board sentinel: every neighbour that would leave the
 * board is AGON_OFF, and the sentinel's own neighbours are AGON_OFF, so two steps
 * along a direction never need a bounds test.
 *
 * Directions (axial dq, dr), opposite directions 3 apart, so the three straight
 * lines through a cell are the direction pairs (0,3) (1,4) (2,5):
 *
 *   0 (+1, 0)   1 (0,+1)   2 (-1,+1)   3 (-1, 0)   4 (0,-1)   5 (+1,-1)
 */
#pragma once

#include <stdint.h>

#define AGON_CELLS 91
#define AGON_OFF 91
#define AGON_THRONE 45
#define AGON_FILES 11
#define AGON_DIRS 6
#define AGON_OUTER_CELLS 30
#define AGON_MAX_STEPS 4 /* sideways and inward neighbours of one cell */

typedef uint8_t Cell;

struct agon_board {
    Cell nb[AGON_CELLS + 1][AGON_DIRS]; /* neighbour in each direction, or AGON_OFF */
    int8_t ring[AGON_CELLS + 1];         /* 0 for the throne .. 5; -1 for AGON_OFF */
    int8_t q[AGON_CELLS], r[AGON_CELLS]; /* axial coordinates */
    int8_t file[AGON_CELLS], rank[AGON_CELLS];
    /* Where a piece on the cell may step: the same ring or the next one inward. */
    uint8_t step_count[AGON_CELLS];
    Cell steps[AGON_CELLS][AGON_MAX_STEPS];
    /* The outer ring anticlockwise from f1 (rule book positions 0..29). */
    Cell outer[AGON_OUTER_CELLS];
    Cell ring1[6];
    char name[AGON_CELLS][4];
};

extern struct agon_board agon_board;
extern const char agon_file_letters[AGON_FILES + 1]; /* "abcdefghikl" */
extern const uint8_t agon_file_length[AGON_FILES];
extern const uint8_t agon_file_first[AGON_FILES];    /* index of rank 1 of each file */

void agon_board_init(void);
/* The cell named `name` ("f6", lower case), or -1. */
int agon_cell_by_name(const char *name);
/* The cell at axial (q, r), or -1 off the board. */
int agon_cell_at(int q, int r);
