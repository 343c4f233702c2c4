/* FIDE's Tournament Report File, TRF-2026 and TRF(x).
 *
 * A player line (001), columns counted from 1:
 *
 *   1-3 "001"  5-8 pairing number  10 sex  11-13 title  15-47 name  49-52 rating
 *   54-56 federation  58-68 FIDE id  70-79 birth date  81-84 points  86-89 rank
 *   then one block of 10 columns a round from column 92:
 *       92-95 opponent (0000: none)  97 colour (w, b, -)  99 result
 *
 * The results: 1 = 0 (played), W D L (played, unrated), + - (forfeits; the game was
 * not played), and with opponent 0000: U (pairing-allocated bye), F H Z (full, half,
 * zero-point byes asked for), - or blank (absent).
 *
 * Tournament lines read: 012 name, 142 / XXR number of rounds, 152 / XXC initial
 * colour, 162 (TRF-2026: "W 3.0 D 1.0 L 0.0 Z 0.0 P 3.0"; A, as bbpPairings writes the
 * points of absences and forfeit losses, F and H are read too) and BBW BBD BBL BBZ BBF BBU
 * (TRF(x)) point system.  Other lines are kept out (comments ###, and lines this
 * program does not use, such as 092 or 132, are accepted and ignored). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swiss/swiss.h"

struct reader {
    char *err;
    size_t err_size;
};

static int trf_fail(struct reader *rd, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int trf_fail(struct reader *rd, int line, int col, const char *fmt, ...)
{
    if (rd->err && rd->err_size) {
        int n = snprintf(rd->err, rd->err_size, "line %d, column %d: ", line, col);
        if (n >= 0 && (size_t)n < rd->err_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(rd->err + n, rd->err_size - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* A line's text: pointer and length (without its end). */
struct line {
    const char *s;
    size_t len;
    int number;
};

static char at(const struct line *l, int col) /* col counted from 1 */
{
    return (size_t)col <= l->len && col >= 1 ? l->s[col - 1] : ' ';
}

/* The decimal number in columns [from, to], blanks around; -2 when blank, -1 when
 * not a number. */
static long field_int(const struct line *l, int from, int to)
{
    long v = 0;
    int digits = 0, i = from;
    while (i <= to && at(l, i) == ' ')
        i++;
    for (; i <= to && isdigit((unsigned char)at(l, i)); i++) {
        if (v > 100000000)
            return -1;
        v = v * 10 + (at(l, i) - '0');
        digits++;
    }
    while (i <= to && at(l, i) == ' ')
        i++;
    if (i <= to)
        return -1;
    return digits ? v : -2;
}

/* A points value "3", "2.5", "0.25" rounded to tenths; -1 when malformed. */
static int parse_points(const char *s, size_t len, SwissPoints *out)
{
    long whole = 0, tenths = 0;
    size_t i = 0;
    int digits = 0;
    for (; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
        if (whole > 100000)
            return -1;
        whole = whole * 10 + (s[i] - '0');
    }
    if (i < len && (s[i] == '.' || s[i] == ',')) {
        i++;
        if (i < len && isdigit((unsigned char)s[i])) {
            tenths = s[i] - '0';
            i++;
            digits++;
        }
        while (i < len && isdigit((unsigned char)s[i]))
            i++;
    }
    if (!digits || i != len)
        return -1;
    *out = (SwissPoints)(whole * 10 + tenths);
    return 0;
}

