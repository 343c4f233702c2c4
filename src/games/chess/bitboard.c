/* Attack tables: knight, king and pawn attacks, the squares between and through two
 * squares, and magic bitboards for the sliders.
 *
 * Magic bitboards: a slider's attacks from a square depend only on the pieces on its
 * "relevant" squares (its rays minus the board edge).  Multiplying those occupied
 * squares by a well-chosen 64-bit number gathers them into the top bits, which index a
 * table of precomputed attacks.  The numbers below were found by this file's own
 * seeded random search (init_magic) and are checked as the tables are filled; a square
 * whose stored number failed would simply be searched again at start-up. */
#include <stdlib.h>

#include "state.h"

Bitboard chess_knight_att[64], chess_king_att[64], chess_pawn_att[2][64];
Bitboard chess_between[64][64], chess_line[64][64];
struct chess_magic chess_rook_magic[64], chess_bishop_magic[64];

/* Sizes: the sums over squares of 2^(relevant squares). */
static Bitboard rook_table[102400];
static Bitboard bishop_table[5248];

/* Found by init_magic's search from the seed in init_sliders. */
static const Bitboard rook_magics[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
static const Bitboard bishop_magics[64] = {
    0xa010041108003100ULL, 0x006082020a002900ULL, 0x6810010619200000ULL, 0x08281a0520000408ULL,
    0x0001104001000400ULL, 0x0018901008048400ULL, 0x00040a0210245280ULL, 0x000200210808a402ULL,
    0x9140048410821200ULL, 0x0800091010820041ULL, 0x20504804832202c0ULL, 0x0100091401081000ULL,
    0x8021011140000012ULL, 0x0810020804450400ULL, 0x208b0542109008a2ULL, 0x0080084a08040204ULL,
    0x0040e2a80811244cULL, 0x2505022008008108ULL, 0x0430220100420040ULL, 0x010a040420220040ULL,
    0x1105000290400000ULL, 0x0093001200822120ULL, 0x4000a62048043004ULL, 0x280120048a015004ULL,
    0x006090002a020814ULL, 0x44042000240800d0ULL, 0x01102800040a4400ULL, 0x1004080080220040ULL,
    0x0001001011004024ULL, 0x0010044000805040ULL, 0x0914041200820100ULL, 0x0004821012821480ULL,
    0x0024040500c05021ULL, 0x0088611002080200ULL, 0x0116080a00040020ULL, 0x4000020080080080ULL,
    0x2450450140840040ULL, 0x0000880201484100ULL, 0x0222020404020092ULL, 0x8081110600002e00ULL,
    0x2842101105000801ULL, 0x1100809008001025ULL, 0x00020202221c0400ULL, 0x0422014022009020ULL,
    0x0210046102100c00ULL, 0xc004008082029102ULL, 0x00aa461801101200ULL, 0x0404080080201108ULL,
    0x020542108c205002ULL, 0x0410544804100100ULL, 0x0040910841100000ULL, 0x0400200042021100ULL,
    0x00004204850400c0ULL, 0x0200100410a42102ULL, 0x1040020801210102ULL, 0x0805040410420000ULL,
    0x2884804130100200ULL, 0x800c262201242000ULL, 0x1058000194108800ULL, 0x0014221054420204ULL,
    0x0104000012a02200ULL, 0x0200881003300100ULL, 0x0140400202840100ULL, 0x0402020801010201ULL,
};

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static int on_board(int f, int r)
{
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

/* Attacks along four directions, stopping at (and including) the first occupied square. */
static Bitboard ray_attacks(int sq, Bitboard occ, const int dirs[4][2])
{
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = SQ_FILE(sq) + dirs[d][0], r = SQ_RANK(sq) + dirs[d][1];
        while (on_board(f, r)) {
            att |= BIT(SQ(f, r));
            if (occ & BIT(SQ(f, r)))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

/* The squares whose occupancy matters: each ray without its last square. */
static Bitboard relevant_mask(int sq, const int dirs[4][2])
{
    Bitboard mask = 0;
    for (int d = 0; d < 4; d++) {
        int f = SQ_FILE(sq) + dirs[d][0], r = SQ_RANK(sq) + dirs[d][1];
        while (on_board(f + dirs[d][0], r + dirs[d][1])) {
            mask |= BIT(SQ(f, r));
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return mask;
}

static uint64_t magic_rng_state;
static uint64_t magic_rng(void)
{
    /* xorshift64*, private to the search so the result never depends on other code */
    magic_rng_state ^= magic_rng_state >> 12;
    magic_rng_state ^= magic_rng_state << 25;
    magic_rng_state ^= magic_rng_state >> 27;
    return magic_rng_state * 2685821657736338717ULL;
}

/* Find a magic for one square and fill its slice of the table; returns the slice size. */
static size_t init_magic(struct chess_magic *m, int sq, const int dirs[4][2], Bitboard known,
                         Bitboard *table, Bitboard *occs, Bitboard *atts, int *epoch)
{
    m->mask = relevant_mask(sq, dirs);
    int bits = chess_popcount(m->mask);
    m->shift = (unsigned)(64 - bits);
    m->attacks = table;
    size_t size = 0;
    Bitboard sub = 0;
    do { /* every subset of the mask (the carry-rippler walk) */
        occs[size] = sub;
        atts[size] = ray_attacks(sq, sub, dirs);
        size++;
        sub = (sub - m->mask) & m->mask;
    } while (sub);

    static int stamp = 0;
    for (int attempt = 0;; attempt++) {
        Bitboard magic = attempt == 0 ? known : magic_rng() & magic_rng() & magic_rng();
        if (attempt && chess_popcount((m->mask * magic) >> 56) < 6)
            continue;
        stamp++;
        size_t i;
        for (i = 0; i < size; i++) {
            size_t idx = (size_t)((occs[i] * magic) >> m->shift);
            if (epoch[idx] < stamp) {
                epoch[idx] = stamp;
                table[idx] = atts[i];
            } else if (table[idx] != atts[i]) {
                break;
            }
        }
        if (i == size) {
            m->magic = magic;
            return size;
        }
    }
}

static void init_sliders(void)
{
    Bitboard *occs = malloc(sizeof(Bitboard) * 4096);
    Bitboard *atts = malloc(sizeof(Bitboard) * 4096);
    int *epoch = calloc(4096, sizeof(int));
    if (!occs || !atts || !epoch)
        abort();
    magic_rng_state = 0x9E3779B97F4A7C15ULL;
    size_t used = 0;
    for (int sq = 0; sq < 64; sq++)
        used += init_magic(&chess_rook_magic[sq], sq, rook_dirs, rook_magics[sq], rook_table + used,
                           occs, atts, epoch);
    used = 0;
    for (int sq = 0; sq < 64; sq++)
        used += init_magic(&chess_bishop_magic[sq], sq, bishop_dirs, bishop_magics[sq],
                           bishop_table + used, occs, atts, epoch);
    free(epoch);
    free(atts);
    free(occs);
}

static Bitboard step_set(int sq, const int (*steps)[2], int n)
{
    Bitboard b = 0;
    for (int i = 0; i < n; i++) {
        int f = SQ_FILE(sq) + steps[i][0], r = SQ_RANK(sq) + steps[i][1];
        if (on_board(f, r))
            b |= BIT(SQ(f, r));
    }
    return b;
}

void chess_init_tables(void)
{
    static const int knight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                   {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int sq = 0; sq < 64; sq++) {
        chess_knight_att[sq] = step_set(sq, knight, 8);
        chess_king_att[sq] = step_set(sq, king, 8);
        chess_pawn_att[SIDE_WHITE][sq] = step_set(sq, white_pawn, 2);
        chess_pawn_att[SIDE_BLACK][sq] = step_set(sq, black_pawn, 2);
    }
    init_sliders();
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            chess_between[a][b] = chess_line[a][b] = 0;
            if (a == b)
                continue;
            const int(*dirs)[2] = NULL;
            if (chess_rook_att(a, 0) & BIT(b))
                dirs = rook_dirs;
            else if (chess_bishop_att(a, 0) & BIT(b))
                dirs = bishop_dirs;
            if (!dirs)
                continue;
            Bitboard from_a =
                dirs == rook_dirs ? chess_rook_att(a, BIT(b)) : chess_bishop_att(a, BIT(b));
            Bitboard from_b =
                dirs == rook_dirs ? chess_rook_att(b, BIT(a)) : chess_bishop_att(b, BIT(a));
            chess_between[a][b] = from_a & from_b;
            Bitboard full_a = dirs == rook_dirs ? chess_rook_att(a, 0) : chess_bishop_att(a, 0);
            Bitboard full_b = dirs == rook_dirs ? chess_rook_att(b, 0) : chess_bishop_att(b, 0);
            chess_line[a][b] = (full_a & full_b) | BIT(a) | BIT(b);
        }
    }
}
