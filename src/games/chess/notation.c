/* Move text: UCI long algebraic (e2e4, e7e8q, e1g1) and SAN (Nf3, exd6, O-O, e8=Q+),
 * both ways.  Parsing is against the legal moves of the position, so a text either
 * names exactly one legal move or gets one message saying why not. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "state.h"

static const char promo_letters[] = "nbrq";  /* by MV_PROMO - KNIGHT */
static const char san_letters[] = "  NBRQK"; /* by piece type; pawns have none */

void chess_square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + SQ_FILE(sq));
    buf[1] = (char)('1' + SQ_RANK(sq));
    buf[2] = 0;
}

void chess_uci(Move m, char *buf, size_t size)
{
    char from[3], to[3];
    chess_square_name(MV_FROM(m), from);
    chess_square_name(MV_TO(m), to);
    if (MV_KIND(m) == MK_PROMOTION)
        snprintf(buf, size, "%s%s%c", from, to, promo_letters[MV_PROMO(m) - KNIGHT]);
    else
        snprintf(buf, size, "%s%s", from, to);
}

void chess_san(const struct chess_pos *p, Move m, char *buf, size_t size)
{
    char s[16];
    size_t n = 0;
    int from = MV_FROM(m), to = MV_TO(m), kind = MV_KIND(m);
    int type = PIECE_TYPE(p->board[from]);
    if (kind == MK_CASTLING) {
        n = (size_t)sprintf(s, "%s", to > from ? "O-O" : "O-O-O");
    } else {
        int capture = p->board[to] != EMPTY || kind == MK_EN_PASSANT;
        if (type == PAWN) {
            if (capture)
                s[n++] = (char)('a' + SQ_FILE(from));
        } else {
            s[n++] = san_letters[type];
            /* Disambiguate among the other pieces of this type that can reach `to`. */
            Move moves[CHESS_MAX_MOVES];
            int count = chess_gen_legal(p, moves);
            int others = 0, same_file = 0, same_rank = 0;
            for (int i = 0; i < count; i++) {
                int f = MV_FROM(moves[i]);
                if (MV_TO(moves[i]) != to || f == from || PIECE_TYPE(p->board[f]) != type)
                    continue;
                others++;
                same_file += SQ_FILE(f) == SQ_FILE(from);
                same_rank += SQ_RANK(f) == SQ_RANK(from);
            }
            if (others && !same_file)
                s[n++] = (char)('a' + SQ_FILE(from));
            else if (others && !same_rank)
                s[n++] = (char)('1' + SQ_RANK(from));
            else if (others) {
                s[n++] = (char)('a' + SQ_FILE(from));
                s[n++] = (char)('1' + SQ_RANK(from));
            }
        }
        if (capture)
            s[n++] = 'x';
        chess_square_name(to, s + n);
        n += 2;
        if (kind == MK_PROMOTION) {
            s[n++] = '=';
            s[n++] = san_letters[MV_PROMO(m)];
        }
    }
    struct chess_pos after = *p;
    struct chess_undo u;
    chess_pos_make(&after, m, &u);
    if (chess_in_check(&after))
        s[n++] = chess_count_legal(&after) ? '+' : '#';
    s[n] = 0;
    snprintf(buf, size, "%s", s);
}

static int is_file(char c)
{
    return c >= 'a' && c <= 'h';
}
static int is_rank(char c)
{
    return c >= '1' && c <= '8';
}

/* The legal move whose UCI text is `text`; -1 if none. */
static int find_uci(const struct chess_pos *p, const char *text, Move *out)
{
    Move moves[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, moves);
    char buf[8];
    for (int i = 0; i < n; i++) {
        chess_uci(moves[i], buf, sizeof buf);
        if (!strcmp(buf, text)) {
            *out = moves[i];
            return 0;
        }
    }
    return -1;
}

