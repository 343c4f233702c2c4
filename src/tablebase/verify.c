/* `agora tablebase verify`: every position's record follows from its children's
 * (NOTES.md "Proven right"). */
#include <stdlib.h>

#include "core/error.h"
#include "games/egara/positions.h"
#include "probe.h"

/* Every position that steps has its result at every r checked against its children;
 * its q0 distance is recomputed by the search over its children for all positions of
 * up to FULL_DISTANCE_PIECES pieces, and for DISTANCE_SAMPLE positions spread over each
 * signature above (the search costs up to seconds a position there). */
#define DISTANCE_SAMPLE 64
#define FULL_DISTANCE_PIECES 4

static int rank_of(enum tb_wdl w)
{
    return w == TB_WINS ? 2 : w == TB_DRAW ? 1 : 0;
}

static enum tb_wdl negate(enum tb_wdl w)
{
    return w == TB_WINS ? TB_LOSES : w == TB_LOSES ? TB_WINS : TB_DRAW;
}

static int check_position(struct tb_tables *t, struct tb_session *session, int m, int o, TbIndex i,
                          TbRecord x, int sample, char *err, size_t err_size)
{
    uint32_t own, other;
    tb_position(m, o, i, &own, &other);
    struct egara_child child[EGARA_CHILDREN_MAX];
    int n = egara_children(own, other, child);
    TbRecord cx[EGARA_CHILDREN_MAX];
    for (int k = 0; k < n; k++) {
        cx[k] = 0;
        if (!child[k].own)
            continue;
        int rc = tb_record_of(t, child[k].own, child[k].other, &cx[k], err, err_size);
        if (rc)
            return rc > 0
                       ? fail(err, err_size, "a child's table (%d-%d) is absent",
                              __builtin_popcount(child[k].own), __builtin_popcount(child[k].other))
                       : -1;
    }
    if (n == 0 || child[0].captured) {
        /* blocked, or captures: the value does not depend on r */
        TbValue best = (TbValue)-TB_WIN;
        for (int k = 0; k < n; k++) {
            TbValue v = child[k].own ? tb_parent_value(tb_record_q0(cx[k])) : TB_WIN - 1;
            if (v > best)
                best = v;
        }
        for (int r = 1; r <= TB_QUIET_LIMIT; r++)
            if (tb_record_wdl(x, r) != tb_wdl_of(best))
                goto wrong;
        if (tb_record_q0(x) != best)
            goto wrong;
        return 0;
    }
    for (int r = 1; r <= TB_QUIET_LIMIT; r++) {
        int best = -1;
        for (int k = 0; k < n; k++) {
            enum tb_wdl cw = r == 1 ? tb_wdl_of(tb_count_value(o, m)) : tb_record_wdl(cx[k], r - 1);
            if (rank_of(negate(cw)) > best)
                best = rank_of(negate(cw));
        }
        if (rank_of(tb_record_wdl(x, r)) != best)
            goto wrong;
    }
    if (sample) {
        TbValue best = (TbValue)-TB_WIN;
        for (int k = 0; k < n; k++) {
            TbValue v;
            if (tb_session_value(session, child[k].own, child[k].other, TB_QUIET_LIMIT - 1, &v, err,
                                 err_size))
                return -1;
            if (tb_parent_value(v) > best)
                best = tb_parent_value(v);
        }
        if (tb_record_q0(x) != best)
            goto wrong;
    }
    return 0;
wrong:
    return fail(err, err_size,
                "signature %d-%d position %llu (own %#x, other %#x): the record does not follow "
                "from its children",
                m, o, (unsigned long long)i, own, other);
}

int tb_verify(const char *dir, int pieces, FILE *progress, int progress_tty, char *err,
              size_t err_size)
{
    struct tb_tables *t = tb_open(dir);
    if (!t)
        return fail(err, err_size, "out of memory");
    struct tb_session *session = tb_session_new(t);
    if (!session) {
        tb_close(t);
        return fail(err, err_size, "out of memory");
    }
    int rc = 0;
    uint64_t checked = 0;
    for (int n = 2; n <= pieces && !rc; n++)
        for (int m = 1; m < n && !rc; m++) {
            int o = n - m;
            const TbRecord *rec;
            int got = tb_signature_records(t, m, o, &rec, err, err_size);
            if (got) {
                rc = got > 0 ? fail(err, err_size, "the table of %d-%d is absent in %s", m, o, dir)
                             : -1;
                break;
            }
            uint64_t size = tb_signature_size(m, o);
            for (TbIndex i = 0; i < size && !rc; i++) {
                rc = check_position(t, session, m, o, i, rec[i],
                                    n <= FULL_DISTANCE_PIECES ||
                                        i % (size / DISTANCE_SAMPLE + 1) == 0,
                                    err, err_size);
                if (progress && progress_tty && (i & 0xffff) == 0)
                    fprintf(progress, "\rverify: %d-%d %5.1f%%   ", m, o,
                            100.0 * (double)i / (double)size);
            }
            checked += size;
            if (progress && !rc)
                fprintf(progress, "%sverify: %d-%d: %llu positions agree with their children\n",
                        progress_tty ? "\r" : "", m, o, (unsigned long long)size);
        }
    if (progress && !rc)
        fprintf(progress, "verify: %llu positions, every one consistent\n",
                (unsigned long long)checked);
    tb_session_free(session);
    tb_close(t);
    return rc;
}
