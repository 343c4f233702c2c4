/* `agora uci` in-process: every command on memory streams, and the commands that
 * arrive while a search runs (isready, stop, ponderhit) through pipes. */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "book_file.h"
#include "cli/uci_options.h"
#include "cli_run.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "harness.h"

/* The waits of the pipe tests: an answer that must come (the sanitizer build is
 * slow), and a quiet spell that shows an answer is held back. */
#define MUST_COME_MS 20000
#define HELD_BACK_MS 400

static char *uci(const char *input)
{
    char *argv[] = {"agora", "uci", NULL};
    char *out = NULL;
    if (cli_run(input, &out, 2, argv) != 0) {
        free(out);
        return strdup("uci exited with an error");
    }
    return out;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Every bestmove in `out` (from the start position after `moves`, "" for none, or
 * from the start position only) is a legal move there. */
static void bestmoves_legal(struct test_ctx *t__, const char *out, const char *moves)
{
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX], word[64], copy[256];
    Move m;
    for (const char *p = strstr(out, "bestmove "); st && p; p = strstr(p + 1, "bestmove ")) {
        g->start(st);
        snprintf(copy, sizeof copy, "%s", moves);
        for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
            if (g->parse_move(st, w, &m, err, sizeof err) == 0)
                g->make_move(st, m);
        CHECK(sscanf(p, "bestmove %63s", word) == 1);
        CHECK_MSG(g->parse_move(st, word, &m, err, sizeof err) == 0, "bestmove %s: %s", word, err);
    }
    free(st);
}

