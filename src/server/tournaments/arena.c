/* An arena's standings and pairing (arena.h). */
#include "server/tournaments/arena.h"

#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "swiss/matching.h"

bool arena_counts(const struct store_game *g, int64_t end_ms)
{
    return g->result != RESULT_ONGOING && g->reason != REASON_ABORTED && g->updated_ms <= end_ms;
}

int arena_points(const struct store_game *g, int side, bool on_fire)
{
    int won = side == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    int mult = on_fire ? 2 : 1;
    if (g->result == won) {
        /* The side's own moves: white moved at plies 1, 3, ...; black at 2, 4, ... */
        int own = side == SIDE_WHITE ? (g->plies + 1) / 2 : g->plies / 2;
        bool berserk = g->berserk >> side & 1;
        return ARENA_WIN * mult + (berserk && own >= ARENA_BERSERK_MOVES ? 1 : 0);
    }
    if (g->result == RESULT_DRAW)
        return g->plies < ARENA_EARLY_DRAW_PLIES ? 0 : ARENA_DRAW * mult;
    return 0;
}

static int find_entrant(const struct store_entrant *e, int n, const char *hash)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(e[i].token_hash, hash))
            return i;
    return -1;
}

static void sheet_add(struct arena_line *l, int points, bool fire)
{
    if (l->n_sheet == ARENA_SHEET_MAX) {
        memmove(l->sheet, l->sheet + 1, sizeof l->sheet[0] * (ARENA_SHEET_MAX - 1));
        memmove(l->fire_sheet, l->fire_sheet + 1, sizeof l->fire_sheet[0] * (ARENA_SHEET_MAX - 1));
        l->n_sheet--;
    }
    l->sheet[l->n_sheet] = points;
    l->fire_sheet[l->n_sheet++] = fire;
}

/* One side's game into its line. */
static void score_side(struct arena_line *l, const struct store_game *g, int side, int opp,
                       int64_t end_ms)
{
    l->last_opp = opp;
    l->last_colour = side;
    if (side == SIDE_WHITE)
        l->whites++;
    else
        l->blacks++;
    if (g->result == RESULT_ONGOING) {
        l->playing = true;
        return;
    }
    if (l->free_ms < g->updated_ms)
        l->free_ms = g->updated_ms;
    if (!arena_counts(g, end_ms))
        return;
    bool fire = l->streak >= ARENA_FIRE_AFTER;
    int points = arena_points(g, side, fire);
    int won = side == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    l->games++;
    l->score += points;
    if (g->berserk >> side & 1)
        l->berserks++;
    if (g->result == won) {
        l->wins++;
        l->streak++;
    } else {
        if (g->result == RESULT_DRAW)
            l->draws++;
        else
            l->losses++;
        l->streak = 0;
    }
    l->fire = l->streak >= ARENA_FIRE_AFTER;
    sheet_add(l, points, fire);
}

static int by_rank(const void *pa, const void *pb)
{
    const struct arena_line *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->rating != b->rating)
        return a->rating > b->rating ? -1 : 1;
    return a->entrant - b->entrant;
}

void arena_standings(const struct store_entrant *e, int n, const struct store_game *g, int m,
                     int64_t end_ms, struct arena_line *out)
{
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].entrant = i;
        out[i].last_opp = -1;
        out[i].last_colour = -1;
        out[i].free_ms = e[i].active_ms;
        out[i].rating = e[i].rating;
    }
    for (int k = 0; k < m; k++) {
        int w = find_entrant(e, n, g[k].white_hash), b = find_entrant(e, n, g[k].black_hash);
        if (w >= 0)
            score_side(&out[w], &g[k], SIDE_WHITE, b, end_ms);
        if (b >= 0)
            score_side(&out[b], &g[k], SIDE_BLACK, w, end_ms);
    }
    /* A player back from a pause waits from then. */
    for (int i = 0; i < n; i++)
        if (out[i].free_ms < e[i].active_ms)
            out[i].free_ms = e[i].active_ms;
    qsort(out, (size_t)n, sizeof out[0], by_rank);
    for (int i = 0; i < n; i++)
        out[i].rank = i + 1;
}

/* The weight of a pair, in one 64-bit limb (below 2^61): first a common term, so the
 * matching pairs as many as it can; then how long both have waited (seconds, capped at
 * an hour), which decides only who is left out when someone must be (the sum over the
 * players paired does not depend on who plays whom); then nearness in the standings and
 * in rating. */
#define W_PAIR (1ULL << 52)
#define W_WAIT (1ULL << 24)
#define W_RANK 64ULL
#define NEAR_RANKS 1024
#define NEAR_RATING 1024
#define MAX_WAIT_S 3600

