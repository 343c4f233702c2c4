/* Agon texts: position text, move text (k1-k2, b7@l6) and move descriptions. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "agon.h"
#include "core/error.h"
#include "core/text.h"
#include "state.h"

static const char *const side_names[2] = {"White", "Black"};

static char piece_letter(unsigned v)
{
    char c = AG_INDEX(v) == 0 ? 'Q' : 'G';
    return AG_OWNER(v) == AG_CODE(SIDE_BLACK) ? (char)tolower(c) : c;
}

/* Appends an empty run (1..11) as decimal digits. */
static size_t put_run(char *text, size_t n, int run)
{
    if (run >= 10)
        text[n++] = '1';
    text[n++] = (char)('0' + run % 10);
    return n;
}

/* Written by hand, not with printf: the tests write every position they visit. */
void agon_write_position(const void *st, char *buf, size_t size)
{
    const struct agon_state *s = st;
    char text[POSITION_TEXT_MAX];
    size_t n = 0;
    int i = 0;
    for (int x = 0; x < AGON_FILES; x++) {
        int empty = 0;
        for (int k = 0; k < agon_file_length[x]; k++) {
            unsigned v = s->board[agon_board.cells[i++]];
            if (!v) {
                empty++;
                continue;
            }
            if (empty)
                n = put_run(text, n, empty);
            empty = 0;
            text[n++] = piece_letter(v);
            if (v & AG_CAPTURED)
                text[n++] = '*';
        }
        if (empty)
            n = put_run(text, n, empty);
        text[n++] = x < AGON_FILES - 1 ? '/' : ' ';
    }
    text[n++] = s->side == SIDE_WHITE ? 'w' : 'b';
    text[n] = 0;
    if (size) {
        size_t len = n < size - 1 ? n : size - 1;
        memcpy(buf, text, len);
        buf[len] = 0;
    }
}

/* Places one piece letter; guards take the next free index of their side. */
static int place(struct agon_state *s, int cell, char letter, int *guards, int *queens)
{
    int side = islower((unsigned char)letter) ? SIDE_BLACK : SIDE_WHITE;
    int index;
    if (toupper((unsigned char)letter) == 'Q') {
        index = 0;
        queens[side]++;
    } else {
        index = ++guards[side];
    }
    if (queens[side] > 1 || guards[side] >= AGON_PIECES)
        return -1; /* counted and reported after the board */
    s->board[cell] = AG_PIECE(side, index);
    s->pos[side][index] = (uint8_t)cell;
    s->occupied[side] |= AG_BIT(cell);
    return 0;
}

static int parse_board(struct agon_state *s, const char *board, size_t len, char *err,
                       size_t err_size)
{
    int x = 0, filled = 0, last = -1; /* last: the cell of the previous letter */
    int guards[2] = {0, 0}, queens[2] = {0, 0};
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? board[i] : '/';
        int flen = x < AGON_FILES ? agon_file_length[x] : 0;
        if (c == '/') {
            if (x >= AGON_FILES)
                return fail(err, err_size, "too many files: expected 11 (a..l) separated by '/'");
            if (filled != flen)
                return fail(err, err_size, "file %c has %d cells, expected %d",
                            agon_file_letters[x], filled, flen);
            x++;
            filled = 0;
            last = -1;
        } else if (x >= AGON_FILES) {
            return fail(err, err_size, "too many files: expected 11 (a..l) separated by '/'");
        } else if (isdigit((unsigned char)c)) {
            size_t start = i;
            int run = 0;
            while (i < len && isdigit((unsigned char)board[i]) && run <= 99)
                run = run * 10 + board[i++] - '0';
            i--;
            if (board[start] == '0')
                return fail(err, err_size, "file %c: bad empty run '%.*s'", agon_file_letters[x],
                            (int)(i + 1 - start), board + start);
            if (run > flen - filled)
                return fail(err, err_size, "file %c has more than %d cells", agon_file_letters[x],
                            flen);
            filled += run;
            last = -1;
        } else if (c == 'Q' || c == 'G' || c == 'q' || c == 'g') {
            if (filled >= flen)
                return fail(err, err_size, "file %c has more than %d cells", agon_file_letters[x],
                            flen);
            last = agon_cell_of(x, filled + 1);
            if (place(s, last, c, guards, queens))
                last = -2; /* an extra piece, not placed: counted and reported below */
            filled++;
        } else if (c == '*' && last == -2) {
            last = -1; /* the mark of an extra piece */
        } else if (c == '*') {
            if (last < 0 || (s->board[last] & AG_CAPTURED))
                return fail(err, err_size, "file %c: '*' must follow a piece letter",
                            agon_file_letters[x]);
            int side = (int)AG_OWNER(s->board[last]) - 1;
            s->board[last] |= AG_CAPTURED;
            s->captured[side] |= (uint8_t)(1u << AG_INDEX(s->board[last]));
        } else if (isprint((unsigned char)c)) {
            return fail(err, err_size,
                        "unknown letter '%c' in file %c (expected Q, G, q, g, a digit or '*')", c,
                        agon_file_letters[x]);
        } else {
            return fail(err, err_size, "unexpected byte 0x%02x in file %c", (unsigned char)c,
                        agon_file_letters[x]);
        }
    }
    if (x != AGON_FILES)
        return fail(err, err_size, "%d files, expected 11 (a..l) separated by '/'", x);
    for (int side = 0; side < 2; side++)
        if (queens[side] != 1 || guards[side] != 6)
            return fail(err, err_size,
                        "%s has %d queen%s and %d guard%s, expected 1 queen and 6 guards",
                        side_names[side], queens[side], queens[side] == 1 ? "" : "s", guards[side],
                        guards[side] == 1 ? "" : "s");
    if (s->board[AGON_THRONE] && AG_INDEX(s->board[AGON_THRONE]) != 0)
        return fail(err, err_size, "a guard stands on the throne f6 (only a queen may)");
    if (s->captured[SIDE_WHITE] && s->captured[SIDE_BLACK])
        return fail(err, err_size,
                    "pieces of both sides are captured (only one side can have captured pieces)");
    return 0;
}

