/* Egara-guti's board as a picture: the 23 points on the 7 x 7 grid and their lines. */
#include <stdio.h>

#include "state.h"

static struct board_cell cells[EGARA_POINTS];
static int edges[40][2];
static const struct game_word cell_flags[] = {{EGARA_CELL_CENTRE, "centre", NULL}, {0, NULL, NULL}};
static struct board_layout layout = {BOARD_GRAPH, EGARA_POINTS, cells, 0, edges, cell_flags};

/* Filled from the board tables by egara_init, so the lines exist in one place. */
void egara_layout_init(void)
{
    layout.edges = 0;
    for (int p = 0; p < EGARA_POINTS; p++) {
        snprintf(cells[p].name, sizeof cells[p].name, "%s", egara_point_names[p]);
        cells[p].x = egara_point_file[p];
        cells[p].y = (float)(egara_point_rank[p] - 1);
        cells[p].ring = 0;
        cells[p].flags = p == EGARA_CENTRE ? EGARA_CELL_CENTRE : 0;
        for (uint32_t adj = egara_board.adjacent[p]; adj; adj &= adj - 1) {
            int q = __builtin_ctz(adj);
            if (q > p && layout.edges < 40) {
                edges[layout.edges][0] = p;
                edges[layout.edges][1] = q;
                layout.edges++;
            }
        }
    }
}

const struct board_layout *egara_layout(void)
{
    return &layout;
}

char egara_piece_at(const void *st, int cell, unsigned *marks)
{
    const struct egara_state *s = st;
    if (marks)
        *marks = 0;
    if (cell < 0 || cell >= EGARA_POINTS)
        return 0;
    return (s->pieces[SIDE_WHITE] >> cell) & 1   ? 'W'
           : (s->pieces[SIDE_BLACK] >> cell) & 1 ? 'B'
                                                 : 0;
}
