/* Chess puzzles: what wins (a mate, or a gain of two and a half pawns or more) and the themes of
 * a solution, read from the board before and after each of the solver's moves. */
#include "engines/puzzle_rules.h"
#include "games/chess/chess.h"
#include "games/chess/chess_position.h"

static const int value[7] = {0, 1, 3, 3, 5, 9, 100};

static int material(const struct chess_pos *p, int color)
{
    int sum = 0;
    for (int t = PAWN; t <= QUEEN; t++)
        sum += value[t] * chess_popcount(chess_pieces(p, color, t));
    return sum;
}

/* What the piece on `sq` attacks on board p. */
static Bitboard attacks_from(const struct chess_pos *p, int sq)
{
    int pc = p->board[sq], t = PIECE_TYPE(pc);
    Bitboard occ = p->by_type[0];
    switch (t) {
    case PAWN: return chess_pawn_att[PIECE_COLOR(pc)][sq];
    case KNIGHT: return chess_knight_att[sq];
    case BISHOP: return chess_bishop_att(sq, occ);
    case ROOK: return chess_rook_att(sq, occ);
    case QUEEN: return chess_bishop_att(sq, occ) | chess_rook_att(sq, occ);
    case KING: return chess_king_att[sq];
    default: return 0;
    }
}

static int is_slider(int t)
{
    return t == BISHOP || t == ROOK || t == QUEEN;
}

/* The moved piece attacks two pieces each worth more than itself (or the king). */
static int is_fork(const struct chess_pos *p, int to)
{
    int mover = PIECE_TYPE(p->board[to]);
    if (mover == KING)
        return 0;
    Bitboard hit = attacks_from(p, to) & p->by_color[p->side];
    int count = 0;
    for (; hit; hit &= hit - 1) {
        int t = PIECE_TYPE(p->board[chess_lsb(hit)]);
        count += t == KING || value[t] > value[mover];
    }
    return count >= 2;
}

/* The moved slider attacks a piece with another behind it on the same line: a pin
 * when the one behind is worth more (or is the king), a skewer when the one in front
 * is worth more (or is the king) and the one behind is no pawn. */
static void pins_and_skewers(const struct chess_pos *p, int to, int *pin, int *skewer)
{
    int mover = PIECE_TYPE(p->board[to]);
    if (!is_slider(mover))
        return;
    Bitboard them = p->by_color[p->side];
    for (Bitboard front = attacks_from(p, to) & them; front; front &= front - 1) {
        int x = chess_lsb(front);
        Bitboard occ = p->by_type[0] ^ BIT(x);
        Bitboard ray = (mover != ROOK ? chess_bishop_att(to, occ) : 0) |
                       (mover != BISHOP ? chess_rook_att(to, occ) : 0);
        for (Bitboard back = ray & them; back; back &= back - 1) {
            int y = chess_lsb(back);
            if (!(chess_between[to][y] & BIT(x)))
                continue;
            int tx = PIECE_TYPE(p->board[x]), ty = PIECE_TYPE(p->board[y]);
            if (tx != KING && (ty == KING || value[ty] > value[tx]))
                *pin = 1;
            if (ty != PAWN && ty != KING && (tx == KING || value[tx] > value[ty]))
                *skewer = 1;
        }
    }
}

/* Moving away from `from` lets another of the mover's sliders attack the king or a
 * piece of three pawns or more that it did not attack before. */
static int is_discovered(const struct chess_pos *before, const struct chess_pos *after, int from,
                         int to)
{
    int us = before->side;
    Bitboard them = after->by_color[!us];
    for (Bitboard s = after->by_color[us]; s; s &= s - 1) {
        int sq = chess_lsb(s);
        if (sq == to || !is_slider(PIECE_TYPE(after->board[sq])))
            continue;
        Bitboard now = attacks_from(after, sq) & them;
        for (; now; now &= now - 1) {
            int t = chess_lsb(now);
            int tt = PIECE_TYPE(after->board[t]);
            if ((chess_between[sq][t] & BIT(from)) && (tt == KING || value[tt] >= 3))
                return 1;
        }
    }
    return 0;
}

static int few_pieces(const struct chess_pos *p)
{
    Bitboard officers =
        p->by_type[KNIGHT] | p->by_type[BISHOP] | p->by_type[ROOK] | p->by_type[QUEEN];
    return chess_popcount(officers) <= 6;
}

static const char *const chess_themes[] = {
    "mate-in-1", "mate-in-2",         "mate-in-3", "mate-in-4", "mate-in-5", "fork",      "pin",
    "skewer",    "discovered-attack", "promotion", "sacrifice", "endgame",   "advantage", NULL,
};

static int chess_puzzle_themes(void *st, const Move *line, int n, const char **out, int max)
{
    const struct game *g = &chess_game;
    const struct chess_pos *live = chess_state_pos(st);
    int solver = live->side;
    int balance0 = material(live, solver) - material(live, !solver), lowest = balance0;
    int fork = 0, pin = 0, skewer = 0, discovered = 0, promotion = 0;
    int endgame = few_pieces(live);
    for (int i = 0; i < n; i++) {
        struct chess_pos before = *live;
        g->make_move(st, line[i]);
        if (i % 2 == 1) {
            int b = material(live, solver) - material(live, !solver);
            lowest = b < lowest ? b : lowest;
            continue;
        }
        int from = MV_FROM(line[i]), to = MV_TO(line[i]);
        if (MV_KIND(line[i]) == MK_CASTLING)
            continue;
        promotion |= MV_KIND(line[i]) == MK_PROMOTION;
        fork |= is_fork(live, to);
        pins_and_skewers(live, to, &pin, &skewer);
        discovered |= is_discovered(&before, live, from, to);
    }
    struct game_status gs;
    g->status(st, &gs);
    int mate = gs.reason == CHESS_REASON_CHECKMATE;
    for (int i = n; i > 0; i--)
        g->unmake_move(st, line[i - 1]);
    int k = 0, moves = (n + 1) / 2;
    if (mate)
        k = puzzle_theme_add(out, k, max, puzzle_theme_in(chess_themes, moves));
    else
        k = puzzle_theme_add(out, k, max, "advantage");
    if (fork)
        k = puzzle_theme_add(out, k, max, "fork");
    if (pin)
        k = puzzle_theme_add(out, k, max, "pin");
    if (skewer)
        k = puzzle_theme_add(out, k, max, "skewer");
    if (discovered)
        k = puzzle_theme_add(out, k, max, "discovered-attack");
    if (promotion)
        k = puzzle_theme_add(out, k, max, "promotion");
    if (lowest <= balance0 - 2)
        k = puzzle_theme_add(out, k, max, "sacrifice");
    if (endgame)
        k = puzzle_theme_add(out, k, max, "endgame");
    return k;
}

static const char *const chess_easy[] = {"mate-in-1", "mate-in-2", NULL};

const struct puzzle_rules chess_puzzle_rules = {
    .win = 250,
    .not_win = 50,
    .max_steps = PUZZLE_STEPS_MAX,
    .position_fields = 4, /* placement, side, castling, en passant: not the counters */
    .find_nodes = 8000,
    .prove_nodes = 50000,
    .theme_names = chess_themes,
    .easy_themes = chess_easy,
    .themes = chess_puzzle_themes,
};
