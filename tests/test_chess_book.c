/* Polyglot opening books: tiny books written by the tests into a temp dir (keys from
 * the Polyglot test vectors), bad files, move decoding with castling and promotion,
 * weighted picks; and Debian's gnuchess book when it is installed. */
#include <stdlib.h>
#include <unistd.h>

#include "book_file.h"
#include "engines/engine.h"
#include "games/chess/book.h"
#include "games/chess/chess.h"
#include "games/registry.h"
#include "harness.h"

#define START_KEY TEST_BOOK_START_KEY
#define SYSTEM_BOOK "/usr/share/games/gnuchess/book.bin"

static const struct game *chess(void)
{
    return game_find("chess");
}

static void *at(const char *fen)
{
    void *st = game_state_new(chess());
    char err[ERROR_TEXT_MAX];
    if (st && chess()->parse_position(st, fen, err, sizeof err) != 0) {
        free(st);
        return NULL;
    }
    return st;
}

static void text_of(const void *st, Move m, char *buf)
{
    if (m)
        chess()->move_text(st, m, buf, MOVE_TEXT_MAX);
    else
        strcpy(buf, "(none)");
}

/* A book of `n` entries written and opened, and a chess state at the start. */
struct book_case {
    char path[64];
    struct chess_book *b;
    void *st;
};

static int book_case_open(struct test_ctx *t__, struct book_case *c,
                          const struct test_book_entry *e, int n)
{
    char err[ERROR_TEXT_MAX];
    test_book_write(c->path, e, n, 0);
    c->b = NULL;
    CHECK_MSG(chess_book_open(c->path, &c->b, err, sizeof err) == 0, "%s", err);
    c->st = game_state_new(chess());
    if (c->st)
        chess()->start(c->st);
    return c->b && c->st ? 0 : -1;
}

static void book_case_close(struct book_case *c)
{
    free(c->st);
    chess_book_close(c->b);
    unlink(c->path);
}

/* The start position's book: e2e4 (3), d2d4 (1), an illegal e2e5 (5) left out, and
 * neighbours with smaller and larger keys that must not be read as its moves. */
static const struct test_book_entry tiny[] = {
    {0x0000000000000001ULL, 0x0123, 9},
    {START_KEY, 0x031c, 3}, /* e2e4 */
    {START_KEY, 0x02db, 1}, /* d2d4 */
    {START_KEY, 0x0324, 5}, /* e2e5 */
    {0x823c9b50fd114196ULL, 0x0d24, 2},
    {0xffffffffffffffffULL, 0x0123, 9},
};

TEST(chess_book_tiny_book_moves)
{
    CHECK_EQ_INT(tiny[1].move, test_book_move("e2", "e4", 0));
    CHECK_EQ_INT(tiny[2].move, test_book_move("d2", "d4", 0));
    CHECK_EQ_INT(tiny[3].move, test_book_move("e2", "e5", 0));
    char err[ERROR_TEXT_MAX], text[MOVE_TEXT_MAX];
    struct book_case c;
    if (book_case_open(TEST_CTX, &c, tiny, 6) == 0) {
        struct chess_book *b = c.b;
        void *st = c.st;
        CHECK_EQ_INT(chess_book_entries(b), 6);
        struct chess_book_move mv[8];
        int n = chess_book_moves(b, st, mv, 8, err, sizeof err);
        CHECK_EQ_INT(n, 2);
        text_of(st, n > 0 ? mv[0].move : 0, text);
        CHECK_STR(text, "e2e4");
        CHECK_EQ_INT(n > 0 ? mv[0].weight : 0, 3);
        text_of(st, n > 1 ? mv[1].move : 0, text);
        CHECK_STR(text, "d2d4");
        /* After 1. e4 (key 823c9b50fd114196): e7e5. */
        Move m;
        CHECK(chess()->parse_move(st, "e2e4", &m, err, sizeof err) == 0);
        chess()->make_move(st, m);
        n = chess_book_moves(b, st, mv, 8, err, sizeof err);
        CHECK_EQ_INT(n, 1);
        text_of(st, n > 0 ? mv[0].move : 0, text);
        CHECK_STR(text, "e7e5");
        /* A position the book does not know. */
        chess()->make_move(st, mv[0].move);
        CHECK_EQ_INT(chess_book_moves(b, st, mv, 8, err, sizeof err), 0);
        CHECK(chess_book_pick(b, st, NULL, &m, err, sizeof err) == 0);
    }
    book_case_close(&c);
}

