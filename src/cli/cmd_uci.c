/* agora uci [--game GAME]: the UCI protocol on stdin/stdout for any registered game.
 *
 * Chess (the default) speaks plain UCI with UCI move texts; the other games speak the
 * same protocol with their own texts:
 *   uci | isready | ucinewgame | quit | stop | ponderhit | debug on|off
 *   setoption name NAME [value VALUE]        (the options: uci_options.h)
 *   position startpos [moves M ...]
 *   position fen|text TEXT [moves M ...]
 *   go [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N] [depth N] [nodes N]
 *      [movetime MS] [mate N] [infinite] [ponder] [searchmoves M ...]
 *   d                                        (the board and position text, for people)
 * The search runs on its own thread on its own copy of the position, so `isready`,
 * `stop`, `ponderhit` and `position` are answered while it thinks; `go`, `ucinewgame`
 * and the hash options wait for it to end (and end an infinite or pondering search).
 * Bad input of any kind gets an `info string` naming the problem and changes nothing.
 * With OwnBook on, chess positions in the Polyglot book are played from it. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/rng.h"
#include "engines/engine.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "uci_options.h"

/* Longer lines are read and dropped (the longest legal chess game in UCI moves is
 * about 110 kB). */
#define UCI_LINE_MAX (256u << 10)
/* How much of a bad word an error message repeats. */
#define UCI_ECHO_MAX 40
#define UCI_MAX_SEARCHMOVES 256 /* more are ignored (a position has fewer moves) */

struct uci {
    const struct game *g;
    struct cli_io *io;
    struct uci_options opt;
    void *st;          /* the position of the last good `position` command */
    int have_position; /* a `position` came since the start or `ucinewgame` */
    struct engine *engine;
    struct engine_book *book; /* open while OwnBook is on (a game with books) */
    char book_open_path[UCI_PATH_MAX];
    struct rng book_rng;

    /* The running search: the main thread starts and joins it; `searching` is the
     * main thread's own. */
    pthread_t thread;
    int searching;
    void *search_st; /* the search's copy of st */
    struct engine_limits lim;
    int level;
    uint64_t seed;
    Move book_move;                        /* non-zero: play this without searching */
    Move searchmoves[UCI_MAX_SEARCHMOVES]; /* the last go's searchmoves */
    int nsearchmoves;
    atomic_int stop, pondering;
    char pv[ENGINE_PV_TEXT_MAX]; /* the last reported best line */
    pthread_mutex_t lock;        /* output, pv, and waiting for stop/ponderhit */
    pthread_cond_t wake;
};

static void say(struct uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->lock);
    vfprintf(u->io->out, fmt, ap);
    fputc('\n', u->io->out);
    fflush(u->io->out);
    pthread_mutex_unlock(&u->lock);
    va_end(ap);
}

/* A word of the input as an error message may repeat it: printable ASCII, cut. */
static const char *echo(const char *w, char *buf, size_t size)
{
    size_t n = 0;
    for (; *w && n + 4 < size && n < UCI_ECHO_MAX; w++)
        buf[n++] = *w > ' ' && *w < 127 ? *w : '?';
    if (*w)
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = 0;
    return buf;
}

/* ---- Reading ------------------------------------------------------------------ */

/* The next line of `in` into *buf without its end, control bytes turned into spaces:
 * its length, -1 at the end of input, -2 for a line longer than UCI_LINE_MAX (read
 * to its end and dropped). */
static long read_line(FILE *in, char **buf, size_t *cap)
{
    size_t n = 0;
    int c, any = 0, too_long = 0;
    while ((c = getc(in)) != EOF && c != '\n') {
        any = 1;
        if (n >= UCI_LINE_MAX) {
            too_long = 1;
            continue;
        }
        if (n + 1 >= *cap) {
            size_t want = *cap ? *cap * 2 : 256;
            char *p = realloc(*buf, want);
            if (!p) {
                too_long = 1;
                continue;
            }
            *buf = p;
            *cap = want;
        }
        (*buf)[n++] = (char)(c < ' ' || c == 127 ? ' ' : c);
    }
    if (c == EOF && !any)
        return -1;
    if (too_long)
        return -2;
    if (!*buf && !(*buf = malloc(*cap = 1)))
        return -2;
    (*buf)[n] = 0;
    return (long)n;
}

