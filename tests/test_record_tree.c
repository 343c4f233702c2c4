/* A record's whole tree (core/record.h, record_read_tree): variations (nested) and
 * comments of chess and the other games, moves played from the position before the
 * move a variation replaces, errors naming a bad move, the main line the games' own
 * readers read, and record_parse's callbacks. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/record.h"
#include "core/rng.h"
#include "games/registry.h"
#include "harness.h"

/* The display texts of the tree's nodes, each "display@ply<parent{comment}", joined
 * by spaces: the shape of the whole tree at a glance. */
static void tree_shape(const struct record_tree *t, char *buf, size_t size)
{
    buf[0] = 0;
    for (int i = 0; i < t->n; i++) {
        const struct record_node *n = &t->nodes[i];
        char one[300];
        snprintf(one, sizeof one, "%s%s@%d<%d%s%s%s", i ? " " : "", n->display, n->ply, n->parent,
                 n->comment ? "{" : "", n->comment ? n->comment : "", n->comment ? "}" : "");
        strncat(buf, one, size - strlen(buf) - 1);
    }
}

TEST(record_tree_chess_variations_and_comments)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered");
    void *st = game_state_new(g);
    struct record_tree t;
    char err[ERROR_TEXT_MAX], shape[2000];
    const char *text = "[Event \"x\"]\n\n{before} 1. e4 {best} e5 (1... c5 {Sicilian} 2. Nf3 "
                       "(2. Nc3 Nc6) d6 ; a line comment\n) (1... e6) 2. Nf3 $1 Nc6!? {done} "
                       "{again} *\n\n[Event \"next\"]\n\n1. d4 *\n";
    long used = record_read_tree(g, text, st, &t, err, sizeof err);
    CHECK_MSG(used > 0, "%s", err);
    tree_shape(&t, shape, sizeof shape);
    CHECK_STR(shape, "e4@1<-1{best} e5@2<0 c5@2<0{Sicilian} Nf3@3<2 Nc3@3<2 Nc6@4<4 d6@4<3{ a "
                     "line comment} e6@2<0 Nf3@3<1 Nc6@4<8{done again}");
    CHECK_STR(t.nodes[2].text, "c7c5");
    CHECK_STR(t.nodes[4].text, "b1c3");
    CHECK_STR(t.result, "*");
    CHECK_STR(record_tag(&t.h, "Event"), "x");
    /* st is the record's start; the next record follows */
    char pos[POSITION_TEXT_MAX];
    g->write_position(st, pos, sizeof pos);
    CHECK_STR(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    record_tree_free(&t);
    CHECK(record_read_tree(g, text + used, st, &t, err, sizeof err) > 0);
    CHECK_EQ_INT(t.n, 1);
    CHECK_STR(record_tag(&t.h, "Event"), "next");
    record_tree_free(&t);
    CHECK_EQ_INT(record_read_tree(g, "\n", st, &t, err, sizeof err), 0);
    CHECK_EQ_INT(t.n, 0);

    /* A variation after a variation's last move, and moves numbered from the FEN. */
    text = "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 20\"]\n"
           "\n20... e5 21. Nf3 (21. f4 exf4 (21... d5)) 21... Nc6 1-0";
    CHECK_MSG(record_read_tree(g, text, st, &t, err, sizeof err) > 0, "%s", err);
    tree_shape(&t, shape, sizeof shape);
    CHECK_STR(shape, "e5@1<-1 Nf3@2<0 f4@2<0 exf4@3<2 d5@3<2 Nc6@3<1");
    CHECK_STR(t.result, "1-0");
    record_tree_free(&t);
    text = "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 20\"]\n"
           "\n20... e5 21. Nf3 (21. f4 Nf9) *";
    CHECK(record_read_tree(g, text, st, &t, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 21... Nf9 in a variation: ") != NULL, "%s", err);
    free(st);
}

TEST(record_tree_names_a_bad_move)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered");
    void *st = game_state_new(g);
    struct record_tree t;
    char err[ERROR_TEXT_MAX];
    CHECK(record_read_tree(g, "1. e4 e5 (1... c5 2. Nf3 d6 3. Nf9) *", st, &t, err, sizeof err) <
          0);
    CHECK_MSG(strstr(err, "move 3. Nf9 in a variation: ") != NULL, "%s", err);
    CHECK_EQ_INT(t.n, 0);
    CHECK(t.nodes == NULL);
    CHECK(record_read_tree(g, "1. e4 e5 (1... c5) 2. Ke3 *", st, &t, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 2. Ke3: ") != NULL, "%s", err);
    /* Moves of the main line after a variation come from the main line's position:
     * 2. Nf3 is legal there, d6 (after c5's line) is still a Black move. */
    CHECK(record_read_tree(g, "1. e4 e5 (1... c5 2. Nf3) 2. d6 *", st, &t, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 2. d6: ") != NULL, "%s", err);
    static const char *const bad[][2] = {
        {"(1. d4) 1. e4 *", "a variation before any move"},
        {"1. e4 e5 ((1... c5)) *", "a variation before any move"},
        {"1. e4 (1. d4 *", "the result * inside a variation"},
        {"1. e4 (1. d4", "a variation left open"},
        {"1. e4 ) *", "')' without '('"},
        {"[Variant \"agon\"]\n\n*", "unsupported variant 'agon'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_MSG(record_read_tree(g, bad[i][0], st, &t, err, sizeof err) < 0, "%s", bad[i][0]);
        CHECK_MSG(strstr(err, bad[i][1]) != NULL, "%s: %s", bad[i][0], err);
        CHECK_EQ_INT(t.n, 0);
    }
    /* Nesting is bounded. */
    char deep[2000] = "1. e4 e5";
    for (int i = 0; i <= RECORD_DEPTH_MAX; i++)
        strcat(deep, " (1... c5");
    CHECK(record_read_tree(g, deep, st, &t, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "nested more than") != NULL, "%s", err);
    /* The games' own readers still skip what the tree reads. */
    struct record_header *h = malloc(sizeof *h);
    char result[16];
    CHECK(g->read_record("1. e4 (1. d4 2. c4) e5 {x} *", st, h, result, sizeof result, err,
                         sizeof err) > 0);
    CHECK_EQ_INT(g->ply(st), 2);
    free(h);
    free(st);
}

TEST(record_tree_other_games)
{
    const struct game *egara = game_find("egara-guti"), *agon = game_find("agon");
    CHECK(egara && agon);
    if (!egara || !agon)
        return;
    void *st = game_state_new(egara), *ag = game_state_new(agon);
    struct record_tree t;
    char err[ERROR_TEXT_MAX], shape[2000];
    CHECK_MSG(record_read_tree(egara,
                               "[Variant \"egara-guti\"]\n\n1. c3-d4 (1. d3-d4 {centre}) e5xc3 "
                               "2. b2xd4 d5-e5 (2... f6-e5) *",
                               st, &t, err, sizeof err) > 0,
              "%s", err);
    tree_shape(&t, shape, sizeof shape);
    CHECK_STR(shape, "c3-d4@1<-1 d3-d4@1<-1{centre} e5xc3@2<0 b2xd4@3<2 d5-e5@4<3 f6-e5@4<3");
    record_tree_free(&t);
    CHECK(record_read_tree(egara, "1. c3-d4 (1. d3-d4 d5-d4) *", st, &t, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 1... d5-d4 in a variation") != NULL, "%s", err);
    CHECK_MSG(record_read_tree(agon, "[Variant \"agon\"]\n\n1. a5-a4 (1. a5-a6 {or}) *", ag, &t,
                               err, sizeof err) > 0,
              "%s", err);
    tree_shape(&t, shape, sizeof shape);
    CHECK_STR(shape, "a5-a4@1<-1 a5-a6@1<-1{or}");
    record_tree_free(&t);
    CHECK(record_read_tree(agon, "[Variant \"egara-guti\"]\n\n*", ag, &t, err, sizeof err) < 0);
    free(ag);
    free(st);
}

/* Every game's random records: the tree's main line is what read_record reads. */
TEST(record_tree_main_line_is_the_readers)
{
    char *buf = malloc(1 << 20);
    struct record_header *h = malloc(sizeof *h);
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g), *read = game_state_new(g), *start = game_state_new(g);
        Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
        struct rng r;
        rng_seed(&r, 77 + (uint64_t)gi);
        for (int round = 0; round < 6; round++) {
            g->start(st);
            for (int i = 0; i < 60 + round * 20 && g->ply(st) < g->max_plies - 1; i++) {
                int n = game_legal_moves(g, st, moves);
                if (n == 0)
                    break;
                g->make_move(st, moves[rng_below(&r, (uint32_t)n)]);
            }
            CHECK(g->write_record(st, NULL, NULL, buf, 1 << 20) > 0);
            char err[ERROR_TEXT_MAX], result[16];
            CHECK_MSG(g->read_record(buf, read, h, result, sizeof result, err, sizeof err) > 0,
                      "%s: %s", g->name, err);
            struct record_tree t;
            CHECK_MSG(record_read_tree(g, buf, start, &t, err, sizeof err) > 0, "%s: %s", g->name,
                      err);
            CHECK_EQ_INT(t.n, g->ply(read));
            for (int i = 0; i < t.n && i < g->ply(read); i++) {
                CHECK_EQ_INT(t.nodes[i].parent, i - 1);
                CHECK_MSG(t.nodes[i].move == g->history_move(read, i), "%s ply %d", g->name, i);
            }
            CHECK_STR(t.result, result);
            record_tree_free(&t);
        }
        free(moves);
        free(start);
        free(read);
        free(st);
    }
    free(h);
    free(buf);
}

struct events {
    char log[1000];
};

static int ev_begin(void *ctx, const struct record_header *h, char *err, size_t err_size)
{
    (void)ctx, (void)h, (void)err, (void)err_size;
    return 0;
}

static void ev_put(struct events *e, const char *s)
{
    strncat(e->log, s, sizeof e->log - strlen(e->log) - 1);
}

static int ev_move(void *ctx, const char *token, int ply, char *err, size_t err_size)
{
    char s[100];
    snprintf(s, sizeof s, "%s@%d ", token, ply);
    ev_put(ctx, s);
    (void)err, (void)err_size;
    return 0;
}

static int ev_start(void *ctx, int ply, int depth, char *err, size_t err_size)
{
    char s[40];
    snprintf(s, sizeof s, "(%d:%d ", ply, depth);
    ev_put(ctx, s);
    (void)err, (void)err_size;
    return 0;
}

static int ev_end(void *ctx, int ply, int depth, char *err, size_t err_size)
{
    char s[40];
    snprintf(s, sizeof s, ")%d:%d ", ply, depth);
    ev_put(ctx, s);
    (void)err, (void)err_size;
    return 0;
}

static int ev_comment(void *ctx, const char *text, size_t len, char *err, size_t err_size)
{
    char s[100];
    snprintf(s, sizeof s, "{%.*s} ", (int)len, text);
    ev_put(ctx, s);
    if (len == 4 && !memcmp(text, "stop", 4))
        return fail(err, err_size, "stopped");
    return 0;
}

/* record_parse's callbacks, in order, with the plies they name. */
TEST(record_parse_callbacks)
{
    struct events e = {""};
    struct record_reader rd = {.begin = ev_begin,
                               .move = ev_move,
                               .ctx = &e,
                               .variation_start = ev_start,
                               .variation_end = ev_end,
                               .comment = ev_comment};
    struct record_header *h = malloc(sizeof *h);
    char result[16], err[ERROR_TEXT_MAX];
    CHECK(record_parse("[A \"1\"]\n{c0} 1. a {c1} b (1... c (1... d) 2. e) 2. f ;c2\r\n g *", &rd,
                       h, result, sizeof result, err, sizeof err) > 0);
    /* (the comment after the tags is not given: read with them) */
    CHECK_STR(e.log, "a@0 {c1} b@1 (1:1 c@1 (1:2 d@1 )2:2 e@2 )2:1 f@2 {c2} g@3 ");
    /* Comments alone, without the variations: those are skipped as before. */
    e.log[0] = 0;
    rd.variation_start = NULL;
    CHECK(record_parse("1. a {x} (1. b {y}) b *", &rd, h, result, sizeof result, err, sizeof err) >
          0);
    CHECK_STR(e.log, "a@0 {x} b@1 ");
    CHECK(record_parse("1. a {stop} b *", &rd, h, result, sizeof result, err, sizeof err) < 0);
    CHECK_STR(err, "stopped");
    free(h);
}
