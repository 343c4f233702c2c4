/* agora match GAME PLAYER1 PLAYER2 [options]: engine against engine, for any game.
 *
 * PLAYER is one of
 *   random              uniformly random legal moves
 *   level:N             our engine at level N (1..8)
 *   depth:N | nodes:N | movetime:MS     our engine at full strength within that limit
 *   uci:COMMAND         an external UCI engine (run by /bin/sh)
 * followed by any of ,tc=SECONDS+INC ,depth=N ,nodes=N ,movetime=MS ,algo=alphabeta|mcts|chess
 * ,noise=CP ,blunder=PERMILLE ,contempt=CP (-1: none) ,level=N ,name=NAME (e.g. level:8,tc=10+0.1
 * or nodes:20000,algo=mcts).
 *
 * Options: --games N (10), --concurrency N (1), --random-plies N (8; 0 for chess),
 * --balance CP (60: redraw random openings a quick search scores beyond +-CP; 0 off),
 * --openings FILE (position texts or EPD lines, or a .pgn), --seed N, --max-plies N (1000,
 * then a draw by adjudication), --out FILE, --sprt ELO0,ELO1 [--sprt-alpha A]
 * [--sprt-beta B], --time-margin MS (50), --option NAME=VALUE (for the uci player
 * given last), --adjudicate-resign MOVES,SCORE, --adjudicate-draw FROM,MOVES,SCORE
 * (see match_adjudicate.h; off unless given), --book PATH (chess levels open from this
 * Polyglot book; none unless given), --quiet.
 *
 * Games come in pairs from the same start with colours swapped.  Illegal moves,
 * crashes (an engine that dies or does not answer) and time losses lose the game
 * and are counted. */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/rng.h"
#include "match_adjudicate.h"
#include "match_openings.h"
#include "match_stats.h"
#include "match_uci.h"
#include "engines/engine.h"

#define MATCH_MAX_OPTIONS 16
#define MATCH_NO_MOVE_MS 60000 /* an engine without a clock gets this long a move */

enum player_kind { PLAYER_RANDOM, PLAYER_ENGINE, PLAYER_UCI };

struct player {
    char name[96];
    enum player_kind kind;
    int level;
    struct engine_limits lim; /* depth, nodes, movetime, algo, noise */
    int64_t tc_ms, inc_ms;    /* a clock, when tc_ms or inc_ms > 0 */
    char command[512];
    const char *opt_names[MATCH_MAX_OPTIONS], *opt_values[MATCH_MAX_OPTIONS];
    int noptions;
};

enum fault { FAULT_NONE, FAULT_ILLEGAL, FAULT_CRASH, FAULT_TIME };

struct game_record {
    enum result result; /* White's view */
    enum reason reason;
    enum fault fault;
    int fault_player; /* 0 or 1, when fault != FAULT_NONE */
    int first_white;  /* player 0 had White */
    int plies;
    enum verdict verdict; /* when adjudicated */
    char start[POSITION_TEXT_MAX];
    int custom_start; /* start text differs from the game's start */
    char *moves;      /* display texts, numbered, malloc'd */
};

struct match {
    const struct game *g;
    struct player players[2];
    int games, concurrency, random_plies, max_plies, quiet;
    int balance; /* centipawns: the largest opening advantage accepted */
    int64_t time_margin_ms;
    uint64_t seed;
    struct adjudication adj;
    struct engine_book *book; /* for level players (the games with books) */
    char **openings;
    int nopenings;
    FILE *out;
    int sprt;
    double elo0, elo1, sprt_alpha, sprt_beta, llr;
    const char *sprt_verdict;
    struct cli_io *io;
    /* Shared between workers, under lock. */
    pthread_mutex_t lock;
    int next, finished, stopped_early;
    struct match_score score; /* player 0's */
    int faults[2][4];         /* by player, by enum fault */
    int adjudicated[4];       /* by enum verdict */
};

/* One side's seat in one worker: an external engine stays up between games; our
 * engine at full strength (depth:, nodes:, movetime: players) keeps its table across
 * the moves of a game, as it does over UCI.  Levels think as the server does, with a
 * fresh table each move, so the ladder measures what players meet. */
struct seat {
    struct uci_client *uci;
    int started;
    struct engine *engine;
};

#define MATCH_HASH_MB 16

static void player_default_name(struct player *p, const char *spec)
{
    snprintf(p->name, sizeof p->name, "%s", spec);
}

static int parse_limit(struct cli_io *io, const char *what, const char *v, long lo, long hi,
                       long *out)
{
    return cli_int(io, what, v, lo, hi, out);
}

