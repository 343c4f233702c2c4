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

const char *reason_name(enum reason r)
{
    static const char *const names[REASON_COUNT] = {
        [REASON_NONE] = "none",
        [REASON_CHECKMATE] = "checkmate",
        [REASON_STALEMATE] = "stalemate",
        [REASON_BLOCKED] = "blocked",
        [REASON_ELIMINATION] = "elimination",
        [REASON_FORMATION] = "formation",
        [REASON_FORMATION_LOSS] = "formation-loss",
        [REASON_REPETITION] = "repetition",
        [REASON_FIVEFOLD] = "fivefold-repetition",
        [REASON_QUIET_LIMIT] = "quiet-limit",
        [REASON_SEVENTY_FIVE] = "seventy-five-moves",
        [REASON_DEAD_POSITION] = "dead-position",
        [REASON_CLAIM_THREEFOLD] = "threefold-claim",
        [REASON_CLAIM_FIFTY] = "fifty-move-claim",
        [REASON_AGREEMENT] = "agreement",
        [REASON_RESIGNATION] = "resignation",
        [REASON_TIME] = "time",
        [REASON_ADJUDICATION] = "adjudication",
    };
    return (unsigned)r < REASON_COUNT && names[r] ? names[r] : "?";
}

const char *reason_text(enum reason r)
{
    static const char *const texts[REASON_COUNT] = {
        [REASON_NONE] = "the game goes on",
        [REASON_CHECKMATE] = "checkmate",
        [REASON_STALEMATE] = "stalemate: no legal move, not in check",
        [REASON_BLOCKED] = "the side to move has no legal move",
        [REASON_ELIMINATION] = "the last piece was captured",
        [REASON_FORMATION] = "the guards surround the queen on the throne",
        [REASON_FORMATION_LOSS] = "the guards fill ring 1 with the queen off the throne",
        [REASON_REPETITION] = "the same position occurred three times",
        [REASON_FIVEFOLD] = "the same position occurred five times",
        [REASON_QUIET_LIMIT] = "40 plies without a capture: the piece counts decide",
        [REASON_SEVENTY_FIVE] = "75 moves each without a capture or pawn move",
        [REASON_DEAD_POSITION] = "neither side can checkmate",
        [REASON_CLAIM_THREEFOLD] = "draw claimed: threefold repetition",
        [REASON_CLAIM_FIFTY] = "draw claimed: fifty moves without a capture or pawn move",
        [REASON_AGREEMENT] = "draw agreed",
        [REASON_RESIGNATION] = "resignation",
        [REASON_TIME] = "time ran out",
        [REASON_ADJUDICATION] = "adjudicated",
    };
    return (unsigned)r < REASON_COUNT && texts[r] ? texts[r] : "?";
}

int game_legal_moves(const struct game *g, const void *st, Move *moves)
{
    struct game_status s;
    g->status(st, &s);
    if (s.result != RESULT_ONGOING)
        return 0;
    return g->gen_moves(st, moves);
}

int game_find_move(const struct game *g, const void *st, const char *text, Move *out,
                   char *err, size_t err_size)
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
