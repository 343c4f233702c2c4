/* The chess evaluation: colour symmetry and bounds over many random positions, purity,
 * the trace the tuner relies on, and hand-built orderings (material, passed pawns,
 * king shelter, drawish endgames, the bishop pair). */
#include <ctype.h>
#include <stdlib.h>

#include "core/rng.h"
#include "games/chess/eval.h"
#include "games/chess/eval_params.h"
#include "harness.h"

/* No evaluation comes near this (nine queens are about 9000). */
#define SANE_BOUND 15000

static int pos_at(struct test_ctx *t__, const char *fen, struct chess_pos *p)
{
    char err[ERROR_TEXT_MAX];
    if (chess_parse_fen(p, fen, err, sizeof err)) {
        CHECK_MSG(0, "FEN '%s' rejected: %s", fen, err);
        return -1;
    }
    return 0;
}

static int eval_fen(struct test_ctx *t__, const char *fen)
{
    struct chess_pos p;
    return pos_at(t__, fen, &p) ? 0 : chess_eval(&p);
}

/* The same position with the colours exchanged: ranks mirrored, pieces recoloured,
 * the other side to move, castling rights and the en-passant square mirrored too. */
static void flip_fen(const char *fen, char *out, size_t size)
{
    char board[100], side[4], castle[8], ep[4];
    int half = 0, full = 1;
    if (sscanf(fen, "%99s %3s %7s %3s %d %d", board, side, castle, ep, &half, &full) < 4) {
        snprintf(out, size, "?");
        return;
    }
    char ranks[8][16];
    int n = 0;
    for (char *tok = strtok(board, "/"); tok && n < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[n++], sizeof ranks[0], "%s", tok);
    char flipped[100] = "";
    for (int i = n - 1; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c)
                                                   : toupper((unsigned char)*c));
        strcat(flipped, ranks[i]);
        if (i > 0)
            strcat(flipped, "/");
    }
    char rights[8] = "";
    if (strchr(castle, 'k'))
        strcat(rights, "K");
    if (strchr(castle, 'q'))
        strcat(rights, "Q");
    if (strchr(castle, 'K'))
        strcat(rights, "k");
    if (strchr(castle, 'Q'))
        strcat(rights, "q");
    if (!rights[0])
        strcpy(rights, "-");
    if (ep[0] != '-')
        ep[1] = ep[1] == '3' ? '6' : '3';
    snprintf(out, size, "%s %s %s %s %d %d", flipped, side[0] == 'w' ? "b" : "w", rights, ep, half,
             full);
}

/* Calls `check` on the positions of seeded random games (from the start and from a
 * few openings with the pieces traded more quickly by random play). */
static void random_positions(struct test_ctx *t__, int games,
                             void (*check)(struct test_ctx *, const struct chess_pos *))
{
    struct rng r;
    rng_seed(&r, 8);
    Move moves[CHESS_MAX_MOVES];
    for (int g = 0; g < games; g++) {
        struct chess_pos p;
        if (pos_at(t__, CHESS_START_FEN, &p))
            return;
        for (int ply = 0; ply < 300; ply++) {
            check(t__, &p);
            int n = chess_gen_legal(&p, moves);
            if (n == 0)
                break;
            /* Prefer captures half the time so that endgames are reached too. */
            int pick = (int)rng_below(&r, (uint32_t)n);
            if (rng_below(&r, 2))
                for (int i = 0; i < n; i++)
                    if (p.board[MV_TO(moves[i])]) {
                        pick = i;
                        break;
                    }
            struct chess_undo u;
            chess_pos_make(&p, moves[pick], &u);
        }
    }
}

static void check_symmetric(struct test_ctx *t__, const struct chess_pos *p)
{
    char fen[POSITION_TEXT_MAX], flipped[POSITION_TEXT_MAX];
    chess_write_fen(p, fen, sizeof fen);
    flip_fen(fen, flipped, sizeof flipped);
    struct chess_pos q;
    if (pos_at(t__, flipped, &q))
        return;
    int a = chess_eval(p), b = chess_eval(&q);
    CHECK_MSG(a == b, "eval %d at %s but %d at its mirror %s", a, fen, b, flipped);
    CHECK_MSG(a > -SANE_BOUND && a < SANE_BOUND, "eval %d at %s", a, fen);
}

TEST(chess_eval_symmetric_and_bounded)
{
    random_positions(TEST_CTX, 60, check_symmetric);
}

static void check_pure(struct test_ctx *t__, const struct chess_pos *p)
{
    struct chess_pos copy = *p;
    int a = chess_eval(p);
    CHECK(memcmp(&copy, p, sizeof copy) == 0);
    CHECK_EQ_INT(chess_eval(p), a);
}

TEST(chess_eval_pure)
{
    random_positions(TEST_CTX, 5, check_pure);
}

