/* Egara-guti texts: position text, move text, move descriptions, the terminal board. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "egara.h"
#include "state.h"

/* First point of each rank 7..1 in position text order. */
static const int rank_first[7] = {18, 15, 12, 11, 8, 5, 0};

void egara_write_position(const void *st, char *buf, size_t size)
{
    const struct egara_state *s = st;
    char text[POSITION_TEXT_MAX];
    size_t n = 0;
    for (int r = 0; r < 7; r++) {
        int empty = 0;
        for (int i = 0; i < egara_rank_size[r]; i++) {
            int p = rank_first[r] + i;
            char c = (s->pieces[SIDE_WHITE] >> p) & 1   ? 'W'
                     : (s->pieces[SIDE_BLACK] >> p) & 1 ? 'B'
                                                        : 0;
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                text[n++] = (char)('0' + empty);
            empty = 0;
            text[n++] = c;
        }
        if (empty)
            text[n++] = (char)('0' + empty);
        if (r < 6)
            text[n++] = '/';
    }
    snprintf(text + n, sizeof text - n, " %c %d", s->side == SIDE_WHITE ? 'w' : 'b', s->quiet);
    snprintf(buf, size, "%s", text);
}

static int parse_board(struct egara_state *s, const char *board, size_t len, char *err,
                       size_t err_size)
{
    int r = 0, filled = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? board[i] : '/';
        if (r >= 7)
            return fail(err, err_size, "too many ranks: expected 7 separated by '/'");
        if (c == '/') {
            if (filled != egara_rank_size[r])
                return fail(err, err_size, "rank %d has %d points, expected %d", 7 - r, filled,
                            egara_rank_size[r]);
            r++;
            filled = 0;
        } else if (r >= 7) {
            /* Text after a seventh '/': not a rank of this board. */
            return fail(err, err_size, "too many ranks: expected 7 separated by '/'");
        } else if (c >= '0' && c <= '9') {
            /* A digit run is one number of empty points: "32" is thirty-two. */
            size_t run = 1;
            long empty = 0;
            while (i + run < len && board[i + run] >= '0' && board[i + run] <= '9')
                run++;
            for (size_t k = 0; k < run && empty <= 99; k++)
                empty = empty * 10 + (board[i + k] - '0');
            if (empty == 0 || board[i] == '0')
                return fail(err, err_size, "rank %d: '%.*s' is not a count of empty points", 7 - r,
                            (int)(run < 20 ? run : 20), board + i);
            if (filled + empty > egara_rank_size[r])
                return fail(err, err_size,
                            "rank %d: '%.*s' empty points do not fit (the rank has %d points, "
                            "%d of them already named)",
                            7 - r, (int)(run < 20 ? run : 20), board + i, egara_rank_size[r],
                            filled);
            filled += (int)empty;
            i += run - 1;
        } else if (c == 'W' || c == 'B') {
            if (filled >= egara_rank_size[r])
                return fail(err, err_size, "rank %d has more than %d points", 7 - r,
                            egara_rank_size[r]);
            s->pieces[c == 'W' ? SIDE_WHITE : SIDE_BLACK] |= 1u << (rank_first[r] + filled);
            filled++;
        } else if (isprint((unsigned char)c)) {
            return fail(err, err_size, "unknown letter '%c' in rank %d (expected W, B or a digit)",
                        c, 7 - r);
        } else {
            return fail(err, err_size, "unexpected byte 0x%02x in rank %d", (unsigned char)c,
                        7 - r);
        }
    }
    if (r != 7)
        return fail(err, err_size, "%d ranks, expected 7 separated by '/'", r);
    for (int side = 0; side < 2; side++)
        if (__builtin_popcount(s->pieces[side]) > EGARA_PIECES)
            return fail(err, err_size, "%s has %d pieces, at most %d", side ? "Black" : "White",
                        __builtin_popcount(s->pieces[side]), EGARA_PIECES);
    return 0;
}

