/* The Egara-guti endgame tables (src/tablebase/): values of constructed endings, the
 * tables against an independent exhaustive search, resumed generation, corrupt files,
 * the consistency check and the command line.  Tables of few pieces are made here, in
 * a temporary folder. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "core/rng.h"
#include "engines/egara_tablebase.h"
#include "engines/engine.h"
#include "games/egara/board.h"
#include "games/registry.h"
#include "harness.h"
#include "tablebase/format.h"
#include "tablebase/probe.h"
#include "tablebase/tablebase.h"
#include "tb_fixture.h"

static const struct game *egara(void)
{
    return game_find("egara-guti");
}

/* ------------------------------------------------------------------------------------
 * The independent search: a plain exhaustive minimax over the game interface with the
 * rule book's ends written out here (elimination, the 40-ply count, blocked), the piece
 * counts and the quiet count kept by this search from the moves' captures.  Values:
 * WIN - plies for a win, plies - WIN for a loss, 0 a draw, the winner ending soonest
 * and the loser latest.  Remembered by the game's key, which names the quiet count. */
#define WIN 10000

struct memo {
    Key *keys;
    int *values;
    size_t size; /* a power of two; key 0 marks a free slot */
};

static int *memo_slot(struct memo *m, Key key)
{
    if (!key)
        key = 1;
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (m->size - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->size - 1);
    m->keys[i] = key;
    return &m->values[i];
}

static int minimax(const struct game *g, void *st, int own, int other, int quiet, struct memo *m)
{
    if (own == 0)
        return -WIN; /* the last piece was taken */
    if (quiet >= 40)
        return own > other ? WIN : own < other ? -WIN : 0;
    int *slot = memo_slot(m, g->key(st) ^ (Key)quiet << 56);
    if (*slot != -1)
        return *slot - 2 * WIN;
    Move moves[256];
    int n = g->gen_moves(st, moves);
    int best = -WIN; /* blocked: lost now */
    for (int i = 0; i < n; i++) {
        struct move_desc d;
        g->describe_move(st, moves[i], &d);
        g->make_move(st, moves[i]);
        int v = -minimax(g, st, other - d.captured_len, own, d.captured_len ? 0 : quiet + 1, m);
        g->unmake_move(st, moves[i]);
        v = v > 0 ? v - 1 : v < 0 ? v + 1 : 0;
        if (v > best)
            best = v;
    }
    *memo_slot(m, g->key(st) ^ (Key)quiet << 56) = best + 2 * WIN;
    return best;
}

static void memo_init(struct memo *m, size_t size)
{
    m->size = size;
    m->keys = calloc(size, sizeof *m->keys);
    m->values = malloc(size * sizeof *m->values);
    for (size_t i = 0; m->values && i < size; i++)
        m->values[i] = -1;
}

static void memo_free(struct memo *m)
{
    free(m->keys);
    free(m->values);
}

/* `count` random positions of `pieces` pieces at the quiet counts `quiets`: the tables
 * (distance included) against the independent search.  Returns the positions checked. */
