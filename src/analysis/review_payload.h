/* A review as a job for the engine workers (issue 26): what a server puts in the job's
 * payload so that a worker on any machine can review the game without the server's
 * memory, and what the worker reads back.  Both sides of the format are here:
 *
 *     {"id": the review's id, "game": the game's name, "start": its start position
 *      ("" for the game's own), "moves": [its moves as texts], "nodes": the node
 *      budget per position (0: the game's own)}
 *
 * Knows no job, no store and no server. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

#define REVIEW_PAYLOAD_ID_MAX 40
#define REVIEW_PAYLOAD_GAME_MAX 40

struct review_payload {
    char id[REVIEW_PAYLOAD_ID_MAX];
    char game[REVIEW_PAYLOAD_GAME_MAX];
    char start[POSITION_TEXT_MAX];
    char (*moves)[MOVE_TEXT_MAX]; /* n of them (malloc'ed) */
    int n;
    uint64_t nodes;
};

/* The payload of review `id` of the game played by `g` from `start` (left unchanged;
 * `start_text` its text, "" for the game's own start) through moves[0..n-1]: malloc'ed
 * JSON text, NULL without memory. */
char *review_payload_text(const char *id, const struct game *g, const void *start,
                          const char *start_text, const Move *moves, int n, uint64_t nodes);
/* Read a payload: 0, or -1 with err (not JSON, a field missing or too long). */
int review_payload_read(const char *text, struct review_payload *p, char *err, size_t err_size);
void review_payload_free(struct review_payload *p);
/* The payload's game played by `g`: its start (*start, malloc'ed, unchanged by the
 * moves) and its moves (*moves, malloc'ed, p->n of them): 0, or -1 with err naming the
 * position or the move that does not play. */
int review_payload_replay(const struct game *g, const struct review_payload *p, void **start,
                          Move **moves, char *err, size_t err_size);
