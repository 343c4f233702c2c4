/* An arena's rules as arithmetic (src/server/tournaments/arena.c), on made-up
 * tournaments: the scoring (streaks and fire, berserk, early draws, aborted games and
 * games after the end), and the pairing of a wave (no repeat of the last opponent,
 * colours by history, the longest waiter not left out, the nearest paired). */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "core/game.h"
#include "server/tournaments/arena.h"

static struct store_entrant ent[8];

static void entrants(int n)
{
    memset(ent, 0, sizeof ent);
    for (int i = 0; i < n; i++) {
        snprintf(ent[i].token_hash, sizeof ent[i].token_hash, "h%d", i);
        snprintf(ent[i].name, sizeof ent[i].name, "P%d", i);
        ent[i].rating = 1500 + 10 * i;
        ent[i].active_ms = 1000;
    }
}

/* A finished game between entrants w and b. */
static struct store_game game(int w, int b, int result, int plies, int berserk, int64_t end)
{
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "g%d%d%lld", w, b, (long long)end);
    snprintf(g.white_hash, sizeof g.white_hash, "h%d", w);
    snprintf(g.black_hash, sizeof g.black_hash, "h%d", b);
    g.result = result;
    g.reason = result ? REASON_RESIGNATION : 0;
    g.plies = plies;
    g.berserk = berserk;
    g.created_ms = end - 100;
    g.updated_ms = end;
    return g;
}

static const struct arena_line *line_of(const struct arena_line *l, int n, int entrant)
{
    for (int i = 0; i < n; i++)
        if (l[i].entrant == entrant)
            return &l[i];
    return NULL;
}

TEST(server_arena_scoring_streaks_and_fire)
{
    entrants(2);
    /* P0 wins, wins (now on fire), wins (4), draws (2 on fire, fire ends), wins (2). */
    struct store_game g[] = {
        game(0, 1, RESULT_WHITE_WINS, 30, 0, 2000), game(1, 0, RESULT_BLACK_WINS, 30, 0, 3000),
        game(0, 1, RESULT_WHITE_WINS, 30, 0, 4000), game(1, 0, RESULT_DRAW, 40, 0, 5000),
        game(0, 1, RESULT_WHITE_WINS, 30, 0, 6000),
    };
    struct arena_line l[2];
    arena_standings(ent, 2, g, 5, 100000, l);
    const struct arena_line *p0 = line_of(l, 2, 0), *p1 = line_of(l, 2, 1);
    CHECK_EQ_INT(p0->score, 2 + 2 + 4 + 2 + 2);
    CHECK_EQ_INT(p0->wins, 4);
    CHECK_EQ_INT(p0->draws, 1);
    CHECK_EQ_INT(p0->n_sheet, 5);
    CHECK_EQ_INT(p0->sheet[2], 4);
    CHECK(p0->fire_sheet[2] && p0->fire_sheet[3] && !p0->fire_sheet[4]);
    CHECK(!p0->fire);
    CHECK_EQ_INT(p1->score, 1); /* the draw, not on fire */
    CHECK_EQ_INT(p0->rank, 1);
    CHECK_EQ_INT(l[0].entrant, 0);
}

TEST(server_arena_scoring_berserk_early_draw_and_uncounted)
{
    entrants(2);
    struct store_game g[] = {
        /* White berserked and won with 7 own moves (13 plies): 2 + 1. */
        game(0, 1, RESULT_WHITE_WINS, 13, 1, 2000),
        /* Black berserked and won with 6 own moves (12 plies): no bonus. */
        game(0, 1, RESULT_BLACK_WINS, 12, 2, 3000),
        /* A draw of 19 plies: nothing for either. */
        game(0, 1, RESULT_DRAW, 19, 0, 4000),
        /* Aborted: does not count, nor breaks a streak. */
        game(0, 1, RESULT_DRAW, 0, 0, 5000),
        /* Ended after the arena's end (9000): played, not counted. */
        game(0, 1, RESULT_WHITE_WINS, 40, 0, 9500),
    };
    g[3].reason = REASON_ABORTED;
    struct arena_line l[2];
    arena_standings(ent, 2, g, 5, 9000, l);
    const struct arena_line *p0 = line_of(l, 2, 0), *p1 = line_of(l, 2, 1);
    CHECK_EQ_INT(p0->score, 3);
    CHECK_EQ_INT(p1->score, 2);
    CHECK_EQ_INT(p0->games, 3);
    CHECK_EQ_INT(p0->berserks, 1);
    CHECK_EQ_INT(p1->berserks, 1);
    CHECK_EQ_INT(arena_points(&g[2], SIDE_WHITE, false), 0);
    CHECK(!arena_counts(&g[3], 9000));
    CHECK(!arena_counts(&g[4], 9000));
    /* The early draw broke P1's one-win streak: no fire. */
    CHECK_EQ_INT(p1->streak, 0);
    /* A draw of 20 plies on fire: 2. */
    struct store_game d = game(0, 1, RESULT_DRAW, 20, 0, 1);
    CHECK_EQ_INT(arena_points(&d, SIDE_BLACK, true), 2);
    /* A berserk win on fire: 4 + 1. */
    struct store_game b = game(0, 1, RESULT_BLACK_WINS, 14, 2, 1);
    CHECK_EQ_INT(arena_points(&b, SIDE_BLACK, true), 5);
}