static int against_search(struct test_ctx *t__, const char *dir, int pieces, int count,
                          const int *quiets, int nquiets, uint64_t seed)
{
    const struct game *g = egara();
    struct tb_tables *tb = tb_open(dir);
    struct memo m;
    memo_init(&m, (size_t)1 << 22);
    struct rng r;
    rng_seed(&r, seed);
    void *st = game_state_new(g);
    int checked = 0;
    for (int i = 0; i < count && m.keys && m.values; i++) {
        int own = 1 + (int)rng_below(&r, (uint32_t)pieces - 1);
        int other = pieces - own;
        uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, other, a);
        int black = (int)rng_below(&r, 2);
        int quiet = quiets[rng_below(&r, (uint32_t)nquiets)];
        char text[POSITION_TEXT_MAX], err[512];
        tbf_text_of(black ? b : a, black ? a : b, black, quiet, text, sizeof text);
        CHECK_MSG(g->parse_position(st, text, err, sizeof err) == 0, "%s: %s", text, err);
        int want = minimax(g, st, own, other, quiet, &m);
        struct tb_answer ans;
        int rc = tb_probe(tb, g, st, 1, &ans, err, sizeof err);
        CHECK_MSG(rc == 0, "%s: probe %d %s", text, rc, rc < 0 ? err : "");
        int got = ans.outcome == TB_OUTCOME_WIN    ? WIN - ans.plies
                  : ans.outcome == TB_OUTCOME_LOSS ? ans.plies - WIN
                                                   : 0;
        CHECK_MSG(got == want, "%s: tables %d, search %d", text, got, want);
        /* the result alone, without the distance search */
        rc = tb_probe(tb, g, st, 0, &ans, err, sizeof err);
        int wdl = ans.outcome == TB_OUTCOME_WIN ? 1 : ans.outcome == TB_OUTCOME_LOSS ? -1 : 0;
        CHECK_MSG(rc == 0 && wdl == (want > 0) - (want < 0), "%s: result %d, search %d", text, wdl,
                  want);
        checked++;
    }
    free(st);
    memo_free(&m);
    tb_close(tb);
    return checked;
}

TEST(tablebase_index_round_trip)
{
    struct rng r;
    rng_seed(&r, 7);
    for (int i = 0; i < 2000; i++) {
        int m = 1 + (int)rng_below(&r, 11), o = 1 + (int)rng_below(&r, 11);
        uint32_t own = tbf_random_set(&r, m, 0), other = tbf_random_set(&r, o, own);
        TbIndex x = tb_index(own, other);
        CHECK(x < tb_signature_size(m, o));
        uint32_t own2, other2;
        tb_position(m, o, x, &own2, &other2);
        CHECK_MSG(own2 == own && other2 == other, "%d-%d %#x %#x -> %llu -> %#x %#x", m, o, own,
                  other, (unsigned long long)x, own2, other2);
    }
    CHECK_EQ_U64(tb_signature_size(4, 4), 8855ULL * 3876);
}

/* The rule book's endings built by hand, each side's view, quiet counts around the
 * limit. */
TEST(tablebase_constructed_endings)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    static const struct {
        const char *position, *want;
    } cases[] = {
        /* two against one, won: White's pair hunts the single piece down */
        {"5/3/3/1/3/1B1/W2W1 w 0", "win 9"},
        {"5/3/3/1/3/1B1/W2W1 w 39", "win 1"}, /* one ply left: the count decides */
        {"5/3/3/1/3/1B1/W2W1 w 40", "win 0"}, /* the count has decided */
        /* two against one, drawn: the single piece takes one at once, one against one */
        {"5/3/3/1/1B1/1W1/W4 b 0", "draw"},
        /* the same pieces, White to move: d3xd5 takes the last piece */
        {"5/3/3/1/1B1/1W1/W4 w 0", "win 1"},
        /* Black alone, to move, ahead of nothing: lost as late as possible */
        {"B4/3/3/1/3/3/WW3 b 0", "loss 32"},
        {"B4/3/3/1/3/3/WW3 b 30", "loss 10"},
        {"B4/3/3/1/3/3/WW3 b 39", "loss 1"},
        {"B4/3/3/1/3/3/WW3 w 0", "win 5"},
    };
    const struct game *g = egara();
    struct tb_tables *tb = tb_open(dir);
    void *st = game_state_new(g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[512], got[64];
        CHECK(g->parse_position(st, cases[i].position, err, sizeof err) == 0);
        struct tb_answer ans;
        int rc = tb_probe(tb, g, st, 1, &ans, err, sizeof err);
        if (rc)
            snprintf(got, sizeof got, "error %d", rc);
        else if (ans.outcome == TB_OUTCOME_DRAW)
            snprintf(got, sizeof got, "draw");
        else
            snprintf(got, sizeof got, "%s %d", ans.outcome == TB_OUTCOME_WIN ? "win" : "loss",
                     ans.plies);
        CHECK_MSG(!strcmp(got, cases[i].want), "%s: %s, expected %s", cases[i].position, got,
                  cases[i].want);
    }
    free(st);
    tb_close(tb);
}

