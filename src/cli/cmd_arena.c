/* `agora arena bench`: the time to pair one wave of an arena's waiting players
 * (src/server/tournaments/arena.c), as the server's director does it every tick: the
 * standings from the games, then the maximum-weight matching.  A made-up arena: N
 * players with ratings spread over 1000..2400, each with a history of games (results,
 * colours, last opponents) so the standings and the weights are not all equal, all of
 * them free at once (the worst wave: at the start, or after a pause). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "core/game.h"
#include "server/tournaments/arena.h"

#define ARENA_USAGE "usage: agora arena bench [--players N] [--games-each N] [--seed N]\n"

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench(int argc, char **argv, struct cli_io *io)
{
    int players = 1000, each = 6;
    uint64_t seed = 1;
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--players") && v)
            players = atoi(v), i++;
        else if (!strcmp(argv[i], "--games-each") && v)
            each = atoi(v), i++;
        else if (!strcmp(argv[i], "--seed") && v)
            seed = strtoull(v, NULL, 10), i++;
        else
            return fputs(ARENA_USAGE, io->err), CLI_BAD_INPUT;
    }
    if (players < 2 || players > 100000 || each < 0 || each > 100)
        return fputs(ARENA_USAGE, io->err), CLI_BAD_INPUT;
    struct store_entrant *e = calloc((size_t)players, sizeof *e);
    int games = players / 2 * each;
    struct store_game *g = calloc((size_t)(games > 0 ? games : 1), sizeof *g);
    struct arena_line *lines = calloc((size_t)players, sizeof *lines);
    struct arena_pair *pairs = calloc((size_t)players / 2 + 1, sizeof *pairs);
    if (!e || !g || !lines || !pairs) {
        free(e), free(g), free(lines), free(pairs);
        fputs("agora: arena bench: out of memory\n", io->err);
        return 1;
    }
    int64_t t0 = 1000000;
    for (int i = 0; i < players; i++) {
        snprintf(e[i].token_hash, sizeof e[i].token_hash, "%064d", i);
        snprintf(e[i].name, sizeof e[i].name, "P%d", i);
        e[i].rating = 1000 + (int)(next(&seed) % 1400);
        e[i].active_ms = t0;
    }
    /* Rounds of games between random pairs, each round ending a second later. */
    for (int k = 0; k < games; k++) {
        int w = (int)(next(&seed) % (uint64_t)players), b;
        do
            b = (int)(next(&seed) % (uint64_t)players);
        while (b == w);
        struct store_game *x = &g[k];
        snprintf(x->id, sizeof x->id, "%032d", k);
        memcpy(x->white_hash, e[w].token_hash, sizeof x->white_hash);
        memcpy(x->black_hash, e[b].token_hash, sizeof x->black_hash);
        int r = (int)(next(&seed) % 10);
        x->result = r < 4 ? RESULT_WHITE_WINS : r < 8 ? RESULT_BLACK_WINS : RESULT_DRAW;
        x->reason = REASON_RESIGNATION;
        x->plies = 20 + (int)(next(&seed) % 60);
        x->created_ms = t0 + 1000LL * k / (players / 2);
        x->updated_ms = x->created_ms + 500 + (int64_t)(next(&seed) % 60000);
    }
    int64_t now = t0 + 1000LL * (games / (players / 2) + 1) + 60000;
    double start = seconds_now();
    arena_standings(e, players, g, games, now + 3600000, lines);
    double mid = seconds_now();
    int n = arena_pair_wave(e, lines, players, now, seed, pairs);
    double end = seconds_now();
    fprintf(io->out, "players %d games %d pairs %d standings %.3f s pairing %.3f s total %.3f s\n",
            players, games, n, mid - start, end - mid, end - start);
    free(e), free(g), free(lines), free(pairs);
    return n == players / 2 ? 0 : 1;
}

int cmd_arena(int argc, char **argv, struct cli_io *io)
{
    if (argc >= 1 && !strcmp(argv[0], "bench"))
        return bench(argc - 1, argv + 1, io);
    fputs(ARENA_USAGE, io->err);
    return CLI_BAD_INPUT;
}