TEST(chess_book_pick_follows_weights)
{
    char err[ERROR_TEXT_MAX], text[MOVE_TEXT_MAX];
    struct book_case c;
    if (book_case_open(TEST_CTX, &c, tiny, 6) == 0) {
        struct chess_book *b = c.b;
        void *st = c.st;
        struct rng r;
        rng_seed(&r, 42);
        int e4 = 0, d4 = 0, other = 0;
        for (int i = 0; i < 4000; i++) {
            Move m = 0;
            CHECK(chess_book_pick(b, st, &r, &m, err, sizeof err) == 1);
            text_of(st, m, text);
            e4 += !strcmp(text, "e2e4");
            d4 += !strcmp(text, "d2d4");
            other += strcmp(text, "e2e4") && strcmp(text, "d2d4");
        }
        /* Weights 3 and 1 (the illegal e2e5's 5 is not counted): 3000 and 1000,
         * give or take four standard deviations (about 110). */
        CHECK_MSG(e4 > 2890 && e4 < 3110, "e2e4 picked %d times of 4000", e4);
        CHECK_EQ_INT(e4 + d4, 4000);
        CHECK_EQ_INT(other, 0);
        /* The same seed picks the same moves. */
        struct rng r1, r2;
        rng_seed(&r1, 7);
        rng_seed(&r2, 7);
        for (int i = 0; i < 20; i++) {
            Move m1 = 0, m2 = 0;
            chess_book_pick(b, st, &r1, &m1, err, sizeof err);
            chess_book_pick(b, st, &r2, &m2, err, sizeof err);
            CHECK(m1 == m2);
        }
    }
    book_case_close(&c);
}

TEST(chess_book_zero_weights_give_no_move)
{
    static const struct test_book_entry zero[] = {{START_KEY, 0x031c, 0}, {START_KEY, 0x02db, 0}};
    char err[ERROR_TEXT_MAX];
    struct book_case c;
    if (book_case_open(TEST_CTX, &c, zero, 2) == 0) {
        struct chess_book *b = c.b;
        void *st = c.st;
        struct rng r;
        rng_seed(&r, 1);
        Move m = 0;
        CHECK_EQ_INT(chess_book_pick(b, st, &r, &m, err, sizeof err), 0);
        struct chess_book_move mv[4];
        CHECK_EQ_INT(chess_book_moves(b, st, mv, 4, err, sizeof err), 2);
    }
    book_case_close(&c);
}

/* Open `path`, expecting failure with `want` in the message. */
static void expect_bad(struct test_ctx *t__, const char *path, const char *want)
{
    char err[ERROR_TEXT_MAX] = "";
    struct chess_book *b = (struct chess_book *)1;
    CHECK_MSG(chess_book_open(path, &b, err, sizeof err) == -1, "%s opened", path);
    CHECK(b == NULL);
    CHECK_MSG(strstr(err, want) != NULL && strstr(err, path) != NULL, "%s: '%s'", want, err);
}

TEST(chess_book_bad_files)
{
    char path[64];
    expect_bad(TEST_CTX, "/nonexistent/agora/book.bin", "No such file");
    expect_bad(TEST_CTX, "/tmp", "not a regular file");
    test_book_write(path, tiny, 0, 0);
    expect_bad(TEST_CTX, path, "empty");
    unlink(path);
    test_book_write(path, tiny, 3, 7); /* 55 bytes: the last entry cut */
    expect_bad(TEST_CTX, path, "55 bytes is not a whole number of 16-byte entries");
    unlink(path);
    static const struct test_book_entry unsorted[] = {{START_KEY, 0x031c, 3}, {0x1ULL, 0x02db, 1}};
    test_book_write(path, unsorted, 2, 0);
    expect_bad(TEST_CTX, path, "entry 1 is out of key order");
    unlink(path);
    static const struct test_book_entry bad_promo[] = {{START_KEY, 0x031c | 6u << 12, 3}};
    test_book_write(path, bad_promo, 1, 0);
    expect_bad(TEST_CTX, path, "entry 0 has promotion piece 6");
    unlink(path);
}

