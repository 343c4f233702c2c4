/* Game records: the PGN syntax (tags, movetext) shared by every game's writer and
 * reader.  The generic records over the game interface are in record_game.c. */
#include "record.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int record_set_tag(struct record_header *h, const char *name, const char *value)
{
    int i;
    for (i = 0; i < h->ntags; i++)
        if (!strcmp(h->tags[i].name, name))
            break;
    if (i == h->ntags) {
        if (h->ntags == RECORD_TAGS)
            return -1;
        h->ntags++;
        snprintf(h->tags[i].name, sizeof h->tags[i].name, "%s", name);
    }
    snprintf(h->tags[i].value, sizeof h->tags[i].value, "%s", value);
    return 0;
}

const char *record_tag(const struct record_header *h, const char *name)
{
    for (int i = 0; h && i < h->ntags; i++)
        if (!strcmp(h->tags[i].name, name))
            return h->tags[i].value;
    return NULL;
}

const char *record_result_token(enum result r)
{
    switch (r) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    case RESULT_ONGOING: break;
    }
    return "*";
}

enum result record_result_of(const char *token)
{
    if (!strcmp(token, "1-0"))
        return RESULT_WHITE_WINS;
    if (!strcmp(token, "0-1"))
        return RESULT_BLACK_WINS;
    if (!strcmp(token, "1/2-1/2"))
        return RESULT_DRAW;
    return RESULT_ONGOING;
}

static int is_result(const char *tok)
{
    return !strcmp(tok, "1-0") || !strcmp(tok, "0-1") || !strcmp(tok, "1/2-1/2") ||
           !strcmp(tok, "*");
}

/* ---- Writing ------------------------------------------------------------------- */

void record_writer_init(struct record_writer *w, char *buf, size_t size)
{
    w->buf = buf;
    w->size = size;
    w->len = 0;
    w->column = 0;
    if (size)
        buf[0] = 0;
}

static void put(struct record_writer *w, const char *s)
{
    for (; *s; s++) {
        if (w->len + 1 < w->size)
            w->buf[w->len] = *s;
        w->len++;
        w->column = *s == '\n' ? 0 : w->column + 1;
    }
    if (w->size)
        w->buf[w->len < w->size ? w->len : w->size - 1] = 0;
}

/* A movetext token, after a space or a line break so lines stay under 80 columns. */
static void put_token(struct record_writer *w, const char *token)
{
    if (w->column && w->column + 1 + (int)strlen(token) > 79)
        put(w, "\n");
    else if (w->column)
        put(w, " ");
    put(w, token);
}

static void put_tag(struct record_writer *w, const char *name, const char *value)
{
    put(w, "[");
    put(w, name);
    put(w, " \"");
    char c[2] = {0, 0};
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            put(w, "\\");
        c[0] = (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s;
        put(w, c);
    }
    put(w, "\"]\n");
}

/* The PGN standard's Termination values. */
static const char *termination(const struct game_status *s)
{
    if (s->result == RESULT_ONGOING)
        return "unterminated";
    switch (s->reason) {
    case REASON_TIME:
    case REASON_TIMEOUT_DRAW: return "time forfeit";
    case REASON_ABANDONED: return "abandoned";
    case REASON_ADJUDICATION: return "adjudication";
    default: return "normal";
    }
}

void record_write_tags(struct record_writer *w, const struct record_header *h, const char *variant,
                       const char *setup, const struct game_status *end)
{
    static const char *const roster[7] = {"Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result"};
    static const char *const unknown[7] = {"?", "?", "????.??.??", "?", "?", "?", "*"};
    for (int i = 0; i < 7; i++) {
        const char *v = i == 6 ? record_result_token(end->result) : record_tag(h, roster[i]);
        put_tag(w, roster[i], v && *v ? v : unknown[i]);
    }
    if (variant)
        put_tag(w, "Variant", variant);
    if (setup) {
        put_tag(w, "SetUp", "1");
        put_tag(w, "FEN", setup);
    }
    for (int i = 0; h && i < h->ntags; i++) {
        const char *name = h->tags[i].name;
        int skip = !strcmp(name, "SetUp") || !strcmp(name, "FEN") || !strcmp(name, "Termination") ||
                   (variant && !strcmp(name, "Variant"));
        for (int r = 0; r < 7; r++)
            skip |= !strcmp(name, roster[r]);
        if (!skip)
            put_tag(w, name, h->tags[i].value);
    }
    const char *given = record_tag(h, "Termination");
    put_tag(w, "Termination", given && *given ? given : termination(end));
    put(w, "\n");
}

void record_write_move(struct record_writer *w, int number, enum side side, int first,
                       const char *text)
{
    char token[MOVE_TEXT_MAX + 16];
    /* the move number stays on the line of its move */
    if (side == SIDE_WHITE || first)
        snprintf(token, sizeof token, "%d.%s %s", number, side == SIDE_WHITE ? "" : "..", text);
    else
        snprintf(token, sizeof token, "%s", text);
    put_token(w, token);
}

int record_write_end(struct record_writer *w, const struct game *g, const struct game_status *end)
{
    if (end->result != RESULT_ONGOING && end->reason != REASON_NONE) {
        char comment[ERROR_TEXT_MAX];
        snprintf(comment, sizeof comment, "{%s}", reason_text(g, end->reason));
        put_token(w, comment); /* a comment may break lines itself; keep it whole */
    }
    put_token(w, record_result_token(end->result));
    put(w, "\n\n");
    return w->len < w->size ? (int)w->len : -1;
}

