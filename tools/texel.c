/* Texel tuning of the chess evaluation (a developer tool, `make tune`).
 *
 *   build/texel [--out FILE] [--epochs N] [--rate R] [--adam] [--l2 L] [--freeze GROUP]...
 *               [--fold 0..9] [--keep-last] [--every N] [--bench] GAMES.pgn ...
 *
 * Reads games labelled with their results (agora match --out; tools/texel-data.sh),
 * takes every N-th position of each game (not the first plies, never a position in
 * check), quiets it by a capture-only search with the current weights (the position at
 * the end of its best line), and records the evaluation's trace there.  Then it fits
 * the scale K of the sigmoid 1 / (1 + 10^(-K e / 400)) that maps the evaluation e
 * (White's view) to White's expected score, and minimises the mean squared error
 * between results and sigmoids over every weight (not the --freeze groups) by gradient
 * descent with momentum (--adam: Adam), optionally pulled towards the starting weights
 * (--l2).  Every tenth pair of games (--fold picks which) is held out: the weights kept
 * are those with the least error on them (--keep-last: the last), since a few thousand
 * games are few for ~800 pairs.  The weights are written as eval_weights.h (--out;
 * nothing is written without it); the weights it starts from are the compiled ones, so
 * tuning again goes on from the last result.
 *
 * --bench instead times chess_eval over the quiet positions (ns per call). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/record.h"
#include "games/chess/chess.h"
#include "games/chess/eval.h"
#include "games/chess/eval_params.h"
#include "games/chess/state.h"

#define SKIP_PLIES 6     /* the opening plies of a record are not the players' play */
#define QSEARCH_DEPTH 12 /* captures deep; enough to settle any exchange */

/* One training position: its trace as (index, coefficient) pairs. */
struct entry {
    unsigned short index;
    short coef;
};

struct sample {
    size_t first; /* into the entries */
    int count;
    float rho;    /* phase / 24: the middlegame share */
    float eg_mul; /* (1 - rho) * scale / 64 */
    float result; /* White's score: 1, 0.5, 0 */
    int holdout;  /* in the validation set */
};

struct data {
    struct sample *s;
    size_t n, cap;
    struct entry *e;
    size_t ne, ecap;
    struct chess_pos *pos; /* the quiet positions, kept for --bench */
};

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q) {
        fprintf(stderr, "texel: out of memory\n");
        exit(1);
    }
    *cap = c;
    return q;
}

static int victim_value(const struct chess_pos *p, Move m)
{
    static const int v[7] = {0, 1, 3, 3, 5, 9, 0};
    int captured = MV_KIND(m) == MK_EN_PASSANT ? PAWN : PIECE_TYPE(p->board[MV_TO(m)]);
    return 16 * v[captured] - v[PIECE_TYPE(p->board[MV_FROM(m)])] +
           (MV_KIND(m) == MK_PROMOTION ? 8 * v[MV_PROMO(m)] : 0);
}

