/* Running `agora` commands in-process for the tests: on memory streams (a whole
 * input at once), or as a UCI session on pipes driven line by line. */
#pragma once

#include <pthread.h>
#include <stdio.h>

#include "cli/cli.h"
#include "match/uci_client.h"

/* Run `agora ARGS...` (argv[0] is "agora") with `input` on stdin: the exit code, and
 * stdout in *out (malloc'd, the caller frees it). */
int cli_run(const char *input, char **out, int argc, char **argv);

/* A command running on its own thread with pipes for stdin and stdout; `c` reads
 * and writes them with match_uci_send / match_uci_read / match_uci_expect. */
struct cli_session {
    pthread_t thread;
    struct cli_io io;
    int argc;
    char **argv;
    int code;
    struct match_uci c;
};

/* 0 when started, -1 otherwise. */
int cli_session_start(struct cli_session *s, int argc, char **argv);
/* Close stdin (after sending `last_line` when not NULL), wait for the command to end
 * and free everything: its exit code. */
int cli_session_end(struct cli_session *s, const char *last_line);
