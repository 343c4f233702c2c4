/* The chess evaluation's weights: one table of middlegame/endgame pairs, so that a tuner
 * (tools/texel.c) can vary every weight the same way and write the table back
 * (eval_weights.h, generated).
 *
 * The evaluation is linear in the weights: for a position it is
 *
 *     sum over i of coef[i] * (mg[i] * phase + eg[i] * scale / 64 * (24 - phase)) / 24
 *
 * where coef[i] is how often term i occurs for White minus how often for Black, phase
 * (0..24) counts the pieces left and scale (0..64) shrinks drawish endgames.  The
 * trace records coef, phase and scale, so the tuner fits the weights without calling
 * the evaluation again. */
#pragma once

#include "chess_position.h"

/* Every group of weights with its number of pairs, in table order.  Groups indexed by a
 * piece type run pawn (index 0) to queen or king; "by rank" groups by the rank as the
 * owner sees it (0 = its first rank). */
#define CHESS_EVAL_TERMS(X)                                                                        \
    X(MATERIAL, 5)   /* pawn .. queen */                                                           \
    X(PSQT, 6 * 32)  /* type, relative rank, file folded to a..d: (type-1)*32+rank*4+f */          \
    X(MOB_KNIGHT, 9) /* squares reached that enemy pawns do not attack */                          \
    X(MOB_BISHOP, 14)                                                                              \
    X(MOB_ROOK, 15)                                                                                \
    X(MOB_QUEEN, 28)                                                                               \
    X(PAWN_DOUBLED, 1)      /* a pawn with an own pawn behind it on its file */                    \
    X(PAWN_ISOLATED, 1)     /* no own pawn on the adjacent files */                                \
    X(PAWN_BACKWARD, 1)     /* stop square held by an enemy pawn, no own pawn to support it */     \
    X(PAWN_CONNECTED, 8)    /* by rank: defended by a pawn or beside one */                        \
    X(PASSED, 8)            /* by rank */                                                          \
    X(PASSED_FREE, 8)       /* by rank: nothing stands on the way to promotion */                  \
    X(PASSED_KING_OWN, 8)   /* by rank, times the own king's distance to the stop square */        \
    X(PASSED_KING_THEIR, 8) /* by rank, times the enemy king's distance to the stop square */      \
    X(KING_SHIELD, 3)       /* per file beside the king: own pawn 1 rank ahead, 2 ranks, none */   \
    X(KING_OPEN_FILE, 1)    /* a file at the king with no pawn at all */                           \
    X(KING_SEMI_OPEN, 1)    /* a file at the king with only enemy pawns */                         \
    X(KING_ATTACK, 4)       /* knight .. queen: king-zone squares it attacks (attacker's term) */  \
    X(KING_ATTACKERS, 8)    /* number of pieces attacking the enemy king zone (0..7+) */           \
    X(SAFE_CHECK, 4)        /* knight .. queen: safe squares from which it can give check */       \
    X(BISHOP_PAIR, 1)                                                                              \
    X(ROOK_OPEN, 1)                                                                                \
    X(ROOK_SEMI_OPEN, 1)                                                                           \
    X(ROOK_SEVENTH, 1)    /* on the 7th with the enemy king on the 8th or pawns on the 7th */      \
    X(OUTPOST, 2)         /* knight, bishop on ranks 4-6, pawn-defended, no pawn can chase */      \
    X(THREAT_BY_PAWN, 4)  /* enemy knight .. queen attacked by a pawn */                           \
    X(THREAT_BY_MINOR, 5) /* enemy pawn .. queen attacked by a knight or bishop */                 \
    X(THREAT_BY_ROOK, 5)  /* enemy pawn .. queen attacked by a rook */                             \
    X(HANGING, 1)         /* enemy pieces attacked and not defended */                             \
    X(TEMPO, 1)           /* the side to move */

/* EW_<GROUP> is the index of a group's first pair; CHESS_EVAL_NPAIRS the table size. */
enum chess_eval_index {
#define CHESS_EVAL_ENUM(name, n) EW_##name, EW_##name##_LAST = EW_##name + (n)-1,
    CHESS_EVAL_TERMS(CHESS_EVAL_ENUM)
#undef CHESS_EVAL_ENUM
        CHESS_EVAL_NPAIRS
};

struct chess_eval_pair {
    int mg, eg;
};

struct chess_eval_weights {
    struct chess_eval_pair w[CHESS_EVAL_NPAIRS];
};

/* What one evaluation used: coef per pair (White minus Black), the phase and scale. */
struct chess_eval_trace {
    int coef[CHESS_EVAL_NPAIRS];
    int phase; /* 0 (bare kings and pawns) .. 24 (all pieces) */
    int scale; /* 0 .. 64, applied to the endgame part */
};

#define CHESS_EVAL_PHASE_MAX 24
#define CHESS_EVAL_SCALE_FULL 64

/* The weights the engine plays with (eval_weights.h). */
const struct chess_eval_weights *chess_eval_default_weights(void);

/* chess_eval with other weights, recording the trace when `trace` is not NULL (it is
 * cleared first).  Same value as chess_eval for the default weights. */
int chess_eval_traced(const struct chess_pos *p, const struct chess_eval_weights *w,
                      struct chess_eval_trace *trace);

/* The name of a group and the index of `i` within it, for tools. */
const char *chess_eval_term_name(int i, int *within);