static int parse_tc(struct cli_io *io, const char *v, struct player *p)
{
    char *end;
    double base = strtod(v, &end), inc = 0;
    if (end == v || base < 0)
        return cli_error(io, "match: bad tc '%s' (expected SECONDS[+INC], e.g. 10+0.1)", v);
    if (*end == '+') {
        const char *s = end + 1;
        inc = strtod(s, &end);
        if (end == s || inc < 0)
            return cli_error(io, "match: bad tc increment in '%s'", v);
    }
    if (*end)
        return cli_error(io, "match: bad tc '%s' (expected SECONDS[+INC])", v);
    p->tc_ms = (int64_t)(base * 1000);
    p->inc_ms = (int64_t)(inc * 1000);
    if (p->tc_ms <= 0 && p->inc_ms <= 0)
        return cli_error(io, "match: tc '%s' gives no time", v);
    return 0;
}

/* One modifier key=value of a player spec. */
static int parse_modifier(struct cli_io *io, const struct game *g, struct player *p, char *kv)
{
    char *eq = strchr(kv, '=');
    if (!eq)
        return cli_error(io, "match: bad player setting '%s' (expected KEY=VALUE)", kv);
    *eq = 0;
    const char *k = kv, *v = eq + 1;
    long n;
    if (!strcmp(k, "tc"))
        return parse_tc(io, v, p);
    if (!strcmp(k, "name")) {
        snprintf(p->name, sizeof p->name, "%s", v);
        return 0;
    }
    if (!strcmp(k, "algo")) {
        const struct engine_profile *prof = engine_profile_of(g);
        if (engine_algo_parse(prof, v, &p->lim.algo) != 0) {
            char names[128];
            engine_algo_list(prof, ", ", names, sizeof names);
            return cli_error(io, "match: bad algo '%s' (%s)", v, names);
        }
        return 0;
    }
    if (!strcmp(k, "depth") || !strcmp(k, "nodes") || !strcmp(k, "movetime") ||
        !strcmp(k, "noise") || !strcmp(k, "level") || !strcmp(k, "contempt") ||
        !strcmp(k, "blunder")) {
        if (parse_limit(io, k, v,
                        !strcmp(k, "noise") || !strcmp(k, "blunder") ? 0
                        : !strcmp(k, "contempt")                     ? -1
                                                                     : 1,
                        !strcmp(k, "level")   ? ENGINE_LEVEL_MAX
                        : !strcmp(k, "depth") ? ENGINE_MAX_PLY - 1
                                              : 2000000000L,
                        &n))
            return -1;
        if (!strcmp(k, "depth"))
            p->lim.depth = (int)n;
        else if (!strcmp(k, "nodes"))
            p->lim.nodes = (uint64_t)n;
        else if (!strcmp(k, "movetime"))
            p->lim.movetime_ms = n;
        else if (!strcmp(k, "noise"))
            p->lim.noise = (int)n;
        else if (!strcmp(k, "contempt"))
            p->lim.contempt = (int)n;
        else if (!strcmp(k, "blunder"))
            p->lim.blunder = (int)(n > 1000 ? 1000 : n);
        else
            p->level = (int)n;
        return 0;
    }
    return cli_error(io, "match: unknown player setting '%s'", k);
}

