/* The Agon board tables, computed once from the axial coordinates. */
#include "board.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct agon_board agon_board;
const char agon_file_letters[AGON_FILES + 1] = "abcdefghikl";
const uint8_t agon_file_length[AGON_FILES] = {6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6};
const uint8_t agon_window_base[AGON_WINDOWS] = {0, 32, 57};

static const int8_t dir_q[AGON_DIRS] = {1, 0, -1, -1, 0, 1};
static const int8_t dir_r[AGON_DIRS] = {0, 1, 1, 0, -1, -1};

static int hex_ring(int q, int r)
{
    int s = -q - r;
    int m = abs(q) > abs(r) ? abs(q) : abs(r);
    return abs(s) > m ? abs(s) : m;
}

int agon_cell_at(int q, int r)
{
    if (q < -5 || q > 5 || r < -5 || r > 5 || hex_ring(q, r) > 5)
        return -1;
    return (q + 5) * 11 + (r + 5);
}

int agon_cell_of(int x, int rank)
{
    if (x < 0 || x >= AGON_FILES || rank < 1 || rank > agon_file_length[x])
        return -1;
    int q = x - 5;
    return agon_cell_at(q, rank - 6 - (q < 0 ? q : 0)); /* Glinski: r = rank - 6 - min(q, 0) */
}

int agon_cell_by_name(const char *name)
{
    const char *f = name[0] ? strchr(agon_file_letters, name[0]) : NULL;
    if (!f || name[1] < '1' || name[1] > '9')
        return -1;
    int rank = name[1] - '0';
    if (name[2]) {
        if (name[1] != '1' || name[2] < '0' || name[2] > '9' || name[3])
            return -1;
        rank = 10 + name[2] - '0';
    }
    return agon_cell_of((int)(f - agon_file_letters), rank);
}

void agon_board_init(void)
{
    struct agon_board *b = &agon_board;
    memset(b, 0, sizeof *b);
    memset(b->ring, -1, sizeof b->ring);
    for (int c = 0; c <= AGON_SLOTS; c++)
        for (int d = 0; d < AGON_DIRS; d++)
            b->nb[c][d] = AGON_OFF;
    int n = 0;
    for (int x = 0; x < AGON_FILES; x++)
        for (int rank = 1; rank <= agon_file_length[x]; rank++) {
            int c = agon_cell_of(x, rank);
            assert(c >= 0 && (n == 0 || c > b->cells[n - 1]));
            int q = x - 5, r = rank - 6 - (q < 0 ? q : 0);
            b->cells[n++] = (Cell)c;
            b->q[c] = (int8_t)q;
            b->r[c] = (int8_t)r;
            b->file[c] = (int8_t)x;
            b->rank[c] = (int8_t)rank;
            b->ring[c] = (int8_t)hex_ring(q, r);
            b->all |= AG_BIT(c);
            snprintf(b->name[c], sizeof b->name[c], "%c%d", agon_file_letters[x], rank);
        }
    assert(n == AGON_CELLS && b->ring[AGON_THRONE] == 0);
    int n1 = 0;
    for (int i = 0; i < AGON_CELLS; i++) {
        int c = b->cells[i];
        for (int d = 0; d < AGON_DIRS; d++) {
            int t = agon_cell_at(b->q[c] + dir_q[d], b->r[c] + dir_r[d]);
            if (t < 0)
                continue;
            b->nb[c][d] = (Cell)t;
            b->has_nb[d] |= AG_BIT(c);
            b->adjacent[c] |= AG_BIT(t);
            /* Sideways or inward; adjacent rings differ by at most one. */
            if (b->ring[t] <= b->ring[c]) {
                assert(b->step_count[c] < AGON_MAX_STEPS);
                b->steps[c][b->step_count[c]++] = (Cell)t;
                b->step_mask[c] |= AG_BIT(t);
            }
        }
        int w = c <= 52 ? 0 : c <= 84 ? 1 : 2;
        Cells inside = (Cells)UINT64_MAX << agon_window_base[w];
        assert(!(b->adjacent[c] & ~inside)); /* every neighbour inside the window */
        (void)inside;
        b->step_window[c] = (uint8_t)w;
        b->queen_steps[c] = (uint64_t)(b->step_mask[c] >> agon_window_base[w]);
        b->guard_steps[c] =
            (uint64_t)((b->step_mask[c] & ~AG_BIT(AGON_THRONE)) >> agon_window_base[w]);
        if (b->ring[c] == 1) {
            b->ring1[n1++] = (Cell)c;
            b->ring1_mask |= AG_BIT(c);
        }
    }
    assert(n1 == 6);
    /* Ring 5 anticlockwise from f1 (0,-5): five steps along each direction 0..5
     * walks the six sides f1..k1, l1..l5, l6..g10, f11..b7, a6..a2, a1..e1. */
    int q = 0, r = -5, k = 0;
    for (int d = 0; d < AGON_DIRS; d++)
        for (int i = 0; i < 5; i++) {
            b->outer[k] = (Cell)agon_cell_at(q, r);
            b->outer_mask |= AG_BIT(b->outer[k]);
            k++;
            q += dir_q[d];
            r += dir_r[d];
        }
}