TEST(uci_identifies_with_every_option)
{
    char *out = uci("uci\n");
    static const char *const want[] = {
        "id name agora chess\n",
        "id author ",
        "option name Hash type spin default 16 min 1 max 1024\n",
        "option name Threads type spin default 1 min 1 max ",
        "option name MultiPV type spin default 1 min 1 max ",
        "option name Move Overhead type spin default 50 min 0 max 5000\n",
        "option name Ponder type check default false\n",
        "option name UCI_LimitStrength type check default false\n",
        "option name UCI_Elo type spin default 1500 min 50 max 2350\n",
        "option name Skill Level type spin default 20 min 0 max 20\n",
        "option name OwnBook type check default false\n",
        "option name BookFile type string default /usr/share/games/gnuchess/book.bin\n",
        "option name Clear Hash type button\n",
        "option name Level type spin default 0 min 0 max 8\n",
        "option name Algorithm type combo default auto var auto var alphabeta var mcts var chess\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK_MSG(strstr(out, want[i]) != NULL, "no '%s' in:\n%s", want[i], out);
    size_t n = strlen(out);
    CHECK(n > 6 && !strcmp(out + n - 6, "uciok\n"));
    free(out);
    /* The other games: the same protocol without the chess-only options. */
    char *argv[] = {"agora", "uci", "--game", "agon", NULL};
    CHECK_EQ_INT(cli_run("uci\nsetoption name OwnBook value true\n", &out, 4, argv), 0);
    CHECK(strstr(out, "id name agora agon\n") && strstr(out, "option name Skill Level"));
    CHECK(!strstr(out, "OwnBook type") && !strstr(out, "UCI_Elo"));
    CHECK(strstr(out, "info string error: unknown option 'OwnBook'; nothing changed"));
    free(out);
}

TEST(uci_option_values_checked)
{
    const struct game *chess = game_find("chess");
    struct uci_options o, before;
    uci_options_default(&o, chess);
    enum uci_effect fx;
    char err[ERROR_TEXT_MAX];
    static const struct {
        const char *name, *value, *err;
    } bad[] = {
        {"Nonsense", "1", "unknown option 'Nonsense'"},
        {"Hash", "0", "Hash is a whole number from 1 to 1024, not '0'"},
        {"Hash", "12MB", "not '12MB'"},
        {"Hash", NULL, "Hash needs a value"},
        {"Threads", "0", "Threads is a whole number from 1"},
        {"MultiPV", "100000", "MultiPV is a whole number from 1"},
        {"Move Overhead", "-5", "Move Overhead is a whole number from 0 to 5000"},
        {"Ponder", "yes", "Ponder is true or false, not 'yes'"},
        {"UCI_Elo", "3500", "UCI_Elo is a whole number from 50 to 2350"},
        {"Skill Level", "21", "Skill Level is a whole number from 0 to 20"},
        {"OwnBook", "1", "OwnBook is true or false"},
        {"BookFile", "<empty>", "BookFile needs a file name"},
        {"Level", "9", "Level is a whole number from 0 to 8"},
        {"Algorithm", "minimax", "Algorithm is one of auto, alphabeta, mcts, chess, not 'minimax'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        before = o;
        CHECK_MSG(uci_option_set(&o, chess, bad[i].name, bad[i].value, &fx, err, sizeof err) == -1,
                  "%s accepted", bad[i].name);
        CHECK_MSG(strstr(err, bad[i].err) != NULL, "'%s', expected '%s'", err, bad[i].err);
        CHECK(!memcmp(&o, &before, sizeof o));
    }
    CHECK(uci_option_set(&o, chess, "hash", "64", &fx, err, sizeof err) == 0);
    CHECK(o.hash_mb == 64 && fx == UCI_EFFECT_HASH);
    CHECK(uci_option_set(&o, chess, "Clear Hash", NULL, &fx, err, sizeof err) == 0);
    CHECK(fx == UCI_EFFECT_CLEAR_HASH);
    CHECK(uci_option_set(&o, chess, "multipv", "3", &fx, err, sizeof err) == 0 && o.multipv == 3);
    CHECK(uci_option_set(&o, chess, "Threads", "2", &fx, err, sizeof err) == 0 && o.threads == 2);
    CHECK(uci_option_set(&o, chess, "Move Overhead", "30", &fx, err, sizeof err) == 0);
    CHECK(o.move_overhead_ms == 30);
    CHECK(uci_option_set(&o, chess, "Ponder", "TRUE", &fx, err, sizeof err) == 0 && o.ponder);
    CHECK(uci_option_set(&o, chess, "BookFile", "/x y/b.bin", &fx, err, sizeof err) == 0);
    CHECK_STR(o.book_file, "/x y/b.bin");
    CHECK(fx == UCI_EFFECT_BOOK);
    CHECK(uci_option_set(&o, chess, "Algorithm", "mcts", &fx, err, sizeof err) == 0);
    CHECK(o.algo == 2);
    /* The level: Level and Skill Level, the last one set wins; UCI_Elo while limited. */
    CHECK_EQ_INT(uci_play_level(&o, chess), 0);
    CHECK(uci_option_set(&o, chess, "Level", "5", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 5);
    CHECK(uci_option_set(&o, chess, "Skill Level", "0", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 1);
    CHECK(uci_option_set(&o, chess, "UCI_Elo", "2200", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 1);
    CHECK(uci_option_set(&o, chess, "UCI_LimitStrength", "true", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 8);
    CHECK(uci_option_set(&o, chess, "Skill Level", "20", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 8);
    CHECK(uci_option_set(&o, chess, "UCI_LimitStrength", "false", &fx, err, sizeof err) == 0);
    CHECK_EQ_INT(uci_play_level(&o, chess), 0);
}

TEST(uci_strength_tables)
{
    /* Skill Level 0..19 spreads over levels 1..8; 20 is full strength. */
    CHECK_EQ_INT(uci_skill_level(0), 1);
    CHECK_EQ_INT(uci_skill_level(10), 4);
    CHECK_EQ_INT(uci_skill_level(19), 8);
    CHECK_EQ_INT(uci_skill_level(20), 0);
    for (int s = 1; s < 20; s++)
        CHECK(uci_skill_level(s) >= uci_skill_level(s - 1));
    /* UCI_Elo (chess's profile): the nearest level's rating; every level's own rating
     * maps to it.  Agon's and Egara-guti's ratings are their levels' own ladder, not
     * UCI_Elo's scale (UCI offers no UCI_Elo for them: uci_identifies_with_every_option). */
    const struct engine_profile *p = engine_profile_of(game_find("chess"));
    for (int l = 1; l <= 8; l++) {
        CHECK_EQ_INT(engine_elo_level(p, engine_level_elo(p, l)), l);
        if (l > 1)
            CHECK(engine_level_elo(p, l) > engine_level_elo(p, l - 1));
    }
    CHECK_EQ_INT(engine_elo_level(p, 50), 1);
    CHECK_EQ_INT(engine_elo_level(p, 2350), 8);
    CHECK_EQ_INT(engine_elo_level(p, 1500), 5);
    CHECK_EQ_INT(engine_elo_level(p, 1150), 4);
    const struct engine_profile *agon = engine_profile_of(game_find("agon"));
    CHECK(agon->level_elo_own_scale && !p->level_elo_own_scale);
    for (int l = 2; l <= 8; l++)
        CHECK(engine_level_elo(agon, l) > engine_level_elo(agon, l - 1));
}

TEST(uci_setoption_messages_and_effects)
{
    char *out = uci("setoption name Hash value 0\n"
                    "setoption name Nonsense value 1\n"
                    "setoption\n"
                    "setoption name\n"
                    "setoption name MultiPV value 3\n"
                    "setoption name Threads value 2\n"
                    "setoption name Hash value 2\n"
                    "setoption name Clear Hash\n"
                    "setoption name Move Overhead value 100\n"
                    "setoption name Ponder value true\n"
                    "setoption name UCI_LimitStrength value true\n"
                    "setoption name UCI_Elo value 200\n"
                    "position startpos\n"
                    "go depth 6\n"
                    "isready\n");
    CHECK(strstr(out, "info string error: Hash is a whole number from 1 to 1024, not '0'; "
                      "nothing changed\n"));
    CHECK(strstr(out, "info string error: unknown option 'Nonsense'; nothing changed\n"));
    CHECK(strstr(out, "info string error: setoption needs 'name'\n"));
    CHECK(strstr(out, "info string error: unknown option ''; nothing changed\n"));
    CHECK_EQ_INT(count(out, "info string"), 4);
    /* UCI_Elo 200 is level 1: one ply, whatever `go` allows. */
    CHECK(strstr(out, "info depth 1 "));
    CHECK(!strstr(out, "info depth 2 "));
    CHECK_EQ_INT(count(out, "bestmove "), 1);
    free(out);
}

TEST(uci_position_commands)
{
    char *out = uci("position startpos moves e2e4 e7e5\n"
                    "d\n"
                    "position startpos moves e2e4 e7e6 e1e3\n"
                    "d\n"
                    "position fen 8/8/8/8 w - -\n"
                    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk\n"
                    "position\n"
                    "position startpos junk\n"
                    "position nonsense\n"
                    "d\n"
                    "position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 moves e1c1 e8e7\n"
                    "d\n");
    const char *after_e4e5 =
        "position text rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n";
    CHECK_EQ_INT(count(out, after_e4e5), 3); /* kept after every bad command */
    CHECK(strstr(out, "info string error: illegal move 'e1e3'; position unchanged\n"));
    CHECK_EQ_INT(count(out, "info string error: bad position: "), 2);
    CHECK_EQ_INT(count(out, "info string error: expected 'position startpos' or 'position fen"), 2);
    CHECK(strstr(out, "info string error: unexpected text after 'startpos'\n"));
    CHECK(strstr(out, "position text 8/4k3/8/8/8/8/8/2KR4 w - - 2 2\n"));
    free(out);
}

TEST(uci_moves_after_the_end_refused)
{
    /* Fool's mate, then one move too many. */
    char *out = uci("position startpos moves f2f3 e7e5 g2g4 d8h4\n"
                    "go depth 3\n"
                    "position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3\n"
                    "d\n");
    CHECK(strstr(out, "info depth 0 score mate 0\n"));
    CHECK(strstr(out, "info string the game is over: "));
    CHECK(strstr(out, "bestmove (none)\n"));
    CHECK(strstr(out, "info string error: move 'a2a3' after the end of the game; "
                      "position unchanged\n"));
    CHECK(strstr(out, "position text rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w"));
    free(out);
}

TEST(uci_go_limits)
{
    char *out = uci("position startpos moves e2e4\n"
                    "go depth 3\n"
                    "go nodes 2000\n"
                    "go movetime 50\n"
                    "go wtime 2000 btime 2000 winc 20 binc 20 movestogo 10\n"
                    "go btime 500\n"
                    "go wtime -30 btime -30\n"
                    "go depth 0\n"
                    "go depth abc nodes 500\n"
                    "go mate 0 depth 2\n"
                    "go searchmoves e7e5 d7d5 depth 2\n"
                    "go sideways depth 1\n"
                    "go e7e5 depth 1\n"
                    "go depth\n");
    CHECK_EQ_INT(count(out, "bestmove "), 13);
    bestmoves_legal(TEST_CTX, out, "e2e4");
    CHECK(strstr(out, "info depth 3 seldepth "));
    CHECK(strstr(out, " multipv 1 score cp "));
    CHECK(strstr(out, " nodes ") && strstr(out, " nps ") && strstr(out, " time "));
    CHECK(strstr(out, " pv "));
    CHECK(strstr(out, "info string error: 'depth' needs a number, not 'abc'; ignored\n"));
    CHECK(strstr(out, "info string error: mate needs a number of moves from 1; ignored\n"));
    CHECK(strstr(out, "info string ignored go parameter 'sideways'\n"));
    CHECK(strstr(out, "info string error: 'depth' needs a number, not ''; ignored\n"));
    CHECK(strstr(out, "info string ignored go parameter 'e7e5'\n")); /* not after searchmoves */
    CHECK_EQ_INT(count(out, "ignored go parameter"), 2); /* searchmoves' moves are no error */
    free(out);
}

/* searchmoves: the search chooses among the given moves only (those that are legal),
 * even when a better one is left out; none of them legal: every move. */
TEST(uci_go_searchmoves)
{
    /* White takes a free queen with Rxd8 unless told to look at king moves only. */
    char *out = uci("position fen 3q3k/8/8/8/8/8/8/3R3K w - - 0 1\n"
                    "go depth 5\n"
                    "go depth 5 searchmoves h1g1 h1g2\n"
                    "go depth 5 searchmoves h1g2 e2e4 d1d2\n"
                    "go depth 5 searchmoves h1h2 zz\n");
    const char *a = strstr(out, "bestmove "), *b = a ? strstr(a + 1, "bestmove ") : NULL;
    const char *c = b ? strstr(b + 1, "bestmove ") : NULL,
               *d = c ? strstr(c + 1, "bestmove ") : NULL;
    CHECK(a && !strncmp(a, "bestmove d1d8", 13));
    CHECK(b && (!strncmp(b, "bestmove h1g1", 13) || !strncmp(b, "bestmove h1g2", 13)));
    /* e2e4 is not a move here: it ends the list and is named. */
    CHECK(c && (!strncmp(c, "bestmove h1g2", 13)));
    CHECK(strstr(out, "info string ignored go parameter 'e2e4'\n"));
    CHECK(d && !strncmp(d, "bestmove h1h2", 13));
    free(out);
    /* The other games too (the generic search). */
    char *argv[] = {"agora", "uci", "--game", "egara", NULL};
    out = NULL;
    CHECK_EQ_INT(cli_run("position startpos\ngo depth 3 searchmoves c3-d4\nquit\n", &out, 4, argv),
                 0);
    CHECK(out && strstr(out, "bestmove c3-d4 ") != NULL);
    free(out);
}

TEST(uci_go_mate_and_ponder_move)
{
    char *out = uci("position fen 7k/8/8/8/8/8/R7/1R5K w - - 0 1\n"
                    "go mate 2\n");
    CHECK(strstr(out, "score mate 2 "));
    CHECK(strstr(out, "bestmove "));
    free(out);
    /* A ponder move is the best line's reply, legal after the best move. */
    out = uci("position startpos\ngo depth 4\n");
    char best[16] = "", reply[16] = "";
    const char *p = strstr(out, "bestmove ");
    CHECK(p && sscanf(p, "bestmove %15s ponder %15s", best, reply) == 2);
    char moves[40];
    snprintf(moves, sizeof moves, "%s %s", best, reply);
    const struct game *g = game_find("chess");
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    Move m;
    g->start(st);
    CHECK(g->parse_move(st, best, &m, err, sizeof err) == 0);
    g->make_move(st, m);
    CHECK_MSG(g->parse_move(st, reply, &m, err, sizeof err) == 0, "ponder %s: %s", reply, err);
    free(st);
    free(out);
}

TEST(uci_go_before_position_and_out_of_order)
{
    char *out = uci("stop\n"
                    "ponderhit\n"
                    "go depth 2\n"
                    "ucinewgame\n"
                    "go depth 1\n"
                    "isready\n");
    CHECK_EQ_INT(count(out, "info string no position given; searching the start position\n"), 2);
    CHECK(strstr(out, "info string ponderhit without a search; ignored\n"));
    CHECK_EQ_INT(count(out, "bestmove "), 2);
    bestmoves_legal(TEST_CTX, out, "");
    CHECK(strstr(out, "readyok\n"));
    free(out);
}

TEST(uci_survives_malformed_input)
{
    size_t big = 300u << 10;
    size_t cap = big + 4096;
    char *in = malloc(cap);
    if (!in)
        return;
    /* A line of 300 kB, control and high bytes, an endless FEN, garbage words. */
    memset(in, 'x', big);
    size_t n = big;
    const char *rest = "\n"
                       "\x01go\tdepth\x0b"
                       "1\n"
                       "\xff\xfe\xfd\xfc\xfb\n"
                       "position fen 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22\n"
                       "position startpos moves moves moves\n"
                       "moves\n"
                       "\n   \n\t\n"
                       "go go go\n"
                       "setoption name value value\n"
                       "setoption value name\n"
                       "\xc3\xa9\xc3\xa9 \xe2\x82\xac\n"
                       "isready\n"
                       "position startpos moves e2e4\n"
                       "go depth 1\n";
    memcpy(in + n, rest, strlen(rest) + 1);
    char *out = uci(in);
    CHECK(strstr(out, "info string error: a line longer than 262144 bytes; ignored\n"));
    CHECK(strstr(out, "readyok\n"));
    CHECK(strstr(out, "info string unknown command '\?\?\?\?\?'\n"));
    CHECK(strstr(out, "info string unknown command 'moves'\n"));
    CHECK(strstr(out, "info string unknown command '\?\?\?\?'\n"));
    CHECK_EQ_INT(count(out, "bestmove "), 3);
    CHECK(strlen(out) < 20000); /* nothing echoed at length */
    free(out);
    /* A last line without its newline still counts. */
    out = uci("position startpos moves e2e4\ngo depth 1");
    CHECK_EQ_INT(count(out, "bestmove "), 1);
    bestmoves_legal(TEST_CTX, out, "e2e4");
    free(out);
    free(in);
}

TEST(uci_end_of_input_stops_open_searches)
{
    /* An infinite or pondering search ends at quit or the end of input: no hang. */
    char *out = uci("go infinite\nquit\n");
    CHECK_EQ_INT(count(out, "bestmove "), 1);
    free(out);
    out = uci("position startpos\ngo ponder wtime 100000 btime 100000\n");
    CHECK_EQ_INT(count(out, "bestmove "), 1);
    free(out);
    /* A second go ends an infinite one first. */
    out = uci("go infinite\ngo depth 1\nisready\n");
    CHECK_EQ_INT(count(out, "bestmove "), 2);
    free(out);
}

TEST(uci_move_overhead_leaves_a_clock)
{
    /* An overhead larger than the clock still leaves 1 ms, not "no clock". */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *out = uci("setoption name Move Overhead value 5000\n"
                    "position startpos\n"
                    "go wtime 3000 btime 3000\n");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK_EQ_INT(count(out, "bestmove "), 1);
    CHECK_MSG(secs < 2.0, "took %.2f s", secs);
    free(out);
}

/* ---- Through pipes: commands while the search runs ------------------------------ */

static char *uci_argv[] = {"agora", "uci", NULL};

/* Read lines until one starts with `word`; fails the test on a bestmove first (when
 * not looking for one) or a timeout. */
static void expect_line(struct test_ctx *t__, struct cli_session *s, const char *word, int ms)
{
    char line[4096];
    for (;;) {
        int r = match_uci_read(&s->c, line, sizeof line, ms);
        if (r != 1) {
            test_fail(t__, __FILE__, __LINE__, "no '%s' within %d ms", word, ms);
            return;
        }
        if (!strncmp(line, word, strlen(word)))
            return;
        if (!strncmp(line, "bestmove", 8)) {
            test_fail(t__, __FILE__, __LINE__, "'%s' before '%s'", line, word);
            return;
        }
    }
}

/* No bestmove within `ms` (other lines are read and dropped). */
static void no_bestmove(struct test_ctx *t__, struct cli_session *s, int ms)
{
    char line[4096];
    while (match_uci_read(&s->c, line, sizeof line, ms) == 1)
        CHECK_MSG(strncmp(line, "bestmove", 8) != 0, "early '%s'", line);
}

TEST(uci_isready_and_stop_during_a_search)
{
    struct cli_session s;
    CHECK(cli_session_start(&s, 2, uci_argv) == 0);
    match_uci_send(&s.c, "position startpos");
    match_uci_send(&s.c, "go infinite");
    expect_line(TEST_CTX, &s, "info depth", MUST_COME_MS);
    match_uci_send(&s.c, "isready");
    expect_line(TEST_CTX, &s, "readyok", MUST_COME_MS);
    /* position and setoption are taken while it thinks; the search goes on. */
    match_uci_send(&s.c, "position startpos moves e2e4");
    match_uci_send(&s.c, "setoption name MultiPV value 2");
    match_uci_send(&s.c, "isready");
    expect_line(TEST_CTX, &s, "readyok", MUST_COME_MS);
    no_bestmove(TEST_CTX, &s, HELD_BACK_MS);
    match_uci_send(&s.c, "stop");
    expect_line(TEST_CTX, &s, "bestmove", MUST_COME_MS);
    /* The next search starts from the new position. */
    match_uci_send(&s.c, "go depth 1");
    char line[4096] = "";
    CHECK(match_uci_expect(&s.c, "bestmove", line, sizeof line, MUST_COME_MS) == 1);
    CHECK_MSG(strlen(line) > 10 && strchr("abcdefgh", line[9]) && strchr("78", line[10]),
              "a black move expected: %s", line);
    CHECK_EQ_INT(cli_session_end(&s, "quit"), 0);
}

TEST(uci_ponder_waits_for_ponderhit_or_stop)
{
    struct cli_session s;
    CHECK(cli_session_start(&s, 2, uci_argv) == 0);
    match_uci_send(&s.c, "setoption name Ponder value true");
    match_uci_send(&s.c, "position startpos moves e2e4 e7e5");
    /* A search that ends at once still holds its answer until ponderhit. */
    match_uci_send(&s.c, "go ponder depth 2 wtime 60000 btime 60000");
    no_bestmove(TEST_CTX, &s, HELD_BACK_MS);
    match_uci_send(&s.c, "isready");
    expect_line(TEST_CTX, &s, "readyok", MUST_COME_MS);
    match_uci_send(&s.c, "ponderhit");
    expect_line(TEST_CTX, &s, "bestmove", MUST_COME_MS);
    /* The opponent played something else: stop, then the real search. */
    match_uci_send(&s.c, "go ponder wtime 60000 btime 60000");
    no_bestmove(TEST_CTX, &s, HELD_BACK_MS);
    match_uci_send(&s.c, "stop");
    expect_line(TEST_CTX, &s, "bestmove", MUST_COME_MS);
    match_uci_send(&s.c, "position startpos moves e2e4 e7e5 g1f3");
    match_uci_send(&s.c, "go depth 2");
    expect_line(TEST_CTX, &s, "bestmove", MUST_COME_MS);
    CHECK_EQ_INT(cli_session_end(&s, "quit"), 0);
}

TEST(uci_own_book)
{
    const struct test_book_entry book[] = {
        {TEST_BOOK_START_KEY, test_book_move("d2", "d4", 0), 1},
    };
    char path[64], input[1024];
    test_book_write(path, book, 1, 0);
    snprintf(input, sizeof input,
             "setoption name OwnBook value true\n" /* the default file may be absent */
             "setoption name BookFile value /nonexistent/book.bin\n"
             "setoption name BookFile value %s\n"
             "setoption name OwnBook value true\n"
             "position startpos\n"
             "go depth 3\n"
             "go infinite\n"
             "stop\n"
             "position startpos moves d2d4\n"
             "go depth 1\n",
             path);
    char *out = uci(input);
    CHECK(strstr(out, "info string error: cannot open book '/nonexistent/book.bin': No such "
                      "file or directory; nothing changed\n"));
    CHECK_EQ_INT(count(out, "info string book move d2d4\n"), 1);
    CHECK(strstr(out, "bestmove d2d4\n"));
    CHECK_EQ_INT(count(out, "bestmove "), 3);
    free(out);
    /* A broken book is refused and the open one stays. */
    char broken[64];
    test_book_write(broken, book, 1, 3);
    snprintf(input, sizeof input,
             "setoption name BookFile value %s\nsetoption name OwnBook value true\n"
             "setoption name BookFile value %s\nposition startpos\ngo depth 1\n",
             path, broken);
    out = uci(input);
    CHECK(strstr(out, "19 bytes is not a whole number of 16-byte entries"));
    CHECK(strstr(out, "info string book move d2d4\n"));
    free(out);
    unlink(path);
    unlink(broken);
}