static int parse_player(struct cli_io *io, const struct game *g, const char *spec, struct player *p)
{
    memset(p, 0, sizeof *p);
    player_default_name(p, spec);
    if (!strncmp(spec, "uci:", 4)) {
        /* The command runs to the first ",key=" modifier. */
        const char *cmd = spec + 4, *mods = NULL;
        for (const char *c = strchr(cmd, ','); c; c = strchr(c + 1, ','))
            if (strchr(c, '=') && !strchr(c, ' ')) {
                mods = c;
                break;
            }
        size_t len = mods ? (size_t)(mods - cmd) : strlen(cmd);
        if (len == 0 || len >= sizeof p->command)
            return cli_error(io, "match: bad uci player '%s'", spec);
        memcpy(p->command, cmd, len);
        p->command[len] = 0;
        p->kind = PLAYER_UCI;
        spec = mods ? mods : "";
    } else {
        char head[64];
        size_t len = strcspn(spec, ",");
        if (len >= sizeof head)
            return cli_error(io, "match: bad player '%s'", spec);
        memcpy(head, spec, len);
        head[len] = 0;
        spec += len;
        long n;
        char *colon = strchr(head, ':');
        if (!strcmp(head, "random")) {
            p->kind = PLAYER_RANDOM;
        } else if (colon) {
            *colon = 0;
            p->kind = PLAYER_ENGINE;
            const char *k = head, *v = colon + 1;
            if (!strcmp(k, "level")) {
                if (cli_int(io, "level", v, ENGINE_LEVEL_MIN, ENGINE_LEVEL_MAX, &n))
                    return -1;
                p->level = (int)n;
            } else if (!strcmp(k, "depth")) {
                if (cli_int(io, "depth", v, 1, ENGINE_MAX_PLY - 1, &n))
                    return -1;
                p->lim.depth = (int)n;
            } else if (!strcmp(k, "nodes")) {
                if (cli_int(io, "nodes", v, 1, 2000000000L, &n))
                    return -1;
                p->lim.nodes = (uint64_t)n;
            } else if (!strcmp(k, "movetime")) {
                if (cli_int(io, "movetime", v, 1, 2000000000L, &n))
                    return -1;
                p->lim.movetime_ms = n;
            } else {
                return cli_error(io,
                                 "match: unknown player '%s' (random, level:N, depth:N, "
                                 "nodes:N, movetime:MS or uci:COMMAND)",
                                 spec - len);
            }
        } else {
            return cli_error(io,
                             "match: unknown player '%s' (random, level:N, depth:N, "
                             "nodes:N, movetime:MS or uci:COMMAND)",
                             spec - len);
        }
    }
    char mods[512];
    snprintf(mods, sizeof mods, "%s", spec);
    for (char *save = NULL, *kv = strtok_r(mods, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        if (parse_modifier(io, g, p, kv))
            return -1;
    return 0;
}

/* Random plies can throw a piece away; a start where a quick search already sees
 * one side far ahead is decided by the opening, not the players, so it is drawn
 * again (after many tries any start will do).  --balance 0 turns this off. */
#define MATCH_BALANCE_NODES 5000
static int balanced(struct match *m, void *st, int attempt)
{
    if (m->balance <= 0 || m->random_plies == 0 || attempt >= 500)
        return 1;
    struct engine_limits lim = {.nodes = MATCH_BALANCE_NODES, .algo = ENGINE_ALGO_ALPHABETA};
    struct engine_result r;
    engine_think(m->g, st, 0, &lim, 1, &r);
    return r.score <= m->balance && r.score >= -m->balance;
}

/* The start of pair `pair`: an opening line, then N seeded random plies that do not
 * end the game and leave it balanced.  The plies made are appended to `line`. */
static int make_start(struct match *m, void *st, int pair, Move *line, Move *buf, char *err,
                      size_t err_size)
{
    const struct game *g = m->g;
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (m->nopenings) {
            const char *text = m->openings[pair % m->nopenings];
            if (g->parse_position(st, text, err, err_size))
                return -1;
        } else {
            g->start(st);
        }
        struct rng r;
        rng_seed(&r, m->seed * 1000003u + (uint64_t)pair * 7919u + (uint64_t)attempt);
        int n = 0, ok = 1;
        for (; n < m->random_plies; n++) {
            int k = game_legal_moves(g, st, buf);
            if (k == 0) {
                ok = 0;
                break;
            }
            line[n] = buf[rng_below(&r, (uint32_t)k)];
            g->make_move(st, line[n]);
        }
        if (ok && game_legal_moves(g, st, buf) > 0 && balanced(m, st, attempt))
            return n;
        while (n > 0)
            g->unmake_move(st, line[--n]);
    }
    return -1;
}

/* "position startpos moves ..." or "position fen TEXT moves ..." for an external
 * engine: every move of the game so far, opening plies included. */
static char *position_command(const struct game *g, const struct game_record *rec, void *scratch,
                              const Move *line, int n)
{
    size_t cap = 64 + POSITION_TEXT_MAX + (size_t)n * MOVE_TEXT_MAX;
    char *cmd = malloc(cap);
    if (!cmd)
        return NULL;
    size_t used;
    if (rec->custom_start) {
        used = (size_t)snprintf(cmd, cap, "position fen %s", rec->start);
        char err[ERROR_TEXT_MAX];
        g->parse_position(scratch, rec->start, err, sizeof err);
    } else {
        used = (size_t)snprintf(cmd, cap, "position startpos");
        g->start(scratch);
    }
    if (n)
        used += (size_t)snprintf(cmd + used, cap - used, " moves");
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        g->move_text(scratch, line[i], text, sizeof text);
        used += (size_t)snprintf(cmd + used, cap - used, " %s", text);
        g->make_move(scratch, line[i]);
    }
    return cmd;
}

