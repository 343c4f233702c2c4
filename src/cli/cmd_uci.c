/* agora uci [--game GAME]: the UCI protocol on stdin/stdout for any registered game.
 *
 * Chess (the default where registered) speaks plain UCI with UCI move texts; the
 * other games speak the same protocol with their own texts:
 *   position startpos [moves M ...]
 *   position text <position text> [moves M ...]     (`position fen` is an alias)
 *   go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
 *      [movestogo N] [infinite]
 *   stop | isready | ucinewgame | quit | d (the board, for people)
 *   setoption name Level value N     (0: full strength within the go limits)
 *   setoption name Hash value MB  |  setoption name Algorithm value auto|alphabeta|mcts
 * The search runs on its own thread, so `stop` and `isready` are answered while it
 * thinks. */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli.h"
#include "core/registry.h"
#include "search/engine.h"

#define UCI_DEFAULT_HASH_MB 16
#define UCI_MAX_HASH_MB 1024

struct uci {
    const struct game *g;
    void *st;
    struct engine *engine;
    struct cli_io *io;
    int level, hash_mb;
    enum engine_algo algo;
    /* The search thread, while `searching`. */
    pthread_t thread;
    int searching;
    atomic_int stop;
    struct engine_limits lim;
    uint64_t seed;
    pthread_mutex_t out_lock;
};

static void say(struct uci *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct uci *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out_lock);
    vfprintf(u->io->out, fmt, ap);
    fputc('\n', u->io->out);
    fflush(u->io->out);
    pthread_mutex_unlock(&u->out_lock);
    va_end(ap);
}

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
    char score[32];
    score_text(info->score, score, sizeof score);
    uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : 0;
    say(u, "info depth %d seldepth %d score %s nodes %llu nps %llu time %lld%s%s", info->depth,
        info->seldepth, score, (unsigned long long)info->nodes, (unsigned long long)nps,
        (long long)info->time_ms, info->pv[0] ? " pv " : "", info->pv);
}

static void *search_thread(void *arg)
{
    struct uci *u = arg;
    struct engine_result r;
    Move m = engine_go(u->engine, u->g, u->st, u->level, &u->lim, u->seed, &r);
    if (u->lim.infinite) /* UCI: no bestmove before `stop` in infinite mode */
        while (!atomic_load(&u->stop)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    char text[MOVE_TEXT_MAX] = "(none)";
    if (m)
        u->g->move_text(u->st, m, text, sizeof text);
    say(u, "bestmove %s", text);
    return NULL;
}

static void finish_search(struct uci *u, int stop_it)
{
    if (!u->searching)
        return;
    if (stop_it)
        atomic_store(&u->stop, 1);
    pthread_join(u->thread, NULL);
    u->searching = 0;
}

/* The next space-separated word of *s, or NULL. */
static char *next_word(char **s)
{
    char *p = *s;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return NULL;
    char *w = p;
    while (*p && !isspace((unsigned char)*p))
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
        if ((p == s || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n])))
            return p;
    return NULL;
}

/* position startpos|text T|fen T [moves ...]: built on a scratch state, so a bad
 * position or move changes nothing. */
static void cmd_position(struct uci *u, char *args)
{
    char err[ERROR_TEXT_MAX];
    void *st = game_state_new(u->g);
    if (!st) {
        say(u, "info string error: out of memory");
        return;
    }
    char *kind = next_word(&args);
    char *moves = find_word(args, "moves");
    if (moves) {
        *moves = 0;
        moves += 5;
    }
    int bad = 0;
    if (kind && !strcmp(kind, "startpos")) {
        u->g->start(st);
        if (next_word(&args)) {
            say(u, "info string error: unexpected text after 'startpos'");
            bad = 1;
        }
    } else if (kind && (!strcmp(kind, "text") || !strcmp(kind, "fen"))) {
        while (isspace((unsigned char)*args))
            args++;
        size_t len = strlen(args);
        while (len && isspace((unsigned char)args[len - 1]))
            args[--len] = 0;
        if (u->g->parse_position(st, args, err, sizeof err)) {
            say(u, "info string error: bad position: %s", err);
            bad = 1;
        }
    } else {
        say(u, "info string error: expected 'position startpos' or 'position text ...'");
        bad = 1;
    }
    for (char *w; !bad && moves && (w = next_word(&moves));) {
        Move m;
        if (u->g->ply(st) >= u->g->max_plies - 1) {
            say(u, "info string error: too many moves");
            bad = 1;
        } else if (u->g->parse_move(st, w, &m, err, sizeof err)) {
            say(u, "info string error: %s", err);
            bad = 1;
        } else {
            u->g->make_move(st, m);
        }
    }
    if (bad) {
        free(st);
        return;
    }
    free(u->st);
    u->st = st;
}