/* Capture-only alpha-beta; *leaf gets the position at the end of the best line. */
static int qsearch(const struct chess_pos *p, int alpha, int beta, int depth,
                   struct chess_pos *leaf)
{
    int stand = chess_eval(p);
    *leaf = *p;
    if (stand >= beta || depth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    Move all[CHESS_MAX_MOVES], noisy[CHESS_MAX_MOVES];
    int score[CHESS_MAX_MOVES], n = 0, total = chess_gen_legal(p, all);
    for (int i = 0; i < total; i++)
        if (p->board[MV_TO(all[i])] || MV_KIND(all[i]) == MK_EN_PASSANT ||
            (MV_KIND(all[i]) == MK_PROMOTION && MV_PROMO(all[i]) == QUEEN)) {
            noisy[n] = all[i];
            score[n++] = victim_value(p, all[i]);
        }
    for (int i = 0; i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (score[j] > score[best])
                best = j;
        Move m = noisy[best];
        noisy[best] = noisy[i];
        score[best] = score[i];
        struct chess_pos child = *p, child_leaf;
        struct chess_undo u;
        chess_pos_make(&child, m, &u);
        int v = -qsearch(&child, -beta, -alpha, depth - 1, &child_leaf);
        if (v > alpha) {
            alpha = v;
            *leaf = child_leaf;
            if (v >= beta)
                break;
        }
    }
    return alpha;
}

static void add_position(struct data *d, const struct chess_pos *p, float result, int holdout)
{
    struct chess_pos leaf;
    qsearch(p, -32000, 32000, QSEARCH_DEPTH, &leaf);
    if (chess_in_check(&leaf))
        return;
    struct chess_eval_trace tr;
    chess_eval_traced(&leaf, chess_eval_default_weights(), &tr);
    d->s = grow(d->s, &d->cap, d->n + 1, sizeof *d->s);
    d->pos = realloc(d->pos, d->cap * sizeof *d->pos);
    if (!d->pos) {
        fprintf(stderr, "texel: out of memory\n");
        exit(1);
    }
    struct sample *s = &d->s[d->n];
    s->first = d->ne;
    s->count = 0;
    for (int i = 0; i < CHESS_EVAL_NPAIRS; i++) {
        if (!tr.coef[i])
            continue;
        d->e = grow(d->e, &d->ecap, d->ne + 1, sizeof *d->e);
        d->e[d->ne++] = (struct entry){(unsigned short)i, (short)tr.coef[i]};
        s->count++;
    }
    s->rho = (float)tr.phase / CHESS_EVAL_PHASE_MAX;
    s->eg_mul = (1.0f - s->rho) * (float)tr.scale / CHESS_EVAL_SCALE_FULL;
    s->result = result;
    s->holdout = holdout;
    d->pos[d->n++] = leaf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (text)
        text[size] = 0;
    fclose(f);
    return text;
}

/* Every game of a PGN file; returns the number of games read or -1. */
static long read_games(const char *path, int every, int fold, long *game_no, struct data *d)
{
    char *text = slurp(path);
    if (!text) {
        fprintf(stderr, "texel: cannot read %s\n", path);
        return -1;
    }
    struct chess_state *st = malloc(sizeof *st);
    static Move moves[CHESS_MAX_PLIES];
    struct record_header info;
    char result[16], err[ERROR_TEXT_MAX];
    long games = 0;
    for (const char *at = text;;) {
        long used = chess_pgn_read(at, st, &info, result, sizeof result, err, sizeof err);
        if (used == 0)
            break;
        if (used < 0) {
            fprintf(stderr, "texel: %s: game %ld: %s\n", path, games + 1, err);
            break;
        }
        at += used;
        float label = !strcmp(result, "1-0")       ? 1.0f
                      : !strcmp(result, "0-1")     ? 0.0f
                      : !strcmp(result, "1/2-1/2") ? 0.5f
                                                   : -1.0f;
        if (label < 0)
            continue;
        int n = st->ply;
        for (int i = n - 1; i >= 0; i--) {
            moves[i] = st->hist[i].move;
            chess_unmake_move(st, moves[i]);
        }
        struct chess_pos p = st->pos;
        /* Validation: every tenth pair of games (a match plays each start twice),
         * the pairs whose number ends in `fold`. */
        int holdout = (*game_no)++ / 2 % 10 == fold;
        for (int i = 0; i < n; i++) {
            if (i >= SKIP_PLIES && i % every == 0 && !chess_in_check(&p))
                add_position(d, &p, label, holdout);
            struct chess_undo u;
            chess_pos_make(&p, moves[i], &u);
        }
        games++;
    }
    free(st);
    free(text);
    return games;
}

static double sigmoid(double k, double e)
{
    return 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
}

static double model_eval(const struct data *d, const struct sample *s, const double *mg,
                         const double *eg)
{
    double m = 0, e = 0;
    for (int j = 0; j < s->count; j++) {
        const struct entry *en = &d->e[s->first + (size_t)j];
        m += en->coef * mg[en->index];
        e += en->coef * eg[en->index];
    }
    return m * s->rho + e * s->eg_mul;
}

/* Mean squared error over the training (holdout 0) or validation (1) samples. */
static double mse(const struct data *d, double k, const double *mg, const double *eg, int holdout)
{
    double sum = 0;
    size_t count = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (d->s[i].holdout != holdout)
            continue;
        double diff = d->s[i].result - sigmoid(k, model_eval(d, &d->s[i], mg, eg));
        sum += diff * diff;
        count++;
    }
    return count ? sum / (double)count : 0;
}