/* A win that the quiet count turns into a draw: two against two, White takes a piece
 * in four plies and the last one later; with three plies left the count (2-2) comes
 * first. */
TEST_HEAVY(tablebase_quiet_count_turns_win_into_draw)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    struct tb_tables *tb = tb_open(dir);
    const struct game *g = egara();
    void *st = game_state_new(g);
    static const struct {
        int quiet;
        enum tb_outcome outcome;
        int plies;
    } cases[] = {{0, TB_OUTCOME_WIN, 5},
                 {36, TB_OUTCOME_WIN, 5},
                 {37, TB_OUTCOME_DRAW, 0},
                 {39, TB_OUTCOME_DRAW, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[64], err[512];
        snprintf(text, sizeof text, "5/3/3/B/B2/3/WW3 w %d", cases[i].quiet);
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct tb_answer ans;
        CHECK(tb_probe(tb, g, st, 1, &ans, err, sizeof err) == 0);
        CHECK_MSG(ans.outcome == cases[i].outcome && ans.plies == cases[i].plies,
                  "%s: %d %d, expected %d %d", text, ans.outcome, ans.plies, cases[i].outcome,
                  cases[i].plies);
    }
    struct memo m;
    memo_init(&m, (size_t)1 << 20);
    CHECK(g->parse_position(st, "5/3/3/B/B2/3/WW3 w 37", NULL, 0) == 0);
    CHECK_EQ_INT(minimax(g, st, 2, 2, 37, &m), 0);
    CHECK(g->parse_position(st, "5/3/3/B/B2/3/WW3 w 36", NULL, 0) == 0);
    CHECK_EQ_INT(minimax(g, st, 2, 2, 36, &m), WIN - 5);
    memo_free(&m);
    free(st);
    tb_close(tb);
}

/* Few pieces near the limit, where the stretch left is short: cheap enough for the
 * sanitizer build. */
TEST(tablebase_against_search_near_the_limit)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    static const int quiets[] = {30, 33, 35, 36, 37, 38, 39, 40};
    CHECK_EQ_INT(against_search(TEST_CTX, dir, 3, 150, quiets, 8, 11), 150);
    static const int all[] = {0, 1, 5, 20, 39};
    CHECK_EQ_INT(against_search(TEST_CTX, dir, 2, 100, all, 5, 12), 100);
}

TEST_HEAVY(tablebase_against_search_every_quiet_count)
{
    const char *dir = tbf_tables(4);
    if (!dir)
        SKIP("could not make the tables");
    int quiets[41];
    for (int q = 0; q <= 40; q++)
        quiets[q] = q;
    CHECK_EQ_INT(against_search(TEST_CTX, dir, 3, 400, quiets, 41, 21), 400);
    /* four pieces near the limit: the whole of 4 pieces at every count is minutes */
    CHECK_EQ_INT(against_search(TEST_CTX, dir, 4, 150, quiets + 30, 11, 22), 150);
}

static int same_files(struct test_ctx *t__, const char *a, const char *b, int pieces)
{
    int same = 1;
    for (int n = 2; n <= pieces; n++)
        for (int m = 1; m < n; m++) {
            char pa[256], pb[256];
            tb_file_name(a, m, n - m, pa, sizeof pa);
            tb_file_name(b, m, n - m, pb, sizeof pb);
            FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
            int ca = 0, cb = 1;
            if (fa && fb)
                do {
                    ca = fgetc(fa);
                    cb = fgetc(fb);
                } while (ca == cb && ca != EOF);
            CHECK_MSG(fa && fb && ca == cb, "%s and %s differ", pa, pb);
            same &= fa && fb && ca == cb;
            if (fa)
                fclose(fa);
            if (fb)
                fclose(fb);
        }
    return same;
}

