/* Egara-guti puzzles: an elimination, an opponent left without a move, or a decisive
 * gain of two pieces; the themes come from the solution's moves and how it ends. */
#include "games/egara/egara.h"
#include "puzzle_rules.h"

static const char *const egara_themes[] = {
    "elimination-in-1", "elimination-in-2",
    "elimination-in-3", "elimination-in-4",
    "elimination-in-5", "chain-capture",
    "forced-exchange",  "blocking",
    "advantage",        NULL,
};

static int egara_puzzle_themes(void *st, const Move *line, int n, const char **out, int max)
{
    const struct game *g = &egara_game;
    int chain = 0, exchange = 0;
    unsigned flags[64] = {0};
    for (int i = 0; i < n && i < 64; i++) {
        struct move_desc d;
        g->describe_move(st, line[i], &d);
        flags[i] = d.flags;
        if (i % 2 == 0)
            chain |= (d.flags & EGARA_MOVE_CHAIN) != 0;
        g->make_move(st, line[i]);
    }
    for (int i = n; i > 0; i--)
        g->unmake_move(st, line[i - 1]);
    /* A quiet move that offers a piece, taken, and more taken back. */
    for (int i = 0; i + 2 < n && i + 2 < 64; i += 2)
        exchange |= !(flags[i] & MOVE_FLAG_CAPTURE) && (flags[i + 1] & MOVE_FLAG_CAPTURE) &&
                    (flags[i + 2] & MOVE_FLAG_CAPTURE);
    struct game_status gs;
    puzzle_line_end(g, st, line, n, &gs);
    int k = 0;
    if (gs.reason == EGARA_REASON_ELIMINATION)
        k = puzzle_theme_add(out, k, max, puzzle_theme_in(egara_themes, (n + 1) / 2));
    else if (gs.reason == REASON_BLOCKED)
        k = puzzle_theme_add(out, k, max, "blocking");
    else
        k = puzzle_theme_add(out, k, max, "advantage");
    if (chain)
        k = puzzle_theme_add(out, k, max, "chain-capture");
    if (exchange)
        k = puzzle_theme_add(out, k, max, "forced-exchange");
    return k;
}

static const char *const egara_easy[] = {"elimination-in-1", "elimination-in-2", NULL};

const struct puzzle_rules egara_puzzle_rules = {
    .win = 200,
    .not_win = 60,
    .max_steps = PUZZLE_STEPS_MAX,
    .position_fields = 2, /* the cells and the side to move, not the quiet count */
    .find_nodes = 8000,
    .prove_nodes = 40000,
    .theme_names = egara_themes,
    .easy_themes = egara_easy,
    .themes = egara_puzzle_themes,
};