static int parse_i64(const char *w, int64_t *out)
{
    char *end;
    if (!w)
        return -1;
    long long v = strtoll(w, &end, 10);
    if (end == w || *end)
        return -1;
    *out = v < 0 ? 0 : v;
    return 0;
}

static void cmd_go(struct uci *u, char *args)
{
    struct engine_limits lim = {0};
    for (char *w; (w = next_word(&args));) {
        int64_t v = 0;
        if (!strcmp(w, "infinite")) {
            lim.infinite = 1;
            continue;
        }
        if (!strcmp(w, "ponder"))
            continue;
        int known = !strcmp(w, "depth") || !strcmp(w, "nodes") || !strcmp(w, "movetime") ||
                    !strcmp(w, "wtime") || !strcmp(w, "btime") || !strcmp(w, "winc") ||
                    !strcmp(w, "binc") || !strcmp(w, "movestogo") || !strcmp(w, "mate");
        if (!known) {
            say(u, "info string ignored go parameter '%s'", w);
            continue;
        }
        if (parse_i64(next_word(&args), &v)) {
            say(u, "info string error: '%s' needs a number", w);
            return;
        }
        if (!strcmp(w, "depth"))
            lim.depth = v > ENGINE_MAX_PLY - 1 ? ENGINE_MAX_PLY - 1 : (int)v;
        else if (!strcmp(w, "nodes"))
            lim.nodes = (uint64_t)v;
        else if (!strcmp(w, "movetime"))
            lim.movetime_ms = v;
        else if (!strcmp(w, "wtime"))
            lim.time_ms[SIDE_WHITE] = v;
        else if (!strcmp(w, "btime"))
            lim.time_ms[SIDE_BLACK] = v;
        else if (!strcmp(w, "winc"))
            lim.inc_ms[SIDE_WHITE] = v;
        else if (!strcmp(w, "binc"))
            lim.inc_ms[SIDE_BLACK] = v;
        else if (!strcmp(w, "movestogo"))
            lim.movestogo = (int)v;
        else if (!strcmp(w, "mate"))
            lim.depth = v * 2 > ENGINE_MAX_PLY - 1 ? ENGINE_MAX_PLY - 1 : (int)(v * 2);
    }
    lim.algo = u->algo;
    lim.stop = &u->stop;
    lim.on_info = on_info;
    lim.info_ctx = u;
    u->lim = lim;
    u->seed = u->g->key(u->st) ^ (uint64_t)u->g->ply(u->st);
    atomic_store(&u->stop, 0);
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        say(u, "info string error: cannot start the search");
        return;
    }
    u->searching = 1;
}

