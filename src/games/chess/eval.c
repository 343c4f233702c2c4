/* The static evaluation of a chess position: material and piece-square tables tapered
 * from middlegame to endgame by the pieces left, mobility, pawn structure
 * (eval_pawns.c), king safety, rooks and outposts, threats, tempo, and endgame scaling
 * (eval_endgame.c).  Every weight comes from one table (eval_params.h) that
 * tools/texel.c tunes on games and writes back as eval_weights.h. */
#include "eval.h"

#include <string.h>

#include "eval_internal.h"
#include "eval_weights.h"

/* Attack maps and king-zone counts gathered while the pieces are scored. */
struct eval_info {
    Bitboard att[2][7]; /* [color][0] everything it attacks, [color][type] by that type */
    Bitboard mob_area[2];
    Bitboard zone[2]; /* the king's square and its neighbours */
    int attackers[2]; /* pieces of a colour attacking the enemy king zone */
};

static Bitboard piece_attacks(int type, int sq, Bitboard occ)
{
    switch (type) {
    case KNIGHT: return chess_knight_att[sq];
    case BISHOP: return chess_bishop_att(sq, occ);
    case ROOK: return chess_rook_att(sq, occ);
    default: return chess_bishop_att(sq, occ) | chess_rook_att(sq, occ);
    }
}

/* Material, piece-square tables, and the game phase. */
static int material(const struct chess_pos *p, struct eval_acc *a)
{
    for (int c = 0; c < 2; c++) {
        for (int type = PAWN; type <= KING; type++) {
            Bitboard b = chess_pieces(p, c, type);
            if (type != KING)
                eval_add(a, c, EW_MATERIAL + type - 1, chess_popcount(b));
            for (; b; b &= b - 1) {
                int sq = chess_lsb(b), file = SQ_FILE(sq) < 4 ? SQ_FILE(sq) : 7 - SQ_FILE(sq);
                eval_add(a, c, EW_PSQT + (type - 1) * 32 + eval_rel_rank(sq, c) * 4 + file, 1);
            }
        }
    }
    int phase = chess_popcount(p->by_type[KNIGHT] | p->by_type[BISHOP]) +
                2 * chess_popcount(p->by_type[ROOK]) + 4 * chess_popcount(p->by_type[QUEEN]);
    return phase < CHESS_EVAL_PHASE_MAX ? phase : CHESS_EVAL_PHASE_MAX;
}

static const int mobility_group[7] = {0, 0, EW_MOB_KNIGHT, EW_MOB_BISHOP, EW_MOB_ROOK, EW_MOB_QUEEN,
                                      0};

/* Knights, bishops, rooks and queens of `us`: mobility, attacks on the enemy king zone,
 * outposts, rooks on open files and the 7th. */
static void pieces(const struct chess_pos *p, int us, struct eval_info *in, struct eval_acc *a)
{
    int them = us ^ 1;
    Bitboard occ = p->by_type[0];
    Bitboard our_pawns = chess_pieces(p, us, PAWN), their_pawns = chess_pieces(p, them, PAWN);
    for (int type = KNIGHT; type <= QUEEN; type++) {
        for (Bitboard b = chess_pieces(p, us, type); b; b &= b - 1) {
            int sq = chess_lsb(b);
            Bitboard att = piece_attacks(type, sq, occ);
            in->att[us][type] |= att;
            eval_add(a, us, mobility_group[type] + chess_popcount(att & in->mob_area[us]), 1);
            if (att & in->zone[them]) {
                in->attackers[us]++;
                eval_add(a, us, EW_KING_ATTACK + type - KNIGHT,
                         chess_popcount(att & in->zone[them]));
            }
            int rank = eval_rel_rank(sq, us);
            if ((type == KNIGHT || type == BISHOP) && rank >= 3 && rank <= 5 &&
                (eval_pawn_attacks(our_pawns, us) & BIT(sq)) &&
                !(eval_front_span(sq, us) & ~eval_front(sq, us) & their_pawns))
                eval_add(a, us, EW_OUTPOST + type - KNIGHT, 1);
            if (type == ROOK) {
                Bitboard file = eval_file_mask(SQ_FILE(sq));
                if (!(file & our_pawns))
                    eval_add(a, us, (file & their_pawns) ? EW_ROOK_SEMI_OPEN : EW_ROOK_OPEN, 1);
                Bitboard their_7th = us == SIDE_WHITE ? 0x00FF000000000000ULL : 0xFF00ULL;
                if (rank == 6 &&
                    ((their_pawns & their_7th) || eval_rel_rank(chess_king_sq(p, them), us) == 7))
                    eval_add(a, us, EW_ROOK_SEVENTH, 1);
            }
        }
        in->att[us][0] |= in->att[us][type];
    }
    if (chess_popcount(chess_pieces(p, us, BISHOP)) >= 2)
        eval_add(a, us, EW_BISHOP_PAIR, 1);
}

