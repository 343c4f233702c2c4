/* agora match GAME PLAYER1 PLAYER2 [options]: engine against engine, for any game.
 *
 * PLAYER is one of
 *   random              uniformly random legal moves
 *   level:N             our engine at level N (1..8)
 *   depth:N | nodes:N | movetime:MS     our engine at full strength within that limit
 *   uci:COMMAND         an external UCI engine (run by /bin/sh)
 * followed by any of ,tc=SECONDS+INC ,depth=N ,nodes=N ,movetime=MS ,algo=alphabeta|mcts|chess
 * ,noise=CP ,blunder=PERMILLE ,contempt=CP (-1: none) ,level=N ,name=NAME
 * ,search=plain|all|lmr+counter+aspiration+rfp (alpha-beta's refinements; e.g. level:8,tc=10+0.1
 * or nodes:20000,algo=mcts).
 *
 * Options: --games N (10), --concurrency N (1), --random-plies N (8; 0 for chess),
 * --balance CP (60: redraw random openings a quick search scores beyond +-CP; 0 off),
 * --openings FILE (position texts or EPD lines, or a .pgn of records the game reads),
 * --seed N, --max-plies N (1000, then a draw by adjudication), --out FILE (every game's
 * record), --sprt ELO0,ELO1 [--sprt-alpha A] [--sprt-beta B], --time-margin MS (50),
 * --option NAME=VALUE (for the uci player given last), --adjudicate-resign MOVES,SCORE,
 * --adjudicate-draw FROM,MOVES,SCORE (see match/adjudicate.h; off unless given),
 * --book PATH (the levels of a game with opening books open from this one; none
 * unless given), --quiet.
 *
 * This file only parses the arguments into a struct match_config; the match itself
 * (games in pairs with colours swapped, faults counted, statistics) is src/match/. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match/match.h"
#include "match/openings.h"

static void player_default_name(struct match_player *p, const char *spec)
{
    snprintf(p->name, sizeof p->name, "%s", spec);
}

static int parse_limit(struct cli_io *io, const char *what, const char *v, long lo, long hi,
                       long *out)
{
    return cli_int(io, what, v, lo, hi, out);
}

static int parse_tc(struct cli_io *io, const char *v, struct match_player *p)
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

/* search=plain|all|NAME+NAME...: alpha-beta's refinements for this player, overriding
 * the profile's (lmr, counter, aspiration, rfp; search_types.h). */
static int parse_features(struct cli_io *io, const char *v, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"plain", 0},
                 {"all", SEARCH_FEATURES_ALL},
                 {"lmr", SEARCH_LMR_TABLE},
                 {"counter", SEARCH_COUNTER},
                 {"aspiration", SEARCH_ASPIRATION},
                 {"rfp", SEARCH_RFP}};
    unsigned bits = 0;
    int words = 0;
    char list[128];
    snprintf(list, sizeof list, "%s", v);
    for (char *save = NULL, *w = strtok_r(list, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
        size_t i = 0;
        while (i < sizeof names / sizeof names[0] && strcmp(names[i].name, w))
            i++;
        if (i == sizeof names / sizeof names[0])
            return cli_error(io,
                             "match: bad search '%s' (plain, all, or lmr, counter, aspiration, "
                             "rfp joined by +)",
                             v);
        bits |= names[i].bit;
        words++;
    }
    if (!words)
        return cli_error(io,
                         "match: bad search '%s' (plain, all, or lmr, counter, aspiration, "
                         "rfp joined by +)",
                         v);
    *out = SEARCH_FEATURES_SET | bits;
    return 0;
}

/* One modifier key=value of a player spec. */
static int parse_modifier(struct cli_io *io, const struct game *g, struct match_player *p, char *kv)
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
    if (!strcmp(k, "search"))
        return parse_features(io, v, &p->lim.features);
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