/* The next space-separated word of *s, or NULL. */
static char *next_word(char **s)
{
    char *p = *s;
    while (*p == ' ')
        p++;
    if (!*p)
        return NULL;
    char *w = p;
    while (*p && *p != ' ')
        p++;
    if (*p)
        *p++ = 0;
    *s = p;
    return w;
}

/* The standalone word `word` in s, or NULL. */
static char *find_word(char *s, const char *word)
{
    size_t n = strlen(word);
    for (char *p = strstr(s, word); p; p = strstr(p + 1, word))
        if ((p == s || p[-1] == ' ') && (!p[n] || p[n] == ' '))
            return p;
    return NULL;
}

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = 0;
    return s;
}

/* ---- The search thread ---------------------------------------------------------- */

/* "cp 35", or "mate N" with N in moves (negative when the side to move is lost). */
static void score_text(Score s, char *buf, size_t size)
{
    if (s >= ENGINE_WIN_BOUND)
        snprintf(buf, size, "mate %d", (SCORE_WIN - s + 1) / 2);
    else if (s <= -ENGINE_WIN_BOUND)
        snprintf(buf, size, "mate -%d", (SCORE_WIN + s) / 2);
    else
        snprintf(buf, size, "cp %d", (int)s);
}

static void on_info(void *ctx, const struct engine_info *info)
{
    struct uci *u = ctx;
    char score[32], hashfull[32] = "";
    score_text(info->score, score, sizeof score);
    if (info->bound != ENGINE_BOUND_EXACT)
        strncat(score, info->bound == ENGINE_BOUND_LOWER ? " lowerbound" : " upperbound",
                sizeof score - strlen(score) - 1);
    if (info->hashfull >= 0)
        snprintf(hashfull, sizeof hashfull, " hashfull %d", info->hashfull);
    uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : 0;
    int line = info->multipv > 0 ? info->multipv : 1;
    pthread_mutex_lock(&u->lock);
    if (line == 1 && info->bound == ENGINE_BOUND_EXACT)
        snprintf(u->pv, sizeof u->pv, "%s", info->pv);
    fprintf(u->io->out,
            "info depth %d seldepth %d multipv %d score %s nodes %llu nps %llu%s time %lld%s%s\n",
            info->depth, info->seldepth, line, score, (unsigned long long)info->nodes,
            (unsigned long long)nps, hashfull, (long long)info->time_ms, info->pv[0] ? " pv " : "",
            info->pv);
    fflush(u->io->out);
    pthread_mutex_unlock(&u->lock);
}

/* The reply the best line expects after `best`, checked legal, or "" when unknown. */
static void ponder_move(struct uci *u, Move best, char *out, size_t size)
{
    const struct game *g = u->g;
    char best_text[MOVE_TEXT_MAX], line[ENGINE_PV_TEXT_MAX], err[ERROR_TEXT_MAX];
    *out = 0;
    pthread_mutex_lock(&u->lock);
    snprintf(line, sizeof line, "%s", u->pv);
    pthread_mutex_unlock(&u->lock);
    g->move_text(u->search_st, best, best_text, sizeof best_text);
    char *rest = line, *first = next_word(&rest), *second = next_word(&rest);
    if (!first || !second || strcmp(first, best_text) != 0 ||
        g->ply(u->search_st) >= g->max_plies - 2)
        return;
    Move reply, *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    g->make_move(u->search_st, best);
    if (moves && game_legal_moves(g, u->search_st, moves) > 0 &&
        g->parse_move(u->search_st, second, &reply, err, sizeof err) == 0)
        g->move_text(u->search_st, reply, out, size);
    g->unmake_move(u->search_st, best);
    free(moves);
}