/* The shelter a king of `us` on `ksq` would have: per file at the king (its own and the
 * two beside, moved inside the board), how far ahead the nearest own pawn stands, and
 * whether the file is open or has only enemy pawns.  counts[]: KING_SHIELD 0..2,
 * KING_OPEN_FILE, KING_SEMI_OPEN. */
static void shelter(const struct chess_pos *p, int us, int ksq, int counts[5])
{
    Bitboard ours = chess_pieces(p, us, PAWN), theirs = chess_pieces(p, us ^ 1, PAWN);
    int centre = SQ_FILE(ksq) < 1 ? 1 : SQ_FILE(ksq) > 6 ? 6 : SQ_FILE(ksq);
    memset(counts, 0, 5 * sizeof *counts);
    for (int f = centre - 1; f <= centre + 1; f++) {
        Bitboard file = eval_file_mask(f);
        Bitboard shield = eval_front(SQ(f, SQ_RANK(ksq)), us) & ours;
        int ahead = 0;
        if (shield) {
            int nearest = us == SIDE_WHITE ? chess_lsb(shield) : 63 - __builtin_clzll(shield);
            ahead = eval_rel_rank(nearest, us) - eval_rel_rank(ksq, us);
        }
        counts[ahead == 1 ? 0 : ahead == 2 ? 1 : 2]++;
        if (!(file & ours))
            counts[(file & theirs) ? 4 : 3]++;
    }
}

/* The king of `us`: its shelter where it stands (terms of `us`; counting the castling
 * squares' shelter while the king may still castle measured 44.5% in 100 games), the
 * enemy pieces aiming at it and their safe checks (terms of the attacker). */
static void king_safety(const struct chess_pos *p, int us, const struct eval_info *in,
                        struct eval_acc *a)
{
    static const int groups[5] = {EW_KING_SHIELD, EW_KING_SHIELD + 1, EW_KING_SHIELD + 2,
                                  EW_KING_OPEN_FILE, EW_KING_SEMI_OPEN};
    int them = us ^ 1, ksq = chess_king_sq(p, us), counts[5];
    shelter(p, us, ksq, counts);
    for (int i = 0; i < 5; i++)
        eval_add(a, us, groups[i], counts[i]);
    int n = in->attackers[them];
    eval_add(a, them, EW_KING_ATTACKERS + (n < 7 ? n : 7), 1);
    Bitboard occ = p->by_type[0];
    Bitboard safe = ~in->att[us][0] & ~p->by_color[them];
    Bitboard diag = chess_bishop_att(ksq, occ), straight = chess_rook_att(ksq, occ);
    eval_add(a, them, EW_SAFE_CHECK + 0,
             chess_popcount(chess_knight_att[ksq] & in->att[them][KNIGHT] & safe));
    eval_add(a, them, EW_SAFE_CHECK + 1, chess_popcount(diag & in->att[them][BISHOP] & safe));
    eval_add(a, them, EW_SAFE_CHECK + 2, chess_popcount(straight & in->att[them][ROOK] & safe));
    eval_add(a, them, EW_SAFE_CHECK + 3,
             chess_popcount((diag | straight) & in->att[them][QUEEN] & safe));
}