/* One move of an external engine: 0 and the move, or a fault. */
static enum fault uci_move(struct match *m, struct player *p, struct seat *seat,
                           const struct game_record *rec, void *st, void *scratch, const Move *line,
                           int n, const int64_t clock[2], Move *out, int *score, int *has_score)
{
    const struct game *g = m->g;
    char err[ERROR_TEXT_MAX];
    if (!seat->started || !seat->uci->alive) {
        if (seat->started)
            uci_client_stop(seat->uci);
        pthread_mutex_lock(&m->lock); /* spawn one at a time: no fd leaks to children */
        int rc = uci_client_start(seat->uci, p->command, p->opt_names, p->opt_values, p->noptions,
                                  err, sizeof err);
        pthread_mutex_unlock(&m->lock);
        seat->started = 1;
        if (rc) {
            fprintf(m->io->err, "agora: match: %s\n", err);
            return FAULT_CRASH;
        }
    }
    char *cmd = position_command(g, rec, scratch, line, n);
    if (!cmd || uci_client_send(seat->uci, cmd) != 0) {
        free(cmd);
        return FAULT_CRASH;
    }
    free(cmd);
    char go[256];
    int64_t wait_ms = MATCH_NO_MOVE_MS;
    if (p->tc_ms > 0 || p->inc_ms > 0) {
        snprintf(go, sizeof go, "go wtime %lld btime %lld winc %lld binc %lld", (long long)clock[0],
                 (long long)clock[1], (long long)p->inc_ms, (long long)p->inc_ms);
        wait_ms = clock[g->side_to_move(st)] + m->time_margin_ms + 1000;
    } else if (p->lim.movetime_ms) {
        snprintf(go, sizeof go, "go movetime %lld", (long long)p->lim.movetime_ms);
        wait_ms = p->lim.movetime_ms * 2 + 5000;
    } else if (p->lim.nodes) {
        snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)p->lim.nodes);
    } else if (p->lim.depth) {
        snprintf(go, sizeof go, "go depth %d", p->lim.depth);
    } else {
        snprintf(go, sizeof go, "go movetime 1000");
        wait_ms = 7000;
    }
    if (uci_client_send(seat->uci, go) != 0)
        return FAULT_CRASH;
    char reply[512];
    int r = uci_client_bestmove(seat->uci, reply, sizeof reply, wait_ms, score, has_score);
    if (r != 1) {
        uci_client_stop(seat->uci); /* hung or dead: a fresh process next game */
        return r == 0 && (p->tc_ms > 0 || p->inc_ms > 0) ? FAULT_TIME : FAULT_CRASH;
    }
    char text[MOVE_TEXT_MAX] = "";
    sscanf(reply, "bestmove %63s", text);
    if (g->parse_move(st, text, out, err, sizeof err) != 0) {
        fprintf(m->io->err, "agora: match: %s played '%s': %s\n", p->name, text, err);
        return FAULT_ILLEGAL;
    }
    return FAULT_NONE;
}

static enum fault player_move(struct match *m, struct player *p, struct seat *seat,
                              const struct game_record *rec, void *st, void *scratch,
                              const Move *line, int n, const int64_t clock[2], struct rng *r,
                              Move *buf, uint64_t seed, Move *out, int *score, int *has_score)
{
    const struct game *g = m->g;
    *has_score = 0;
    if (p->kind == PLAYER_RANDOM) {
        int k = game_legal_moves(g, st, buf);
        *out = k ? buf[rng_below(r, (uint32_t)k)] : 0;
        return *out ? FAULT_NONE : FAULT_ILLEGAL;
    }
    if (p->kind == PLAYER_UCI)
        return uci_move(m, p, seat, rec, st, scratch, line, n, clock, out, score, has_score);
    struct engine_limits lim = p->lim;
    lim.book = m->book;
    if (p->tc_ms > 0 || p->inc_ms > 0) {
        lim.time_ms[0] = clock[0];
        lim.time_ms[1] = clock[1];
        lim.inc_ms[0] = lim.inc_ms[1] = p->inc_ms;
    }
    if (p->level == 0 && !seat->engine)
        seat->engine = engine_new(MATCH_HASH_MB);
    struct engine_result res = {0};
    if (p->level == 0 && seat->engine)
        *out = engine_go(seat->engine, g, st, 0, &lim, seed, &res);
    else
        *out = engine_think(g, st, p->level, &lim, seed, &res);
    *score = res.score;
    *has_score = res.depth > 0;
    /* The engine promises legality; the match checks it like any other player's. */
    int k = game_legal_moves(g, st, buf), legal = 0;
    for (int i = 0; i < k && !legal; i++)
        legal = buf[i] == *out;
    return legal ? FAULT_NONE : FAULT_ILLEGAL;
}

static void append_text(char **s, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t grown = (*cap + n + 1) * 2;
        char *p = realloc(*s, grown);
        if (!p)
            return;
        *s = p;
        *cap = grown;
    }
    memcpy(*s + *len, text, n + 1);
    *len += n;
}

