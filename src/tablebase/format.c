/* The table files (format.h draws a record; NOTES.md gives the header). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "format.h"

#define MAGIC "AGORATB1egara-guti"
#define MAGIC_LEN 18
#define HEADER_LEN 48 /* magic, m, o, 4 bytes zero, count (8), checksum (8), reserved */

int tb_record_make(TbValue q0, enum tb_wdl a, enum tb_wdl b, int t1, int t2, TbRecord *out)
{
    int plies = q0 > 0 ? TB_WIN - q0 : q0 < 0 ? TB_WIN + q0 : 0;
    if (plies < 0 || plies > TB_MAX_PLIES || t1 < 1 || t1 > t2 || t2 > 41)
        return -1;
    *out = (TbRecord)plies | (TbRecord)tb_wdl_of(q0) << 11 | (TbRecord)a << 13 | (TbRecord)b << 15 |
           (TbRecord)t1 << 17 | (TbRecord)t2 << 23;
    return 0;
}

TbValue tb_record_q0(TbRecord x)
{
    int plies = TB_REC_PLIES(x);
    switch (TB_REC_RESULT(x)) {
    case TB_WINS: return (TbValue)(TB_WIN - plies);
    case TB_LOSES: return (TbValue)(plies - TB_WIN);
    default: return 0;
    }
}

enum tb_wdl tb_record_wdl(TbRecord x, int r)
{
    return r < TB_REC_T1(x) ? TB_REC_A(x) : r < TB_REC_T2(x) ? TB_REC_B(x) : TB_REC_RESULT(x);
}

void tb_file_name(const char *dir, int m, int o, char *buf, size_t size)
{
    snprintf(buf, size, "%s/egara-%d-%d.tb", dir, m, o);
}

uint64_t tb_checksum(const TbRecord *records, uint64_t count)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint64_t i = 0; i < count; i++)
        for (int k = 0; k < 4; k++) {
            h ^= (records[i] >> (8 * k)) & 255;
            h *= 0x100000001b3ULL;
        }
    return h;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static void header(unsigned char *h, int m, int o, uint64_t count, uint64_t sum)
{
    memset(h, 0, HEADER_LEN);
    memcpy(h, MAGIC, MAGIC_LEN);
    h[MAGIC_LEN] = (unsigned char)m;
    h[MAGIC_LEN + 1] = (unsigned char)o;
    put_u64(h + 24, count);
    put_u64(h + 32, sum);
}

int tb_file_write(const char *path, int m, int o, const TbRecord *records, char *err,
                  size_t err_size)
{
    uint64_t count = tb_signature_size(m, o);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return fail(err, err_size, "cannot write %s: %s", tmp, strerror(errno));
    unsigned char h[HEADER_LEN];
    header(h, m, o, count, tb_checksum(records, count));
    int ok = fwrite(h, 1, HEADER_LEN, f) == HEADER_LEN;
    unsigned char buf[4096];
    for (uint64_t i = 0; i < count && ok; i += sizeof buf / 4) {
        uint64_t n = count - i < sizeof buf / 4 ? count - i : sizeof buf / 4;
        for (uint64_t k = 0; k < n; k++)
            for (int b = 0; b < 4; b++)
                buf[4 * k + (uint64_t)b] = (unsigned char)(records[i + k] >> (8 * b));
        ok = fwrite(buf, 4, n, f) == n;
    }
    if (fclose(f) != 0)
        ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return fail(err, err_size, "cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

int tb_file_read(const char *path, int m, int o, TbRecord **out, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        fail(err, err_size, "cannot open %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    uint64_t count = tb_signature_size(m, o);
    unsigned char h[HEADER_LEN], want[HEADER_LEN];
    TbRecord *rec = NULL;
    const char *why = NULL;
    if (fread(h, 1, HEADER_LEN, f) != HEADER_LEN)
        why = "shorter than its header";
    else if (memcmp(h, MAGIC, MAGIC_LEN) != 0)
        why = "not an Egara-guti table (bad magic)";
    else if (h[MAGIC_LEN] != m || h[MAGIC_LEN + 1] != o || get_u64(h + 24) != count)
        why = "the header names another signature";
    else if (!(rec = malloc(count * sizeof *rec)))
        why = "out of memory";
    unsigned char buf[4096];
    for (uint64_t i = 0; !why && i < count; i += sizeof buf / 4) {
        uint64_t n = count - i < sizeof buf / 4 ? count - i : sizeof buf / 4;
        if (fread(buf, 4, n, f) != n) {
            why = "truncated";
            break;
        }
        for (uint64_t k = 0; k < n; k++)
            rec[i + k] = (TbRecord)buf[4 * k] | (TbRecord)buf[4 * k + 1] << 8 |
                         (TbRecord)buf[4 * k + 2] << 16 | (TbRecord)buf[4 * k + 3] << 24;
    }
    if (!why && fgetc(f) != EOF)
        why = "longer than its records";
    if (!why) {
        header(want, m, o, count, tb_checksum(rec, count));
        if (memcmp(h + 32, want + 32, 8) != 0)
            why = "checksum mismatch (a corrupt file: generate it again)";
    }
    fclose(f);
    if (why) {
        free(rec);
        errno = EINVAL;
        return fail(err, err_size, "%s: %s", path, why);
    }
    *out = rec;
    return 0;
}
