/* Log lines that would repeat several times a second while a cause lasts (the database
 * away: the tournaments' director and the presence tick fail at every turn) are written
 * at most once an interval per call site, saying how many were left out. */
#pragma once

#include <stdatomic.h>
#include <stdint.h>

/* One call site's memory: zero-initialised (a static). */
struct log_every {
    atomic_llong last_ms;
    atomic_int left_out;
};

/* Write the line (printf's format, "agora: " and a newline added) to stderr unless this
 * site wrote one within `every_ms`; then it is counted, and the next line written says
 * how many were left out. */
void log_every(struct log_every *site, int64_t every_ms, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
