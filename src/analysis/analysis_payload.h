/* An analysis (the analysis board's stream, live.h) as a job for the engine workers
 * (issue 26): what a server puts in the job's payload so that a worker on any machine
 * can run it, and what the worker reads back.  Both sides of the format are here:
 *
 *     {"game": the game's name, "start": its start position ("" for the game's own),
 *      "moves": [the moves played from it, as texts], "multipv": lines,
 *      "nodes": the node budget (the server's, as it computes it),
 *      "time_ms": the time cap}
 *
 * The moves rather than the position's text: the position keeps its history
 * (repetitions) as the server's own analysis has it.  Knows no job, no store and no
 * server. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

#define ANALYSIS_PAYLOAD_GAME_MAX 40

struct analysis_payload {
    char game[ANALYSIS_PAYLOAD_GAME_MAX];
    char start[POSITION_TEXT_MAX];
    char (*moves)[MOVE_TEXT_MAX]; /* n of them (malloc'ed; read's) */
    int n;
    int multipv;
    uint64_t nodes;
    int64_t time_ms;
};

/* The payload's JSON text (p->moves: n move texts): malloc'ed, NULL without memory. */
char *analysis_payload_text(const struct analysis_payload *p);
/* Read a payload: 0, or -1 with err (not JSON, a field missing, too long or out of
 * range). */
int analysis_payload_read(const char *text, struct analysis_payload *p, char *err, size_t err_size);
void analysis_payload_free(struct analysis_payload *p);
/* The position the payload names, played by `g`: malloc'ed, or NULL with err naming
 * the position or the move that does not play. */
void *analysis_payload_position(const struct game *g, const struct analysis_payload *p, char *err,
                                size_t err_size);
/* When the server holding the stream of an analysis queued at `created_ms` with a
 * time cap of `time_ms` stops waiting for its `done` (it then ends the stream with an
 * error): enough for a worker killed midway and another one's whole run.  A worker
 * drops a job it claims after then (nobody follows it any more). */
int64_t analysis_payload_expires_ms(int64_t created_ms, int64_t time_ms);