/* An interrupted generation goes on where it stopped and gives the same files: a run
 * that stopped after fewer pieces, a pair of which one file was written, a temporary
 * file left behind, a corrupt file; on another number of threads. */
TEST(tablebase_resumed_generation_gives_the_same_files)
{
    const char *whole = tbf_tables(3);
    if (!whole)
        SKIP("could not make the tables");
    char dir[64], path[256];
    tbf_temp_dir(dir, sizeof dir);
    CHECK(tbf_generate(dir, 2, 1) == 0);
    CHECK(tbf_generate(dir, 3, 1) == 0);
    CHECK(same_files(TEST_CTX, whole, dir, 3));
    /* stopped inside pair 1-2: one file written, a temporary one half written */
    tb_file_name(dir, 2, 1, path, sizeof path);
    remove(path);
    strcat(path, ".part");
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs("half", f);
        fclose(f);
    }
    /* and a file damaged on disk */
    tb_file_name(dir, 1, 1, path, sizeof path);
    f = fopen(path, "r+b");
    if (f) {
        fseek(f, 100, SEEK_SET);
        fputc(0x5a, f);
        fclose(f);
    }
    CHECK(tbf_generate(dir, 3, 3) == 0);
    CHECK(same_files(TEST_CTX, whole, dir, 3));
    tbf_remove_dir(dir);
}

