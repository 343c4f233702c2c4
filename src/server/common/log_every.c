#include "server/common/log_every.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void log_every(struct log_every *site, int64_t every_ms, const char *fmt, ...)
{
    long long now = now_ms(), last = atomic_load(&site->last_ms);
    if (last && now - last < every_ms) {
        atomic_fetch_add(&site->left_out, 1);
        return;
    }
    if (!atomic_compare_exchange_strong(&site->last_ms, &last, now)) {
        atomic_fetch_add(&site->left_out, 1); /* another thread writes this turn's line */
        return;
    }
    int left = atomic_exchange(&site->left_out, 0);
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (left > 0)
        fprintf(stderr, "agora: %s (and %d more such lines in %lld s)\n", line, left,
                (long long)(now - last) / 1000);
    else
        fprintf(stderr, "agora: %s\n", line);
}