/* The search's pawn table changes nothing but the speed: over 40 games' positions (more
 * than the table holds, so entries are replaced), a score read through it, on its
 * first meeting and again, is chess_eval's. */
static struct chess_pawn_table *pawn_table;

static void check_cached(struct test_ctx *t__, const struct chess_pos *p)
{
    int v = chess_eval(p);
    CHECK_EQ_INT(chess_eval_cached(p, pawn_table), v);
    CHECK_EQ_INT(chess_eval_cached(p, pawn_table), v);
}

TEST(chess_eval_pawn_table_agrees)
{
    pawn_table = calloc(1, sizeof *pawn_table);
    CHECK(pawn_table != NULL);
    if (pawn_table)
        random_positions(TEST_CTX, 40, check_cached);
    free(pawn_table);
    pawn_table = NULL;
}

/* The tuner's model: the trace and the weights give back the evaluation (up to the
 * rounding of integer division). */
static void check_trace(struct test_ctx *t__, const struct chess_pos *p)
{
    struct chess_eval_trace tr;
    const struct chess_eval_weights *w = chess_eval_default_weights();
    int v = chess_eval_traced(p, w, &tr);
    CHECK_EQ_INT(v, chess_eval(p));
    double mg = 0, eg = 0;
    for (int i = 0; i < CHESS_EVAL_NPAIRS; i++) {
        mg += tr.coef[i] * w->w[i].mg;
        eg += tr.coef[i] * w->w[i].eg;
    }
    double model = (mg * tr.phase + eg * tr.scale / 64.0 * (24 - tr.phase)) / 24.0;
    if (p->side == SIDE_BLACK)
        model = -model;
    CHECK_MSG(model - v < 2.0 && v - model < 2.0, "trace gives %.1f, eval %d", model, v);
    CHECK(tr.phase >= 0 && tr.phase <= 24 && tr.scale >= 0 && tr.scale <= 64);
}

TEST(chess_eval_trace_matches)
{
    random_positions(TEST_CTX, 10, check_trace);
}

TEST(chess_eval_term_names)
{
    int within = -1;
    CHECK_STR(chess_eval_term_name(0, &within), "MATERIAL");
    CHECK_EQ_INT(within, 0);
    CHECK_STR(chess_eval_term_name(EW_PSQT + 37, &within), "PSQT");
    CHECK_EQ_INT(within, 37);
    CHECK_STR(chess_eval_term_name(CHESS_EVAL_NPAIRS - 1, &within), "TEMPO");
}

TEST(chess_eval_material)
{
    int start = eval_fen(TEST_CTX, CHESS_START_FEN);
    CHECK_MSG(start > 0 && start < 40, "start %d: the side to move's small edge", start);
    /* Black is a pawn short (the a7 pawn). */
    const char *pawn_up = "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    int up = eval_fen(TEST_CTX, pawn_up);
    CHECK_MSG(up > 50, "a pawn up: %d", up);
    CHECK(eval_fen(TEST_CTX, "rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1") < -20);
    /* A knight up is more than a pawn up. */
    CHECK(eval_fen(TEST_CTX, "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") > up);
}

TEST(chess_eval_passed_pawns)
{
    /* With rooks on, and in the bare king endgame, a passer on the 6th beats the 3rd. */
    CHECK(eval_fen(TEST_CTX, "r5k1/8/3P4/8/8/8/8/R5K1 w - - 0 1") >
          eval_fen(TEST_CTX, "r5k1/8/8/8/8/3P4/8/R5K1 w - - 0 1") + 30);
    CHECK(eval_fen(TEST_CTX, "7k/8/3P4/8/8/8/8/K7 w - - 0 1") >
          eval_fen(TEST_CTX, "7k/8/8/8/8/3P4/8/K7 w - - 0 1") + 50);
    /* A passer is worth more than the same pawn blocked by an enemy pawn in front. */
    CHECK(eval_fen(TEST_CTX, "6k1/p7/8/3P4/8/8/8/6K1 w - - 0 1") >
          eval_fen(TEST_CTX, "6k1/3p4/8/3P4/8/8/8/6K1 w - - 0 1"));
    /* In the endgame the defending king in front of the passer holds it back. */
    CHECK(eval_fen(TEST_CTX, "8/8/3P4/8/8/8/k7/6K1 w - - 0 1") >
          eval_fen(TEST_CTX, "3k4/8/3P4/8/8/8/8/6K1 w - - 0 1"));
}

TEST(chess_eval_king_shelter)
{
    /* The same material: White's king behind f2 g2 h2, or with those pawns on a2 b2 c2. */
    int sheltered = eval_fen(TEST_CTX, "2rq1rk1/5ppp/8/8/8/8/5PPP/2RQ1RK1 w - - 0 1");
    int bare = eval_fen(TEST_CTX, "2rq1rk1/5ppp/8/8/8/8/PPP5/2RQ1RK1 w - - 0 1");
    CHECK_MSG(sheltered > bare + 20, "sheltered %d, bare %d", sheltered, bare);
    /* Enemy pieces aimed at the king count against it. */
    int quiet = eval_fen(TEST_CTX, "r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R1B1QRK1 w - - 0 1");
    int attacked = eval_fen(TEST_CTX, "r4rk1/ppp2ppp/8/6B1/7Q/8/PPP2PPP/R4RK1 w - - 0 1");
    CHECK_MSG(attacked > quiet, "attacking %d, quiet %d", attacked, quiet);
}

