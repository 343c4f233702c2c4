/* The fields a job's payload shares (payload_fields.c): a review's (review_payload.c)
 * and an analysis's (analysis_payload.c) both carry texts and the moves played as move
 * texts.  `what` names the payload in the errors ("review", "analysis"). */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "core/game.h"

/* The string field `key` of `o` into out: 0, or -1 with err. */
int payload_text(json_t *o, const char *what, const char *key, char *out, size_t size, char *err,
                 size_t err_size);
/* The array "moves" of `o`, each a move text, into *moves (malloc'ed, *n of them; NULL
 * on an error, nothing to free then): 0, or -1 with err naming the move. */
int payload_moves(json_t *o, const char *what, char (**moves)[MOVE_TEXT_MAX], int *n, char *err,
                  size_t err_size);
