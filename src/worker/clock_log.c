/* The worker's clock and its log (private.h), for worker.c and review.c alike. */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "worker/private.h"

int64_t worker_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void worker_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

void worker_say(struct worker *w, const char *fmt, ...)
{
    if (!w->cfg.log)
        return;
    char line[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(w->cfg.log, "agora worker: %s\n", line);
    fflush(w->cfg.log);
}