TEST(chess_eval_drawish_endgames)
{
    /* A lone knight or bishop cannot win: close to zero, far below a rook. */
    int kn = eval_fen(TEST_CTX, "8/8/8/4k3/8/8/8/3NK3 w - - 0 1");
    int kb = eval_fen(TEST_CTX, "8/8/8/4k3/8/8/8/3BK3 w - - 0 1");
    int kr = eval_fen(TEST_CTX, "8/8/8/4k3/8/8/8/3RK3 w - - 0 1");
    CHECK_MSG(kn >= 0 && kn < 40 && kb >= 0 && kb < 40, "KN v K %d, KB v K %d", kn, kb);
    CHECK_MSG(kr > 300, "KR v K %d", kr);
    /* KR v KB is mostly drawn: far less than the exchange's material. */
    int krkb = eval_fen(TEST_CTX, "8/8/4k3/4b3/8/8/8/3RK3 w - - 0 1");
    CHECK_MSG(krkb > 0 && krkb < 100, "KR v KB %d", krkb);
    /* Opposite bishops: an extra pawn counts for less than with bishops of one colour. */
    int opposite = eval_fen(TEST_CTX, "8/5k2/4b3/8/8/2PPP3/3BK3/8 w - - 0 1");
    int same = eval_fen(TEST_CTX, "8/5k2/3b4/8/8/2PPP3/3BK3/8 w - - 0 1");
    CHECK_MSG(opposite > 0 && opposite < same, "opposite %d, same %d", opposite, same);
}

TEST(chess_eval_bishop_pair)
{
    const struct chess_eval_weights *w = chess_eval_default_weights();
    CHECK(w->w[EW_BISHOP_PAIR].mg > 0 && w->w[EW_BISHOP_PAIR].eg > 0);
    struct chess_pos p;
    struct chess_eval_trace tr;
    if (pos_at(TEST_CTX, "2b1kb2/pppppppp/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1", &p))
        return;
    chess_eval_traced(&p, w, &tr);
    CHECK_EQ_INT(tr.coef[EW_BISHOP_PAIR], 0); /* both have the pair */
    if (pos_at(TEST_CTX, "2n1kb2/pppppppp/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1", &p))
        return;
    chess_eval_traced(&p, w, &tr);
    CHECK_EQ_INT(tr.coef[EW_BISHOP_PAIR], 1); /* only White */
    /* Two bishops against bishop and knight: White is better. */
    CHECK(chess_eval(&p) > 20);
}

/* Symmetry on real opening positions (reads ../shared/data/openings-uho-small.epd, the
 * first 2000 lines; skipped when the folder is absent). */
TEST(chess_eval_symmetric_on_openings)
{
    const char *dir = test_data_dir();
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/openings-uho-small.epd", dir ? dir : ".");
    FILE *f = dir ? fopen(path, "r") : NULL;
    if (!f)
        SKIP("../shared/data/openings-uho-small.epd is absent");
    int n = 0;
    while (n < 2000 && fgets(line, sizeof line, f)) {
        char fen[POSITION_TEXT_MAX];
        char b[100], s[4], c[8], e[4];
        if (sscanf(line, "%99s %3s %7s %3s", b, s, c, e) != 4)
            continue;
        snprintf(fen, sizeof fen, "%s %s %s %s 0 1", b, s, c, e);
        struct chess_pos p;
        if (pos_at(TEST_CTX, fen, &p))
            break;
        check_symmetric(TEST_CTX, &p);
        n++;
    }
    fclose(f);
    CHECK(n == 2000);
}

/* The shelter is the king's own: with the e-pawn gone from e2 the king on e1 has one
 * shield file fewer, castling rights or not. */
TEST(chess_eval_shelter_where_the_king_stands)
{
    const struct chess_eval_weights *w = chess_eval_default_weights();
    struct chess_pos p;
    struct chess_eval_trace start, e4;
    if (pos_at(TEST_CTX, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", &p))
        return;
    chess_eval_traced(&p, w, &start);
    if (pos_at(TEST_CTX, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &p))
        return;
    chess_eval_traced(&p, w, &e4);
    CHECK_EQ_INT(e4.coef[EW_KING_SHIELD + 0], start.coef[EW_KING_SHIELD + 0] - 1);
    CHECK_EQ_INT(e4.coef[EW_KING_SHIELD + 2], start.coef[EW_KING_SHIELD + 2] + 1);
}
