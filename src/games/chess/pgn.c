/* PGN: export (the standard's export format) and import of ordinary PGN files.
 *
 * Export writes the seven-tag roster in its order, SetUp/FEN when the game did not
 * start from the usual position, any other tags, Termination, then the movetext in
 * SAN with move numbers, wrapped under 80 columns, and the result.
 *
 * Import reads what people and programs write: tags, comments in braces and after ';',
 * NAGs ($12) and suffix annotations (!?), variations in parentheses (nested, skipped),
 * move numbers with or without a space ("1.e4", "3... Nf6"), escape lines ('%'),
 * castling with O or zero, several games one after another. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chess.h"
#include "core/error.h"
#include "state.h"

int chess_pgn_set_tag(struct chess_pgn_info *info, const char *name, const char *value)
{
    int i;
    for (i = 0; i < info->ntags; i++)
        if (!strcmp(info->tags[i].name, name))
            break;
    if (i == info->ntags) {
        if (info->ntags == CHESS_PGN_TAGS)
            return -1;
        info->ntags++;
        snprintf(info->tags[i].name, sizeof info->tags[i].name, "%s", name);
    }
    snprintf(info->tags[i].value, sizeof info->tags[i].value, "%s", value);
    return 0;
}

const char *chess_pgn_tag(const struct chess_pgn_info *info, const char *name)
{
    for (int i = 0; info && i < info->ntags; i++)
        if (!strcmp(info->tags[i].name, name))
            return info->tags[i].value;
    return NULL;
}

/* ---- Export ------------------------------------------------------------------ */

struct out {
    char *buf;
    size_t size, len;
    int column;
};

static void put(struct out *o, const char *s)
{
    for (; *s; s++) {
        if (o->len + 1 < o->size)
            o->buf[o->len] = *s;
        o->len++;
        o->column = *s == '\n' ? 0 : o->column + 1;
    }
    if (o->size)
        o->buf[o->len < o->size ? o->len : o->size - 1] = 0;
}

/* A movetext token, after a space or a line break so lines stay under 80 columns. */
static void put_token(struct out *o, const char *token)
{
    if (o->column && o->column + 1 + (int)strlen(token) > 79)
        put(o, "\n");
    else if (o->column)
        put(o, " ");
    put(o, token);
}

static void put_tag(struct out *o, const char *name, const char *value)
{
    put(o, "[");
    put(o, name);
    put(o, " \"");
    char c[2] = {0, 0};
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            put(o, "\\");
        c[0] = (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s;
        put(o, c);
    }
    put(o, "\"]\n");
}

static const char *result_token(enum result r)
{
    switch (r) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    case RESULT_ONGOING: break;
    }
    return "*";
}

/* The PGN standard's Termination values. */
static const char *termination(const struct game_status *s)
{
    if (s->result == RESULT_ONGOING)
        return "unterminated";
    switch (s->reason) {
    case REASON_TIME: return "time forfeit";
    case REASON_ADJUDICATION: return "adjudication";
    default: return "normal";
    }
}

