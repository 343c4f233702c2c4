/* An external engine driven over UCI by `agora match`: a child process on two
 * pipes, lines read with a timeout so a hung engine cannot hang the match. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct match_uci {
    pid_t pid;
    int to_fd, from_fd;
    int alive;
    size_t len;
    char buf[1 << 16];
};

/* Start `command` (run by /bin/sh), do the uci/uciok handshake, set the options
 * (names[i] = values[i]) and wait for readyok.  -1 with a message on failure. */
int match_uci_start(struct match_uci *c, const char *command, const char *const *names,
                    const char *const *values, int noptions, char *err, size_t err_size);
/* Send one line (a newline is added); -1 if the engine is gone. */
int match_uci_send(struct match_uci *c, const char *line);
/* The next line within timeout_ms: 1 a line, 0 timeout, -1 the engine is gone. */
int match_uci_read(struct match_uci *c, char *line, size_t size, int64_t timeout_ms);
/* Read lines until one starts with the word `word`: 1 found, 0 timeout, -1 gone. */
int match_uci_expect(struct match_uci *c, const char *word, char *line, size_t size,
                     int64_t timeout_ms);
/* Read lines until `bestmove`, noting the last exact score of the best line among
 * the `info` lines on the way (*has_score 1; centipawns, a mate as +-30000 less its
 * distance in moves).  As match_uci_expect. */
int match_uci_bestmove(struct match_uci *c, char *line, size_t size, int64_t timeout_ms, int *score,
                       int *has_score);
/* Read an `info` line's score: 1 and the score for an exact score of the best line
 * (no lowerbound/upperbound, multipv absent or 1), else 0. */
int match_uci_info_score(const char *line, int *score);
/* quit, then kill if it lingers; always reaps the child. */
void match_uci_stop(struct match_uci *c);