/* The player lines' round blocks, decoded. */
static int decode_block(struct reader *rd, const struct line *l, int round, int n_players,
                        struct swiss_game *g, int *blank)
{
    int col = 92 + 10 * round;
    *blank = 0;
    char c = at(l, col + 5), r = at(l, col + 7);
    long opp = field_int(l, col, col + 3);
    if (opp == -2 && c == ' ' && r == ' ') {
        *blank = 1;
        memset(g, 0, sizeof *g);
        return 0;
    }
    if (opp < 0)
        return trf_fail(rd, l->number, col, "round %d: the opponent is not a number", round + 1);
    if (opp > n_players)
        return trf_fail(rd, l->number, col, "round %d: no player %ld", round + 1, opp);
    if (at(l, col + 4) != ' ' || at(l, col + 6) != ' ')
        return trf_fail(rd, l->number, col + 4, "round %d: a block is \"NNNN c r\"", round + 1);
    g->opponent = (int)opp;
    g->code = r;
    if (opp == 0) {
        g->colour = SWISS_NO_COLOUR;
        if (c != '-' && c != ' ')
            return trf_fail(rd, l->number, col + 5, "round %d: a bye has no colour", round + 1);
        switch (r) {
        case 'U': g->result = SWISS_BYE_PAIRING; break;
        case 'F': g->result = SWISS_BYE_FULL; break;
        case 'H': g->result = SWISS_BYE_HALF; break;
        case 'Z': g->result = SWISS_BYE_ZERO; break;
        case '-':
        case ' ': g->result = SWISS_NONE; break;
        case '+': g->result = SWISS_BYE_FULL; break; /* some programs write "0000 - +" */
        default:
            return trf_fail(rd, l->number, col + 7, "round %d: '%c' is not a bye's result",
                            round + 1, r);
        }
        return 0;
    }
    if (c == 'w')
        g->colour = SWISS_WHITE;
    else if (c == 'b')
        g->colour = SWISS_BLACK;
    else
        return trf_fail(rd, l->number, col + 5, "round %d: colour '%c' is not w or b", round + 1,
                        c);
    switch (r) {
    case '1':
    case 'W': g->result = SWISS_WIN; break;
    case '=':
    case 'D': g->result = SWISS_DRAW; break;
    case '0':
    case 'L': g->result = SWISS_LOSS; break;
    case '+': g->result = SWISS_FORFEIT_WIN; break;
    case '-': g->result = SWISS_FORFEIT_LOSS; break;
    default:
        return trf_fail(rd, l->number, col + 7, "round %d: '%c' is not a game's result", round + 1,
                        r);
    }
    return 0;
}

static int complementary(const struct swiss_game *a, const struct swiss_game *b)
{
    switch (a->result) {
    case SWISS_WIN: return b->result == SWISS_LOSS;
    case SWISS_LOSS: return b->result == SWISS_WIN;
    case SWISS_DRAW: return b->result == SWISS_DRAW;
    case SWISS_FORFEIT_WIN: return b->result == SWISS_FORFEIT_LOSS;
    case SWISS_FORFEIT_LOSS:
        return b->result == SWISS_FORFEIT_WIN || b->result == SWISS_FORFEIT_LOSS;
    default: return 0;
    }
}

/* 162 (TRF-2026): pairs "CODE VALUE" from column 5; BBx (TRF(x)): one value. */
static int read_points_162(struct reader *rd, const struct line *l, struct swiss_points *p,
                           int *pab_set)
{
    size_t i = 3;
    while (i < l->len) {
        while (i < l->len && l->s[i] == ' ')
            i++;
        if (i >= l->len)
            break;
        size_t code_at = i;
        char code = l->s[i++];
        while (i < l->len && l->s[i] == ' ')
            i++;
        size_t v = i;
        while (i < l->len && l->s[i] != ' ')
            i++;
        SwissPoints value;
        if (v == i || parse_points(l->s + v, i - v, &value))
            return trf_fail(rd, l->number, (int)v + 1, "the points of '%c' are not a number", code);
        switch (code) {
        case 'W': p->win = p->forfeit_win = p->full_bye = value; break;
        case 'D': p->draw = p->half_bye = value; break;
        case 'L': p->loss = value; break;
        case 'A': p->zero_bye = p->forfeit_loss = p->absent = value; break;
        case 'P':
            p->pairing_bye = value;
            *pab_set = 1;
            break;
        case 'F': p->full_bye = value; break;
        case 'H': p->half_bye = value; break;
        case 'Z': p->zero_bye = p->absent = value; break;
        default: return trf_fail(rd, l->number, (int)code_at + 1, "unknown point code '%c'", code);
        }
    }
    return 0;
}

static int read_points_bb(struct reader *rd, const struct line *l, struct swiss_points *p,
                          int *pab_set)
{
    size_t i = 3;
    while (i < l->len && l->s[i] == ' ')
        i++;
    size_t v = i;
    while (i < l->len && l->s[i] != ' ')
        i++;
    size_t end = i;
    while (i < l->len && l->s[i] == ' ')
        i++;
    SwissPoints value;
    if (v == end || i != l->len || parse_points(l->s + v, end - v, &value))
        return trf_fail(rd, l->number, (int)v + 1, "%.3s needs one number of points", l->s);
    switch (l->s[2]) {
    case 'W': p->win = p->forfeit_win = p->full_bye = value; break;
    case 'D': p->draw = p->half_bye = value; break;
    case 'L': p->loss = value; break;
    case 'Z': p->zero_bye = p->absent = value; break;
    case 'F': p->forfeit_loss = value; break;
    case 'U':
        p->pairing_bye = value;
        *pab_set = 1;
        break;
    default: return trf_fail(rd, l->number, 3, "unknown point line %.3s", l->s);
    }
    return 0;
}