/* A corrupt or truncated file is an error with a message, never a wrong value. */
TEST(tablebase_corrupt_file_is_an_error)
{
    const char *whole = tbf_tables(3);
    if (!whole)
        SKIP("could not make the tables");
    char dir[64], path[256], err[512];
    tbf_temp_dir(dir, sizeof dir);
    CHECK(tbf_generate(dir, 2, 1) == 0);
    tb_file_name(dir, 1, 1, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    if (f) {
        fseek(f, 200, SEEK_SET);
        int c = fgetc(f);
        fseek(f, 200, SEEK_SET);
        fputc(c ^ 1, f);
        fclose(f);
    }
    struct tb_tables *tb = tb_open(dir);
    struct tb_answer ans;
    int rc = tb_probe_sets(tb, 1u << 0, 1u << 22, 0, 1, &ans, err, sizeof err);
    CHECK_EQ_INT(rc, -1);
    CHECK_MSG(strstr(err, "checksum"), "message: %s", err);
    tb_close(tb);
    CHECK(truncate(path, 60) == 0);
    tb = tb_open(dir);
    rc = tb_probe_sets(tb, 1u << 0, 1u << 22, 0, 1, &ans, err, sizeof err);
    CHECK_EQ_INT(rc, -1);
    CHECK_MSG(strstr(err, "truncated"), "message: %s", err);
    tb_close(tb);
    /* absent: not in the tables, no error */
    tb = tb_open(dir);
    rc = tb_probe_sets(tb, 1u << 0, 3u << 21, 0, 1, &ans, err, sizeof err);
    CHECK_EQ_INT(rc, 1);
    tb_close(tb);
    tbf_remove_dir(dir);
}

/* Every record follows from its children; a record changed (with a good checksum) is
 * found and named. */
TEST(tablebase_verify_checks_every_record)
{
    const char *whole = tbf_tables(3);
    if (!whole)
        SKIP("could not make the tables");
    char err[512];
    CHECK_MSG(tb_verify(whole, 3, NULL, 0, err, sizeof err) == 0, "verify: %s", err);
    char dir[64], path[256];
    tbf_temp_dir(dir, sizeof dir);
    CHECK(tbf_generate(dir, 3, 1) == 0);
    /* a capture's value changed by a ply (or a draw made a win); then a step's result at one quiet
     * count turned */
    for (int round = 0; round < 2; round++) {
        CHECK(tbf_generate(dir, 3, 1) == 0);
        tb_file_name(dir, 1, 2, path, sizeof path);
        TbRecord *rec = NULL;
        CHECK(tb_file_read(path, 1, 2, &rec, err, sizeof err) == 0);
        if (!rec)
            break;
        /* d4 must take d5 (landing on d6); a1-b1 or a1-b2 is a step */
        TbIndex i = round == 0 ? tb_index(1u << 11, 1u << 14 | 1u << 0)
                               : tb_index(1u << 0, 1u << 20 | 1u << 22);
        TbRecord x = rec[i];
        TbValue v = tb_record_q0(x);
        if (round == 0) {
            TbValue longer = v > 0   ? (TbValue)(v - 1)
                             : v < 0 ? (TbValue)(v + 1)
                                     : (TbValue)(TB_WIN - 3);
            CHECK(tb_record_make(longer, TB_REC_A(x), TB_REC_B(x), TB_REC_T1(x), TB_REC_T2(x),
                                 &rec[i]) == 0);
        } else {
            /* the result with one ply left made the other one */
            enum tb_wdl w = tb_record_wdl(x, 1);
            enum tb_wdl other = w == TB_WINS ? TB_LOSES : TB_WINS;
            CHECK(tb_record_make(v, other, TB_REC_RESULT(x), 2, 2, &rec[i]) == 0);
        }
        CHECK(tb_file_write(path, 1, 2, rec, err, sizeof err) == 0);
        free(rec);
        err[0] = 0;
        CHECK_MSG(tb_verify(dir, 3, NULL, 0, err, sizeof err) == -1, "round %d not found", round);
        CHECK_MSG(strstr(err, "1-2 position"), "round %d message: %s", round, err);
        remove(path);
    }
    tbf_remove_dir(dir);
}

TEST(tablebase_command_line)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    char *out = NULL;
    char *probe[] = {"agora", "tablebase", "probe", "egara-guti", "5/3/3/1/3/1B1/W2W1 w 0",
                     "--dir", (char *)dir};
    CHECK_EQ_INT(cli_run("", &out, 7, probe), 0);
    CHECK_STR(out, "win 9\n");
    free(out);
    char *bad[] = {"agora", "tablebase", "probe", "egara-guti", "5/3/3/1/3/1B1/W2W w 0",
                   "--dir", (char *)dir};
    CHECK_EQ_INT(cli_run("", &out, 7, bad), 2);
    free(out);
    char *big[] = {"agora", "tablebase", "probe", "egara", "5/3/3/1/BBB/1B1/W2W1 w 0",
                   "--dir", (char *)dir};
    CHECK_EQ_INT(cli_run("", &out, 7, big), 2); /* six pieces: not in these tables */
    free(out);
    char *chess[] = {"agora", "tablebase", "probe", "chess", "8/8/8/8/8/8/8/K6k w - - 0 1"};
    CHECK_EQ_INT(cli_run("", &out, 5, chess), 2);
    free(out);
    /* the analysis of a position in the tables says its exact result */
    char *analyse[] = {"agora",   "analyse", "egara-guti",   "--position", "5/3/3/1/3/1B1/W2W1 w 0",
                       "--nodes", "2000",    "--tablebases", (char *)dir};
    CHECK_EQ_INT(cli_run("", &out, 9, analyse), 0);
    CHECK_MSG(
        out && strstr(out, "\"tablebase\":{\"result\":\"win\",\"plies\":9,\"text\":\"wins in 9\"}"),
        "analyse: %s", out ? out : "");
    free(out);
    char *verify[] = {"agora",    "tablebase", "verify", "egara",
                      "--pieces", "3",         "--dir",  (char *)dir};
    CHECK_EQ_INT(cli_run("", &out, 8, verify), 0);
    free(out);
}

/* `tablebase scan`: played games against the tables.  A 40-ply draw that passed a
 * position the tables win is counted and its position written; a draw that never did,
 * and a decided game, are not among them; a bad record is named by its number. */
