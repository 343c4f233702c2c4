#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

const char *result_name(enum result r)
{
    switch (r) {
    case RESULT_ONGOING: return "ongoing";
    case RESULT_WHITE_WINS: return "white wins";
    case RESULT_BLACK_WINS: return "black wins";
    case RESULT_DRAW: return "draw";
    }
    return "?";
}

/* The words every game may use (enum reason). */
static const struct game_word core_reasons[] = {
    {REASON_NONE, "none", "the game goes on"},
    {REASON_BLOCKED, "blocked", "the side to move has no legal move"},
    {REASON_REPETITION, "repetition", "the same position occurred three times"},
    {REASON_AGREEMENT, "agreement", "draw agreed"},
    {REASON_RESIGNATION, "resignation", "resignation"},
    {REASON_TIME, "time", "time ran out"},
    {REASON_ADJUDICATION, "adjudication", "adjudicated"},
    {REASON_ABORTED, "aborted", "the game was aborted"},
    {REASON_ABANDONED, "abandoned", "the game was abandoned"},
    {REASON_TIMEOUT_DRAW, "timeout-draw", "time ran out, but the other side could not win"},
    {0, NULL, NULL},
};

static const struct game_word *find_word(const struct game_word *words, unsigned code)
{
    for (; words && words->name; words++)
        if (words->code == code)
            return words;
    return NULL;
}

static const struct game_word *reason_word(const struct game *g, int reason)
{
    if (reason < 0)
        return NULL;
    const struct game_word *w = g ? find_word(g->reasons, (unsigned)reason) : NULL;
    return w ? w : find_word(core_reasons, (unsigned)reason);
}

const char *reason_name(const struct game *g, int reason)
{
    const struct game_word *w = reason_word(g, reason);
    return w ? w->name : "?";
}

const char *reason_text(const struct game *g, int reason)
{
    const struct game_word *w = reason_word(g, reason);
    return w && w->text ? w->text : w ? w->name : "?";
}

unsigned game_word_code(const struct game_word *words, const char *name)
{
    for (; words && words->name; words++)
        if (!strcmp(words->name, name))
            return words->code;
    return 0;
}

const char *game_word_name(const struct game_word *words, unsigned bit)
{
    const struct game_word *w = find_word(words, bit);
    return w ? w->name : NULL;
}

int game_legal_moves(const struct game *g, const void *st, Move *moves)
{
    struct game_status s;
    g->status(st, &s);
    if (s.result != RESULT_ONGOING)
        return 0;
    return g->gen_moves(st, moves);
}

int game_find_move(const struct game *g, const void *st, const char *text, Move *out, char *err,
                   size_t err_size)
{
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    if (!moves)
        return fail(err, err_size, "out of memory");
    int n = game_legal_moves(g, st, moves);
    char buf[MOVE_TEXT_MAX];
    int found = -1;
    for (int i = 0; i < n && found < 0; i++) {
        g->move_text(st, moves[i], buf, sizeof buf);
        if (strcmp(buf, text) == 0)
            found = i;
    }
    if (found >= 0)
        *out = moves[found];
    free(moves);
    if (found >= 0)
        return 0;
    if (n == 0)
        return fail(err, err_size, "no move is possible: the game is over");
    return fail(err, err_size, "illegal move '%s'", text);
}

void game_move_display(const struct game *g, const void *st, Move m, char *buf, size_t size)
{
    if (g->move_display)
        g->move_display(st, m, buf, size);
    else
        g->move_text(st, m, buf, size);
}

void *game_state_new(const struct game *g)
{
    return calloc(1, g->state_size);
}

void game_state_copy(const struct game *g, void *dst, const void *src)
{
    int ply = g->ply(src);
    size_t end = g->history_offset + g->history_size;
    if (g->history_entry == 0 || ply < 0 || end > g->state_size ||
        (size_t)ply * g->history_entry > g->history_size) {
        memcpy(dst, src, g->state_size);
        return;
    }
    memcpy(dst, src, g->history_offset + (size_t)ply * g->history_entry);
    memcpy((char *)dst + end, (const char *)src + end, g->state_size - end);
}