int chess_pgn_write(const void *st, const struct chess_pgn_info *info,
                    const struct game_status *final, char *buf, size_t size)
{
    static const char *const roster[7] = {"Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result"};
    static const char *const unknown[7] = {"?", "?", "????.??.??", "?", "?", "?", "*"};
    struct chess_state *s = malloc(sizeof *s);
    if (!s)
        return -1;
    memcpy(s, st, sizeof *s);
    struct game_status end;
    if (final)
        end = *final;
    else
        chess_status(st, &end);
    int plies = s->ply;
    Move *moves = malloc(sizeof(Move) * (size_t)(plies ? plies : 1));
    if (!moves) {
        free(s);
        return -1;
    }
    for (int i = plies - 1; i >= 0; i--) {
        moves[i] = s->hist[i].move;
        chess_unmake_move(s, moves[i]);
    }
    char fen[POSITION_TEXT_MAX];
    chess_write_fen(&s->pos, fen, sizeof fen);

    struct out o = {buf, size, 0, 0};
    for (int i = 0; i < 7; i++) {
        const char *v = i == 6 ? result_token(end.result) : chess_pgn_tag(info, roster[i]);
        put_tag(&o, roster[i], v && *v ? v : unknown[i]);
    }
    if (strcmp(fen, CHESS_START_FEN)) {
        put_tag(&o, "SetUp", "1");
        put_tag(&o, "FEN", fen);
    }
    for (int i = 0; info && i < info->ntags; i++) {
        const char *name = info->tags[i].name;
        int skip = !strcmp(name, "SetUp") || !strcmp(name, "FEN") || !strcmp(name, "Termination");
        for (int r = 0; r < 7; r++)
            skip |= !strcmp(name, roster[r]);
        if (!skip)
            put_tag(&o, name, info->tags[i].value);
    }
    const char *given = chess_pgn_tag(info, "Termination");
    put_tag(&o, "Termination", given && *given ? given : termination(&end));
    put(&o, "\n");

    for (int i = 0; i < plies; i++) {
        char token[MOVE_TEXT_MAX + 16], san[MOVE_TEXT_MAX];
        chess_san(&s->pos, moves[i], san, sizeof san);
        /* the move number stays on the line of its move */
        if (s->pos.side == SIDE_WHITE || i == 0)
            snprintf(token, sizeof token, "%d.%s %s", s->pos.fullmove,
                     s->pos.side == SIDE_WHITE ? "" : "..", san);
        else
            snprintf(token, sizeof token, "%s", san);
        put_token(&o, token);
        chess_make_move(s, moves[i]);
    }
    if (end.result != RESULT_ONGOING && end.reason != REASON_NONE) {
        char comment[ERROR_TEXT_MAX];
        snprintf(comment, sizeof comment, "{%s}", reason_text(&chess_game, end.reason));
        put_token(&o, comment); /* a comment may break lines itself; keep it whole */
    }
    put_token(&o, result_token(end.result));
    put(&o, "\n\n");
    free(moves);
    free(s);
    return o.len < size ? (int)o.len : -1;
}

/* ---- Import ------------------------------------------------------------------ */

struct reader {
    const char *text, *p;
    char *err;
    size_t err_size;
};

static int line_start(const struct reader *r)
{
    return r->p == r->text || r->p[-1] == '\n';
}

/* Skip spaces, escape lines, and (when `comments`) comments and NAGs. */
static void skip_blank(struct reader *r, int comments)
{
    for (;;) {
        while (isspace((unsigned char)*r->p))
            r->p++;
        if (*r->p == '%' && line_start(r)) {
            while (*r->p && *r->p != '\n')
                r->p++;
        } else if (comments && *r->p == ';') {
            while (*r->p && *r->p != '\n')
                r->p++;
        } else if (comments && *r->p == '{') {
            while (*r->p && *r->p != '}')
                r->p++;
            if (*r->p)
                r->p++;
        } else {
            return;
        }
    }
}

static int read_tag(struct reader *r, struct chess_pgn_info *info)
{
    const char *start = r->p++;
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    char name[40];
    size_t n = 0;
    while (isalnum((unsigned char)*r->p) || *r->p == '_') {
        if (n + 1 < sizeof name)
            name[n++] = *r->p;
        r->p++;
    }
    name[n] = 0;
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    if (!n || *r->p != '"')
        return fail(r->err, r->err_size, "bad tag pair '%.30s'", start);
    r->p++;
    char value[CHESS_PGN_TAG_MAX];
    n = 0;
    while (*r->p && *r->p != '"' && *r->p != '\n') {
        if (*r->p == '\\' && (r->p[1] == '"' || r->p[1] == '\\'))
            r->p++;
        if (n + 1 < sizeof value)
            value[n++] = *r->p;
        r->p++;
    }
    value[n] = 0;
    if (*r->p != '"')
        return fail(r->err, r->err_size, "tag %s: unterminated value", name);
    r->p++;
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    if (*r->p != ']')
        return fail(r->err, r->err_size, "tag %s: missing ']'", name);
    r->p++;
    chess_pgn_set_tag(info, name, value);
    return 0;
}

static void skip_variation(struct reader *r)
{
    int depth = 0;
    do {
        if (*r->p == '(')
            depth++;
        else if (*r->p == ')')
            depth--;
        if (*r->p == '{' || *r->p == ';') {
            skip_blank(r, 1);
            continue;
        }
        if (*r->p)
            r->p++;
    } while (*r->p && depth > 0);
}