TEST(tablebase_scan_finds_the_draws_the_tables_win)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    char path[512], positions[512], tmp[256];
    tbf_temp_dir(tmp, sizeof tmp);
    CHECK(tmp[0] != 0);
    snprintf(path, sizeof path, "%s/games.pgn", tmp);
    snprintf(positions, sizeof positions, "%s/won.txt", tmp);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    /* 1: Black to move is lost (loss 10 at quiet count 30); after a7-b6 White wins: a
     *    draw by the count that passed a won position at ply 1.
     * 2: a drawn two against one, the single piece takes (d3xd1): never won.
     * 3: the same as 1, but decided: not a draw. */
    fprintf(f, "[Variant \"egara-guti\"]\n[FEN \"B4/3/3/1/3/3/WW3 b 30\"]\n"
               "[Result \"1/2-1/2\"]\n[Termination \"quiet-limit\"]\n\n1... a7-b6 1/2-1/2\n\n"
               "[Variant \"egara-guti\"]\n[FEN \"5/3/3/1/1B1/1W1/W4 b 0\"]\n"
               "[Result \"1/2-1/2\"]\n[Termination \"quiet-limit\"]\n\n1... d3xd1 1/2-1/2\n\n"
               "[Variant \"egara-guti\"]\n[FEN \"B4/3/3/1/3/3/WW3 b 30\"]\n"
               "[Result \"1-0\"]\n[Termination \"quiet-limit\"]\n\n1... a7-b6 1-0\n");
    fclose(f);
    char *out = NULL;
    char *scan[] = {"agora", "tablebase", "scan",        "egara-guti", path,
                    "--dir", (char *)dir, "--positions", positions};
    CHECK_EQ_INT(cli_run("", &out, 9, scan), 0);
    CHECK_MSG(out && strstr(out, "game 1: 1/2-1/2 quiet-limit: won for the side to move at ply 1"),
              "%s", out ? out : "");
    CHECK_MSG(out && strstr(out, "game 2: 1/2-1/2 quiet-limit: no won position"), "%s",
              out ? out : "");
    CHECK_MSG(out && strstr(out, "scan: 3 games, 2 passed a position the tables win; 2 drawn by "
                                 "the 40-ply count, 1 of them passed a position the tables win"),
              "%s", out ? out : "");
    free(out);
    f = fopen(positions, "r");
    char line[128] = "";
    CHECK(f && fgets(line, sizeof line, f));
    CHECK_STR(line, "5/B2/3/1/3/3/WW3 w 31\n");
    if (f)
        fclose(f);
    /* a record that does not read: its number, status 2 */
    f = fopen(path, "a");
    if (f) {
        fprintf(f, "\n[Variant \"egara-guti\"]\n\n1. a1-z9 *\n");
        fclose(f);
    }
    CHECK_EQ_INT(cli_run("", &out, 9, scan), 2);
    free(out);
    tbf_remove_dir(tmp);
}

/* Level 8 plays by the tables where they hold the position: every move it makes keeps
 * the result the tables give (a win stays a win, the 40-ply count included); without
 * tables nothing changes. */
