/* The win-chance curve of a game's engine scores (a developer tool, `make winfit`).
 *
 *   build/winfit GAME [--games N] [--seed N] [--nodes N] [--levels LO-HI]
 *                [--random-plies N] [-j|--threads N] [--out FILE] [--skip-end N]
 *                [--k K]
 *   build/winfit --from FILE [--from FILE]... [--skip-end N] [--k K]
 *
 * Plays N seeded self-play games of GAME, each side at a level drawn at random from
 * LO..HI (3..7) for each game, after a few random opening plies (the profile's
 * random plies, else 4), so that both sides make mistakes and the results vary.  At
 * every position after the random plies it searches once more at a fixed budget
 * (--nodes, 5000: level 0, full strength within the node limit, the kind of score an
 * analysis board shows) and keeps that score (side to move's view) and the game's
 * final result for the side to move (1, 1/2, 0).  The game's move itself comes from
 * the side's level.  Games run on --threads threads; each game's seed is fixed by
 * --seed and its number, so the data does not depend on the thread count (except
 * where a level's time cap cuts a search on a busy machine).
 *
 * Then it fits P(side to move wins) = 1 / (1 + exp(-k score)) by maximum likelihood,
 * a draw counting as half a win (the expected score), over every position whose score
 * is not a proven win or loss (|score| >= ENGINE_WIN_BOUND: there the curve says
 * nothing), and without the last --skip-end plies of each game (0: none).  It prints
 * k, the games and positions used, the mean log-loss of the fit against that of
 * always saying 1/2 (ln 2), the Brier score against 1/2's, the log-loss on the odd
 * games of a k fitted on the even ones, the spread of k over games resampled with
 * replacement (bootstrap), and a calibration table: the positions in bands of
 * predicted chance, their score range, the chance predicted and the score observed.
 * --k K (for chess: Lichess's 0.00368208 unless given) is measured on the same data.
 *
 * --out FILE keeps the positions as text ("# winfit GAME ..." then one line a position:
 * game, ply, plies to the end, score, result in half points), so --from FILE fits
 * again without playing; several --from fit the files' positions together (runs with
 * different seeds). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/rng.h"
#include "engines/engine.h"
#include "games/registry.h"

#define LICHESS_K 0.00368208 /* lichess.org's winning chances: 2/(1+exp(-k cp)) - 1 */
#define BOOTSTRAP_ROUNDS 200
#define CAL_BANDS 10
#define MAX_FROM 64

struct position {
    int game;
    int ply;    /* plies since the start */
    int to_end; /* plies still to be played in the game */
    int score;  /* side to move's view */
    int half;   /* the side to move's result in half points: 2 won, 1 drawn, 0 lost */
};

struct positions {
    struct position *p;
    size_t n, cap;
};

static void push(struct positions *v, const struct position *p)
{
    if (v->n == v->cap) {
        size_t c = v->cap ? 2 * v->cap : 256;
        struct position *q = realloc(v->p, c * sizeof *q);
        if (!q) {
            fprintf(stderr, "winfit: out of memory\n");
            exit(1);
        }
        v->p = q;
        v->cap = c;
    }
    v->p[v->n++] = *p;
}

struct config {
    const struct game *g;
    int games;
    uint64_t seed;
    uint64_t nodes;
    int level_lo, level_hi;
    int random_plies;
    int threads;
};

struct results {
    int white_wins, black_wins, draws, capped;
    long plies;
};

/* Shared by the workers. */
struct run {
    const struct config *cfg;
    struct positions *per_game; /* one list a game */
    atomic_int next;
    pthread_mutex_t lock;
    int done;
    size_t positions;
    struct results res;
    int progress;
    double t0;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The random plies: seeded legal moves that neither end the game nor leave it over. */
static int random_start(const struct game *g, void *st, struct rng *r, int plies, Move *buf)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        g->start(st);
        int ok = 1;
        for (int i = 0; i < plies && ok; i++) {
            int k = game_legal_moves(g, st, buf);
            if (k == 0)
                ok = 0;
            else
                g->make_move(st, buf[rng_below(r, (uint32_t)k)]);
        }
        if (ok && game_legal_moves(g, st, buf) > 0)
            return 0;
    }
    return -1;
}

