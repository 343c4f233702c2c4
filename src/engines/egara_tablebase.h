/* Egara-guti's endgame tables behind its engine profile (egara_tablebase.c). */
#pragma once

#include "core/types.h"
#include "search/oracle.h"

/* profile.h's tablebase_moves for Egara-guti. */
int egara_tablebase_moves(const void *st, Move *out, int max, Score *score);
/* profile.h's tablebase_oracle for Egara-guti: the tables' values inside the search. */
const struct search_oracle *egara_tablebase_oracle(void);
/* profile.h's tablebase_verdict for Egara-guti (the analysis board's "wins in N"). */
int egara_tablebase_verdict(const void *st, int *wdl, int *plies);
/* Use the tables of `dir` from now on (NULL: none), in place of those of
 * $AGORA_TABLEBASES or tablebases/egara-guti (for tests). */
void egara_tablebase_dir(const char *dir);