TEST(tablebase_engine_keeps_the_result)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    egara_tablebase_dir(dir);
    struct tb_tables *tb = tb_open(dir);
    struct rng r;
    rng_seed(&r, 31);
    void *st = game_state_new(g);
    int critical = 0;
    for (int i = 0; i < 4000 && critical < 40; i++) {
        int own = 1 + (int)rng_below(&r, 2);
        uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, 3 - own, a);
        char text[POSITION_TEXT_MAX], err[512];
        tbf_text_of(a, b, 0, (int)rng_below(&r, 40), text, sizeof text);
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct tb_answer before, after;
        CHECK(tb_probe(tb, g, st, 0, &before, err, sizeof err) == 0);
        enum tb_outcome want = before.outcome == TB_OUTCOME_WIN    ? TB_OUTCOME_LOSS
                               : before.outcome == TB_OUTCOME_LOSS ? TB_OUTCOME_WIN
                                                                   : TB_OUTCOME_DRAW;
        /* only positions where some move lets the result go */
        Move moves[256];
        int n = g->gen_moves(st, moves), letting_go = 0;
        for (int k = 0; k < n; k++) {
            g->make_move(st, moves[k]);
            CHECK(tb_probe(tb, g, st, 0, &after, err, sizeof err) == 0);
            letting_go += after.outcome != want;
            g->unmake_move(st, moves[k]);
        }
        if (!letting_go)
            continue;
        critical++;
        struct engine_limits lim = {.depth = 1};
        struct engine_result res;
        Move m = engine_think(g, st, 8, &lim, 1, &res);
        g->make_move(st, m);
        CHECK(tb_probe(tb, g, st, 0, &after, err, sizeof err) == 0);
        CHECK_MSG(after.outcome == want, "%s: the engine's move lets the result go", text);
    }
    CHECK(critical == 40);
    egara_tablebase_dir(NULL);
    free(st);
    tb_close(tb);
}

/* The result with repetition (the game's own status: the third occurrence ends the
 * game and the counts decide) searched move by move over the rest of the quiet
 * stretch, the tables answering after each capture: the same as the tables, which
 * leave repetition out (NOTES.md says why). */
static int result_with_repetition(struct test_ctx *t__, const struct game *g, void *st,
                                  struct tb_tables *tb)
{
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING) {
        if (gs.result == RESULT_DRAW)
            return 0;
        enum result mover =
            g->side_to_move(st) == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        return gs.result == mover ? 1 : -1;
    }
    Move moves[256];
    int n = g->gen_moves(st, moves), best = -1;
    for (int i = 0; i < n && best < 1; i++) {
        struct move_desc d;
        g->describe_move(st, moves[i], &d);
        g->make_move(st, moves[i]);
        int v;
        g->status(st, &gs);
        if (d.captured_len && gs.result == RESULT_ONGOING) {
            struct tb_answer a;
            char err[512];
            CHECK(tb_probe(tb, g, st, 0, &a, err, sizeof err) == 0);
            v = a.outcome == TB_OUTCOME_WIN ? -1 : a.outcome == TB_OUTCOME_LOSS ? 1 : 0;
        } else {
            v = -result_with_repetition(t__, g, st, tb);
        }
        g->unmake_move(st, moves[i]);
        if (v > best)
            best = v;
    }
    return best;
}

TEST(tablebase_repetition_changes_no_result)
{
    const char *dir = tbf_tables(3);
    if (!dir)
        SKIP("could not make the tables");
    const struct game *g = egara();
    struct tb_tables *tb = tb_open(dir);
    struct rng r;
    rng_seed(&r, 41);
    void *st = game_state_new(g);
    for (int i = 0; i < 300; i++) {
        int own = 1 + (int)rng_below(&r, 2);
        uint32_t a = tbf_random_set(&r, own, 0), b = tbf_random_set(&r, 3 - own, a);
        char text[POSITION_TEXT_MAX], err[512];
        tbf_text_of(a, b, (int)rng_below(&r, 2), 31 + (int)rng_below(&r, 9), text, sizeof text);
        CHECK(g->parse_position(st, text, err, sizeof err) == 0);
        struct tb_answer ans;
        CHECK(tb_probe(tb, g, st, 0, &ans, err, sizeof err) == 0);
        int want = ans.outcome == TB_OUTCOME_WIN ? 1 : ans.outcome == TB_OUTCOME_LOSS ? -1 : 0;
        int got = result_with_repetition(TEST_CTX, g, st, tb);
        CHECK_MSG(got == want, "%s: with repetition %d, tables %d", text, got, want);
    }
    free(st);
    tb_close(tb);
}
