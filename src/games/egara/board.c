#include "board.h"

#include <assert.h>
#include <string.h>

const char *const egara_point_names[EGARA_POINTS] = {
    "a1", "b1", "d1", "f1", "g1", /* 0..4 */
    "b2", "d2", "f2",             /* 5..7 */
    "c3", "d3", "e3",             /* 8..10 */
    "d4",                         /* 11 */
    "c5", "d5", "e5",             /* 12..14 */
    "b6", "d6", "f6",             /* 15..17 */
    "a7", "b7", "d7", "f7", "g7", /* 18..22 */
};

const int8_t egara_point_file[EGARA_POINTS] = {
    0, 1, 3, 5, 6, 1, 3, 5, 2, 3, 4, 3, 2, 3, 4, 1, 3, 5, 0, 1, 3, 5, 6,
};
const int8_t egara_point_rank[EGARA_POINTS] = {
    1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 7, 7,
};
const int egara_rank_size[7] = {5, 3, 3, 1, 3, 3, 5};

/* The lines of the rule book, each end to end; consecutive points are adjacent. */
static const char *const lines[] = {
    "a7 b7 d7 f7 g7",
    "b6 d6 f6",
    "c5 d5 e5",
    "c3 d3 e3",
    "b2 d2 f2",
    "a1 b1 d1 f1 g1",
    "d7 d6 d5 d4 d3 d2 d1",
    "a7 b6 c5 d4 e3 f2 g1",
    "g7 f6 e5 d4 c3 b2 a1",
    "b7 b6 b2 b1",
    "f7 f6 f2 f1",
};

struct egara_board egara_board;

int egara_point_by_name(const char *name)
{
    for (int p = 0; p < EGARA_POINTS; p++)
        if (strcmp(egara_point_names[p], name) == 0)
            return p;
    return -1;
}

static int parse_line(const char *text, Point *out)
{
    int n = 0;
    for (const char *s = text; *s;) {
        char name[3] = {s[0], s[1], 0};
        int p = egara_point_by_name(name);
        assert(p >= 0);
        out[n++] = (Point)p;
        s += 2;
        if (*s == ' ')
            s++;
    }
    return n;
}

static void add_triple(struct egara_board *b, int a, int bp, int c)
{
    int t = b->triples;
    assert(t < 32);
    const int points[3] = {a, bp, c};
    for (int k = 0; k < 3; k++)
        for (int v = 0; v < 256; v++)
            if ((v >> (points[k] % 8)) & 1)
                b->to_triples[k][points[k] / 8][v] |= 1u << t;
    for (int v = 0; v < 256; v++)
        if ((v >> (t % 8)) & 1) {
            b->from_triples[0][t / 8][v] |= 1u << a;
            b->from_triples[1][t / 8][v] |= 1u << c;
        }
}

static void add_jump(struct egara_board *b, int from, int over, int to)
{
    assert(b->jump_count[from] < EGARA_MAX_JUMPS);
    /* Two lines never share a triple, so the point between two is unique. */
    assert(b->middle[from][to] < 0);
    b->jumps[from][b->jump_count[from]++] =
        (struct egara_jump){1u << over, 1u << to, (Point)over, (Point)to};
    b->middle[from][to] = (Point)over;
}

void egara_board_init(void)
{
    struct egara_board *b = &egara_board;
    memset(b, 0, sizeof *b);
    memset(b->middle, -1, sizeof b->middle);
    for (size_t l = 0; l < sizeof lines / sizeof lines[0]; l++) {
        Point pts[EGARA_POINTS];
        int n = parse_line(lines[l], pts);
        for (int i = 0; i + 1 < n; i++) {
            b->adjacent[pts[i]] |= 1u << pts[i + 1];
            b->adjacent[pts[i + 1]] |= 1u << pts[i];
            b->pairs++;
        }
        for (int i = 0; i + 2 < n; i++) {
            add_jump(b, pts[i], pts[i + 1], pts[i + 2]);
            add_jump(b, pts[i + 2], pts[i + 1], pts[i]);
            add_triple(b, pts[i], pts[i + 1], pts[i + 2]);
            b->triples++;
        }
    }
}
