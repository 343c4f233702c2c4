/* `agora tablebase generate`: the pairs of signatures in order of pieces, each solved
 * (solve.c), encoded into records (format.h) and written; a pair whose files exist
 * and check is read back instead, so an interrupted run goes on where it stopped. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/error.h"
#include "format.h"
#include "tablebase.h"

/* The encoder of one signature: the records grow layer by layer. */
struct encoder {
    int m, o;
    uint64_t size;
    TbRecord *records;
    uint8_t *state; /* per position: segments so far (bits 0-1), last result (bits 2-3) */
    int failed;     /* a position with more than three result segments */
    uint64_t failed_index;
};

struct gen {
    const struct tb_generate_options *opt;
    struct encoder enc[2];
    int count;
    double start, pair_start;
    uint64_t done_work, total_work, pair_work;
    char pair_name[32];
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Records: the result profile is kept in the record's a, b, t1, t2 fields as it grows,
 * the q0 value set at r = 40. */
static void encode_layer(void *ctx, int m, int o, int r, const TbValue *values)
{
    struct gen *g = ctx;
    struct encoder *e = g->enc[0].m == m && g->enc[0].o == o ? &g->enc[0] : &g->enc[1];
    for (uint64_t i = 0; i < e->size; i++) {
        enum tb_wdl w = tb_wdl_of(values[i]);
        TbRecord x = e->records[i];
        int segs = e->state[i] & 3, last = e->state[i] >> 2;
        if (r == 1) {
            x = (TbRecord)w << 13 | (TbRecord)41 << 17 | (TbRecord)41 << 23;
            segs = 1;
        } else if ((int)w != last) {
            if (segs == 1) {
                x = (x & ~(63u << 17 | 3u << 15)) | (TbRecord)r << 17 | (TbRecord)w << 15;
                segs = 2;
            } else if (segs == 2) {
                x = (x & ~(63u << 23)) | (TbRecord)r << 23;
                segs = 3;
            } else if (!e->failed) {
                e->failed = 1;
                e->failed_index = i;
            }
        }
        if (r == TB_QUIET_LIMIT) {
            enum tb_wdl a = TB_REC_A(x), b = TB_REC_B(x);
            int t1 = TB_REC_T1(x), t2 = TB_REC_T2(x);
            if (segs == 1)
                t1 = t2 = 1;
            else if (segs == 2)
                t2 = t1;
            if (tb_record_make(values[i], a, b, t1, t2, &x) && !e->failed) {
                e->failed = 2;
                e->failed_index = i;
            }
        }
        e->records[i] = x;
        e->state[i] = (uint8_t)(segs | (int)w << 2);
    }
}

static void show(struct gen *g, double pair_done)
{
    if (!g->opt->progress)
        return;
    double t = now() - g->start;
    double work = (double)g->done_work + pair_done * (double)g->pair_work;
    double frac = g->total_work ? work / (double)g->total_work : 1;
    double rate = t > 0 ? work / t : 0;
    if (g->opt->progress_tty) {
        fprintf(g->opt->progress, "\rtablebase: %s %3.0f%%, all %5.1f%%, %.1f k positions/s   ",
                g->pair_name, 100 * pair_done, 100 * frac, rate / 1e3);
        fflush(g->opt->progress);
    } else if (pair_done >= 1) {
        fprintf(g->opt->progress,
                "tablebase: %s done in %.1f s, all %.1f%% after %.1f s, %.1f k positions/s\n",
                g->pair_name, now() - g->pair_start, 100 * frac, t, rate / 1e3);
        fflush(g->opt->progress);
    }
}

static void on_progress(void *ctx, double done)
{
    struct gen *g = ctx;
    if (g->opt->progress_tty)
        show(g, done);
}

/* Read the pair's files back into known->q0; 0 when both are there and check. */
static int read_pair(struct tb_known *known, const char *dir, int m, int o)
{
    TbRecord *rec[2] = {NULL, NULL};
    int count = m == o ? 1 : 2;
    char path[4096], err[512];
    for (int k = 0; k < count; k++) {
        tb_file_name(dir, k ? o : m, k ? m : o, path, sizeof path);
        if (tb_file_read(path, k ? o : m, k ? m : o, &rec[k], err, sizeof err)) {
            free(rec[0]);
            return -1;
        }
    }
    for (int k = 0; k < count; k++) {
        int mm = k ? o : m, oo = k ? m : o;
        uint64_t n = tb_signature_size(mm, oo);
        TbValue *q0 = malloc(n * sizeof *q0);
        for (uint64_t i = 0; q0 && i < n; i++)
            q0[i] = tb_record_q0(rec[k][i]);
        free(rec[k]);
        rec[k] = NULL;
        if (!q0) {
            free(rec[1]);
            return -1;
        }
        known->q0[mm][oo] = q0;
    }
    return 0;
}

static int solve_and_write(struct gen *g, struct tb_known *known, int m, int o, char *err,
                           size_t err_size)
{
    g->count = m == o ? 1 : 2;
    int rc = 0;
    memset(g->enc, 0, sizeof g->enc);
    for (int k = 0; k < g->count; k++) {
        struct encoder *e = &g->enc[k];
        e->m = k ? o : m;
        e->o = k ? m : o;
        e->size = tb_signature_size(e->m, e->o);
        e->records = malloc(e->size * sizeof *e->records);
        e->state = malloc(e->size);
        if (!e->records || !e->state)
            rc = fail(err, err_size, "out of memory for signature %d-%d", e->m, e->o);
    }
    if (!rc && tb_solve_pair(known, m, o, g->opt->threads, encode_layer, g, on_progress, g))
        rc = fail(err, err_size, "out of memory solving %d-%d", m, o);
    for (int k = 0; k < g->count && !rc; k++) {
        struct encoder *e = &g->enc[k];
        char path[4096];
        if (e->failed) {
            uint32_t own, other;
            tb_position(e->m, e->o, e->failed_index, &own, &other);
            rc = fail(err, err_size,
                      "signature %d-%d: position %llu (own %#x, other %#x) does not fit a "
                      "record (%s)",
                      e->m, e->o, (unsigned long long)e->failed_index, own, other,
                      e->failed == 1 ? "more than three result segments" : "too many plies");
            break;
        }
        tb_file_name(g->opt->dir, e->m, e->o, path, sizeof path);
        rc = tb_file_write(path, e->m, e->o, e->records, err, err_size);
    }
    for (int k = 0; k < g->count; k++) {
        free(g->enc[k].records);
        free(g->enc[k].state);
    }
    return rc;
}

int tb_generate(const struct tb_generate_options *opt, char *err, size_t err_size)
{
    if (opt->pieces < 2 || opt->pieces > 2 * TB_MAX_SIDE)
        return fail(err, err_size, "pieces must be 2..%d", 2 * TB_MAX_SIDE);
    if (!opt->dir[0])
        return fail(err, err_size, "an empty folder name");
    /* the folder and those above it, as mkdir -p */
    char path[4096];
    snprintf(path, sizeof path, "%s", opt->dir);
    for (char *p = path + 1;; p++) {
        int end = !*p;
        if (*p == '/' || end) {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return fail(err, err_size, "cannot make %s: %s", path, strerror(errno));
            if (end)
                break;
            *p = '/';
        }
    }
    struct gen g = {.opt = opt, .start = now()};
    for (int n = 2; n <= opt->pieces; n++)
        for (int m = 1; m < n; m++)
            if (m <= TB_MAX_SIDE && n - m <= TB_MAX_SIDE)
                g.total_work += tb_signature_size(m, n - m);
    struct tb_known known;
    memset(&known, 0, sizeof known);
    int rc = 0;
    for (int n = 2; n <= opt->pieces && !rc; n++)
        for (int m = 1; 2 * m <= n && !rc; m++) {
            int o = n - m;
            if (o > TB_MAX_SIDE)
                continue;
            snprintf(g.pair_name, sizeof g.pair_name, "%d-%d", m, o);
            g.pair_work = tb_signature_size(m, o) * (m == o ? 1 : 2);
            g.pair_start = now();
            if (read_pair(&known, opt->dir, m, o) != 0)
                rc = solve_and_write(&g, &known, m, o, err, err_size);
            show(&g, 1);
            g.done_work += g.pair_work;
        }
    if (opt->progress && opt->progress_tty)
        fputc('\n', opt->progress);
    for (int m = 0; m <= TB_MAX_SIDE; m++)
        for (int o = 0; o <= TB_MAX_SIDE; o++)
            free(known.q0[m][o]);
    return rc;
}
