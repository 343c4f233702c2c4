/* Chess's board as a picture: 64 squares, cell n is square n (a1 = 0, h8 = 63). */
#include "chess.h"
#include "state.h"

static struct board_cell cells[64];
static const struct game_word cell_flags[] = {{CHESS_CELL_DARK, "dark", NULL}, {0, NULL, NULL}};
static const struct board_layout layout = {BOARD_SQUARE, 64, cells, 0, NULL, cell_flags};

void chess_layout_init(void)
{
    for (int sq = 0; sq < 64; sq++) {
        chess_square_name(sq, cells[sq].name);
        cells[sq].x = (float)SQ_FILE(sq);
        cells[sq].y = (float)SQ_RANK(sq);
        cells[sq].ring = 0;
        cells[sq].flags = (BIT(sq) & LIGHT_SQUARES) ? 0 : CHESS_CELL_DARK;
    }
}

const struct board_layout *chess_layout(void)
{
    return &layout;
}

char chess_piece_at(const void *st, int cell, unsigned *marks)
{
    const struct chess_pos *p = &((const struct chess_state *)st)->pos;
    if (marks)
        *marks = 0;
    if (cell < 0 || cell >= 64 || !p->board[cell])
        return 0;
    char c = " PNBRQK"[PIECE_TYPE(p->board[cell])];
    return PIECE_COLOR(p->board[cell]) ? (char)(c - 'A' + 'a') : c;
}