static int is_result(const char *tok)
{
    return !strcmp(tok, "1-0") || !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2") ||
           !strcmp(tok, "*");
}

long chess_pgn_read(const char *text, void *st, struct chess_pgn_info *info, char *result,
                    size_t result_size, char *err, size_t err_size)
{
    struct reader r = {text, text, err, err_size};
    struct chess_state *s = st;
    memset(info, 0, sizeof *info);
    if (result_size)
        result[0] = 0;
    skip_blank(&r, 1);
    if (!*r.p)
        return 0;
    while (*r.p == '[') {
        if (read_tag(&r, info))
            return -1;
        skip_blank(&r, 1);
    }
    const char *variant = chess_pgn_tag(info, "Variant");
    if (variant && strcasecmp(variant, "standard") && strcasecmp(variant, "chess"))
        return fail(err, err_size, "unsupported variant '%s'", variant);
    const char *fen = chess_pgn_tag(info, "FEN");
    if (fen) {
        char fen_err[ERROR_TEXT_MAX];
        if (chess_parse_position(st, fen, fen_err, sizeof fen_err))
            return fail(err, err_size, "bad FEN tag: %s", fen_err);
    } else {
        chess_start(st);
    }
    for (;;) {
        skip_blank(&r, 1);
        if (!*r.p || (*r.p == '[' && line_start(&r)))
            break; /* a game without a result token */
        if (*r.p == '(') {
            skip_variation(&r);
            continue;
        }
        if (*r.p == ')')
            return fail(err, err_size, "')' without '(' after %d plies", s->ply);
        if (*r.p == '$') {
            r.p++;
            while (isdigit((unsigned char)*r.p))
                r.p++;
            continue;
        }
        char tok[64];
        size_t n = 0;
        while (*r.p && !isspace((unsigned char)*r.p) && !strchr("{}();[]$", *r.p)) {
            if (n + 1 < sizeof tok)
                tok[n++] = *r.p;
            r.p++;
        }
        tok[n] = 0;
        if (!n)
            return fail(err, err_size, "unexpected '%c' after %d plies", *r.p, s->ply);
        if (is_result(tok)) {
            snprintf(result, result_size, "%s", tok);
            break;
        }
        char *san = tok;
        if (isdigit((unsigned char)tok[0]) && strchr(tok, '.')) {
            /* a move number, maybe glued to its move: "12.", "12...", "1.e4" */
            while (isdigit((unsigned char)*san))
                san++;
            if (*san != '.')
                return fail(err, err_size, "cannot read '%s' after %d plies", tok, s->ply);
            while (*san == '.')
                san++;
            if (!*san)
                continue;
        }
        if (strspn(san, "!?") == strlen(san) || !strcmp(san, "e.p."))
            continue; /* a free-standing annotation, or "exd6 e.p." */
        Move m;
        char merr[ERROR_TEXT_MAX];
        if (s->ply >= CHESS_MAX_PLIES)
            return fail(err, err_size, "game longer than %d plies", CHESS_MAX_PLIES);
        if (chess_parse_any(&s->pos, san, &m, merr, sizeof merr))
            return fail(err, err_size, "move %d%s %s: %s", s->pos.fullmove,
                        s->pos.side == SIDE_WHITE ? "." : "...", san, merr);
        chess_make_move(st, m);
    }
    return (long)(r.p - text);
}

/* The game interface's record: PGN with agora's Event and Site. */
int chess_write_record(const void *st, const struct game_status *final, const char *white,
                       const char *black, const char *date, char *buf, size_t size)
{
    struct chess_pgn_info info = {0};
    chess_pgn_set_tag(&info, "Event", "agora: Chess");
    chess_pgn_set_tag(&info, "Site", "agora");
    chess_pgn_set_tag(&info, "Date", date);
    chess_pgn_set_tag(&info, "Round", "-");
    chess_pgn_set_tag(&info, "White", white);
    chess_pgn_set_tag(&info, "Black", black);
    return chess_pgn_write(st, &info, final, buf, size);
}