/* No move: the game is over.  Say so the way GUIs expect: mated, or a draw. */
static void game_over_info(struct uci *u)
{
    struct game_status gs;
    u->g->status(u->search_st, &gs);
    enum side us = u->g->side_to_move(u->search_st);
    int lost = gs.result == (us == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
    if (lost || gs.result == RESULT_DRAW)
        say(u, "info depth 0 score %s", lost ? "mate 0" : "cp 0");
    say(u, "info string the game is over: %s", reason_text(u->g, gs.reason));
}

static void *search_thread(void *arg)
{
    struct uci *u = arg;
    struct engine_result r;
    Move m = u->book_move;
    if (!m)
        m = engine_go(u->engine, u->g, u->search_st, u->level, &u->lim, u->seed, &r);
    char text[MOVE_TEXT_MAX] = "(none)", ponder[MOVE_TEXT_MAX] = "";
    if (!m) {
        game_over_info(u);
    } else {
        u->g->move_text(u->search_st, m, text, sizeof text);
        if (!u->book_move)
            ponder_move(u, m, ponder, sizeof ponder);
    }
    /* UCI: no bestmove before `stop` in infinite mode, or before `stop` or
     * `ponderhit` while pondering. */
    pthread_mutex_lock(&u->lock);
    while (!atomic_load(&u->stop) && (u->lim.infinite || atomic_load(&u->pondering)))
        pthread_cond_wait(&u->wake, &u->lock);
    pthread_mutex_unlock(&u->lock);
    say(u, "bestmove %s%s%s", text, *ponder ? " ponder " : "", ponder);
    return NULL;
}

/* Wake the search thread after a flag changed. */
static void wake_search(struct uci *u, atomic_int *flag, int value)
{
    pthread_mutex_lock(&u->lock);
    atomic_store(flag, value);
    pthread_cond_broadcast(&u->wake);
    pthread_mutex_unlock(&u->lock);
}

/* Wait for the search to end; stop it first when asked, or when it would never end
 * by itself (infinite, pondering). */
static void finish_search(struct uci *u, int stop_it)
{
    if (!u->searching)
        return;
    if (stop_it || u->lim.infinite || atomic_load(&u->pondering))
        wake_search(u, &u->stop, 1);
    pthread_join(u->thread, NULL);
    u->searching = 0;
}

/* ---- Commands ------------------------------------------------------------------- */

/* position startpos|fen T|text T [moves ...]: built on a scratch state, so a bad
 * position or move changes nothing. */
static void cmd_position(struct uci *u, char *args)
{
    const struct game *g = u->g;
    char err[ERROR_TEXT_MAX], shown[UCI_ECHO_MAX + 8];
    void *st = game_state_new(g);
    if (!st) {
        say(u, "info string error: out of memory");
        return;
    }
    char *moves = find_word(args, "moves");
    if (moves) {
        *moves = 0;
        moves += 5;
    }
    char *kind = next_word(&args);
    int bad = 1;
    if (kind && !strcmp(kind, "startpos")) {
        g->start(st);
        bad = next_word(&args) != NULL;
        if (bad)
            say(u, "info string error: unexpected text after 'startpos'");
    } else if (kind && (!strcmp(kind, "fen") || !strcmp(kind, "text"))) {
        bad = g->parse_position(st, trim(args), err, sizeof err) != 0;
        if (bad)
            say(u, "info string error: bad position: %s; position unchanged", err);
    } else {
        say(u, "info string error: expected 'position startpos' or 'position fen ...'; "
               "position unchanged");
    }
    Move *legal = malloc(sizeof(Move) * (size_t)g->max_moves);
    for (char *w; !bad && moves && (w = next_word(&moves));) {
        Move m;
        if (!legal || g->ply(st) >= g->max_plies - 1) {
            say(u, "info string error: too many moves; position unchanged");
            bad = 1;
        } else if (game_legal_moves(g, st, legal) == 0) {
            say(u, "info string error: move '%s' after the end of the game; position unchanged",
                echo(w, shown, sizeof shown));
            bad = 1;
        } else if (g->parse_move(st, w, &m, err, sizeof err)) {
            say(u, "info string error: %s; position unchanged", err);
            bad = 1;
        } else {
            g->make_move(st, m);
        }
    }
    free(legal);
    if (bad) {
        free(st);
        return;
    }
    free(u->st);
    u->st = st;
    u->have_position = 1;
}

/* A whole number after a go keyword: 0, or -1 after an error message. */
static int go_number(struct uci *u, const char *key, char **args, int64_t *out)
{
    char shown[UCI_ECHO_MAX + 8];
    char *w = next_word(args), *end;
    long long v = w ? strtoll(w, &end, 10) : 0;
    if (!w || end == w || *end) {
        say(u, "info string error: '%s' needs a number, not '%s'; ignored", key,
            w ? echo(w, shown, sizeof shown) : "");
        return -1;
    }
    *out = v;
    return 0;
}

/* The go keywords that take a number, in the order of go_keys. */
enum go_key {
    GO_WTIME,
    GO_BTIME,
    GO_WINC,
    GO_BINC,
    GO_MOVESTOGO,
    GO_DEPTH,
    GO_MOVETIME,
    GO_NODES,
    GO_MATE,
    GO_KEYS
};
static const char *const go_keys[GO_KEYS] = {"wtime", "btime",    "winc",  "binc", "movestogo",
                                             "depth", "movetime", "nodes", "mate"};

/* Limits from the words of `go`; a bad word is named and ignored (a GUI always waits
 * for a bestmove). */
static void parse_go(struct uci *u, char *args, struct engine_limits *lim, int *ponder)
{
    char shown[UCI_ECHO_MAX + 8], err[ERROR_TEXT_MAX];
    int has_clock[2] = {0, 0}, in_searchmoves = 0;
    for (char *w; (w = next_word(&args));) {
        Move m;
        if (in_searchmoves && u->g->parse_move(u->st, w, &m, err, sizeof err) == 0) {
            if (u->nsearchmoves < UCI_MAX_SEARCHMOVES)
                u->searchmoves[u->nsearchmoves++] = m;
            continue;
        }
        in_searchmoves = 0;
        if (!strcmp(w, "infinite")) {
            lim->infinite = 1;
            continue;
        }
        if (!strcmp(w, "ponder")) {
            *ponder = 1;
            continue;
        }
        if (!strcmp(w, "searchmoves")) {
            in_searchmoves = 1;
            continue;
        }
        int k = 0;
        while (k < GO_KEYS && strcmp(w, go_keys[k]) != 0)
            k++;
        if (k == GO_KEYS) {
            say(u, "info string ignored go parameter '%s'", echo(w, shown, sizeof shown));
            continue;
        }
        int64_t v;
        if (go_number(u, w, &args, &v))
            continue;
        int64_t at_least_1 = v < 1 ? 1 : v;
        switch ((enum go_key)k) {
        case GO_WTIME:
        case GO_BTIME:
            /* A clock at or below zero is still a clock: 1 ms, not "none". */
            lim->time_ms[k - GO_WTIME] = at_least_1;
            has_clock[k - GO_WTIME] = 1;
            break;
        case GO_WINC:
        case GO_BINC: lim->inc_ms[k - GO_WINC] = v < 0 ? 0 : v; break;
        case GO_MOVESTOGO: lim->movestogo = v < 0 ? 0 : v > 1000 ? 1000 : (int)v; break;
        case GO_DEPTH:
            lim->depth = at_least_1 > ENGINE_MAX_PLY - 1 ? ENGINE_MAX_PLY - 1 : (int)at_least_1;
            break;
        case GO_MOVETIME: lim->movetime_ms = at_least_1; break;
        case GO_NODES: lim->nodes = (uint64_t)at_least_1; break;
        case GO_MATE:
            if (v < 1)
                say(u, "info string error: mate needs a number of moves from 1; ignored");
            else
                lim->mate = v > ENGINE_MAX_PLY / 2 ? ENGINE_MAX_PLY / 2 : (int)v;
            break;
        case GO_KEYS: break;
        }
    }
    /* Move Overhead: the time the answer takes to reach the clock. */
    for (int s = 0; s < 2; s++)
        if (has_clock[s]) {
            int64_t t = lim->time_ms[s] - u->opt.move_overhead_ms;
            lim->time_ms[s] = t < 1 ? 1 : t;
        }
}

/* The book move for the position, when OwnBook is on and the book has one. */
static Move book_move(struct uci *u)
{
    char err[ERROR_TEXT_MAX], text[MOVE_TEXT_MAX];
    Move m = 0;
    if (!u->book || !u->opt.own_book)
        return 0;
    int r = engine_book_pick(u->book, u->g, u->st, &u->book_rng, &m, err, sizeof err);
    if (r < 0)
        say(u, "info string error: %s", err);
    if (r != 1)
        return 0;
    u->g->move_text(u->st, m, text, sizeof text);
    say(u, "info string book move %s", text);
    return m;
}

static void cmd_go(struct uci *u, char *args)
{
    finish_search(u, 0);
    struct engine_limits lim = {0};
    int ponder = 0;
    u->nsearchmoves = 0;
    parse_go(u, args, &lim, &ponder);
    lim.searchmoves = u->searchmoves;
    lim.nsearchmoves = u->nsearchmoves;
    if (!u->have_position)
        say(u, "info string no position given; searching the start position");
    lim.algo = (enum engine_algo)u->opt.algo;
    lim.multipv = u->opt.multipv;
    lim.threads = u->opt.threads;
    lim.stop = &u->stop;
    lim.ponder = &u->pondering;
    lim.on_info = on_info;
    lim.info_ctx = u;
    u->lim = lim;
    u->level = uci_play_level(&u->opt, u->g);
    u->seed = u->g->key(u->st) ^ (uint64_t)u->g->ply(u->st);
    /* Analysis (infinite, mate) asks for a search, not a book move. */
    u->book_move = lim.infinite || lim.mate || lim.nsearchmoves ? 0 : book_move(u);
    memcpy(u->search_st, u->st, u->g->state_size);
    u->pv[0] = 0;
    atomic_store(&u->stop, 0);
    atomic_store(&u->pondering, ponder);
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        say(u, "info string error: cannot start the search");
        say(u, "bestmove (none)");
        return;
    }
    u->searching = 1;
}