/* The K with the least training error (golden-section search on [0.1, 4]). */
static double fit_k(const struct data *d, const double *mg, const double *eg)
{
    double a = 0.1, b = 4.0, g = (sqrt(5.0) - 1) / 2;
    double c = b - g * (b - a), e = a + g * (b - a);
    double fc = mse(d, c, mg, eg, 0), fe = mse(d, e, mg, eg, 0);
    for (int i = 0; i < 40; i++) {
        if (fc < fe) {
            b = e, e = c, fe = fc;
            c = b - g * (b - a);
            fc = mse(d, c, mg, eg, 0);
        } else {
            a = c, c = e, fc = fe;
            e = a + g * (b - a);
            fe = mse(d, e, mg, eg, 0);
        }
    }
    return (a + b) / 2;
}

/* Adam over every weight, mg then eg in `w`, with an L2 pull of strength `l2` towards
 * the starting weights; the weights with the least validation error, checked every 10
 * epochs, are the result (early stopping: the games are few and alike). */
static void tune(const struct data *d, double k, double *w, int epochs, double rate, double l2,
                 int adam, const char *frozen, int keep_last)
{
    enum { N = 2 * CHESS_EVAL_NPAIRS };
    static double start[N], best_w[N], grad[N], m1[N], m2[N];
    const double b1 = 0.9, b2 = 0.999;
    double *eg = w + CHESS_EVAL_NPAIRS;
    double best = mse(d, k, w, eg, 1);
    int best_epoch = 0;
    memcpy(start, w, sizeof start);
    memcpy(best_w, w, sizeof best_w);
    memset(m1, 0, sizeof m1);
    memset(m2, 0, sizeof m2);
    size_t train = 0;
    for (size_t i = 0; i < d->n; i++)
        train += !d->s[i].holdout;
    for (int epoch = 1; epoch <= epochs; epoch++) {
        memset(grad, 0, sizeof grad);
        for (size_t i = 0; i < d->n; i++) {
            const struct sample *s = &d->s[i];
            if (s->holdout)
                continue;
            double p = sigmoid(k, model_eval(d, s, w, eg));
            double de = -2.0 * (s->result - p) * p * (1 - p) * k * log(10.0) / 400.0;
            for (int j = 0; j < s->count; j++) {
                const struct entry *en = &d->e[s->first + (size_t)j];
                grad[en->index] += de * en->coef * s->rho;
                grad[CHESS_EVAL_NPAIRS + en->index] += de * en->coef * s->eg_mul;
            }
        }
        for (int i = 0; i < N; i++) {
            double g = grad[i] / (double)train + 2 * l2 * (w[i] - start[i]);
            if (frozen[i % CHESS_EVAL_NPAIRS])
                continue;
            if (adam) {
                m1[i] = b1 * m1[i] + (1 - b1) * g;
                m2[i] = b2 * m2[i] + (1 - b2) * g * g;
                double mh = m1[i] / (1 - pow(b1, epoch)), vh = m2[i] / (1 - pow(b2, epoch));
                w[i] -= rate * mh / (sqrt(vh) + 1e-12);
            } else {
                m1[i] = b1 * m1[i] + g; /* momentum */
                w[i] -= rate * m1[i];
            }
        }
        if (epoch % 10 == 0 || epoch == epochs) {
            double v = mse(d, k, w, eg, 1);
            if (epoch % 50 == 0 || epoch == epochs)
                fprintf(stderr, "epoch %d  train %.6f  validation %.6f\n", epoch,
                        mse(d, k, w, eg, 0), v);
            if (v < best || keep_last) {
                best = v;
                best_epoch = epoch;
                memcpy(best_w, w, sizeof best_w);
            }
        }
    }
    fprintf(stderr, "kept the weights of epoch %d\n", best_epoch);
    memcpy(w, best_w, sizeof best_w);
}

