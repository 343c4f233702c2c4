/* agora bench [GAME]: seeded random playouts for every game (or one), with plies
 * per second, playouts per second and a signature (total plies) that changes only
 * when the rules or the random stream change; then a fixed-depth search (each game's
 * own: the chess search for chess, alpha-beta for the others) of fixed positions, with
 * nodes per second and a node-count signature that changes only when the search (or
 * the evaluation, or the rules) behaves differently.  The expected signatures are kept
 * in tests/bench-signatures.txt, which the heavy test bench_signatures checks. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/playout.h"
#include "core/rng.h"
#include "engines/engine.h"
#include "games/registry.h"

#define BENCH_MAX_PLIES 2000

void bench_playouts(const struct game *g, long playouts, uint64_t seed, struct cli_io *io,
                    struct bench_run *out)
{
    void *st = game_state_new(g);
    int cap = g->max_plies < BENCH_MAX_PLIES ? g->max_plies : BENCH_MAX_PLIES;
    Move *line = malloc(sizeof(Move) * (size_t)cap);
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct rng r;
    rng_seed(&r, seed);
    g->start(st);
    int show_progress = io && io->err == stderr && isatty(STDERR_FILENO);
    uint64_t plies = 0;
    double t0 = cli_seconds();
    for (long i = 0; i < playouts; i++) {
        int n = playout(g, st, &r, cap, line, buf);
        plies += (uint64_t)n;
        playout_undo(g, st, line, n);
        if (show_progress && (i & 1023) == 0)
            fprintf(io->err, "\r%s: %ld/%ld playouts", g->name, i, playouts);
    }
    *out = (struct bench_run){plies, (int)playouts, cli_seconds() - t0};
    if (show_progress)
        fprintf(io->err, "\r%40s\r", "");
    free(buf);
    free(line);
    free(st);
}

/* The positions searched: the start and positions after 8, 16 and 24 seeded random
 * plies (fewer if a game ends sooner). */
#define BENCH_SEARCH_POSITIONS 4
#define BENCH_SEARCH_PLY_STEP 8

void bench_search(const struct game *g, int depth, struct bench_run *out)
{
    void *st = game_state_new(g);
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct rng r;
    rng_seed(&r, 20261130);
    *out = (struct bench_run){0, 0, 0.0};
    struct engine *e = engine_new(16);
    g->start(st);
    for (int i = 0; e && i < BENCH_SEARCH_POSITIONS; i++) {
        for (int k = 0; i > 0 && k < BENCH_SEARCH_PLY_STEP; k++) {
            int n = game_legal_moves(g, st, buf);
            if (n == 0)
                break;
            g->make_move(st, buf[rng_below(&r, (uint32_t)n)]);
        }
        if (game_legal_moves(g, st, buf) == 0)
            break;
        struct engine_limits lim = {.depth = depth ? depth : engine_profile_of(g)->bench_depth};
        struct engine_result res; /* the game's own search */
        engine_clear(e);
        double t0 = cli_seconds();
        engine_go(e, g, st, 0, &lim, 1, &res);
        out->seconds += cli_seconds() - t0;
        out->signature += res.nodes;
        out->count++;
    }
    engine_free(e);
    free(buf);
    free(st);
}

static void print_playouts(const struct game *g, long playouts, uint64_t seed, struct cli_io *io)
{
    struct bench_run b;
    bench_playouts(g, playouts, seed, io, &b);
    fprintf(io->out,
            "%-12s playouts %ld  plies %llu  seconds %.3f  plies/s %.0f  playouts/s %.0f  "
            "signature %llu\n",
            g->name, playouts, (unsigned long long)b.signature, b.seconds,
            (double)b.signature / b.seconds, (double)playouts / b.seconds,
            (unsigned long long)b.signature);
    fflush(io->out);
}

static void print_search(const struct game *g, int depth, struct cli_io *io)
{
    struct bench_run b;
    bench_search(g, depth, &b);
    fprintf(io->out,
            "%-12s search depth %d  positions %d  nodes %llu  seconds %.3f  nodes/s %.0f  "
            "signature %llu\n",
            g->name, depth, b.count, (unsigned long long)b.signature, b.seconds,
            b.seconds > 0 ? (double)b.signature / b.seconds : 0.0, (unsigned long long)b.signature);
    fflush(io->out);
}

int cmd_bench(int argc, char **argv, struct cli_io *io)
{
    const struct game *only = NULL;
    long playouts = BENCH_PLAYOUTS, seed = BENCH_SEED, depth = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--playouts") && i + 1 < argc) {
            if (cli_int(io, "playout count", argv[++i], 1, 100000000, &playouts))
                return CLI_BAD_INPUT;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (cli_int(io, "seed", argv[++i], 0, 2147483647, &seed))
                return CLI_BAD_INPUT;
        } else if (!strcmp(argv[i], "--depth") && i + 1 < argc) {
            if (cli_int(io, "depth", argv[++i], 1, ENGINE_MAX_PLY - 1, &depth))
                return CLI_BAD_INPUT;
        } else if (argv[i][0] != '-' && !only) {
            if (!(only = cli_game(io, argv[i])))
                return CLI_BAD_INPUT;
        } else {
            return cli_error(io, "bench: unexpected argument '%s'", argv[i]);
        }
    }
    for (int i = 0; game_registry[i]; i++)
        if (!only || only == game_registry[i])
            print_playouts(game_registry[i], playouts, (uint64_t)seed, io);
    for (int i = 0; game_registry[i]; i++)
        if (!only || only == game_registry[i])
            print_search(game_registry[i],
                         depth ? (int)depth : engine_profile_of(game_registry[i])->bench_depth, io);
    return 0;
}