/* Append the display text of `mv` at `st`, numbered as in PGN ("12. ", "12... "). */
static void record_move(char **moves, size_t *len, size_t *cap, const struct game *g,
                        const void *st, Move mv, int start_black)
{
    char text[MOVE_TEXT_MAX + 16];
    int white = g->side_to_move(st) == SIDE_WHITE;
    int number = (g->ply(st) + start_black) / 2 + 1;
    if (white || *len == 0)
        snprintf(text, sizeof text, white ? "%s%d. " : "%s%d... ", *len ? " " : "", number);
    else
        snprintf(text, sizeof text, " ");
    append_text(moves, len, cap, text);
    game_move_display(g, st, mv, text, sizeof text);
    append_text(moves, len, cap, text);
}

/* Game `index`: player 0 has White in even games. */
static void play_game(struct match *m, int index, struct seat seats[2], struct game_record *rec)
{
    const struct game *g = m->g;
    void *st = game_state_new(g), *scratch = game_state_new(g);
    int cap = g->max_plies;
    Move *line = malloc(sizeof(Move) * (size_t)cap);
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
    memset(rec, 0, sizeof *rec);
    rec->first_white = index % 2 == 0;
    for (int i = 0; i < 2; i++)
        if (seats[i].engine)
            engine_clear(seats[i].engine);
    char err[ERROR_TEXT_MAX] = "";
    int n = st && scratch && line && buf ? make_start(m, st, index / 2, line, buf, err, sizeof err)
                                         : -1;
    if (n < 0) {
        fprintf(m->io->err, "agora: match: game %d: no start position %s\n", index + 1, err);
        rec->result = RESULT_DRAW;
        rec->reason = REASON_ADJUDICATION;
        goto done;
    }
    /* The record starts where the opening line starts; the random plies are part
     * of the game's moves. */
    for (int i = n - 1; i >= 0; i--)
        g->unmake_move(st, line[i]);
    g->write_position(st, rec->start, sizeof rec->start);
    g->start(scratch);
    char start_text[POSITION_TEXT_MAX];
    g->write_position(scratch, start_text, sizeof start_text);
    rec->custom_start = strcmp(start_text, rec->start) != 0;
    size_t len = 0, tcap = 0;
    for (int i = 0; i < n; i++)
        g->make_move(st, line[i]);
    /* Replay the opening plies for their display texts. */
    g->parse_position(scratch, rec->start, err, sizeof err);
    int start_black = g->side_to_move(scratch) == SIDE_BLACK;
    for (int i = 0; i < n; i++) {
        record_move(&rec->moves, &len, &tcap, g, scratch, line[i], start_black);
        g->make_move(scratch, line[i]);
    }
    int64_t clock[2] = {0, 0};
    int white_player = rec->first_white ? 0 : 1;
    for (int side = 0; side < 2; side++) {
        struct player *p = &m->players[side == SIDE_WHITE ? white_player : !white_player];
        clock[side] = p->tc_ms;
    }
    struct rng r;
    rng_seed(&r, m->seed ^ (0x5eedULL * (uint64_t)(index + 1)));
    struct adjudicator adj = {{0, 0}, {0, 0}, 0};
    for (;;) {
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING) {
            rec->result = gs.result;
            rec->reason = gs.reason;
            break;
        }
        if (n >= m->max_plies || n >= cap - 1 || g->ply(st) >= g->max_plies - 1) {
            rec->result = RESULT_DRAW;
            rec->reason = REASON_ADJUDICATION;
            break;
        }
        enum side side = g->side_to_move(st);
        int who = side == SIDE_WHITE ? white_player : !white_player;
        struct player *p = &m->players[who];
        double t0 = cli_seconds();
        Move mv = 0;
        int score = 0, has_score = 0;
        uint64_t seed = m->seed * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)index << 20) ^ (uint64_t)n;
        enum fault f = player_move(m, p, &seats[who], rec, st, scratch, line, n, clock, &r, buf,
                                   seed, &mv, &score, &has_score);
        int64_t used = (int64_t)((cli_seconds() - t0) * 1000);
        if (f == FAULT_NONE && (p->tc_ms > 0 || p->inc_ms > 0)) {
            clock[side] -= used;
            if (clock[side] < -m->time_margin_ms)
                f = FAULT_TIME;
            if (clock[side] < 0)
                clock[side] = 0;
            clock[side] += p->inc_ms;
        }
        if (f != FAULT_NONE) {
            rec->fault = f;
            rec->fault_player = who;
            rec->result = side == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            rec->reason = f == FAULT_TIME ? REASON_TIME : REASON_ADJUDICATION;
            break;
        }
        int move_number = (g->ply(st) + start_black) / 2 + 1;
        record_move(&rec->moves, &len, &tcap, g, st, mv, start_black);
        g->make_move(st, mv);
        line[n++] = mv;
        enum verdict v =
            adjudicate(&adj, &m->adj, side == SIDE_WHITE ? 0 : 1, has_score, score, move_number);
        if (v != VERDICT_NONE) {
            g->status(st, &gs);
            if (gs.result != RESULT_ONGOING)
                continue; /* the rules have the last word */
            rec->verdict = v;
            rec->result = v == VERDICT_DRAW         ? RESULT_DRAW
                          : v == VERDICT_WHITE_WINS ? RESULT_WHITE_WINS
                                                    : RESULT_BLACK_WINS;
            rec->reason = REASON_ADJUDICATION;
            break;
        }
    }
    rec->plies = n;