TEST(server_arena_playing_and_free_since)
{
    entrants(3);
    struct store_game g[] = {game(0, 1, RESULT_WHITE_WINS, 30, 0, 2000),
                             game(2, 0, RESULT_ONGOING, 3, 0, 2500)};
    g[1].updated_ms = 2600;
    struct arena_line l[3];
    arena_standings(ent, 3, g, 2, 100000, l);
    CHECK(line_of(l, 3, 0)->playing);
    CHECK(line_of(l, 3, 2)->playing);
    CHECK(!line_of(l, 3, 1)->playing);
    CHECK_EQ_INT(line_of(l, 3, 1)->free_ms, 2000);
    /* Only the free one is left: no pair. */
    struct arena_pair p[2];
    CHECK_EQ_INT(arena_pair_wave(ent, l, 3, 5000, 1, p), 0);
}

TEST(server_arena_pairing_no_repeat_and_colours)
{
    entrants(4);
    /* 0 beat 1 and 2 beat 3, both with white: next, 0-1 and 2-3 are no pairs, and of a
     * pair of one who had white and one who had black, the one who had black gets white. */
    struct store_game g[] = {game(0, 1, RESULT_WHITE_WINS, 30, 0, 2000),
                             game(2, 3, RESULT_WHITE_WINS, 30, 0, 2000)};
    struct arena_line l[4];
    arena_standings(ent, 4, g, 2, 100000, l);
    for (uint64_t seed = 0; seed < 8; seed++) {
        struct arena_pair p[2];
        CHECK_EQ_INT(arena_pair_wave(ent, l, 4, 3000, seed, p), 2);
        for (int i = 0; i < 2; i++) {
            int a = p[i].white, b = p[i].black;
            CHECK_MSG(!((a == 0 && b == 1) || (a == 1 && b == 0) || (a == 2 && b == 3) ||
                        (a == 3 && b == 2)),
                      "repeat pairing %d-%d", a, b);
            bool a_white_last = a == 0 || a == 2, b_white_last = b == 0 || b == 2;
            CHECK_MSG(!a_white_last || b_white_last, "white %d had white last, black %d black", a,
                      b);
        }
    }
    /* Only two in the arena: they play again rather than wait for nobody. */
    entrants(2);
    struct store_game one = game(0, 1, RESULT_WHITE_WINS, 30, 0, 2000);
    struct arena_line l2[2];
    arena_standings(ent, 2, &one, 1, 100000, l2);
    struct arena_pair p[1];
    CHECK_EQ_INT(arena_pair_wave(ent, l2, 2, 3000, 0, p), 1);
    CHECK_EQ_INT(p[0].white, 1);
}

TEST(server_arena_pairing_longest_waiter_not_left_out)
{
    entrants(3);
    /* Nobody played; 2 waits since 1000, 0 and 1 since 9000: of three, the one left
     * out is one of the two who waited shortest. */
    ent[0].active_ms = 9000;
    ent[1].active_ms = 9000;
    ent[2].active_ms = 1000;
    struct arena_line l[3];
    arena_standings(ent, 3, NULL, 0, 100000, l);
    struct arena_pair p[1];
    CHECK_EQ_INT(arena_pair_wave(ent, l, 3, 12000, 3, p), 1);
    CHECK_MSG(p[0].white == 2 || p[0].black == 2, "the longest waiter was left out");
}

TEST(server_arena_pairing_nearest_in_standings)
{
    entrants(4);
    /* Scores 4, 2, 2, 0 after four games; all free: 0 plays one of the two near it
     * rather than 3; the pairs are near in the standings. */
    struct store_game g[] = {
        game(0, 3, RESULT_WHITE_WINS, 30, 0, 2000), game(1, 2, RESULT_DRAW, 30, 0, 2000),
        game(3, 0, RESULT_BLACK_WINS, 30, 0, 3000), game(2, 1, RESULT_DRAW, 30, 0, 3000)};
    struct arena_line l[4];
    arena_standings(ent, 4, g, 4, 100000, l);
    CHECK_EQ_INT(l[0].entrant, 0);
    CHECK_EQ_INT(l[3].entrant, 3);
    struct arena_pair p[2];
    CHECK_EQ_INT(arena_pair_wave(ent, l, 4, 4000, 0, p), 2);
    for (int i = 0; i < 2; i++)
        CHECK_MSG(!((p[i].white == 0 && p[i].black == 3) || (p[i].white == 3 && p[i].black == 0)),
                  "the leader paired with the last");
}
