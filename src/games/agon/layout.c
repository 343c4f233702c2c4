/* Agon's board as a picture for the shared renderers: Glinski's layout, files a..l
 * as vertical columns of flat-topped hexagons, each column half a cell lower than its
 * neighbour.  Cells are numbered in position-text order (a1 = 0 ... l6 = 90). */
#include <stdio.h>

#include "state.h"

static struct board_cell cells[AGON_CELLS];
static const struct game_word cell_flags[] = {{AGON_CELL_THRONE, "throne", NULL}, {0, NULL, NULL}};
static struct board_layout layout = {BOARD_HEX, AGON_CELLS, cells, 0, NULL, cell_flags};

/* Flat-topped cells one unit wide (corner to corner): columns 3/4 apart, cells of a
 * column sqrt(3)/2 apart; f1 at the bottom (y = 0), f11 at the top. */
void agon_layout_init(void)
{
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = agon_board.cells[i];
        snprintf(cells[i].name, sizeof cells[i].name, "%s", agon_board.name[c]);
        cells[i].x = 0.75f * (float)agon_board.file[c];
        cells[i].y = 0.4330127f * (float)(2 * agon_board.r[c] + agon_board.q[c] + 10);
        cells[i].ring = agon_board.ring[c];
        cells[i].flags = c == AGON_THRONE ? AGON_CELL_THRONE : 0;
    }
}

const struct board_layout *agon_layout(void)
{
    return &layout;
}

char agon_piece_at(const void *st, int cell, unsigned *marks)
{
    const struct agon_state *s = st;
    if (marks)
        *marks = 0;
    if (cell < 0 || cell >= AGON_CELLS)
        return 0;
    unsigned v = s->board[agon_board.cells[cell]];
    if (!v)
        return 0;
    if (marks && (v & AG_CAPTURED))
        *marks = PIECE_CAPTURED;
    char letter = AG_INDEX(v) == 0 ? 'Q' : 'G';
    return AG_OWNER(v) == AG_CODE(SIDE_BLACK) ? (char)(letter - 'A' + 'a') : letter;
}