/* OwnBook and BookFile: the book `next` asks for opened (or closed); -1 after a
 * message when it cannot be opened. */
static int apply_book(struct uci *u, const struct uci_options *next)
{
    char err[ERROR_TEXT_MAX];
    if (u->book && next->own_book && !strcmp(u->book_open_path, next->book_file))
        return 0;
    struct engine_book *b = NULL;
    if (engine_book_open(engine_profile_of(u->g), next->book_file, &b, err, sizeof err) != 0) {
        if (!next->own_book && !strcmp(next->book_file, u->opt.book_file))
            return 0; /* OwnBook off and the file unchanged: nothing to check */
        say(u, "info string error: %s; nothing changed", err);
        return -1;
    }
    engine_book_close(u->book);
    u->book = NULL;
    if (next->own_book) {
        u->book = b;
        snprintf(u->book_open_path, sizeof u->book_open_path, "%s", next->book_file);
    } else {
        engine_book_close(b);
    }
    return 0;
}

/* setoption name NAME [value VALUE]: all or nothing. */
static void cmd_setoption(struct uci *u, char *args)
{
    char err[ERROR_TEXT_MAX];
    char *name = find_word(args, "name");
    if (!name) {
        say(u, "info string error: setoption needs 'name'");
        return;
    }
    name += 4;
    char *value = find_word(name, "value");
    if (value) {
        *value = 0;
        value = trim(value + 5);
    }
    name = trim(name);
    struct uci_options next = u->opt;
    enum uci_effect effect;
    if (uci_option_set(&next, u->g, name, value, &effect, err, sizeof err) != 0) {
        say(u, "info string error: %s; nothing changed", err);
        return;
    }
    if (effect == UCI_EFFECT_HASH) {
        finish_search(u, 0);
        struct engine *e = engine_new((size_t)next.hash_mb);
        if (!e) {
            say(u, "info string error: no memory for a %d MB table; nothing changed", next.hash_mb);
            return;
        }
        engine_free(u->engine);
        u->engine = e;
    } else if (effect == UCI_EFFECT_CLEAR_HASH) {
        finish_search(u, 0);
        engine_clear(u->engine);
    } else if (effect == UCI_EFFECT_BOOK && apply_book(u, &next) != 0) {
        return;
    }
    u->opt = next;
}