/* Game `index`: its positions into *out; its result (White's view) returned. */
static enum result play_game(const struct config *cfg, int index, struct positions *out, int *plies,
                             int *capped)
{
    const struct game *g = cfg->g;
    void *st = game_state_new(g);
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
    enum side *mover = malloc(sizeof(enum side) * (size_t)g->max_plies);
    if (!st || !buf || !mover) {
        fprintf(stderr, "winfit: out of memory\n");
        exit(1);
    }
    struct rng r;
    rng_seed(&r, cfg->seed * 1000003u + (uint64_t)index * 7919u + 1);
    int span = cfg->level_hi - cfg->level_lo + 1;
    int level[2];
    level[SIDE_WHITE] = cfg->level_lo + (int)rng_below(&r, (uint32_t)span);
    level[SIDE_BLACK] = cfg->level_lo + (int)rng_below(&r, (uint32_t)span);
    enum result result = RESULT_DRAW;
    *capped = 0;
    size_t first = out->n;
    if (random_start(g, st, &r, cfg->random_plies, buf) != 0) {
        fprintf(stderr, "winfit: game %d: no start position\n", index + 1);
        goto done;
    }
    int cap = g->max_plies - 1 < 1000 ? g->max_plies - 1 : 1000;
    struct engine_limits score_limits = {.nodes = cfg->nodes};
    for (;;) {
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING) {
            result = gs.result;
            break;
        }
        int ply = g->ply(st);
        if (ply >= cap) {
            *capped = 1;
            break;
        }
        enum side side = g->side_to_move(st);
        uint64_t seed = cfg->seed * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)index << 20) ^ (uint64_t)ply;
        struct engine_result er;
        engine_think(g, st, 0, &score_limits, seed, &er);
        struct position p = {index, ply, 0, er.score, 0};
        mover[ply] = side;
        push(out, &p);
        Move m = engine_think(g, st, level[side], NULL, seed ^ 0xabcdef, &er);
        if (!m)
            break;
        g->make_move(st, m);
    }
    *plies = g->ply(st);
    for (size_t i = first; i < out->n; i++) {
        struct position *p = &out->p[i];
        p->to_end = *plies - p->ply;
        int white_half = result == RESULT_WHITE_WINS ? 2 : result == RESULT_BLACK_WINS ? 0 : 1;
        p->half = mover[p->ply] == SIDE_WHITE ? white_half : 2 - white_half;
    }
done:
    free(mover);
    free(buf);
    free(st);
    return result;
}

static void *worker(void *arg)
{
    struct run *run = arg;
    const struct config *cfg = run->cfg;
    for (;;) {
        int i = atomic_fetch_add(&run->next, 1);
        if (i >= cfg->games)
            break;
        int plies = 0, capped = 0;
        enum result res = play_game(cfg, i, &run->per_game[i], &plies, &capped);
        pthread_mutex_lock(&run->lock);
        run->done++;
        run->positions += run->per_game[i].n;
        run->res.plies += plies;
        run->res.capped += capped;
        if (res == RESULT_WHITE_WINS)
            run->res.white_wins++;
        else if (res == RESULT_BLACK_WINS)
            run->res.black_wins++;
        else
            run->res.draws++;
        /* On a terminal, one line rewritten; in a log, a line every 5% of the games. */
        int every = cfg->games >= 20 ? cfg->games / 20 : 1;
        if (run->progress || run->done % every == 0 || run->done == cfg->games)
            fprintf(stderr, "%swinfit: games %d/%d, positions %zu, %.0f s%s",
                    run->progress ? "\r" : "", run->done, cfg->games, run->positions,
                    now_seconds() - run->t0, run->progress ? " " : "\n");
        pthread_mutex_unlock(&run->lock);
    }
    return NULL;
}