int agon_parse_position(void *st, const char *text, char *err, size_t err_size)
{
    struct agon_state s;
    memset(&s, 0, offsetof(struct agon_state, history));
    s.board[AGON_OFF] = AG_OFFBOARD;
    size_t pos = 0, len;
    const char *board = text_next_field(text, &pos, &len);
    if (!board)
        return fail(err, err_size, "empty position text");
    if (parse_board(&s, board, len, err, err_size))
        return -1;
    const char *side = text_next_field(text, &pos, &len);
    if (text_side(side, len, &s.side, err, err_size))
        return -1;
    const char *extra = text_next_field(text, &pos, &len);
    if (extra)
        return fail(err, err_size, "unexpected text '%.*s' after the side to move", (int)len,
                    extra);
    s.key = agon_compute_key(&s);
    struct agon_state *out = st;
    memcpy(out, &s, offsetof(struct agon_state, history));
    agon_reset_seen(out);
    return 0;
}

void agon_move_text(const void *st, Move m, char *buf, size_t size)
{
    (void)st;
    char text[MOVE_TEXT_MAX];
    const char *from = agon_board.name[AG_MOVE_FROM(m)], *to = agon_board.name[AG_MOVE_TO(m)];
    size_t n = strlen(from);
    memcpy(text, from, n);
    text[n++] = AG_IS_RETURN(m) ? '@' : '-';
    size_t k = strlen(to);
    memcpy(text + n, to, k + 1);
    n += k;
    if (size) {
        size_t len = n < size - 1 ? n : size - 1;
        memcpy(buf, text, len);
        buf[len] = 0;
    }
}

void agon_describe_move(const void *st, Move m, struct move_desc *out)
{
    const struct agon_state *s = st;
    memset(out, 0, sizeof *out);
    int from = AG_MOVE_FROM(m), to = AG_MOVE_TO(m);
    snprintf(out->from, sizeof out->from, "%s", agon_board.name[from]);
    snprintf(out->to, sizeof out->to, "%s", agon_board.name[to]);
    snprintf(out->path[out->path_len++], CELL_NAME_MAX, "%s", agon_board.name[to]);
    if (AG_IS_RETURN(m)) {
        out->flags |= AGON_MOVE_RETURN;
        return;
    }
    unsigned caps = agon_step_captures(s, from, to);
    for (; caps; caps &= caps - 1)
        snprintf(out->captured[out->captured_len++], CELL_NAME_MAX, "%s",
                 agon_board.name[agon_board.nb[to][__builtin_ctz(caps)]]);
    if (out->captured_len)
        out->flags |= MOVE_FLAG_CAPTURE;
}