int egara_parse_position(void *st, const char *text, char *err, size_t err_size)
{
    struct egara_state s;
    memset(&s, 0, offsetof(struct egara_state, history));
    size_t pos = 0, len;
    const char *board = text_next_field(text, &pos, &len);
    if (!board)
        return fail(err, err_size, "empty position text");
    if (parse_board(&s, board, len, err, err_size))
        return -1;
    const char *side = text_next_field(text, &pos, &len);
    if (text_side(side, len, &s.side, err, err_size))
        return -1;
    const char *quiet = text_next_field(text, &pos, &len);
    if (quiet) {
        int q = 0;
        for (size_t i = 0; i < len; i++) {
            if (!isdigit((unsigned char)quiet[i]) || q > EGARA_QUIET_LIMIT)
                return fail(err, err_size, "bad quiet count '%.*s' (expected 0..%d)", (int)len,
                            quiet, EGARA_QUIET_LIMIT);
            q = q * 10 + quiet[i] - '0';
        }
        if (q > EGARA_QUIET_LIMIT)
            return fail(err, err_size, "bad quiet count '%.*s' (expected 0..%d)", (int)len, quiet,
                        EGARA_QUIET_LIMIT);
        s.quiet = q;
    }
    const char *extra = text_next_field(text, &pos, &len);
    if (extra)
        return fail(err, err_size, "unexpected text '%.*s' after the position", (int)len, extra);
    if (!s.pieces[0] && !s.pieces[1])
        return fail(err, err_size, "the board has no pieces");
    s.key = egara_compute_key(&s);
    memcpy(st, &s, offsetof(struct egara_state, history));
    return 0;
}

void egara_move_text(const void *st, Move m, char *buf, size_t size)
{
    (void)st;
    int jumps = EG_MOVE_JUMPS(m);
    size_t n = (size_t)snprintf(buf, size, "%s", egara_point_names[EG_MOVE_FROM(m)]);
    if (jumps == 0) {
        snprintf(buf + n, n < size ? size - n : 0, "-%s", egara_point_names[EG_MOVE_LANDING(m, 1)]);
        return;
    }
    for (int k = 1; k <= jumps && n < size; k++)
        n += (size_t)snprintf(buf + n, size - n, "x%s", egara_point_names[EG_MOVE_LANDING(m, k)]);
}

/* Why no legal move has this (well-formed) text: the rules a player most often
 * misses are named. */
static int explain_illegal(const void *st, const char *text, int is_capture, char *err,
                           size_t err_size)
{
    Move moves[EGARA_MAX_MOVES];
    int n = egara_gen_moves(st, moves);
    char legal[MOVE_TEXT_MAX];
    size_t len = strlen(text);
    for (int i = 0; i < n; i++) {
        egara_move_text(st, moves[i], legal, sizeof legal);
        if (is_capture && strncmp(legal, text, len) == 0 && legal[len] == 'x')
            return fail(err, err_size, "illegal move '%s': the capture must go on (e.g. %s)", text,
                        legal);
    }
    if (!is_capture && n > 0 && EG_MOVE_JUMPS(moves[0]) > 0)
        return fail(err, err_size, "illegal move '%s': a capture is compulsory", text);
    return fail(err, err_size, "illegal move '%s'", text);
}

int egara_parse_move(const void *st, const char *text, Move *out, char *err, size_t err_size)
{
    char lower[MOVE_TEXT_MAX];
    if (text_lower_copy(text, lower, sizeof lower, err, err_size))
        return -1;
    size_t len = strlen(lower);
    /* Syntax: point ('-' point | ('x' point)+). */
    int points = 0;
    char sep = 0;
    for (size_t i = 0; i < len;) {
        if (points > 0) {
            char c = lower[i];
            if ((c != '-' && c != 'x') || (sep && c != sep) || (c == '-' && points > 1))
                return fail(err, err_size,
                            "malformed move '%s': expected from-to or from x to x ...", text);
            sep = c;
            i++;
        }
        char name[3] = {lower[i], i + 1 < len ? lower[i + 1] : 0, 0};
        if (egara_point_by_name(name) < 0)
            return fail(err, err_size, "malformed move '%s': unknown point '%s'", text, name);
        i += 2;
        points++;
    }
    if (points < 2)
        return fail(err, err_size, "malformed move '%s': expected from-to or from x to x ...",
                    text);
    if (game_find_move(&egara_game, st, lower, out, err, err_size) == 0)
        return 0;
    struct game_status status;
    egara_status(st, &status);
    if (status.result != RESULT_ONGOING)
        return -1; /* game_find_move said the game is over */
    return explain_illegal(st, lower, sep == 'x', err, err_size);
}