static void cmd_identify(struct uci *u)
{
    char line[256];
    say(u, "id name agora %s", u->g->name);
    say(u, "id author the agora authors");
    for (int i = 0; uci_option_line(u->g, i, line, sizeof line); i++)
        say(u, "%s", line);
    say(u, "uciok");
}

static void cmd_show(struct uci *u)
{
    char board[RENDER_TEXT_MAX], text[POSITION_TEXT_MAX];
    u->g->render(u->st, board, sizeof board);
    u->g->write_position(u->st, text, sizeof text);
    say(u, "%s\nposition text %s", board, text);
}

/* One command line; 0 on quit. */
static int uci_line(struct uci *u, char *line)
{
    char shown[UCI_ECHO_MAX + 8];
    char *args = line;
    char *cmd = next_word(&args);
    if (!cmd)
        return 1;
    if (!strcmp(cmd, "quit")) {
        finish_search(u, 1);
        return 0;
    }
    if (!strcmp(cmd, "stop")) {
        finish_search(u, 1);
    } else if (!strcmp(cmd, "isready")) {
        say(u, "readyok");
    } else if (!strcmp(cmd, "ponderhit")) {
        if (u->searching)
            wake_search(u, &u->pondering, 0);
        else
            say(u, "info string ponderhit without a search; ignored");
    } else if (!strcmp(cmd, "uci")) {
        cmd_identify(u);
    } else if (!strcmp(cmd, "ucinewgame")) {
        finish_search(u, 0);
        engine_clear(u->engine);
        u->g->start(u->st);
        u->have_position = 0;
    } else if (!strcmp(cmd, "position")) {
        cmd_position(u, args);
    } else if (!strcmp(cmd, "go")) {
        cmd_go(u, args);
    } else if (!strcmp(cmd, "setoption")) {
        cmd_setoption(u, args);
    } else if (!strcmp(cmd, "d")) {
        cmd_show(u);
    } else if (strcmp(cmd, "debug") != 0 && strcmp(cmd, "register") != 0) {
        say(u, "info string unknown command '%s'", echo(cmd, shown, sizeof shown));
    }
    return 1;
}

