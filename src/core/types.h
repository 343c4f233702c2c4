/* The domain integers every layer shares. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* A move, encoded by its game; 0 is never a legal move and means "no move". */
typedef uint64_t Move;
/* A Zobrist hash of a position: cell contents, side to move, game-specific rights. */
typedef uint64_t Key;
/* An evaluation in hundredths of a piece, from the side to move's point of view. */
typedef int32_t Score;

/* The first player is White, the second Black, in every game. */
enum side { SIDE_WHITE = 0, SIDE_BLACK = 1 };

/* Scores at or beyond SCORE_WIN - MAX_SEARCH_PLY are wins at a known distance. */
#define SCORE_WIN ((Score)30000)
#define SCORE_INFINITE ((Score)32000)

/* Room for texts that cross the interface, terminating NUL included. */
#define POSITION_TEXT_MAX 256
#define MOVE_TEXT_MAX 64
#define ERROR_TEXT_MAX 200
#define RENDER_TEXT_MAX 8192