int chess_parse_san(const struct chess_pos *p, const char *text, Move *out, char *err,
                    size_t err_size)
{
    char s[16];
    size_t len = strlen(text);
    if (len == 0)
        return fail(err, err_size, "empty move");
    if (len >= sizeof s)
        return fail(err, err_size, "move '%.20s...' is too long", text);
    memcpy(s, text, len + 1);
    /* Check and mate marks and annotations ("+", "#", "!?") say nothing we need. */
    while (len && strchr("+#!?", s[len - 1]))
        s[--len] = 0;
    if (len > 4 && !strcmp(s + len - 4, "e.p.")) /* "exd6e.p.", an old habit */
        s[len -= 4] = 0;
    Move moves[CHESS_MAX_MOVES];
    int n = chess_gen_legal(p, moves);

    if (!strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "O-O-O") || !strcmp(s, "0-0-0")) {
        int long_side = len == 5;
        for (int i = 0; i < n; i++)
            if (MV_KIND(moves[i]) == MK_CASTLING &&
                (MV_TO(moves[i]) < MV_FROM(moves[i])) == long_side) {
                *out = moves[i];
                return 0;
            }
        return fail(err, err_size, "illegal move '%s': castling %s is not possible here", text,
                    long_side ? "queen-side" : "king-side");
    }

    /* Shape: [KQRBNP] [file] [rank] [x or -] file rank [=] [QRBN]. */
    int type = PAWN, promo = 0, want_file = -1, want_rank = -1;
    size_t i = 0;
    if (len && strchr("KQRBNP", s[0]) && s[0]) {
        type = (int)(strchr(" PNBRQK", s[0]) - " PNBRQK");
        i = 1;
    }
    size_t end = len;
    if (end && strchr("QRBNqrbn", s[end - 1]) && s[end - 1]) {
        char c = (char)toupper((unsigned char)s[end - 1]);
        promo = (int)(strchr(" PNBRQK", c) - " PNBRQK");
        end--;
        if (end && s[end - 1] == '=')
            end--;
    }
    if (end < i + 2 || !is_file(s[end - 2]) || !is_rank(s[end - 1]))
        return fail(err, err_size,
                    "cannot read move '%s' (expected SAN like Nf3, exd5, O-O, "
                    "e8=Q, or UCI like e2e4)",
                    text);
    int to = SQ(s[end - 2] - 'a', s[end - 1] - '1');
    size_t mid_end = end - 2;
    if (mid_end > i && (s[mid_end - 1] == 'x' || s[mid_end - 1] == ':' || s[mid_end - 1] == '-'))
        mid_end--;
    if (mid_end > i && is_file(s[i]))
        want_file = s[i++] - 'a';
    if (mid_end > i && is_rank(s[i]))
        want_rank = s[i++] - '1';
    if (i != mid_end)
        return fail(err, err_size,
                    "cannot read move '%s' (expected SAN like Nf3, exd5, O-O, "
                    "e8=Q, or UCI like e2e4)",
                    text);
    if (promo && (type != PAWN || promo == PAWN || promo == KING))
        return fail(err, err_size, "bad promotion in '%s'", text);
    if (promo && SQ_RANK(to) != 7 && SQ_RANK(to) != 0)
        return fail(err, err_size, "bad promotion in '%s': pawns promote on the last rank", text);

    int found = 0;
    Move match = 0;
    char alts[64] = "";
    for (int k = 0; k < n; k++) {
        Move m = moves[k];
        int from = MV_FROM(m);
        if (MV_TO(m) != to || PIECE_TYPE(p->board[from]) != type || MV_KIND(m) == MK_CASTLING)
            continue;
        if ((want_file >= 0 && SQ_FILE(from) != want_file) ||
            (want_rank >= 0 && SQ_RANK(from) != want_rank))
            continue;
        if ((MV_KIND(m) == MK_PROMOTION ? MV_PROMO(m) : 0) != promo)
            continue;
        found++;
        match = m;
        char san[16];
        chess_san(p, m, san, sizeof san);
        if (strlen(alts) + strlen(san) + 3 < sizeof alts) {
            strcat(alts, found > 1 ? ", " : "");
            strcat(alts, san);
        }
    }
    if (found == 1) {
        *out = match;
        return 0;
    }
    if (found > 1)
        return fail(err, err_size, "ambiguous move '%s' (could be %s)", text, alts);
    if (type == PAWN && !promo && (SQ_RANK(to) == 7 || SQ_RANK(to) == 0))
        for (int k = 0; k < n; k++)
            if (MV_TO(moves[k]) == to && MV_KIND(moves[k]) == MK_PROMOTION)
                return fail(err, err_size, "move '%s' needs a promotion piece (e.g. %c%c=Q)", text,
                            s[end - 2], s[end - 1]);
    return fail(err, err_size, "illegal move '%s'", text);
}

int chess_parse_any(const struct chess_pos *p, const char *text, Move *out, char *err,
                    size_t err_size)
{
    size_t len = strlen(text);
    if ((len == 4 || len == 5) && is_file(text[0]) && is_rank(text[1]) && is_file(text[2]) &&
        is_rank(text[3]) && (len == 4 || strchr("qrbnQRBN", text[4]))) {
        char lower[6];
        for (size_t i = 0; i <= len; i++)
            lower[i] = (char)tolower((unsigned char)text[i]);
        if (find_uci(p, lower, out) == 0)
            return 0;
        return fail(err, err_size, "illegal move '%s'", text);
    }
    return chess_parse_san(p, text, out, err, err_size);
}