static int parse_player(struct cli_io *io, const struct game *g, const char *spec,
                        struct match_player *p)
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
        p->kind = MATCH_PLAYER_UCI;
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
            p->kind = MATCH_PLAYER_RANDOM;
        } else if (colon) {
            *colon = 0;
            p->kind = MATCH_PLAYER_ENGINE;
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

static int parse_args(struct match_config *cfg, struct cli_io *io, int argc, char **argv,
                      const char **openings, const char **out_path, const char **book_path)
{
    int nplayers = 0;
    long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (a[0] != '-' || !a[1]) {
            if (nplayers == 2)
                return cli_error(io, "match: a third player '%s'", a);
            if (parse_player(io, cfg->g, a, &cfg->players[nplayers]))
                return CLI_BAD_INPUT;
            nplayers++;
        } else if (!strcmp(a, "--games") && has) {
            if (cli_int(io, "game count", argv[++i], 1, 1000000, &v))
                return CLI_BAD_INPUT;
            cfg->games = (int)v;
        } else if (!strcmp(a, "--concurrency") && has) {
            if (cli_int(io, "concurrency", argv[++i], 1, 64, &v))
                return CLI_BAD_INPUT;
            cfg->concurrency = (int)v;
        } else if (!strcmp(a, "--random-plies") && has) {
            if (cli_int(io, "random plies", argv[++i], 0, 200, &v))
                return CLI_BAD_INPUT;
            cfg->random_plies = (int)v;
        } else if (!strcmp(a, "--balance") && has) {
            if (cli_int(io, "balance", argv[++i], 0, 100000, &v))
                return CLI_BAD_INPUT;
            cfg->balance = (int)v;
        } else if (!strcmp(a, "--max-plies") && has) {
            if (cli_int(io, "ply cap", argv[++i], 1, 1000000, &v))
                return CLI_BAD_INPUT;
            cfg->max_plies = (int)v;
        } else if (!strcmp(a, "--seed") && has) {
            if (cli_int(io, "seed", argv[++i], 0, 2147483647, &v))
                return CLI_BAD_INPUT;
            cfg->seed = (uint64_t)v;
        } else if (!strcmp(a, "--time-margin") && has) {
            if (cli_int(io, "time margin", argv[++i], 0, 100000, &v))
                return CLI_BAD_INPUT;
            cfg->time_margin_ms = v;
        } else if (!strcmp(a, "--openings") && has) {
            *openings = argv[++i];
        } else if (!strcmp(a, "--book") && has) {
            *book_path = argv[++i];
        } else if (!strcmp(a, "--out") && has) {
            *out_path = argv[++i];
        } else if (!strcmp(a, "--quiet")) {
            cfg->quiet = 1;
        } else if (!strcmp(a, "--sprt") && has) {
            if (sscanf(argv[++i], "%lf,%lf", &cfg->elo0, &cfg->elo1) != 2 || cfg->elo0 >= cfg->elo1)
                return cli_error(io,
                                 "match: bad --sprt '%s' (expected ELO0,ELO1 with "
                                 "ELO0 < ELO1)",
                                 argv[i]);
            cfg->sprt = 1;
        } else if ((!strcmp(a, "--sprt-alpha") || !strcmp(a, "--sprt-beta")) && has) {
            double x;
            char *end;
            x = strtod(argv[++i], &end);
            if (*end || !(x > 0 && x < 0.5))
                return cli_error(io, "match: bad %s '%s' (between 0 and 0.5)", a, argv[i]);
            *(a[7] == 'a' ? &cfg->sprt_alpha : &cfg->sprt_beta) = x;
        } else if (!strcmp(a, "--adjudicate-resign") && has) {
            if (match_adjudication_parse_resign(&cfg->adj, argv[++i]))
                return cli_error(io, "match: bad --adjudicate-resign '%s' (expected MOVES,SCORE)",
                                 argv[i]);
        } else if (!strcmp(a, "--adjudicate-draw") && has) {
            if (match_adjudication_parse_draw(&cfg->adj, argv[++i]))
                return cli_error(
                    io, "match: bad --adjudicate-draw '%s' (expected FROM,MOVES,SCORE)", argv[i]);
        } else if (!strcmp(a, "--option") && has) {
            /* The uci player given last (before this option, or the only one). */
            struct match_player *p = nplayers ? &cfg->players[nplayers - 1] : NULL;
            if (p && p->kind != MATCH_PLAYER_UCI && nplayers == 2 &&
                cfg->players[0].kind == MATCH_PLAYER_UCI)
                p = &cfg->players[0];
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (!p || p->kind != MATCH_PLAYER_UCI)
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
    if (!strcmp(cfg->players[0].name, cfg->players[1].name)) {
        strncat(cfg->players[0].name, "#1",
                sizeof cfg->players[0].name - strlen(cfg->players[0].name) - 1);
        strncat(cfg->players[1].name, "#2",
                sizeof cfg->players[1].name - strlen(cfg->players[1].name) - 1);
    }
    return 0;
}

int cmd_match(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1)
        return cli_error(io, "usage: agora match GAME PLAYER1 PLAYER2 [options] (see agora help)");
    const struct game *g = cli_game(io, argv[0]);
    if (!g)
        return CLI_BAD_INPUT;
    struct match_config cfg;
    match_config_init(&cfg, g);
    const char *openings = NULL, *out_path = NULL, *book_path = NULL;
    char **texts = NULL;
    int rc = parse_args(&cfg, io, argc, argv, &openings, &out_path, &book_path);
    if (!rc && book_path)
        rc = cli_book(io, g, book_path, &cfg.book);
    if (!rc && openings) {
        char err[ERROR_TEXT_MAX];
        if (match_load_openings(g, openings, &texts, &cfg.nopenings, err, sizeof err))
            rc = cli_error(io, "match: openings: %s", err);
        cfg.openings = texts;
    }
    if (!rc && out_path && !(cfg.records = fopen(out_path, "w")))
        rc = cli_error(io, "match: cannot write '%s'", out_path);
    if (!rc)
        rc = match_run(&cfg, io->out, io->err);
    if (cfg.records)
        fclose(cfg.records);
    engine_book_close(cfg.book);
    for (int i = 0; i < cfg.nopenings; i++)
        free(texts[i]);
    free(texts);
    return rc;
}
