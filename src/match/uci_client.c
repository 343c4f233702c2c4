#include "uci_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"

extern char **environ;

#define UCI_HANDSHAKE_MS 10000

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int cloexec_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int match_uci_start(struct match_uci *c, const char *command, const char *const *names,
                    const char *const *values, int noptions, char *err, size_t err_size)
{
    int in[2], out[2];
    memset(c, 0, sizeof *c);
    c->to_fd = c->from_fd = -1;
    if (cloexec_pipe(in) != 0)
        return fail(err, err_size, "pipe: %s", strerror(errno));
    if (cloexec_pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return fail(err, err_size, "pipe: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    char *argv[] = {"sh", "-c", (char *)command, NULL};
    int rc = posix_spawn(&c->pid, "/bin/sh", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        return fail(err, err_size, "cannot start '%s': %s", command, strerror(rc));
    }
    c->to_fd = in[1];
    c->from_fd = out[0];
    c->alive = 1;
    char line[512];
    if (match_uci_send(c, "uci") != 0 ||
        match_uci_expect(c, "uciok", line, sizeof line, UCI_HANDSHAKE_MS) != 1) {
        match_uci_stop(c);
        return fail(err, err_size, "'%s' does not answer 'uci' with 'uciok'", command);
    }
    for (int i = 0; i < noptions; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", names[i], values[i]);
        match_uci_send(c, cmd);
    }
    if (match_uci_send(c, "isready") != 0 ||
        match_uci_expect(c, "readyok", line, sizeof line, UCI_HANDSHAKE_MS) != 1) {
        match_uci_stop(c);
        return fail(err, err_size, "'%s' does not answer 'isready'", command);
    }
    return 0;
}

int match_uci_send(struct match_uci *c, const char *line)
{
    if (!c->alive)
        return -1;
    size_t n = strlen(line);
    char nl = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t w = write(c->to_fd, line + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            c->alive = 0;
            return -1;
        }
        done += (size_t)w;
    }
    if (write(c->to_fd, &nl, 1) != 1) {
        c->alive = 0;
        return -1;
    }
    return 0;
}

int match_uci_read(struct match_uci *c, char *line, size_t size, int64_t timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t n = (size_t)(nl - c->buf);
            size_t keep = n < size - 1 ? n : size - 1;
            memcpy(line, c->buf, keep);
            line[keep] = 0;
            if (keep && line[keep - 1] == '\r')
                line[keep - 1] = 0;
            memmove(c->buf, nl + 1, c->len - n - 1);
            c->len -= n + 1;
            return 1;
        }
        if (c->len == sizeof c->buf) /* an endless line: drop it */
            c->len = 0;
        if (!c->alive)
            return -1;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = {c->from_fd, POLLIN, 0};
        int pr = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        ssize_t r = read(c->from_fd, c->buf + c->len, sizeof c->buf - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            c->alive = 0;
            return -1;
        }
        c->len += (size_t)r;
    }
}

int match_uci_expect(struct match_uci *c, const char *word, char *line, size_t size,
                     int64_t timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    size_t n = strlen(word);
    for (;;) {
        int64_t left = deadline - now_ms();
        int r = match_uci_read(c, line, size, left > 0 ? left : 0);
        if (r != 1)
            return r;
        if (!strncmp(line, word, n) && (line[n] == 0 || line[n] == ' '))
            return 1;
    }
}

int match_uci_info_score(const char *line, int *score)
{
    if (strncmp(line, "info ", 5) != 0 || strstr(line, " lowerbound") ||
        strstr(line, " upperbound"))
        return 0;
    const char *mpv = strstr(line, " multipv ");
    if (mpv && atoi(mpv + 9) != 1)
        return 0;
    const char *sc = strstr(line, " score ");
    long v;
    char *end;
    if (!sc)
        return 0;
    if (!strncmp(sc + 7, "cp ", 3)) {
        v = strtol(sc + 10, &end, 10);
        if (end == sc + 10 || v < -29000 || v > 29000)
            return 0;
        *score = (int)v;
        return 1;
    }
    if (!strncmp(sc + 7, "mate ", 5)) {
        v = strtol(sc + 12, &end, 10);
        if (end == sc + 12 || v == 0 || v < -1000 || v > 1000)
            return 0;
        *score = v > 0 ? 30000 - (int)v : -30000 - (int)v;
        return 1;
    }
    return 0;
}

int match_uci_bestmove(struct match_uci *c, char *line, size_t size, int64_t timeout_ms, int *score,
                       int *has_score)
{
    int64_t deadline = now_ms() + timeout_ms;
    *has_score = 0;
    for (;;) {
        int64_t left = deadline - now_ms();
        int r = match_uci_read(c, line, size, left > 0 ? left : 0);
        if (r != 1)
            return r;
        if (!strncmp(line, "bestmove", 8) && (line[8] == 0 || line[8] == ' '))
            return 1;
        if (match_uci_info_score(line, score))
            *has_score = 1;
    }
}

void match_uci_stop(struct match_uci *c)
{
    if (c->pid <= 0)
        return;
    if (c->alive)
        match_uci_send(c, "quit");
    if (c->to_fd >= 0)
        close(c->to_fd);
    int status;
    int64_t deadline = now_ms() + 500;
    while (waitpid(c->pid, &status, WNOHANG) == 0) {
        if (now_ms() >= deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &status, 0);
            break;
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (c->from_fd >= 0)
        close(c->from_fd);
    c->pid = 0;
    c->to_fd = c->from_fd = -1;
    c->alive = 0;
}
