#include "cli_run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_run(const char *input, char **out, int argc, char **argv)
{
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    size_t out_len = 0, err_len = 0;
    char *err_text = NULL;
    FILE *o = open_memstream(out, &out_len), *e = open_memstream(&err_text, &err_len);
    struct cli_io io = {in, o, e};
    int rc = cli_main(argc, argv, &io);
    fclose(in);
    fclose(o);
    fclose(e);
    free(err_text);
    return rc;
}

static void *session_main(void *arg)
{
    struct cli_session *s = arg;
    s->code = cli_main(s->argc, s->argv, &s->io);
    fclose(s->io.out); /* the reader sees the end */
    s->io.out = NULL;
    return NULL;
}

int cli_session_start(struct cli_session *s, int argc, char **argv)
{
    int to[2], from[2];
    memset(s, 0, sizeof *s);
    if (pipe(to) != 0)
        return -1;
    if (pipe(from) != 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    s->argc = argc;
    s->argv = argv;
    s->io.in = fdopen(to[0], "r");
    s->io.out = fdopen(from[1], "w");
    s->io.err = tmpfile();
    s->c.to_fd = to[1];
    s->c.from_fd = from[0];
    s->c.alive = 1;
    if (!s->io.in || !s->io.out || !s->io.err ||
        pthread_create(&s->thread, NULL, session_main, s) != 0) {
        if (s->io.in)
            fclose(s->io.in);
        if (s->io.out)
            fclose(s->io.out);
        if (s->io.err)
            fclose(s->io.err);
        close(to[1]);
        close(from[0]);
        return -1;
    }
    return 0;
}

int cli_session_end(struct cli_session *s, const char *last_line)
{
    if (last_line)
        match_uci_send(&s->c, last_line);
    close(s->c.to_fd);
    /* Drain the output so the command never blocks on a full pipe. */
    char line[4096];
    while (match_uci_read(&s->c, line, sizeof line, 60000) == 1)
        ;
    pthread_join(s->thread, NULL);
    fclose(s->io.in);
    fclose(s->io.err);
    close(s->c.from_fd);
    return s->code;
}