/* ---- Reading ------------------------------------------------------------------- */

struct scan {
    const char *text, *p;
    char *err;
    size_t err_size;
};

static int line_start(const struct scan *r)
{
    return r->p == r->text || r->p[-1] == '\n';
}

/* Skip spaces, escape lines, and (when `comments`) comments, each given to rd's
 * comment callback when there is one (rd may be NULL).  0, or -1 when the callback
 * stopped the reading. */
static int skip_blank_to(struct scan *r, int comments, const struct record_reader *rd)
{
    for (;;) {
        while (isspace((unsigned char)*r->p))
            r->p++;
        if (*r->p == '%' && line_start(r)) {
            while (*r->p && *r->p != '\n')
                r->p++;
        } else if (comments && (*r->p == ';' || *r->p == '{')) {
            char end = *r->p == ';' ? '\n' : '}';
            const char *text = ++r->p;
            while (*r->p && *r->p != end)
                r->p++;
            size_t len = (size_t)(r->p - text);
            if (end == '\n' && len && text[len - 1] == '\r')
                len--;
            if (end == '}' && *r->p)
                r->p++;
            if (rd && rd->comment && rd->comment(rd->ctx, text, len, r->err, r->err_size))
                return -1;
        } else {
            return 0;
        }
    }
}

static void skip_blank(struct scan *r, int comments)
{
    skip_blank_to(r, comments, NULL);
}

static int read_tag(struct scan *r, struct record_header *h)
{
    const char *start = r->p++;
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
    char name[RECORD_TAG_NAME_MAX];
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
    char value[RECORD_TAG_VALUE_MAX];
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
    record_set_tag(h, name, value);
    return 0;
}

/* The tag section; 0, or -1 with err. */
static int read_tags(struct scan *r, struct record_header *h)
{
    while (*r->p == '[') {
        if (read_tag(r, h))
            return -1;
        skip_blank(r, 1);
    }
    return 0;
}

static void skip_variation(struct scan *r)
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

long record_parse(const char *text, const struct record_reader *rd, struct record_header *h,
                  char *result, size_t result_size, char *err, size_t err_size)
{
    struct scan r = {text, text, err, err_size};
    memset(h, 0, sizeof *h);
    if (result_size)
        result[0] = 0;
    skip_blank(&r, 1);
    if (!*r.p)
        return 0;
    if (read_tags(&r, h) || rd->begin(rd->ctx, h, err, err_size))
        return -1;
    /* Followed variations: the ply each open line began at, and the ply to go back
     * to when each closes. */
    int depth = 0, line_first[RECORD_DEPTH_MAX + 1], resume[RECORD_DEPTH_MAX + 1];
    line_first[0] = 0;
    for (int ply = 0;;) {
        if (skip_blank_to(&r, 1, rd))
            return -1;
        if (!*r.p || (*r.p == '[' && line_start(&r))) {
            if (depth)
                return fail(err, err_size, "a variation left open after %d plies", ply);
            break; /* a record without a result token */
        }
        if (*r.p == '(' && !rd->variation_start) {
            skip_variation(&r);
            continue;
        }
        if (*r.p == '(') {
            if (ply == line_first[depth])
                return fail(err, err_size, "a variation before any move, after %d plies", ply);
            if (depth == RECORD_DEPTH_MAX)
                return fail(err, err_size, "variations nested more than %d deep", RECORD_DEPTH_MAX);
            r.p++;
            resume[depth++] = ply--;
            line_first[depth] = ply;
            if (rd->variation_start(rd->ctx, ply, depth, err, err_size))
                return -1;
            continue;
        }
        if (*r.p == ')' && depth) {
            r.p++;
            ply = resume[--depth];
            if (rd->variation_end && rd->variation_end(rd->ctx, ply, depth + 1, err, err_size))
                return -1;
            continue;
        }
        if (*r.p == ')')
            return fail(err, err_size, "')' without '(' after %d plies", ply);
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
            return fail(err, err_size, "unexpected '%c' after %d plies", *r.p, ply);
        if (is_result(tok) && depth)
            return fail(err, err_size, "the result %s inside a variation", tok);
        if (is_result(tok)) {
            snprintf(result, result_size, "%s", tok);
            break;
        }
        char *move = tok;
        if (isdigit((unsigned char)tok[0]) && strchr(tok, '.')) {
            /* a move number, maybe glued to its move: "12.", "12...", "1.e4" */
            while (isdigit((unsigned char)*move))
                move++;
            if (*move != '.')
                return fail(err, err_size, "cannot read '%s' after %d plies", tok, ply);
            while (*move == '.')
                move++;
            if (!*move)
                continue;
        }
        if (strspn(move, "!?") == strlen(move) || !strcmp(move, "e.p."))
            continue; /* a free-standing annotation, or "exd6 e.p." */
        if (rd->move(rd->ctx, move, ply, err, err_size))
            return -1;
        ply++;
    }
    return (long)(r.p - text);
}

int record_peek_tags(const char *text, struct record_header *h)
{
    struct scan r = {text, text, NULL, 0};
    memset(h, 0, sizeof *h);
    skip_blank(&r, 1);
    return read_tags(&r, h);
}
