/* The Egara-guti table files: one file a signature, a header, one 32-bit record a
 * position in index order (index.h), and a checksum (NOTES.md "The file format").
 *
 * A record (uint32_t, little-endian in the file):
 *
 *   31..29  0
 *   28..23  t2   } the value's result (win, draw, loss) at r plies before the count
 *   22..17  t1   } decides (r = 40 - quiet, 1 <= r <= 40) is a for r < t1, b for
 *   16..15  b    } t1 <= r < t2, and the result of the q0 value for r >= t2
 *   14..13  a    } (1 <= t1 <= t2 <= 41)
 *   12..11  the q0 value's result: 0 draw, 1 win, 2 loss
 *   10..0   its plies: the game ends that many plies from now under best play
 *
 * "q0" is the position at quiet count 0 (r = 40): the exact value, distance included.
 * At r = 0 the count decides, whatever the record says. */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "solve.h"

typedef uint32_t TbRecord;

enum tb_wdl { TB_DRAW = 0, TB_WINS = 1, TB_LOSES = 2 };

#define TB_MAX_PLIES 2047 /* the most plies a record holds */
#define TB_REC_PLIES(x) ((int)((x)&2047u))
#define TB_REC_RESULT(x) ((enum tb_wdl)(((x) >> 11) & 3u))
#define TB_REC_A(x) ((enum tb_wdl)(((x) >> 13) & 3u))
#define TB_REC_B(x) ((enum tb_wdl)(((x) >> 15) & 3u))
#define TB_REC_T1(x) ((int)(((x) >> 17) & 63u))
#define TB_REC_T2(x) ((int)(((x) >> 23) & 63u))

static inline enum tb_wdl tb_wdl_of(TbValue v)
{
    return v > 0 ? TB_WINS : v < 0 ? TB_LOSES : TB_DRAW;
}

/* The record of a q0 value and a result profile; -1 when the plies do not fit. */
int tb_record_make(TbValue q0, enum tb_wdl a, enum tb_wdl b, int t1, int t2, TbRecord *out);
/* The exact value at r = 40 (quiet count 0). */
TbValue tb_record_q0(TbRecord x);
/* The result at r plies before the count decides (1..40); r = 0 is the count's. */
enum tb_wdl tb_record_wdl(TbRecord x, int r);

/* The file of signature (m, o) in `dir`: "DIR/egara-M-O.tb". */
void tb_file_name(const char *dir, int m, int o, char *buf, size_t size);
/* Write the records of signature (m, o) to `path` (through a temporary file renamed at
 * the end, so a file that exists is whole).  0, or -1 with a message in err. */
int tb_file_write(const char *path, int m, int o, const TbRecord *records, char *err,
                  size_t err_size);
/* Read and check a file of signature (m, o): its header, size and checksum.  0 with
 * *out (malloc'd, in index order), or -1 with a message naming the file and the
 * problem (absent: errno ENOENT). */
int tb_file_read(const char *path, int m, int o, TbRecord **out, char *err, size_t err_size);
/* The checksum of the records (FNV-1a, 64 bits, over their little-endian bytes). */
uint64_t tb_checksum(const TbRecord *records, uint64_t count);
