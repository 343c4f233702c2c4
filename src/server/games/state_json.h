/* A game written for the browser (state_json.c): its state as JSON (the shape is in
 * API.md), the event stream's events, the move record, the history's summaries and
 * the boards' geometry.  Above the model, which it only reads (under s->mu). */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

struct jout;
struct move_rec;
struct session;
struct store_game;

/* A position to write: a game's state or a bare position (POST /api/positions).  The
 * state reads its game's start text, moves, status; before_legal may add fields. */
struct position_view {
    const struct game *g;
    const void *st;
    const char *start; /* the start position text; NULL or "": the game's start */
    const struct move_rec *moves;
    int n_moves;
    struct game_status status;
    void (*before_legal)(struct jout *j, void *ctx);
    void *ctx;
};
/* A bare position as JSON text (malloc'ed; NULL without memory): the state's board
 * fields, legal moves, status and claims, without a game's id, level or times. */
char *position_text(const struct position_view *v);

/* A game's state as JSON text (malloc'ed; NULL without memory), with the new
 * game's token and the draw offer's answer when given. */
char *state_text(const struct session *s, const char *token, const char *draw);
/* The same as seen by `viewer` (a side, or -1: a spectator), for games between people. */
char *state_text_as(const struct session *s, int viewer, const char *token, const char *draw);
/* A summary for the history list, as one value. */
void summary_out(struct jout *j, const struct store_game *row);
/* A game's board geometry (static): shape, cells with coordinates, edges. */
json_t *layout_json(const struct game *g);
/* One event of the stream for move k (1-based) into buf; its length (0: no room). */
size_t event_move_text(const struct session *s, int k, char *buf, size_t size);
size_t event_end_text(const struct session *s, char *buf, size_t size);
/* The `takeback` event: moves were taken back; `id` and data's "ply" are the ply the
 * game is at now, "takebacks" the game's count of them.  0 when it does not fit. */
size_t event_takeback_text(const struct session *s, char *buf, size_t size);
/* The move record: PGN-style tags and numbered moves (malloc'ed; NULL without memory). */
char *record_text(const struct session *s);