/* decode(raw) in `fen` names the move `want` ("(none)" for none), and encoding that
 * move gives `raw` back. */
static void decodes(struct test_ctx *t__, const char *fen, unsigned raw, const char *want)
{
    char text[MOVE_TEXT_MAX];
    void *st = at(fen);
    CHECK_MSG(st != NULL, "bad test FEN %s", fen);
    if (!st)
        return;
    Move m = chess_book_decode(st, raw);
    text_of(st, m, text);
    CHECK_MSG(!strcmp(text, want), "%s: raw %04x decoded %s, expected %s", fen, raw, text, want);
    if (m)
        CHECK_EQ_INT(chess_book_encode(st, m), raw);
    free(st);
}

TEST(chess_book_decodes_castling_and_promotion)
{
    const char *castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const char *castles_b = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    decodes(TEST_CTX, castles, test_book_move("e1", "h1", 0), "e1g1");
    decodes(TEST_CTX, castles, test_book_move("e1", "a1", 0), "e1c1");
    decodes(TEST_CTX, castles_b, test_book_move("e8", "h8", 0), "e8g8");
    decodes(TEST_CTX, castles_b, test_book_move("e8", "a8", 0), "e8c8");
    /* Without the right, king takes rook is no move. */
    decodes(TEST_CTX, "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", test_book_move("e1", "h1", 0),
            "(none)");
    /* A book that writes castling as the king's step is understood too. */
    void *st = at(castles);
    char text[MOVE_TEXT_MAX];
    if (st) {
        text_of(st, chess_book_decode(st, test_book_move("e1", "g1", 0)), text);
        CHECK_STR(text, "e1g1");
        free(st);
    }
    const char *promo = "1n6/P7/8/8/8/8/8/k6K w - - 0 1";
    decodes(TEST_CTX, promo, test_book_move("a7", "a8", 4), "a7a8q");
    decodes(TEST_CTX, promo, test_book_move("a7", "a8", 1), "a7a8n");
    decodes(TEST_CTX, promo, test_book_move("a7", "b8", 3), "a7b8r");
    decodes(TEST_CTX, promo, test_book_move("a7", "b8", 2), "a7b8b");
    /* A promotion without its piece, and a piece on a move that is no promotion. */
    decodes(TEST_CTX, promo, test_book_move("a7", "a8", 0), "(none)");
    decodes(TEST_CTX, promo, test_book_move("h1", "h2", 4), "(none)");
    decodes(TEST_CTX, promo, test_book_move("h1", "h2", 0), "h1h2");
    /* En passant. */
    decodes(TEST_CTX, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", test_book_move("e5", "d6", 0), "e5d6");
}

/* Debian's gnuchess-book: the start position has several book moves, all legal. */
TEST(chess_book_system_book)
{
    if (access(SYSTEM_BOOK, R_OK) != 0)
        SKIP(SYSTEM_BOOK " is absent (Debian package gnuchess-book)");
    char err[ERROR_TEXT_MAX];
    struct chess_book *b = NULL;
    CHECK_MSG(chess_book_open(SYSTEM_BOOK, &b, err, sizeof err) == 0, "%s", err);
    if (!b)
        return;
    /* The start position's entries counted straight from the file. */
    FILE *f = fopen(SYSTEM_BOOK, "rb");
    int raw_count = 0;
    unsigned char e[16];
    while (f && fread(e, 1, 16, f) == 16) {
        uint64_t key = 0;
        for (int i = 0; i < 8; i++)
            key = key << 8 | e[i];
        raw_count += key == START_KEY;
    }
    if (f)
        fclose(f);
    void *st = game_state_new(chess());
    if (st) {
        chess()->start(st);
        struct chess_book_move mv[64];
        int n = chess_book_moves(b, st, mv, 64, err, sizeof err);
        CHECK_MSG(n >= 3, "%d book moves at the start", n);
        CHECK_EQ_INT(n, raw_count); /* every entry decoded to a legal move */
        Move legal[256];
        int nl = chess()->gen_moves(st, legal);
        for (int i = 0; i < n; i++) {
            int found = 0;
            for (int k = 0; k < nl; k++)
                found |= legal[k] == mv[i].move;
            CHECK(found);
        }
        struct rng r;
        rng_seed(&r, 3);
        Move m = 0;
        CHECK_EQ_INT(chess_book_pick(b, st, &r, &m, err, sizeof err), 1);
        CHECK(m != 0);
    }
    free(st);
    chess_book_close(b);
}

/* The entries of a book file, read whole (for checking the reader against). */
struct raw_book {
    unsigned char *bytes;
    long entries;
};

static uint64_t raw_key(const struct raw_book *rb, long i)
{
    uint64_t k = 0;
    for (int j = 0; j < 8; j++)
        k = k << 8 | rb->bytes[i * 16 + j];
    return k;
}

/* Entries of `key`: a linear count from the first one, found by bisection. */
static long raw_count(const struct raw_book *rb, uint64_t key)
{
    long lo = 0, hi = rb->entries;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (raw_key(rb, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    long n = 0;
    while (lo + n < rb->entries && raw_key(rb, lo + n) == key)
        n++;
    return n;
}

/* Every position reached from `st` by book moves within `depth` plies: each entry of
 * the file for it decodes to a legal move.  Counts positions and castling moves. */
static void walk(struct test_ctx *t__, const struct chess_book *b, const struct raw_book *rb,
                 void *st, int depth, long *positions, long *castles)
{
    struct chess_book_move mv[256];
    char err[ERROR_TEXT_MAX];
    int n = chess_book_moves(b, st, mv, 256, err, sizeof err);
    long want = raw_count(rb, chess()->key(st));
    (*positions)++;
    CHECK_MSG(n == want, "key %016llx: %d of %ld entries legal",
              (unsigned long long)chess()->key(st), n, want);
    for (int i = 0; i < n && depth > 0; i++) {
        struct move_desc d;
        chess()->describe_move(st, mv[i].move, &d);
        *castles += (d.flags & CHESS_MOVE_CASTLE) != 0;
        chess()->make_move(st, mv[i].move);
        walk(t__, b, rb, st, depth - 1, positions, castles);
        chess()->unmake_move(st, mv[i].move);
    }
}

TEST_HEAVY(chess_book_system_book_lines_all_legal)
{
    if (access(SYSTEM_BOOK, R_OK) != 0)
        SKIP(SYSTEM_BOOK " is absent (Debian package gnuchess-book)");
    FILE *f = fopen(SYSTEM_BOOK, "rb");
    struct raw_book rb = {NULL, 0};
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        rewind(f);
        rb.bytes = malloc((size_t)size);
        if (rb.bytes && fread(rb.bytes, 1, (size_t)size, f) == (size_t)size)
            rb.entries = size / 16;
    }
    if (f)
        fclose(f);
    char err[ERROR_TEXT_MAX];
    struct chess_book *b = NULL;
    CHECK_MSG(chess_book_open(SYSTEM_BOOK, &b, err, sizeof err) == 0, "%s", err);
    void *st = game_state_new(chess());
    if (b && st && rb.entries) {
        chess()->start(st);
        long positions = 0, castles = 0;
        walk(TEST_CTX, b, &rb, st, 7, &positions, &castles);
        printf("  %ld book positions within 7 plies, %ld castling moves among their moves\n",
               positions, castles);
        CHECK(positions > 1000);
        CHECK(castles > 0);
    }
    free(st);
    free(rb.bytes);
    chess_book_close(b);
}

/* A book cut short after it was opened: probes fail with a message, no crash. */
TEST(chess_book_file_shrinks_after_open)
{
    char err[ERROR_TEXT_MAX] = "";
    struct book_case c;
    if (book_case_open(TEST_CTX, &c, tiny, 6) == 0) {
        CHECK(truncate(c.path, 16) == 0);
        struct chess_book_move mv[8];
        CHECK_EQ_INT(chess_book_moves(c.b, c.st, mv, 8, err, sizeof err), -1);
        CHECK_MSG(strstr(err, "cannot read the book") != NULL, "%s", err);
        Move m = 0;
        struct rng r;
        rng_seed(&r, 1);
        CHECK_EQ_INT(chess_book_pick(c.b, c.st, &r, &m, err, sizeof err), -1);
    }
    book_case_close(&c);
}

/* A level's move with this book at the start position after `dances` times two
 * knight trips out and back (4 plies each, back to the start position). */
static Move level_move(const char *book_path, int level, int dances, uint64_t seed, char *text)
{
    const struct game *g = chess();
    void *st = game_state_new(g);
    struct engine_book *b = NULL;
    char err[ERROR_TEXT_MAX];
    if (book_path && engine_book_open(engine_profile_of(g), book_path, &b, err, sizeof err) != 0)
        b = NULL;
    if (!st)
        return 0;
    g->start(st);
    static const char *const trip[4] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (int d = 0; d < dances; d++)
        for (int k = 0; k < 4; k++) {
            Move m;
            if (g->parse_move(st, trip[k], &m, err, sizeof err) == 0)
                g->make_move(st, m);
        }
    struct engine_limits lim = {.book = b, .nodes = 2000};
    Move m = engine_think(g, st, level, &lim, seed, NULL);
    text_of(st, m, text);
    free(st);
    engine_book_close(b);
    return m;
}

/* Chess levels open from the book for their first plies (level_plan.book_plies),
 * picking by weight, and search once past them or out of the book. */
TEST(chess_book_levels_open_from_it)
{
    /* The start position: a2a3 (an opening no search of ours plays) three times as
     * often as h2h3. */
    const struct test_book_entry odd[] = {{START_KEY, test_book_move("a2", "a3", 0), 3},
                                          {START_KEY, test_book_move("h2", "h3", 0), 1}};
    struct book_case c;
    if (book_case_open(TEST_CTX, &c, odd, 2) != 0) {
        book_case_close(&c);
        return;
    }
    char text[MOVE_TEXT_MAX];
    int a3 = 0, h3 = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        level_move(c.path, 1 + (int)(seed % 8), 0, seed, text);
        a3 += !strcmp(text, "a2a3");
        h3 += !strcmp(text, "h2h3");
    }
    CHECK_MSG(a3 + h3 == 40 && a3 > h3 && h3 > 0, "a3 %d h3 %d of 40", a3, h3);
    /* Ply 12: inside level 8's 16 book plies and level 7's 14, at the end of level
     * 6's 12. */
    level_move(c.path, 8, 3, 7, text);
    CHECK_STR(text, "a2a3");
    level_move(c.path, 7, 3, 7, text);
    CHECK_STR(text, "a2a3");
    level_move(c.path, 6, 3, 7, text);
    CHECK(strcmp(text, "a2a3") && strcmp(text, "h2h3"));
    /* Ply 16: past level 8's too; and full strength (level 0) never uses it. */
    level_move(c.path, 8, 4, 7, text);
    CHECK(strcmp(text, "a2a3") && strcmp(text, "h2h3"));
    level_move(c.path, 0, 0, 7, text);
    CHECK(strcmp(text, "a2a3") && strcmp(text, "h2h3"));
    /* No book: the search. */
    level_move(NULL, 8, 0, 7, text);
    CHECK(strcmp(text, "a2a3") && strcmp(text, "h2h3"));
    /* The same seed, the same book move: a game can be replayed. */
    char again[MOVE_TEXT_MAX];
    level_move(c.path, 3, 0, 99, text);
    level_move(c.path, 3, 0, 99, again);
    CHECK_STR(text, again);
    book_case_close(&c);
}
