/* The Agon board for a terminal: Glinski's layout, files a..l as columns, each
 * column half a cell lower than its neighbour, so the cells form the hexagon.  A cell
 * is its content then its name, on one line ("  G a5", "[g]b7", "  . c3", "<Q>f6"):
 *
 *                    q f11
 *              . e10      . g10
 *        G d9       . f10      G h9
 *
 *   Q G White queen, guards; q g Black; [g] captured; <.> the throne f6.
 */
#include <stdio.h>
#include <string.h>

#include "state.h"

#define COL_WIDTH 5
#define CANVAS_ROWS 21
#define CANVAS_COLS (8 + COL_WIDTH * AGON_FILES)

static const char *const side_names[2] = {"White", "Black"};

void agon_render(const void *st, char *buf, size_t size)
{
    const struct agon_state *s = st;
    const struct agon_board *b = &agon_board;
    char canvas[CANVAS_ROWS][CANVAS_COLS + 1];
    memset(canvas, ' ', sizeof canvas);
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = b->cells[i];
        int h = 2 * b->r[c] + b->q[c]; /* height in half cells, -10..10 */
        char text[16], glyph[8] = " . ";
        unsigned v = s->board[c];
        if (v) {
            char letter = AG_INDEX(v) == 0 ? 'Q' : 'G';
            if (AG_OWNER(v) == AG_CODE(SIDE_BLACK))
                letter = (char)(letter - 'A' + 'a');
            snprintf(glyph, sizeof glyph, (v & AG_CAPTURED) ? "[%c]" : " %c ", letter);
        }
        if (c == AGON_THRONE && !(v & AG_CAPTURED))
            glyph[0] = '<', glyph[2] = '>';
        snprintf(text, sizeof text, "%s%s", glyph, b->name[c]);
        memcpy(canvas[10 - h] + 2 + COL_WIDTH * b->file[c], text, strlen(text));
    }
    size_t n = 0;
    for (int r = 0; r < CANVAS_ROWS && n < size; r++) {
        int len = CANVAS_COLS;
        while (len > 0 && canvas[r][len - 1] == ' ')
            len--;
        n += (size_t)snprintf(buf + n, size - n, "%.*s\n", len, canvas[r]);
    }
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n,
                              "\nQ G White queen, guards   q g Black queen, guards   "
                              "[g] captured   <.>f6 the throne\n");
    if (n >= size)
        return;
    struct game_status status;
    agon_status(s, &status);
    if (status.result != RESULT_ONGOING) {
        snprintf(buf + n, size - n, "Game over: %s (%s).\n", result_name(status.result),
                 reason_text(&agon_game, status.reason));
        return;
    }
    /* A return turn surprises newcomers: say what it is, with a legal example. */
    const char *us = side_names[s->side];
    unsigned caps = s->captured[s->side];
    Move moves[AGON_MAX_MOVES];
    char example[MOVE_TEXT_MAX] = "";
    if (agon_gen_moves(s, moves) > 0)
        agon_move_text(s, moves[0], example, sizeof example);
    if (caps & 1)
        snprintf(buf + n, size - n,
                 "%s's queen is captured: this turn %s must return it to any empty cell, the "
                 "throne\nincluded, but not between two enemy pieces (write from@to, e.g. %s).\n",
                 us, us, example);
    else if (caps)
        snprintf(buf + n, size - n,
                 "%s has %d captured guard%s: this turn %s must return one to an empty cell of "
                 "the outer\nring, not between two enemy pieces (write from@to, e.g. %s).\n",
                 us, __builtin_popcount(caps), __builtin_popcount(caps) > 1 ? "s" : "", us,
                 example);
    else
        snprintf(buf + n, size - n, "%s to move: a step sideways or inward (write from-to).\n", us);
}
