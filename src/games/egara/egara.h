/* Egara-guti, the Indian war game of forced jump-captures (rules/egara-guti.md). */
#pragma once

#include "core/game.h"

extern const struct game egara_game;

/* Egara-guti's own words (egara_game.reasons, .move_flag_names, the layout's
 * flag_names).  The reasons' numbers are stored with finished games. */
enum egara_reason {
    EGARA_REASON_ELIMINATION = 4, /* the last enemy piece was captured */
    EGARA_REASON_QUIET_LIMIT = 9, /* 40 plies without capture: piece counts decide */
};
#define EGARA_MOVE_CHAIN (1u << 5)  /* more than one jump */
#define EGARA_CELL_CENTRE (1u << 2) /* the centre point, d4 */