static int play_all(const struct config *cfg, struct positions *all, struct results *res,
                    double *seconds)
{
    struct run run;
    memset(&run, 0, sizeof run);
    run.cfg = cfg;
    run.per_game = calloc((size_t)cfg->games, sizeof *run.per_game);
    if (!run.per_game)
        return -1;
    atomic_init(&run.next, 0);
    pthread_mutex_init(&run.lock, NULL);
    run.progress = isatty(STDERR_FILENO);
    run.t0 = now_seconds();
    int n = cfg->threads;
    pthread_t *tid = calloc((size_t)n, sizeof *tid);
    if (!tid)
        return -1;
    for (int i = 0; i < n; i++)
        if (pthread_create(&tid[i], NULL, worker, &run) != 0) {
            fprintf(stderr, "winfit: no thread\n");
            exit(1);
        }
    for (int i = 0; i < n; i++)
        pthread_join(tid[i], NULL);
    if (run.progress)
        fprintf(stderr, "\n");
    *seconds = now_seconds() - run.t0;
    for (int i = 0; i < cfg->games; i++) {
        for (size_t j = 0; j < run.per_game[i].n; j++)
            push(all, &run.per_game[i].p[j]);
        free(run.per_game[i].p);
    }
    *res = run.res;
    free(run.per_game);
    free(tid);
    pthread_mutex_destroy(&run.lock);
    return 0;
}

/* ---- The data file ------------------------------------------------------------ */

static int write_data(const char *path, const struct config *cfg, const struct positions *v)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f,
            "# winfit %s games=%d seed=%llu nodes=%llu levels=%d-%d random-plies=%d\n"
            "# game ply to_end score half_points\n",
            cfg->g->name, cfg->games, (unsigned long long)cfg->seed, (unsigned long long)cfg->nodes,
            cfg->level_lo, cfg->level_hi, cfg->random_plies);
    for (size_t i = 0; i < v->n; i++) {
        const struct position *p = &v->p[i];
        fprintf(f, "%d %d %d %d %d\n", p->game, p->ply, p->to_end, p->score, p->half);
    }
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* Reads a data file; *game the game its header names (NULL when it names none). */
static int read_data(const char *path, struct positions *v, const struct game **game, char *header,
                     size_t header_size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    /* The games of a second file are numbered after those already read. */
    int base = 0;
    for (size_t i = 0; i < v->n; i++)
        if (v->p[i].game >= base)
            base = v->p[i].game + 1;
    char line[512];
    *game = NULL;
    header[0] = 0;
    long lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') {
            char name[64];
            if (!header[0] && sscanf(line, "# winfit %63s", name) == 1) {
                *game = game_find(name);
                snprintf(header, header_size, "%.200s", line + 2);
                header[strcspn(header, "\n")] = 0;
            }
            continue;
        }
        struct position p;
        if (sscanf(line, "%d %d %d %d %d", &p.game, &p.ply, &p.to_end, &p.score, &p.half) != 5 ||
            p.half < 0 || p.half > 2) {
            fprintf(stderr, "winfit: %s:%ld: not a position line\n", path, lineno);
            fclose(f);
            return -1;
        }
        p.game += base;
        push(v, &p);
    }
    fclose(f);
    return 0;
}

/* ---- The fit ------------------------------------------------------------------- */

/* The positions the curve is fitted on, as (score, result 0..1) with the index of
 * their game among the games that have any, and a weight (bootstrap). */
struct sample {
    double score, result;
    int game;
};

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* Mean log-loss and Brier score of chance 1/(1+exp(-k s)) over samples with
 * weights w (NULL: all 1) and, when `parity` >= 0, only games of that parity. */
