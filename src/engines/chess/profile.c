/* Chess's engine profile: the dedicated chess search at every level (measured:
 * src/engines/NOTES.md, "The ladder at the end of session 2"), Polyglot opening books,
 * and the levels' UCI_Elo.  Level 4's depth 4 is a few hundred nodes and level 5's
 * 3000 nodes about depth 8, so each step stays large.  The levels play their first
 * 6 (level 1) to 16 (level 8) plies from a book when the caller opened one: real
 * openings at every level and a different game each time.  Each row: algorithm,
 * depth, nodes, time cap (ms), root noise (centipawns), blunders (per mille of
 * moves), book plies. */
#include "engines/profile.h"
#include "chess_search.h"
#include "games/chess/book.h"
#include "games/chess/chess.h"

#define OWN ENGINE_ALGO_OWN

/* UCI_Elo, on the scale of Stockfish 15.1's own UCI_Elo (the one GUIs use) at
 * 5+0.05, one thread each, 100 games per anchor, session 4 (src/engines/NOTES.md):
 * level 4 scored 24% against UCI_Elo 1350 (about 1150), level 6 52% against 1700
 * (about 1710), level 7 11.5% against 2100 and 37.5% against 1900 (about 1800),
 * level 2 0% against 1350 (over 500 below).  The levels between and below come from the
 * self-play gaps (5 v 4 +238 and 6 v 5 +200 share the measured 560; 4 v 3 +402, 3 v 2
 * +282, 2 v 1 +418).  Level 8 beat level 7 in all of 64 games, at least +530: its
 * rating is that lower bound. */
static const int chess_level_elo[ENGINE_LEVEL_MAX] = {50, 450, 750, 1150, 1450, 1700, 1800, 2350};

static int book_open(const char *path, void **book, char *err, size_t err_size)
{
    struct chess_book *b = NULL;
    if (chess_book_open(path, &b, err, err_size) != 0)
        return -1;
    *book = b;
    return 0;
}

static void book_close(void *book)
{
    chess_book_close(book);
}

static int book_pick(const void *book, const void *st, struct rng *r, Move *out, char *err,
                     size_t err_size)
{
    return chess_book_pick(book, st, r, out, err, err_size);
}

static int book_moves(const void *book, const void *st, Move *out, unsigned *weight, int max,
                      char *err, size_t err_size)
{
    struct chess_book_move found[256]; /* more than any position has legal moves */
    int n = chess_book_moves(book, st, found, 256, err, err_size);
    int k = 0;
    for (int i = 0; i < n && k < max; i++) {
        out[k] = found[i].move;
        weight[k++] = found[i].weight;
    }
    return n < 0 ? -1 : k;
}

static const struct engine_book_hook polyglot = {
    .default_path = CHESS_BOOK_DEFAULT_PATH,
    .open = book_open,
    .close = book_close,
    .pick = book_pick,
    .moves = book_moves,
    /* Debian's pgn-extract: ECO codes and opening names as records (eco.pgn). */
    .names_path = "/usr/share/pgn-extract/eco.pgn",
};

extern const struct puzzle_rules chess_puzzle_rules; /* puzzle_themes.c */

const struct engine_profile chess_profile = {
    .game = &chess_game,
    .algo = OWN,
    .bench_depth = 12,
    .levels =
        {
            {OWN, 1, 0, 1000, 300, 350, 6, 0},
            {OWN, 2, 0, 1000, 150, 250, 6, 0},
            {OWN, 3, 0, 1000, 60, 200, 8, 0},
            {OWN, 4, 0, 1000, 30, 100, 8, 0},
            {OWN, 0, 3000, 1000, 0, 80, 10, 0},
            {OWN, 0, 12000, 1000, 0, 55, 12, 0},
            {OWN, 0, 60000, 1000, 0, 35, 14, 0},
            {OWN, 0, 1000000, 2000, 0, 0, 16, 0},
        },
    .level_elo = chess_level_elo,
    .own_search = chess_search,
    .own_search_name = "chess",
    .book = &polyglot,
    .uci_native = 1,
    /* Chess matches start from the start position or an openings file: random
     * plies give lopsided games. */
    .random_plies = 0,
    /* The logistic the chess sites publish (Lichess: win% = 50 + 50 * (2 / (1 +
     * exp(-0.00368208 * cp)) - 1)). */
    .win_k = 0.00368208,
    /* An 80-ply review: 12 s of CPU here (2026-12, a shared 2-core machine: 17 s). */
    .review_nodes = 200000,
    /* Debian's Stockfish (scripts/setup installs it): several hundred Elo above agora's
     * own engine, so analyses and reviews are the field's best judgement. */
    .analysis_engine = "/usr/games/stockfish",
    .puzzles = &chess_puzzle_rules,
};