done:
    free(buf);
    free(line);
    free(scratch);
    free(st);
}

static const char *result_tag(enum result r)
{
    return r == RESULT_WHITE_WINS ? "1-0" : r == RESULT_BLACK_WINS ? "0-1" : "1/2-1/2";
}

static const char *const fault_names[4] = {"", "illegal move", "crash", "time forfeit"};

static void write_record(struct match *m, int index, const struct game_record *rec)
{
    if (!m->out)
        return;
    const char *white = m->players[rec->first_white ? 0 : 1].name;
    const char *black = m->players[rec->first_white ? 1 : 0].name;
    fprintf(m->out, "[Event \"agora match\"]\n[Site \"agora\"]\n[Round \"%d\"]\n", index + 1);
    /* Chess records are plain PGN; the other games name themselves. */
    if (strcmp(m->g->name, "chess") != 0)
        fprintf(m->out, "[Variant \"%s\"]\n", m->g->name);
    fprintf(m->out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n", white, black,
            result_tag(rec->result));
    if (rec->fault)
        fprintf(m->out, "[Termination \"%s by %s\"]\n", fault_names[rec->fault],
                m->players[rec->fault_player].name);
    else
        fprintf(m->out, "[Termination \"%s\"]\n", reason_name(m->g, rec->reason));
    if (rec->custom_start)
        fprintf(m->out, "[SetUp \"1\"]\n[FEN \"%s\"]\n", rec->start);
    fprintf(m->out, "[PlyCount \"%d\"]\n\n%s%s%s\n\n", rec->plies, rec->moves ? rec->moves : "",
            rec->moves && rec->moves[0] ? " " : "", result_tag(rec->result));
    fflush(m->out);
}

static void progress(struct match *m, int final)
{
    double elo, err;
    match_elo(&m->score, &elo, &err);
    int n = m->score.wins + m->score.draws + m->score.losses;
    double pct = n ? 100.0 * (m->score.wins + 0.5 * m->score.draws) / n : 0;
    int tty = m->io->err == stderr && isatty(STDERR_FILENO);
    FILE *f = final ? m->io->out : m->io->err;
    if (!final && m->quiet)
        return;
    if (!final && !tty && n % (m->games >= 20 ? m->games / 10 : 1) != 0 && n != m->games)
        return;
    fprintf(f, "%s%s vs %s: games %d/%d  +%d =%d -%d  score %.1f%%  elo ",
            !final && tty ? "\r" : "", m->players[0].name, m->players[1].name, n, m->games,
            m->score.wins, m->score.draws, m->score.losses, pct);
    if (isinf(elo))
        fprintf(f, "%s", elo > 0 ? "+inf" : "-inf");
    else
        fprintf(f, "%+.0f", elo);
    if (isnan(err))
        fprintf(f, " +- ?");
    else if (isinf(err))
        fprintf(f, " +- inf");
    else
        fprintf(f, " +- %.0f", err);
    if (m->sprt)
        fprintf(f, "  llr %.2f", m->llr);
    fputs(!final && tty ? "   " : "\n", f);
    fflush(f);
}

static void *worker(void *arg)
{
    struct match *m = arg;
    struct uci_client *clients = calloc(2, sizeof *clients);
    struct seat seats[2] = {{clients, 0, NULL}, {clients ? clients + 1 : NULL, 0, NULL}};
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int index = m->stopped_early || m->next >= m->games ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (index < 0 || !clients)
            break;
        struct game_record rec;
        play_game(m, index, seats, &rec);
        pthread_mutex_lock(&m->lock);
        int p0_white = rec.first_white;
        if (rec.result == RESULT_DRAW)
            m->score.draws++;
        else if ((rec.result == RESULT_WHITE_WINS) == p0_white)
            m->score.wins++;
        else
            m->score.losses++;
        if (rec.fault)
            m->faults[rec.fault_player][rec.fault]++;
        m->adjudicated[rec.verdict]++;
        m->finished++;
        write_record(m, index, &rec);
        if (m->sprt) {
            double lo, hi;
            match_sprt_bounds(m->sprt_alpha, m->sprt_beta, &lo, &hi);
            m->llr = match_sprt_llr(&m->score, m->elo0, m->elo1);
            if (m->llr >= hi || m->llr <= lo) {
                m->stopped_early = 1;
                m->sprt_verdict = m->llr >= hi ? "H1 accepted" : "H0 accepted";
            }
        }
        progress(m, 0);
        pthread_mutex_unlock(&m->lock);
        free(rec.moves);
    }
    for (int i = 0; i < 2 && clients; i++)
        if (seats[i].started)
            uci_client_stop(seats[i].uci);
    for (int i = 0; i < 2; i++)
        engine_free(seats[i].engine);
    free(clients);
    return NULL;
}