static void measure(const struct sample *s, size_t n, const double *w, int parity, double k,
                    double *logloss, double *brier)
{
    double ll = 0, br = 0, total = 0;
    for (size_t i = 0; i < n; i++) {
        if (parity >= 0 && s[i].game % 2 != parity)
            continue;
        double wi = w ? w[s[i].game] : 1.0;
        if (wi == 0)
            continue;
        double p = sigmoid(k * s[i].score);
        p = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
        ll -= wi * (s[i].result * log(p) + (1 - s[i].result) * log(1 - p));
        br += wi * (p - s[i].result) * (p - s[i].result);
        total += wi;
    }
    *logloss = total > 0 ? ll / total : 0;
    *brier = total > 0 ? br / total : 0;
}

/* The k of greatest likelihood: Newton's method on a concave function, the step
 * halved while it does not improve. */
static double fit_k(const struct sample *s, size_t n, const double *w, int parity)
{
    double k = 0.003, ll, br;
    measure(s, n, w, parity, k, &ll, &br);
    for (int iter = 0; iter < 100; iter++) {
        double g = 0, h = 0;
        for (size_t i = 0; i < n; i++) {
            if (parity >= 0 && s[i].game % 2 != parity)
                continue;
            double wi = w ? w[s[i].game] : 1.0;
            double p = sigmoid(k * s[i].score);
            g += wi * (s[i].result - p) * s[i].score;
            h += wi * p * (1 - p) * s[i].score * s[i].score;
        }
        if (h <= 0)
            break;
        double step = g / h, next = k + step, nll;
        for (int half = 0; half < 30; half++) {
            measure(s, n, w, parity, next, &nll, &br);
            if (nll <= ll + 1e-15)
                break;
            step /= 2;
            next = k + step;
        }
        if (fabs(next - k) < 1e-12 * (fabs(k) + 1e-9)) {
            k = next;
            break;
        }
        k = next;
        ll = nll;
    }
    return k;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void calibration(const struct sample *s, size_t n, double k, double k_other)
{
    struct band {
        long n;
        double lo, hi, pred, pred_other, obs;
    } b[CAL_BANDS];
    memset(b, 0, sizeof b);
    for (int i = 0; i < CAL_BANDS; i++) {
        b[i].lo = 1e18;
        b[i].hi = -1e18;
    }
    for (size_t i = 0; i < n; i++) {
        double p = sigmoid(k * s[i].score);
        int j = (int)(p * CAL_BANDS);
        j = j < 0 ? 0 : j >= CAL_BANDS ? CAL_BANDS - 1 : j;
        b[j].n++;
        b[j].pred += p;
        b[j].pred_other += sigmoid(k_other * s[i].score);
        b[j].obs += s[i].result;
        if (s[i].score < b[j].lo)
            b[j].lo = s[i].score;
        if (s[i].score > b[j].hi)
            b[j].hi = s[i].score;
    }
    printf("\ncalibration (bands of the fitted chance):\n");
    printf("  %-11s %8s %16s %9s %9s", "band", "n", "scores", "predicted", "observed");
    if (k_other)
        printf(" %9s", "other k");
    printf("\n");
    for (int j = 0; j < CAL_BANDS; j++) {
        if (!b[j].n)
            continue;
        char band[32], range[40];
        snprintf(band, sizeof band, "%.1f-%.1f", (double)j / CAL_BANDS,
                 (double)(j + 1) / CAL_BANDS);
        snprintf(range, sizeof range, "%.0f..%.0f", b[j].lo, b[j].hi);
        printf("  %-11s %8ld %16s %9.3f %9.3f", band, b[j].n, range, b[j].pred / (double)b[j].n,
               b[j].obs / (double)b[j].n);
        if (k_other)
            printf(" %9.3f", b[j].pred_other / (double)b[j].n);
        printf("\n");
    }
}

static int report(const struct game *g, const struct positions *v, int skip_end, double k_other)
{
    struct sample *s = malloc((v->n + 1) * sizeof *s);
    if (!s)
        return -1;
    size_t n = 0;
    long proven = 0, near_end = 0;
    int ngames = 0, last = -1;
    long half[3] = {0, 0, 0};
    for (size_t i = 0; i < v->n; i++) {
        const struct position *p = &v->p[i];
        if (p->score >= ENGINE_WIN_BOUND || p->score <= -ENGINE_WIN_BOUND) {
            proven++;
            continue;
        }
        if (p->to_end <= skip_end) {
            near_end++;
            continue;
        }
        if (p->game != last) {
            last = p->game;
            ngames++;
        }
        s[n].score = p->score;
        s[n].result = p->half / 2.0;
        s[n].game = ngames - 1;
        half[p->half]++;
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "winfit: no positions to fit\n");
        free(s);
        return -1;
    }
    double k = fit_k(s, n, NULL, -1), ll, br, ll0, br0;
    measure(s, n, NULL, -1, k, &ll, &br);
    measure(s, n, NULL, -1, 0, &ll0, &br0);
    double k_even = fit_k(s, n, NULL, 0), ll_odd, br_odd, ll0_odd, br0_odd;
    measure(s, n, NULL, 1, k_even, &ll_odd, &br_odd);
    measure(s, n, NULL, 1, 0, &ll0_odd, &br0_odd);

    /* Bootstrap over games: the positions of one game are far from independent. */
    double *w = malloc((size_t)ngames * sizeof *w), kb[BOOTSTRAP_ROUNDS];
    struct rng r;
    rng_seed(&r, 12345);
    int rounds = 0;
    for (; w && rounds < BOOTSTRAP_ROUNDS; rounds++) {
        memset(w, 0, (size_t)ngames * sizeof *w);
        for (int i = 0; i < ngames; i++)
            w[rng_below(&r, (uint32_t)ngames)] += 1;
        kb[rounds] = fit_k(s, n, w, -1);
    }
    free(w);
    qsort(kb, (size_t)rounds, sizeof *kb, cmp_double);
    double k_lo = rounds ? kb[rounds * 25 / 1000] : k, k_hi = rounds ? kb[rounds * 975 / 1000] : k;

    printf("game %s: P(side to move wins) = 1 / (1 + exp(-k score))\n", g ? g->name : "?");
    printf("k = %.6f (95%% of %d bootstrap fits over the games within %.6f..%.6f);"
           " a score of %.0f is 75%%\n",
           k, rounds, k_lo, k_hi, log(3.0) / k);
    printf("games %d, positions %zu (won %ld, drawn %ld, lost %ld by the side to move);"
           " left out: %ld proven scores, %ld within %d plies of the end\n",
           ngames, n, half[2], half[1], half[0], proven, near_end, skip_end);
    printf("log-loss %.4f (always 1/2: %.4f), Brier %.4f (always 1/2: %.4f)\n", ll, ll0, br, br0);
    printf("held out: k %.6f fitted on the even games, on the odd ones log-loss %.4f"
           " (1/2: %.4f), Brier %.4f (1/2: %.4f)\n",
           k_even, ll_odd, ll0_odd, br_odd, br0_odd);
    if (k_other) {
        double llo, bro;
        measure(s, n, NULL, -1, k_other, &llo, &bro);
        printf("k %.8f on the same positions: log-loss %.4f, Brier %.4f (fitted k / it: %.3f)\n",
               k_other, llo, bro, k / k_other);
    }
    calibration(s, n, k, k_other);
    free(s);
    return 0;
}

