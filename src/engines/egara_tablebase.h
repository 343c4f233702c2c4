/* Egara-guti's endgame tables behind its engine profile (egara_tablebase.c). */
#pragma once

#include "core/types.h"

/* profile.h's tablebase_moves for Egara-guti. */
int egara_tablebase_moves(const void *st, Move *out, int max, Score *score);
/* Use the tables of `dir` from now on (NULL: none), in place of those of
 * $AGORA_TABLEBASES or tablebases/egara-guti (for tests). */
void egara_tablebase_dir(const char *dir);