static int load_openings(struct match *m, const char *path)
{
    char err[ERROR_TEXT_MAX];
    if (match_load_openings(m->g, path, &m->openings, &m->nopenings, err, sizeof err))
        return cli_error(m->io, "match: openings: %s", err);
    return 0;
}

static int parse_args(struct match *m, int argc, char **argv, const char **openings,
                      const char **out_path, const char **book_path)
{
    struct cli_io *io = m->io;
    int nplayers = 0, random_plies_set = 0;
    long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (a[0] != '-' || !a[1]) {
            if (nplayers == 2)
                return cli_error(io, "match: a third player '%s'", a);
            if (parse_player(io, m->g, a, &m->players[nplayers]))
                return CLI_BAD_INPUT;
            nplayers++;
        } else if (!strcmp(a, "--games") && has) {
            if (cli_int(io, "game count", argv[++i], 1, 1000000, &v))
                return CLI_BAD_INPUT;
            m->games = (int)v;
        } else if (!strcmp(a, "--concurrency") && has) {
            if (cli_int(io, "concurrency", argv[++i], 1, 64, &v))
                return CLI_BAD_INPUT;
            m->concurrency = (int)v;
        } else if (!strcmp(a, "--random-plies") && has) {
            if (cli_int(io, "random plies", argv[++i], 0, 200, &v))
                return CLI_BAD_INPUT;
            m->random_plies = (int)v;
            random_plies_set = 1;
        } else if (!strcmp(a, "--balance") && has) {
            if (cli_int(io, "balance", argv[++i], 0, 100000, &v))
                return CLI_BAD_INPUT;
            m->balance = (int)v;
        } else if (!strcmp(a, "--max-plies") && has) {
            if (cli_int(io, "ply cap", argv[++i], 1, 1000000, &v))
                return CLI_BAD_INPUT;
            m->max_plies = (int)v;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_int(io, "seed", argv[++i], 0, 2147483647, &v))
                return CLI_BAD_INPUT;
            m->seed = (uint64_t)v;
        } else if (!strcmp(a, "--time-margin") && has) {
            if (cli_int(io, "time margin", argv[++i], 0, 100000, &v))
                return CLI_BAD_INPUT;
            m->time_margin_ms = v;
        } else if (!strcmp(a, "--openings") && has) {
            *openings = argv[++i];
        } else if (!strcmp(a, "--book") && has) {
            *book_path = argv[++i];
        } else if (!strcmp(a, "--out") && has) {
            *out_path = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            m->quiet = 1;
        } else if (!strcmp(a, "--sprt") && has) {
            if (sscanf(argv[++i], "%lf,%lf", &m->elo0, &m->elo1) != 2 || m->elo0 >= m->elo1)
                return cli_error(io,
                                 "match: bad --sprt '%s' (expected ELO0,ELO1 with "
                                 "ELO0 < ELO1)",
                                 argv[i]);
            m->sprt = 1;
        } else if ((!strcmp(a, "--sprt-alpha") || !strcmp(a, "--sprt-beta")) && has) {
            double x;
            char *end;
            x = strtod(argv[++i], &end);
            if (*end || !(x > 0 && x < 0.5))
                return cli_error(io, "match: bad %s '%s' (between 0 and 0.5)", a, argv[i]);
            *(a[7] == 'a' ? &m->sprt_alpha : &m->sprt_beta) = x;
        } else if (!strcmp(a, "--adjudicate-resign") && has) {
            if (adjudication_parse_resign(&m->adj, argv[++i]))
                return cli_error(io, "match: bad --adjudicate-resign '%s' (expected MOVES,SCORE)",
                                 argv[i]);
        } else if (!strcmp(a, "--adjudicate-draw") && has) {
            if (adjudication_parse_draw(&m->adj, argv[++i]))
                return cli_error(
                    io, "match: bad --adjudicate-draw '%s' (expected FROM,MOVES,SCORE)", argv[i]);
        } else if (!strcmp(a, "--option") && has) {
            /* The uci player given last (before this option, or the only one). */
            struct player *p = nplayers ? &m->players[nplayers - 1] : NULL;
            if (p && p->kind != PLAYER_UCI && nplayers == 2 && m->players[0].kind == PLAYER_UCI)
                p = &m->players[0];
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (!p || p->kind != PLAYER_UCI)
                return cli_error(io, "match: --option '%s' needs a uci: player before it", kv);
            if (!eq || eq == kv || p->noptions == MATCH_MAX_OPTIONS)
                return cli_error(io, "match: bad --option '%s' (expected NAME=VALUE)", kv);
            *eq = 0;
            p->opt_names[p->noptions] = kv;
            p->opt_values[p->noptions++] = eq + 1;
        } else {
            return cli_error(io, "match: unexpected argument '%s'", a);
        }
    }
    if (nplayers != 2)
        return cli_error(io,
                         "usage: agora match GAME PLAYER1 PLAYER2 [--games N] "
                         "[--concurrency N] [--random-plies N] [--openings FILE] [--seed N] "
                         "[--max-plies N] [--out FILE] [--sprt ELO0,ELO1] [--option NAME=VALUE] "
                         "[--adjudicate-resign MOVES,SCORE] [--adjudicate-draw FROM,MOVES,SCORE]");
    if (!random_plies_set)
        m->random_plies = engine_profile_of(m->g)->random_plies;
    if (!strcmp(m->players[0].name, m->players[1].name)) {
        strncat(m->players[0].name, "#1",
                sizeof m->players[0].name - strlen(m->players[0].name) - 1);
        strncat(m->players[1].name, "#2",
                sizeof m->players[1].name - strlen(m->players[1].name) - 1);
    }
    return 0;
}

