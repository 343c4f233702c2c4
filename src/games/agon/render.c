/* The Agon board for a terminal: Glinski's layout, files as columns, each column half
 * a cell lower than its neighbour, so the cells form the hexagon.  Every cell is two
 * lines, its name over its content:
 *
 *          f11
 *       e10  q   g10            Q G  White queen and guards
 *        .  f10   .             q g  Black queen and guards
 *          ...                  [g]  a captured piece (it must be returned)
 *                               <f6> the throne
 */
#include <stdio.h>
#include <string.h>

#include "state.h"

#define COL_WIDTH 6
#define CANVAS_ROWS 22
#define CANVAS_COLS (2 + COL_WIDTH * AGON_FILES)

static void put_centered(char *row, int centre, const char *text)
{
    int len = (int)strlen(text);
    int start = centre - len / 2;
    for (int i = 0; i < len; i++)
        if (start + i >= 0 && start + i < CANVAS_COLS)
            row[start + i] = text[i];
}

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
        int row = 10 - h, centre = 3 + COL_WIDTH * b->file[c];
        char name[8], content[8];
        snprintf(name, sizeof name, c == AGON_THRONE ? "<%s>" : "%s", b->name[c]);
        unsigned v = s->board[c];
        if (!v) {
            snprintf(content, sizeof content, ".");
        } else {
            char letter = AG_INDEX(v) == 0 ? 'Q' : 'G';
            if (AG_OWNER(v) == AG_CODE(SIDE_BLACK))
                letter = (char)(letter - 'A' + 'a');
            snprintf(content, sizeof content, (v & AG_CAPTURED) ? "[%c]" : "%c", letter);
        }
        put_centered(canvas[row], centre, name);
        put_centered(canvas[row + 1], centre, content);
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
                              "[g] captured   <f6> the throne\n");
    const char *us = side_names[s->side];
    unsigned caps = s->captured[s->side];
    if (n >= size)
        return;
    if (caps & 1)
        snprintf(buf + n, size - n,
                 "%s must return the captured queen this turn: it goes to any empty cell, the "
                 "throne included,\nbut not between two enemy pieces (write from@to, e.g. %s@f6).\n",
                 us, b->name[s->pos[s->side][0]]);
    else if (caps)
        snprintf(buf + n, size - n,
                 "%s must return a captured guard this turn (one a turn): it goes to an empty "
                 "outer-ring cell,\nbut not between two enemy pieces (write from@to, e.g. %s@a1).\n",
                 us, b->name[s->pos[s->side][__builtin_ctz(caps)]]);
    else
        snprintf(buf + n, size - n, "%s to move: a step sideways or inward (write from-to).\n", us);
}