struct swiss_tournament *swiss_trf_read(const char *text, size_t len, char *err, size_t err_size)
{
    struct reader rd = {err, err_size};
    struct swiss_tournament *t = NULL;
    /* Split into lines (CR, LF or CRLF). */
    size_t cap = 64, n_lines = 0;
    struct line *lines = malloc(cap * sizeof *lines);
    if (!lines) {
        trf_fail(&rd, 0, 0, "out of memory");
        return NULL;
    }
    for (size_t i = 0, number = 1; i < len; number++) {
        size_t j = i;
        while (j < len && text[j] != '\r' && text[j] != '\n')
            j++;
        if (n_lines == cap) {
            struct line *bigger = realloc(lines, 2 * cap * sizeof *lines);
            if (!bigger) {
                trf_fail(&rd, (int)number, 1, "out of memory");
                goto fail;
            }
            lines = bigger;
            cap *= 2;
        }
        size_t e = j;
        while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t'))
            e--;
        lines[n_lines++] = (struct line){text + i, e - i, (int)number};
        if (j < len && text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
            j++;
        i = j + 1;
    }

    /* First pass: the players' count and the number of round blocks. */
    int n_players = 0, blocks = 0;
    for (size_t k = 0; k < n_lines; k++) {
        const struct line *l = &lines[k];
        for (size_t c = 0; c < l->len; c++)
            if ((unsigned char)l->s[c] < 32 && l->s[c] != '\t') {
                trf_fail(&rd, l->number, (int)c + 1, "a control character");
                goto fail;
            }
        if (l->len < 3 || memcmp(l->s, "001", 3))
            continue;
        long id = field_int(l, 5, 8);
        if (id < 1) {
            trf_fail(&rd, l->number, 5, "the pairing number is not a number from 1");
            goto fail;
        }
        if (id > n_players)
            n_players = (int)id;
        int b = l->len > 91 ? (int)((l->len - 91 + 9) / 10) : 0;
        if (b > blocks)
            blocks = b;
    }
    if (blocks > SWISS_MAX_ROUNDS) {
        trf_fail(&rd, 0, 92, "more than %d rounds", SWISS_MAX_ROUNDS);
        goto fail;
    }
    t = swiss_new(n_players, 0);
    if (!t) {
        trf_fail(&rd, 0, 0, "out of memory");
        goto fail;
    }
    for (int r = 0; r < blocks; r++)
        if (swiss_add_round(t)) {
            trf_fail(&rd, 0, 0, "out of memory");
            goto fail;
        }
    t->rounds_played = 0;
    int *seen = calloc((size_t)n_players + 1, sizeof *seen);
    int *score_line = calloc((size_t)n_players + 1, sizeof *score_line);
    long *score_col = calloc((size_t)n_players + 1, sizeof *score_col);
    if (!seen || !score_line || !score_col) {
        free(seen);
        free(score_line);
        free(score_col);
        trf_fail(&rd, 0, 0, "out of memory");
        goto fail;
    }
    int bad = 0, initial_colour_set = 0, pab_set = 0;
    long rounds_total = -1;
    for (size_t k = 0; k < n_lines && !bad; k++) {
        const struct line *l = &lines[k];
        if (l->len == 0 || (l->len >= 3 && !memcmp(l->s, "###", 3)))
            continue;
        if (l->len >= 3 && !memcmp(l->s, "001", 3)) {
            int id = (int)field_int(l, 5, 8);
            if (seen[id]) {
                bad =
                    trf_fail(&rd, l->number, 5, "player %d appears twice (line %d)", id, seen[id]);
                break;
            }
            seen[id] = l->number;
            struct swiss_player *p = &t->players[id - 1];
            size_t nl = l->len > 47 ? 33 : (l->len > 14 ? l->len - 14 : 0);
            memcpy(p->name, l->s + (l->len > 14 ? 14 : l->len), nl);
            p->name[nl] = 0;
            for (int e = (int)nl - 1; e >= 0 && p->name[e] == ' '; e--)
                p->name[e] = 0;
            long rating = field_int(l, 49, 52);
            if (rating == -1) {
                bad = trf_fail(&rd, l->number, 49, "the rating is not a number");
                break;
            }
            p->rating = rating > 0 ? (int)rating : 0;
            for (int c = 0; c < 4; c++)
                p->sex_title[c] = at(l, 10 + c);
            for (int c = 0; c < 27; c++)
                p->extra[c] = at(l, 54 + c);
            /* the score column, checked below */
            long whole = -2;
            const char *sc = l->len >= 84 ? l->s + 80 : NULL;
            if (sc) {
                size_t a = 0;
                while (a < 4 && sc[a] == ' ')
                    a++;
                size_t z = 4;
                while (z > a && sc[z - 1] == ' ')
                    z--;
                if (a < 4) {
                    SwissPoints v;
                    if (parse_points(sc + a, z - a, &v)) {
                        bad = trf_fail(&rd, l->number, 81, "the points are not a number");
                        break;
                    }
                    whole = v;
                }
            }
            score_col[id] = whole;
            score_line[id] = l->number;
            for (int r = 0; r < blocks; r++) {
                int blank;
                if (decode_block(&rd, l, r, n_players, &p->games[r], &blank)) {
                    bad = -1;
                    break;
                }
                if (p->games[r].opponent == id) {
                    bad = trf_fail(&rd, l->number, 92 + 10 * r,
                                   "round %d: player %d against "
                                   "itself",
                                   r + 1, id);
                    break;
                }
            }
            continue;
        }
        if (l->len >= 3 && (!memcmp(l->s, "142", 3) || !memcmp(l->s, "XXR", 3))) {
            const char *s = l->s + 3;
            size_t n = l->len - 3;
            while (n && *s == ' ')
                s++, n--;
            rounds_total = 0;
            for (size_t c = 0; c < n; c++) {
                if (!isdigit((unsigned char)s[c]) || rounds_total > SWISS_MAX_ROUNDS) {
                    bad =
                        trf_fail(&rd, l->number, (int)(s - l->s) + (int)c + 1,
                                 "the number of rounds is not a number up to %d", SWISS_MAX_ROUNDS);
                    break;
                }
                rounds_total = rounds_total * 10 + (s[c] - '0');
            }
            if (!bad && (n == 0 || rounds_total > SWISS_MAX_ROUNDS))
                bad = trf_fail(&rd, l->number, 4, "the number of rounds is missing or too big");
            continue;
        }
        if (l->len >= 3 && (!memcmp(l->s, "152", 3) || !memcmp(l->s, "XXC", 3))) {
            const char *s = l->s + 3;
            while (s < l->s + l->len && *s == ' ')
                s++;
            if (s < l->s + l->len && (*s == 'w' || *s == 'W'))
                t->initial_colour = SWISS_WHITE;
            else if (s < l->s + l->len && (*s == 'b' || *s == 'B'))
                t->initial_colour = SWISS_BLACK;
            else {
                bad = trf_fail(&rd, l->number, (int)(s - l->s) + 1,
                               "the initial colour is W or B (XXC white1 or black1)");
                break;
            }
            initial_colour_set = 1;
            continue;
        }
        if (l->len >= 3 && !memcmp(l->s, "162", 3)) {
            if (read_points_162(&rd, l, &t->points, &pab_set))
                bad = -1;
            continue;
        }
        if (l->len >= 3 && l->s[0] == 'B' && l->s[1] == 'B') {
            if (read_points_bb(&rd, l, &t->points, &pab_set))
                bad = -1;
            continue;
        }
        if (l->len >= 3 && !memcmp(l->s, "012", 3)) {
            size_t n = l->len > 4 ? l->len - 4 : 0;
            if (n >= sizeof t->name)
                n = sizeof t->name - 1;
            memcpy(t->name, l->s + 4, n);
            t->name[n] = 0;
            continue;
        }
        if (l->len >= 3 && isdigit((unsigned char)l->s[0]) && isdigit((unsigned char)l->s[1]) &&
            isdigit((unsigned char)l->s[2]))
            continue; /* other tournament lines, team lines (013): not used for pairing */
        if (l->len >= 3 && (!memcmp(l->s, "XX", 2) || !memcmp(l->s, "DAT", 3)))
            continue; /* other TRF(x) extensions */
        bad = trf_fail(&rd, l->number, 1, "unknown line \"%.*s\"", l->len < 3 ? (int)l->len : 3,
                       l->s);
    }
    if (!bad)
        for (int id = 1; id <= n_players; id++)
            if (!seen[id]) {
                bad = trf_fail(&rd, 0, 5,
                               "player %d is missing (the pairing numbers run from 1 "
                               "to %d)",
                               id, n_players);
                break;
            }
    /* The pairing-allocated bye scores a win unless the file says otherwise (C.04.1). */
    if (!bad && !pab_set)
        t->points.pairing_bye = t->points.win;
    /* The rounds played: the last one with a game or a pairing-allocated bye; blocks
     * after it are the next round's requests (byes, absences). */
    int played = 0;
    for (int id = 1; !bad && id <= n_players; id++)
        for (int r = 0; r < blocks; r++) {
            const struct swiss_game *g = &t->players[id - 1].games[r];
            if ((g->opponent || g->result == SWISS_BYE_PAIRING) && r + 1 > played)
                played = r + 1;
        }
    for (int id = 1; !bad && id <= n_players; id++) {
        struct swiss_player *p = &t->players[id - 1];
        for (int r = 0; r < blocks && !bad; r++) {
            const struct swiss_game *g = &p->games[r];
            if (r >= played + 1 && (g->opponent || g->result != SWISS_NONE))
                bad = trf_fail(&rd, seen[id], 92 + 10 * r, "round %d is after the next round (%d)",
                               r + 1, played + 1);
            else if (r == played && g->opponent)
                bad = trf_fail(&rd, seen[id], 92 + 10 * r,
                               "round %d: the next round has a game already", r + 1);
            if (bad || !g->opponent)
                continue;
            const struct swiss_game *o = &t->players[g->opponent - 1].games[r];
            if (o->opponent != id || o->colour != -g->colour || !complementary(g, o))
                bad = trf_fail(&rd, seen[id], 92 + 10 * r,
                               "round %d: player %d's entry does not match (opponent %d, "
                               "colour and result)",
                               r + 1, g->opponent, id);
        }
        if (!bad && played < blocks && p->games[played].result != SWISS_NONE)
            p->withdrawn = 1; /* a bye asked for the next round: not paired */
        else if (!bad && played < blocks && p->games[played].code == '-')
            p->withdrawn = 1;
    }
    if (!bad) {
        /* Keep the next round's requests in games[played]; drop later blocks. */
        t->rounds_played = played;
        for (int id = 1; id <= n_players; id++) {
            struct swiss_game *g = &t->players[id - 1].games[played];
            if (played >= blocks)
                memset(g, 0, sizeof *g);
            SwissPoints s = swiss_score(t, id, played);
            if (score_col[id] >= 0 && score_col[id] != s) {
                bad =
                    trf_fail(&rd, score_line[id], 81,
                             "player %d has %d.%d points here, the results make %d.%d", id,
                             (int)(score_col[id] / 10), (int)(score_col[id] % 10), s / 10, s % 10);
                break;
            }
        }
    }
    if (!bad) {
        if (rounds_total < 0)
            bad = trf_fail(&rd, 0, 1, "the number of rounds is not given (a 142 or XXR line)");
        else if (rounds_total < played)
            bad = trf_fail(&rd, 0, 1, "%d rounds are played of %ld", played, rounds_total);
        else
            t->rounds_total = (int)rounds_total;
    }
    if (!bad && !initial_colour_set && played > 0) {
        /* The colour of the highest ranked player paired in round 1 (TRF-2026 152). */
        for (int id = 1; id <= n_players; id++)
            if (t->players[id - 1].games[0].colour) {
                t->initial_colour = t->players[id - 1].games[0].colour;
                break;
            }
    }
    free(seen);
    free(score_line);
    free(score_col);
    if (bad)
        goto fail;
    free(lines);
    return t;
fail:
    free(lines);
    swiss_free(t);
    return NULL;
}

/* --- writing --- */

struct buf {
    char *s;
    size_t len, cap;
    int failed;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n) * 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static char result_code(const struct swiss_game *g)
{
    if (g->code)
        return g->code;
    switch (g->result) {
    case SWISS_WIN: return '1';
    case SWISS_DRAW: return '=';
    case SWISS_LOSS: return '0';
    case SWISS_FORFEIT_WIN: return '+';
    case SWISS_FORFEIT_LOSS: return '-';
    case SWISS_BYE_PAIRING: return 'U';
    case SWISS_BYE_FULL: return 'F';
    case SWISS_BYE_HALF: return 'H';
    case SWISS_BYE_ZERO: return 'Z';
    case SWISS_NONE: return '-';
    }
    return '-';
}

/* The bytes of `text` that fit in `width` columns and end with a whole UTF-8 character
 * (TRF's fields are fixed byte columns; a Bengali letter takes three, and a name cut
 * short before it came here may end in part of one). */
static int utf8_fit(const char *text, int width)
{
    int n = (int)strnlen(text, (size_t)width), lead = n;
    while (lead > 0 && ((unsigned char)text[lead - 1] & 0xC0) == 0x80)
        lead--;
    if (lead > 0) {
        unsigned char c = (unsigned char)text[lead - 1];
        int need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (n - (lead - 1) < need)
            n = lead - 1; /* the last character is not whole: leave it out */
    }
    return n;
}

char *swiss_trf_write(const struct swiss_tournament *t, enum swiss_trf_format format)
{
    struct buf b = {malloc(4096), 0, 4096, 0};
    if (!b.s)
        return NULL;
    b.s[0] = 0;
    put(&b, "012 %s\r", t->name);
    const struct swiss_points *p = &t->points;
    /* The ranks of column 86: by score, then pairing number. */
    for (int i = 0; i < t->n_players; i++) {
        const struct swiss_player *pl = &t->players[i];
        SwissPoints s = swiss_score(t, pl->id, t->rounds_played);
        int rank = 1;
        for (int j = 0; j < t->n_players; j++) {
            SwissPoints o = swiss_score(t, j + 1, t->rounds_played);
            if (o > s || (o == s && j < i))
                rank++;
        }
        char rating[8] = "";
        if (pl->rating > 0)
            snprintf(rating, sizeof rating, "%d", pl->rating % 10000);
        /* four columns: without the tenths when they are zero and it does not fit,
         * blank (the reader recomputes it) when it still does not */
        char points[16];
        snprintf(points, sizeof points, "%d.%d", s / 10, s % 10);
        if (strlen(points) > 4) {
            if (s % 10 == 0)
                snprintf(points, sizeof points, "%d", s / 10);
            if (strlen(points) > 4 || s % 10)
                points[0] = 0;
        }
        put(&b, "001 %4d %-4.4s %-33.*s %4s %-27.*s%4s %4d", pl->id, pl->sex_title,
            utf8_fit(pl->name, 33), pl->name, rating, utf8_fit(pl->extra, 27), pl->extra, points,
            rank);
        for (int r = 0; r <= t->rounds_played && r < t->rounds_played + 1; r++) {
            const struct swiss_game *g = &pl->games[r];
            if (r == t->rounds_played && g->result == SWISS_NONE && !g->code)
                break;
            char c = g->colour == SWISS_WHITE ? 'w' : g->colour == SWISS_BLACK ? 'b' : '-';
            if (g->opponent)
                put(&b, "  %4d %c %c", g->opponent, c, result_code(g));
            else
                put(&b, "  0000 - %c", result_code(g));
        }
        put(&b, "\r");
    }
    if (format == SWISS_TRF_2026) {
        put(&b, "142 %d\r", t->rounds_total);
        put(&b, "152 %c\r", t->initial_colour == SWISS_BLACK ? 'B' : 'W');
        /* as the endorsed programs write it: a code every 9 columns from column 6,
         * its points right-aligned in the 4 columns after it */
        const struct {
            char code;
            SwissPoints v;
        } pts[] = {{'W', p->win},
                   {'D', p->draw},
                   {'L', p->loss},
                   {'Z', p->zero_bye},
                   {'P', p->pairing_bye}};
        put(&b, "162");
        for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
            char v[16];
            snprintf(v, sizeof v, "%d.%d", pts[i].v / 10, pts[i].v % 10);
            put(&b, "%s%c%4s", i ? "    " : "  ", pts[i].code, v);
        }
        put(&b, "\r");
    } else {
        put(&b, "XXR %d\r", t->rounds_total);
        put(&b, "XXC %s\r", t->initial_colour == SWISS_BLACK ? "black1" : "white1");
        const struct {
            const char *tag;
            SwissPoints v;
        } bb[] = {{"BBW", p->win},      {"BBD", p->draw},         {"BBL", p->loss},
                  {"BBZ", p->zero_bye}, {"BBF", p->forfeit_loss}, {"BBU", p->pairing_bye}};
        for (size_t i = 0; i < sizeof bb / sizeof bb[0]; i++) {
            put(&b, "%s %2d.%d\r", bb[i].tag, bb[i].v / 10, bb[i].v % 10);
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