void egara_describe_move(const void *st, Move m, struct move_desc *out)
{
    (void)st;
    memset(out, 0, sizeof *out);
    int from = EG_MOVE_FROM(m), jumps = EG_MOVE_JUMPS(m);
    snprintf(out->from, sizeof out->from, "%s", egara_point_names[from]);
    int at = from;
    int landings = jumps ? jumps : 1;
    for (int k = 1; k <= landings; k++) {
        int to = EG_MOVE_LANDING(m, k);
        snprintf(out->path[out->path_len++], CELL_NAME_MAX, "%s", egara_point_names[to]);
        if (jumps)
            snprintf(out->captured[out->captured_len++], CELL_NAME_MAX, "%s",
                     egara_point_names[egara_board.middle[at][to]]);
        at = to;
    }
    snprintf(out->to, sizeof out->to, "%s", egara_point_names[at]);
    if (jumps)
        out->flags |= MOVE_FLAG_CAPTURE;
    if (jumps > 1)
        out->flags |= EGARA_MOVE_CHAIN;
}

/* The board drawn like the rule book's diagram: rank 7 on top, each point four
 * columns apart, the lines between them in - | \ /. */
#define CANVAS_ROWS 13
#define CANVAS_COLS 25
void egara_render(const void *st, char *buf, size_t size)
{
    const struct egara_state *s = st;
    char canvas[CANVAS_ROWS][CANVAS_COLS + 1];
    memset(canvas, ' ', sizeof canvas);
    for (int p = 0; p < EGARA_POINTS; p++) {
        int r0 = (7 - egara_point_rank[p]) * 2, c0 = egara_point_file[p] * 4;
        for (uint32_t adj = egara_board.adjacent[p]; adj; adj &= adj - 1) {
            int q = __builtin_ctz(adj);
            int r1 = (7 - egara_point_rank[q]) * 2, c1 = egara_point_file[q] * 4;
            if (r1 < r0 || (r1 == r0 && c1 < c0))
                continue; /* each pair once, drawn downwards or rightwards */
            if (r1 == r0)
                for (int c = c0 + 1; c < c1; c++)
                    canvas[r0][c] = '-';
            else if (c1 == c0)
                for (int r = r0 + 1; r < r1; r++)
                    canvas[r][c0] = '|';
            else
                canvas[r0 + 1][(c0 + c1) / 2] = c1 > c0 ? '\\' : '/';
        }
    }
    for (int p = 0; p < EGARA_POINTS; p++) {
        char c = (s->pieces[SIDE_WHITE] >> p) & 1   ? 'W'
                 : (s->pieces[SIDE_BLACK] >> p) & 1 ? 'B'
                                                    : '.';
        canvas[(7 - egara_point_rank[p]) * 2][egara_point_file[p] * 4] = c;
    }
    size_t n = 0;
    for (int r = 0; r < CANVAS_ROWS && n < size; r++) {
        int len = CANVAS_COLS;
        while (len > 0 && canvas[r][len - 1] == ' ')
            len--;
        if (r % 2 == 0)
            n += (size_t)snprintf(buf + n, size - n, "  %d  %.*s\n", 7 - r / 2, len, canvas[r]);
        else
            n += (size_t)snprintf(buf + n, size - n, "     %.*s\n", len, canvas[r]);
    }
    if (n < size)
        snprintf(buf + n, size - n, "     a   b   c   d   e   f   g\n");
}