static void cmd_setoption(struct uci *u, char *args)
{
    /* setoption name <id, may have spaces> [value <x>] */
    char *name = strstr(args, "name ");
    if (!name) {
        say(u, "info string error: setoption needs 'name'");
        return;
    }
    name += 5;
    char *value = strstr(name, " value ");
    if (value) {
        *value = 0;
        value += 7;
    }
    while (isspace((unsigned char)*name))
        name++;
    if (!strcasecmp(name, "Level") && value) {
        int64_t v;
        if (parse_i64(value, &v) || v > ENGINE_LEVEL_MAX) {
            say(u, "info string error: Level is 0..%d", ENGINE_LEVEL_MAX);
            return;
        }
        u->level = (int)v;
    } else if (!strcasecmp(name, "Hash") && value) {
        int64_t v;
        if (parse_i64(value, &v) || v < 1 || v > UCI_MAX_HASH_MB) {
            say(u, "info string error: Hash is 1..%d MB", UCI_MAX_HASH_MB);
            return;
        }
        struct engine *e = engine_new((size_t)v);
        if (!e) {
            say(u, "info string error: no memory for %lld MB", (long long)v);
            return;
        }
        engine_free(u->engine);
        u->engine = e;
        u->hash_mb = (int)v;
    } else if (!strcasecmp(name, "Algorithm") && value) {
        if (!strcmp(value, "auto"))
            u->algo = ENGINE_ALGO_AUTO;
        else if (!strcmp(value, "alphabeta"))
            u->algo = ENGINE_ALGO_ALPHABETA;
        else if (!strcmp(value, "mcts"))
            u->algo = ENGINE_ALGO_MCTS;
        else
            say(u, "info string error: Algorithm is auto, alphabeta or mcts");
    } else {
        say(u, "info string error: unknown option '%s'", name);
    }
}

static void cmd_identify(struct uci *u)
{
    say(u, "id name agora %s", u->g->name);
    say(u, "id author the agora authors");
    say(u, "option name Level type spin default 0 min 0 max %d", ENGINE_LEVEL_MAX);
    say(u, "option name Hash type spin default %d min 1 max %d", UCI_DEFAULT_HASH_MB,
        UCI_MAX_HASH_MB);
    say(u, "option name Algorithm type combo default auto var auto var alphabeta var mcts");
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
    /* Commands other than these wait for a running search to end by itself (GUIs
     * send stop first); a running infinite search is stopped. */
    const char *p = line + strspn(line, " \t\r\n");
    size_t n = strcspn(p, " \t\r\n");
    static const char *const while_searching[] = {"stop", "isready", "quit", "uci", "ponderhit"};
    int keeps = 0;
    for (size_t i = 0; i < sizeof while_searching / sizeof while_searching[0]; i++)
        keeps |= strlen(while_searching[i]) == n && !strncmp(p, while_searching[i], n);
    if (u->searching && !keeps && n)
        finish_search(u, u->lim.infinite);
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
    } else if (!strcmp(cmd, "uci")) {
        cmd_identify(u);
    } else if (!strcmp(cmd, "ucinewgame")) {
        engine_clear(u->engine);
        u->g->start(u->st);
    } else if (!strcmp(cmd, "position")) {
        cmd_position(u, args);
    } else if (!strcmp(cmd, "go")) {
        cmd_go(u, args);
    } else if (!strcmp(cmd, "setoption")) {
        cmd_setoption(u, args);
    } else if (!strcmp(cmd, "d")) {
        cmd_show(u);
    } else if (strcmp(cmd, "ponderhit") != 0 && strcmp(cmd, "debug") != 0) {
        say(u, "info string unknown command '%s'", cmd);
    }
    return 1;
}

int cmd_uci(int argc, char **argv, struct cli_io *io)
{
    const struct game *g = game_find("chess");
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc) {
            if (!(g = cli_game(io, argv[++i])))
                return CLI_BAD_INPUT;
        } else {
            return cli_error(io, "uci: unexpected argument '%s'", argv[i]);
        }
    }
    if (!g)
        return cli_error(io, "uci: chess is not built in; give --game GAME");
    struct uci u = {.g = g, .io = io, .hash_mb = UCI_DEFAULT_HASH_MB};
    pthread_mutex_init(&u.out_lock, NULL);
    u.st = game_state_new(g);
    u.engine = engine_new(UCI_DEFAULT_HASH_MB);
    if (!u.st || !u.engine) {
        free(u.st);
        engine_free(u.engine);
        return cli_error(io, "uci: out of memory");
    }
    g->start(u.st);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, io->in)) >= 0) {
        while (len > 0 && isspace((unsigned char)line[len - 1]))
            line[--len] = 0;
        if (!uci_line(&u, line))
            break;
    }
    /* At the end of input a finite search still answers (a script's last `go`). */
    finish_search(&u, u.searching && u.lim.infinite);
    free(line);
    free(u.st);
    engine_free(u.engine);
    pthread_mutex_destroy(&u.out_lock);
    return 0;
}