static int write_weights(const char *path, const double *mg, const double *eg, size_t positions,
                         double k, double before, double after)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "texel: cannot write %s\n", path);
        return -1;
    }
    fprintf(f,
            "/* The chess evaluation's weights (eval_params.h names them).  Generated by\n"
            " * tools/texel.c (`make tune`) from %zu quiet positions of self-play games:\n"
            " * K %.4f, validation error %.6f before, %.6f after.  Do not edit by hand. */\n"
            "#pragma once\n\n#include \"eval_params.h\"\n\n"
            "/* clang-format off */\n"
            "static const struct chess_eval_weights chess_eval_weights_default = {{\n",
            positions, k, before, after);
    for (int i = 0; i < CHESS_EVAL_NPAIRS; i++) {
        int within;
        const char *name = chess_eval_term_name(i, &within);
        if (within == 0)
            fprintf(f, "%s    /* %s */\n", i ? "\n" : "", name);
        else if (within % 4 == 0)
            fprintf(f, "\n");
        fprintf(f, "%s{%ld, %ld},", within % 4 ? " " : "    ", lround(mg[i]), lround(eg[i]));
    }
    fprintf(f, "\n}};\n/* clang-format on */\n");
    return fclose(f);
}

static void bench(const struct data *d)
{
    size_t n = d->n < 100000 ? d->n : 100000;
    if (!n)
        return;
    long sum = 0;
    int rounds = 20;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < n; i++)
            sum += chess_eval(&d->pos[i]);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) /
                ((double)n * rounds);
    printf("eval: %zu positions x %d rounds, %.1f ns of CPU per call (checksum %ld)\n", n, rounds,
           ns, sum);
}

/* Hold the weights of the group `name` (e.g. PSQT) at their values. */
static int freeze_group(const char *name, char *frozen)
{
    int found = 0, within;
    for (int i = 0; i < CHESS_EVAL_NPAIRS; i++)
        if (!strcmp(chess_eval_term_name(i, &within), name))
            frozen[i] = 1, found = 1;
    if (!found)
        fprintf(stderr, "texel: no weight group %s (eval_params.h names them)\n", name);
    return !found;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    int epochs = 300, every = 1, do_bench = 0;
    double rate = 0, l2 = 0;
    int adam = 0, fold = 0, keep_last = 0;
    static char frozen[CHESS_EVAL_NPAIRS];
    struct data d = {0};
    long games = 0, game_no = 0;
    chess_init();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--epochs") && i + 1 < argc) {
            epochs = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
            rate = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--freeze") && i + 1 < argc) {
            if (freeze_group(argv[++i], frozen))
                return 2;
        } else if (!strcmp(argv[i], "--fold") && i + 1 < argc) {
            fold = atoi(argv[++i]) % 10;
        } else if (!strcmp(argv[i], "--keep-last")) {
            keep_last = 1;
        } else if (!strcmp(argv[i], "--adam")) {
            adam = 1;
        } else if (!strcmp(argv[i], "--l2") && i + 1 < argc) {
            l2 = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--every") && i + 1 < argc) {
            every = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--bench")) {
            do_bench = 1;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "texel: unknown option %s\n", argv[i]);
            return 2;
        } else {
            long g = read_games(argv[i], every > 0 ? every : 1, fold, &game_no, &d);
            if (g < 0)
                return 1;
            games += g;
        }
    }
    fprintf(stderr, "%ld games, %zu quiet positions, %zu trace entries\n", games, d.n, d.ne);
    if (d.n == 0) {
        fprintf(stderr, "texel: no positions (give PGN files of finished games)\n");
        return 2;
    }
    if (do_bench) {
        bench(&d);
        return 0;
    }
    if (rate <= 0)
        rate = adam ? 0.3 : 2000;
    static double w[2 * CHESS_EVAL_NPAIRS];
    double *eg = w + CHESS_EVAL_NPAIRS;
    const struct chess_eval_weights *start = chess_eval_default_weights();
    for (int i = 0; i < CHESS_EVAL_NPAIRS; i++) {
        w[i] = start->w[i].mg;
        eg[i] = start->w[i].eg;
    }
    double k = fit_k(&d, w, eg);
    double before = mse(&d, k, w, eg, 1);
    fprintf(stderr, "K %.4f  train %.6f  validation %.6f\n", k, mse(&d, k, w, eg, 0), before);
    tune(&d, k, w, epochs, rate, l2, adam, frozen, keep_last);
    double after = mse(&d, k, w, eg, 1);
    fprintf(stderr, "validation error %.6f -> %.6f\n", before, after);
    if (out && write_weights(out, w, eg, d.n, k, before, after))
        return 1;
    free(d.s);
    free(d.e);
    free(d.pos);
    return 0;
}