static void uci_free(struct uci *u)
{
    free(u->st);
    free(u->search_st);
    engine_free(u->engine);
    engine_book_close(u->book);
    pthread_cond_destroy(&u->wake);
    pthread_mutex_destroy(&u->lock);
    free(u);
}

int cmd_uci(int argc, char **argv, struct cli_io *io)
{
    /* The game whose own protocol UCI is, unless --game names another. */
    const struct game *g = NULL;
    for (int i = 0; engine_profiles[i] && !g; i++)
        if (engine_profiles[i]->uci_native)
            g = engine_profiles[i]->game;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc) {
            if (!(g = cli_game(io, argv[++i])))
                return CLI_BAD_INPUT;
        } else {
            return cli_error(io, "uci: unexpected argument '%s'", argv[i]);
        }
    }
    if (!g)
        return cli_error(io, "uci: no game speaks UCI by default; give --game GAME");
    struct uci *u = calloc(1, sizeof *u);
    if (!u)
        return cli_error(io, "uci: out of memory");
    u->g = g;
    u->io = io;
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->wake, NULL);
    uci_options_default(&u->opt, g);
    u->st = game_state_new(g);
    u->search_st = game_state_new(g);
    u->engine = engine_new((size_t)u->opt.hash_mb);
    if (!u->st || !u->search_st || !u->engine) {
        uci_free(u);
        return cli_error(io, "uci: out of memory");
    }
    g->start(u->st);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    rng_seed(&u->book_rng,
             (uint64_t)now.tv_sec * 1000000007u ^ (uint64_t)now.tv_nsec ^ (uint64_t)getpid() << 40);
    char *line = NULL;
    size_t cap = 0;
    for (long len; (len = read_line(io->in, &line, &cap)) != -1;) {
        if (len == -2)
            say(u, "info string error: a line longer than %u bytes; ignored", UCI_LINE_MAX);
        else if (!uci_line(u, line))
            break;
    }
    /* At the end of input a finite search still answers (a script's last `go`). */
    finish_search(u, 0);
    free(line);
    uci_free(u);
    return 0;
}