static int64_t waited_s(const struct arena_line *l, int64_t now_ms)
{
    int64_t s = (now_ms - l->free_ms) / 1000;
    return s < 0 ? 0 : s > MAX_WAIT_S ? MAX_WAIT_S : s;
}

/* Pairs further apart than this in the standings are no edge (a large wave stays
 * sparse); a player with no edge within it (the top or the bottom of a thin field)
 * gets edges to all. */
#define EDGE_SPAN 48

static uint64_t weight(const struct arena_line *a, const struct arena_line *b, int64_t now_ms)
{
    int rank_gap = abs(a->rank - b->rank), rating_gap = abs(a->rating - b->rating);
    if (rank_gap > NEAR_RANKS)
        rank_gap = NEAR_RANKS;
    if (rating_gap > NEAR_RATING)
        rating_gap = NEAR_RATING;
    return W_PAIR + (uint64_t)(waited_s(a, now_ms) + waited_s(b, now_ms)) * W_WAIT +
           (uint64_t)(NEAR_RANKS - rank_gap) * W_RANK + (uint64_t)(NEAR_RATING - rating_gap);
}

/* Whether a gets white against b. */
static bool white_first(const struct arena_line *a, const struct arena_line *b, uint64_t bits)
{
    int da = a->whites - a->blacks, db = b->whites - b->blacks;
    if (da != db)
        return da < db;
    if (a->last_colour != b->last_colour) {
        if (a->last_colour == SIDE_BLACK || b->last_colour == SIDE_WHITE)
            return true;
        if (b->last_colour == SIDE_BLACK || a->last_colour == SIDE_WHITE)
            return false;
    }
    return bits & 1;
}

int arena_pair_wave(const struct store_entrant *e, const struct arena_line *lines, int n,
                    int64_t now_ms, uint64_t seed, struct arena_pair *out)
{
    /* The free ones, in standings order. */
    int *free_ix = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!free_ix)
        return -1;
    int f = 0;
    int active = 0;
    for (int i = 0; i < n; i++) {
        bool on = e[lines[i].entrant].state == ENTRANT_ACTIVE;
        active += on;
        if (!lines[i].playing && on)
            free_ix[f++] = i;
    }
    if (f < 2) {
        free(free_ix);
        return 0;
    }
    int max_edges = f * (f - 1) / 2;
    struct swiss_matcher *m = swiss_matcher_new(f, max_edges, 1);
    int *mate = malloc(sizeof(int) * (size_t)f);
    if (!m || !mate) {
        swiss_matcher_free(m);
        free(mate);
        free(free_ix);
        return -1;
    }
    /* Who has nobody free within EDGE_SPAN ranks: they get edges to all. */
    bool *alone = calloc((size_t)f, sizeof(bool));
    if (!alone) {
        swiss_matcher_free(m);
        free(mate);
        free(free_ix);
        return -1;
    }
    for (int u = 0; u < f; u++) {
        alone[u] = true;
        for (int v = 0; v < f && alone[u]; v++)
            if (v != u && abs(lines[free_ix[u]].rank - lines[free_ix[v]].rank) <= EDGE_SPAN)
                alone[u] = false;
    }
    for (int u = 0; u < f; u++)
        for (int v = u + 1; v < f; v++) {
            const struct arena_line *a = &lines[free_ix[u]], *b = &lines[free_ix[v]];
            if (abs(a->rank - b->rank) > EDGE_SPAN && !alone[u] && !alone[v])
                continue;
            bool again = a->last_opp == b->entrant || b->last_opp == a->entrant;
            if (again && active > 2)
                continue;
            uint64_t w = weight(a, b, now_ms);
            swiss_matcher_add(m, u, v, &w);
        }
    free(alone);
    int pairs = -1;
    if (swiss_matcher_solve(m, mate) == 0) {
        pairs = 0;
        uint64_t bits = seed;
        for (int u = 0; u < f; u++) {
            int v = mate[u];
            if (v <= u)
                continue;
            const struct arena_line *a = &lines[free_ix[u]], *b = &lines[free_ix[v]];
            bits = bits * 6364136223846793005ULL + 1442695040888963407ULL;
            bool a_white = white_first(a, b, bits >> 33);
            out[pairs].white = a_white ? a->entrant : b->entrant;
            out[pairs].black = a_white ? b->entrant : a->entrant;
            pairs++;
        }
    }
    swiss_matcher_free(m);
    free(mate);
    free(free_ix);
    return pairs;
}