int cmd_match(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1)
        return cli_error(io, "usage: agora match GAME PLAYER1 PLAYER2 [options] (see agora help)");
    struct match m = {
        .games = 10,
        .concurrency = 1,
        .random_plies = 8,
        .balance = 60,
        .max_plies = 1000,
        .time_margin_ms = 50,
        .seed = 1,
        .sprt_alpha = 0.05,
        .sprt_beta = 0.05,
        .io = io,
    };
    if (!(m.g = cli_game(io, argv[0])))
        return CLI_BAD_INPUT;
    const char *openings = NULL, *out_path = NULL, *book_path = NULL;
    int rc = parse_args(&m, argc, argv, &openings, &out_path, &book_path);
    if (!rc && book_path)
        rc = cli_book(io, m.g, book_path, &m.book);
    if (!rc && openings)
        rc = load_openings(&m, openings);
    if (!rc && out_path && !(m.out = fopen(out_path, "w")))
        rc = cli_error(io, "match: cannot write '%s'", out_path);
    if (rc) {
        engine_book_close(m.book);
        for (int i = 0; i < m.nopenings; i++)
            free(m.openings[i]);
        free(m.openings);
        return rc;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine is a crash to count, not our death */
    pthread_mutex_init(&m.lock, NULL);
    int nthreads = m.concurrency < m.games ? m.concurrency : m.games;
    pthread_t *threads = calloc((size_t)nthreads, sizeof *threads);
    int started = 0;
    for (int i = 0; threads && i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, worker, &m) == 0)
            started++;
    if (!started)
        worker(&m);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    if (!m.quiet && m.io->err == stderr && isatty(STDERR_FILENO))
        fputc('\n', io->err);
    progress(&m, 1);
    for (int p = 0; p < 2; p++)
        fprintf(io->out, "%s: illegal moves %d, crashes %d, time losses %d\n", m.players[p].name,
                m.faults[p][FAULT_ILLEGAL], m.faults[p][FAULT_CRASH], m.faults[p][FAULT_TIME]);
    if (m.adj.resign_moves || m.adj.draw_moves)
        fprintf(io->out, "adjudicated: %d won, %d drawn\n",
                m.adjudicated[VERDICT_WHITE_WINS] + m.adjudicated[VERDICT_BLACK_WINS],
                m.adjudicated[VERDICT_DRAW]);
    if (m.sprt)
        fprintf(io->out, "sprt elo0 %g elo1 %g alpha %g beta %g: llr %.2f, %s\n", m.elo0, m.elo1,
                m.sprt_alpha, m.sprt_beta, m.llr, m.sprt_verdict ? m.sprt_verdict : "no decision");
    if (m.out)
        fclose(m.out);
    engine_book_close(m.book);
    for (int i = 0; i < m.nopenings; i++)
        free(m.openings[i]);
    free(m.openings);
    pthread_mutex_destroy(&m.lock);
    return 0;
}
