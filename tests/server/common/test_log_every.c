/* A log line repeated while a cause lasts (log_every): written once an interval per call
 * site, the next one saying how many were left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "server/common/log_every.h"

/* What the calls wrote to stderr, caught in a file (at most size - 1 bytes into out). */
static void caught(FILE *f, char *out, size_t size)
{
    fflush(stderr);
    rewind(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
}

TEST(server_log_every_once_an_interval)
{
    FILE *f = tmpfile();
    if (!f)
        SKIP("no temporary file");
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(f), 2);
    static struct log_every site;
    for (int i = 0; i < 5; i++)
        log_every(&site, 60000, "database away: try %d", i);
    char text[1024];
    caught(f, text, sizeof text);
    /* Then the interval has passed (its last line set back). */
    atomic_store(&site.last_ms, atomic_load(&site.last_ms) - 61000);
    log_every(&site, 60000, "database away: try %d", 5);
    char after[1024];
    caught(f, after, sizeof after);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    CHECK_STR(text, "agora: database away: try 0\n");
    CHECK_STR(after, "agora: database away: try 0\n"
                     "agora: database away: try 5 (and 4 more such lines in 61 s)\n");
}
