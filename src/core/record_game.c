/* Records of any game over the game interface (see record.h): the write_record and
 * read_record of games without a record format of their own, and the choice of a
 * game by a record's Variant tag. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "record.h"

int record_write(const struct game *g, const void *st, const struct record_header *h,
                 const struct game_status *final, char *buf, size_t size)
{
    int plies = g->ply(st);
    void *s = malloc(g->state_size);
    Move *moves = malloc(sizeof(Move) * (size_t)(plies ? plies : 1));
    if (!s || !moves) {
        free(s);
        free(moves);
        return -1;
    }
    char start[POSITION_TEXT_MAX], text[POSITION_TEXT_MAX];
    g->start(s);
    g->write_position(s, start, sizeof start);
    memcpy(s, st, g->state_size); /* states are flat blocks (game.h) */
    struct game_status end;
    if (final)
        end = *final;
    else
        g->status(st, &end);
    for (int i = 0; i < plies; i++)
        moves[i] = g->history_move(st, i);
    for (int i = plies - 1; i >= 0; i--)
        g->unmake_move(s, moves[i]);
    g->write_position(s, text, sizeof text);

    struct record_writer w;
    record_writer_init(&w, buf, size);
    record_write_tags(&w, h, g->record_variant, strcmp(text, start) ? text : NULL, &end);
    int black_first = g->side_to_move(s) == SIDE_BLACK;
    for (int i = 0; i < plies; i++) {
        char mt[MOVE_TEXT_MAX];
        g->move_text(s, moves[i], mt, sizeof mt);
        record_write_move(&w, (i + black_first) / 2 + 1, g->side_to_move(s), i == 0, mt);
        g->make_move(s, moves[i]);
    }
    free(moves);
    free(s);
    return record_write_end(&w, g, &end);
}

/* Does a Variant tag's value name game `g` (its record_variant, name or an alias)? */
int record_names_game(const struct game *g, const char *variant)
{
    if (g->record_variant && !strcasecmp(variant, g->record_variant))
        return 1;
    if (!strcasecmp(variant, g->name))
        return 1;
    for (int a = 0; g->aliases && g->aliases[a]; a++)
        if (!strcasecmp(variant, g->aliases[a]))
            return 1;
    return 0;
}

struct generic_reader {
    const struct game *g;
    void *st;
    int black_first;
    Move *moves; /* room for the legal moves, for display texts */
};

static int generic_begin(void *ctx, const struct record_header *h, char *err, size_t err_size)
{
    struct generic_reader *r = ctx;
    const struct game *g = r->g;
    const char *variant = record_tag(h, "Variant");
    if (variant && !record_names_game(g, variant))
        return fail(err, err_size, "unsupported variant '%s'", variant);
    const char *fen = record_tag(h, "FEN");
    if (fen) {
        char perr[ERROR_TEXT_MAX];
        if (g->parse_position(r->st, fen, perr, sizeof perr))
            return fail(err, err_size, "bad FEN tag: %s", perr);
    } else {
        g->start(r->st);
    }
    r->black_first = g->side_to_move(r->st) == SIDE_BLACK;
    return 0;
}

/* The legal move whose display text is `text` (games whose display differs from
 * their move text): 0, or -1. */
static int find_display(const struct generic_reader *r, const char *text, Move *out)
{
    const struct game *g = r->g;
    if (!g->move_display)
        return -1;
    int n = game_legal_moves(g, r->st, r->moves);
    for (int i = 0; i < n; i++) {
        char shown[MOVE_TEXT_MAX];
        g->move_display(r->st, r->moves[i], shown, sizeof shown);
        if (!strcmp(shown, text)) {
            *out = r->moves[i];
            return 0;
        }
    }
    return -1;
}

static int generic_move(void *ctx, const char *token, int ply, char *err, size_t err_size)
{
    struct generic_reader *r = ctx;
    const struct game *g = r->g;
    char text[MOVE_TEXT_MAX], merr[ERROR_TEXT_MAX];
    snprintf(text, sizeof text, "%s", token);
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '!' || text[n - 1] == '?'))
        text[--n] = 0; /* suffix annotations */
    int half = ply + r->black_first;
    if (g->ply(r->st) >= g->max_plies)
        return fail(err, err_size, "game longer than %d plies", g->max_plies);
    struct game_status gs; /* a record goes on past the game's end (issue 25): refused */
    g->status(r->st, &gs);
    if (gs.result != RESULT_ONGOING)
        return fail(err, err_size, "move %d%s %s: the game is already over (%s)", half / 2 + 1,
                    half % 2 ? "..." : ".", text, reason_text(g, gs.reason));
    Move m;
    if (g->parse_move(r->st, text, &m, merr, sizeof merr) != 0 && find_display(r, text, &m) != 0)
        return fail(err, err_size, "move %d%s %s: %s", half / 2 + 1, half % 2 ? "..." : ".", text,
                    merr);
    g->make_move(r->st, m);
    return 0;
}

long record_read(const struct game *g, const char *text, void *st, struct record_header *h,
                 char *result, size_t result_size, char *err, size_t err_size)
{
    struct generic_reader r = {g, st, 0, malloc(sizeof(Move) * (size_t)g->max_moves)};
    if (!r.moves)
        return fail(err, err_size, "out of memory");
    struct record_reader rd = {.begin = generic_begin, .move = generic_move, .ctx = &r};
    long used = record_parse(text, &rd, h, result, result_size, err, err_size);
    free(r.moves);
    return used;
}