/* Enemy pieces that `us` attacks: by pawns, by minors, by rooks, and undefended ones. */
static void threats(const struct chess_pos *p, int us, const struct eval_info *in,
                    struct eval_acc *a)
{
    int them = us ^ 1;
    Bitboard targets = p->by_color[them] & ~p->by_type[KING];
    Bitboard minors = in->att[us][KNIGHT] | in->att[us][BISHOP];
    for (int type = PAWN; type <= QUEEN; type++) {
        Bitboard mine = targets & p->by_type[type];
        if (!mine)
            continue;
        if (type != PAWN)
            eval_add(a, us, EW_THREAT_BY_PAWN + type - KNIGHT,
                     chess_popcount(mine & in->att[us][PAWN]));
        eval_add(a, us, EW_THREAT_BY_MINOR + type - PAWN, chess_popcount(mine & minors));
        eval_add(a, us, EW_THREAT_BY_ROOK + type - PAWN, chess_popcount(mine & in->att[us][ROOK]));
    }
    eval_add(a, us, EW_HANGING, chess_popcount(targets & in->att[us][0] & ~in->att[them][0]));
}

static int evaluate(const struct chess_pos *p, const struct chess_eval_weights *w,
                    struct chess_eval_trace *trace, struct chess_pawn_table *pawn_table)
{
    struct eval_acc a = {{0, 0}, {0, 0}, w->w, trace};
    struct eval_info in;
    memset(&in, 0, sizeof in);
    if (trace)
        memset(trace, 0, sizeof *trace);
    int phase = material(p, &a);
    eval_pawns(p, &a, w == &chess_eval_weights_default ? pawn_table : NULL);
    for (int c = 0; c < 2; c++) {
        Bitboard pawns = chess_pieces(p, c, PAWN);
        int ksq = chess_king_sq(p, c);
        in.att[c][PAWN] = eval_pawn_attacks(pawns, c);
        in.att[c][KING] = chess_king_att[ksq];
        in.att[c][0] = in.att[c][PAWN] | in.att[c][KING];
        in.zone[c] = chess_king_att[ksq] | BIT(ksq);
    }
    for (int c = 0; c < 2; c++)
        in.mob_area[c] =
            ~(in.att[c ^ 1][PAWN] | (p->by_color[c] & (p->by_type[PAWN] | p->by_type[KING])));
    pieces(p, SIDE_WHITE, &in, &a);
    pieces(p, SIDE_BLACK, &in, &a);
    for (int c = 0; c < 2; c++) {
        king_safety(p, c, &in, &a);
        threats(p, c, &in, &a);
    }
    eval_add(&a, p->side, EW_TEMPO, 1);
    int mg = a.mg[SIDE_WHITE] - a.mg[SIDE_BLACK], eg = a.eg[SIDE_WHITE] - a.eg[SIDE_BLACK];
    int scale = eval_scale(p, eg > 0 ? SIDE_WHITE : SIDE_BLACK);
    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
    }
    int v = (mg * phase + eg * scale / CHESS_EVAL_SCALE_FULL * (CHESS_EVAL_PHASE_MAX - phase)) /
            CHESS_EVAL_PHASE_MAX;
    return p->side == SIDE_WHITE ? v : -v;
}

int chess_eval_traced(const struct chess_pos *p, const struct chess_eval_weights *w,
                      struct chess_eval_trace *trace)
{
    return evaluate(p, w, trace, NULL);
}

int chess_eval(const struct chess_pos *p)
{
    return evaluate(p, &chess_eval_weights_default, NULL, NULL);
}

int chess_eval_cached(const struct chess_pos *p, struct chess_pawn_table *pawns)
{
    return evaluate(p, &chess_eval_weights_default, NULL, pawns);
}

const struct chess_eval_weights *chess_eval_default_weights(void)
{
    return &chess_eval_weights_default;
}

const char *chess_eval_term_name(int i, int *within)
{
    static const struct {
        const char *name;
        int first;
    } groups[] = {
#define CHESS_EVAL_NAME(name, n) {#name, EW_##name},
        CHESS_EVAL_TERMS(CHESS_EVAL_NAME)
#undef CHESS_EVAL_NAME
    };
    int g = (int)(sizeof groups / sizeof groups[0]) - 1;
    while (g > 0 && groups[g].first > i)
        g--;
    *within = i - groups[g].first;
    return groups[g].name;
}