/* ---- Options -------------------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr, "usage: build/winfit GAME [--games N] [--seed N] [--nodes N] [--levels LO-HI]\n"
                    "                    [--random-plies N] [-j|--threads N] [--out FILE]\n"
                    "                    [--skip-end N] [--k K]\n"
                    "       build/winfit --from FILE [--from FILE]... [--skip-end N] [--k K]\n");
    exit(2);
}

static long long number(const char *text, long long lo, long long hi)
{
    char *end;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || v < lo || v > hi) {
        fprintf(stderr, "winfit: %s: not a number in %lld..%lld\n", text, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    games_init();
    struct config cfg = {NULL, 400, 1, 5000, 3, 7, -1, 1};
    const char *out = NULL, *from[MAX_FROM];
    int nfrom = 0;
    int skip_end = 0;
    double k_other = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            if (cfg.g || !(cfg.g = game_find(a))) {
                fprintf(stderr, "winfit: %s: not a game (or a second one)\n", a);
                return 2;
            }
            continue;
        }
        if (!v)
            usage();
        i++;
        if (!strcmp(a, "--games"))
            cfg.games = (int)number(v, 1, 10000000);
        else if (!strcmp(a, "--seed"))
            cfg.seed = (uint64_t)number(v, 0, (1LL << 62));
        else if (!strcmp(a, "--nodes"))
            cfg.nodes = (uint64_t)number(v, 1, 1LL << 40);
        else if (!strcmp(a, "--random-plies"))
            cfg.random_plies = (int)number(v, 0, 100);
        else if (!strcmp(a, "-j") || !strcmp(a, "--threads"))
            cfg.threads = (int)number(v, 1, 256);
        else if (!strcmp(a, "--skip-end"))
            skip_end = (int)number(v, 0, 10000);
        else if (!strcmp(a, "--out"))
            out = v;
        else if (!strcmp(a, "--from")) {
            if (nfrom == MAX_FROM)
                usage();
            from[nfrom++] = v;
        } else if (!strcmp(a, "--k")) {
            char *end;
            k_other = strtod(v, &end);
            if (*end || !(k_other > 0))
                usage();
        } else if (!strcmp(a, "--levels")) {
            if (sscanf(v, "%d-%d", &cfg.level_lo, &cfg.level_hi) != 2 ||
                cfg.level_lo < ENGINE_LEVEL_MIN || cfg.level_hi > ENGINE_LEVEL_MAX ||
                cfg.level_lo > cfg.level_hi)
                usage();
        } else
            usage();
    }
    struct positions v = {NULL, 0, 0};
    if (nfrom) {
        for (int f = 0; f < nfrom; f++) {
            char header[512];
            const struct game *g = NULL;
            size_t before = v.n;
            if (read_data(from[f], &v, &g, header, sizeof header) != 0)
                return 1;
            if (!cfg.g)
                cfg.g = g;
            printf("data %s: %s (%zu positions)\n", from[f], header[0] ? header : "no header",
                   v.n - before);
        }
    } else {
        if (!cfg.g)
            usage();
        if (cfg.random_plies < 0) {
            int rp = engine_profile_of(cfg.g)->random_plies;
            cfg.random_plies = rp > 0 ? rp : 4;
        }
        struct results res;
        double seconds;
        if (play_all(&cfg, &v, &res, &seconds) != 0) {
            fprintf(stderr, "winfit: out of memory\n");
            return 1;
        }
        printf("played %d games of %s in %.0f s on %d threads: levels %d-%d, %d random plies,"
               " scores at %llu nodes\n",
               cfg.games, cfg.g->name, seconds, cfg.threads, cfg.level_lo, cfg.level_hi,
               cfg.random_plies, (unsigned long long)cfg.nodes);
        printf("White won %d, Black won %d, drawn %d (%d at the ply cap), %.1f plies a game\n",
               res.white_wins, res.black_wins, res.draws, res.capped,
               (double)res.plies / cfg.games);
        if (out && write_data(out, &cfg, &v) != 0)
            return 1;
    }
    if (!k_other && cfg.g && !strcmp(cfg.g->name, "chess"))
        k_other = LICHESS_K;
    int rc = report(cfg.g, &v, skip_end, k_other) != 0;
    free(v.p);
    return rc;
}
