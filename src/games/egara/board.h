/* The Egara-guti board: 23 points on two triangles joined at the centre, and the
 * lines through them, as data.  Point numbers run rank by rank from White's base:
 *
 *   rank 7:  18 a7  19 b7        20 d7        21 f7  22 g7
 *   rank 6:         15 b6        16 d6        17 f6
 *   rank 5:                13 c5 14 d5 ... (see egara_point_names)
 *
 * A set of points is a uint32_t with bit p for point p (bits 23..31 unused).
 */
#pragma once

#include <stdint.h>

#define EGARA_POINTS 23
#define EGARA_CENTRE 11   /* d4 */
#define EGARA_MAX_JUMPS 8 /* jumps from one point, over a neighbour in a line */
#define EGARA_ALL_POINTS ((1u << EGARA_POINTS) - 1)

typedef int8_t Point;

struct egara_jump {
    uint32_t over_bit, to_bit; /* 1u << over, 1u << to: the hot loops test these */
    Point over, to;
};

struct egara_board {
    uint32_t adjacent[EGARA_POINTS]; /* points one step away */
    int jump_count[EGARA_POINTS];
    struct egara_jump jumps[EGARA_POINTS][EGARA_MAX_JUMPS];
    Point middle[EGARA_POINTS][EGARA_POINTS]; /* the point between a and c, or -1 */
    /* The 29 straight triples (a, b, c) of the lines, as bit sets over triple
     * numbers: to_triples[k][byte][v] is the set of triples whose point k (0 = a,
     * 1 = b, 2 = c) lies in the point set whose byte `byte` is v.  They turn "is
     * there a jump" into a few table lookups (see egara_capturers). */
    uint32_t to_triples[3][3][256];
    /* The points a (k = 0) or c (k = 1) of the triples in a triple set, by byte. */
    uint32_t from_triples[2][4][256];
    int pairs;   /* adjacent pairs (40) */
    int triples; /* straight triples (29) */
};

extern struct egara_board egara_board;
extern const char *const egara_point_names[EGARA_POINTS];
/* Grid coordinates: file 0..6 (a..g), rank 1..7. */
extern const int8_t egara_point_file[EGARA_POINTS];
extern const int8_t egara_point_rank[EGARA_POINTS];
/* The points of each rank, 7 down to 1, left to right: the position text order. */
extern const int egara_rank_size[7];

void egara_board_init(void);
/* The point named `name` ("d4"), or -1. */
int egara_point_by_name(const char *name);
