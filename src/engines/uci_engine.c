/* External UCI engines: the processes, the protocol and the pool (uci_engine.h). */
#include "uci_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/types.h"

#define SLICE_MS 20         /* how often a wait looks at the stop flag */
#define LINE_MAX_LEN 8192   /* a longer line is garbage */
#define UNKNOWN_MAX 1000    /* lines UCI does not know, in a row, before it is garbage */
#define QUIT_GRACE_MS 200   /* after `quit`, before SIGKILL */
#define STOPPED_MAX_MS 2000 /* after `stop`, the longest wait for `bestmove` */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- One process ------------------------------------------------------------------ */

struct proc {
    pid_t pid; /* 0: none */
    int fd;    /* our end of the socket pair */
    int multipv;
    size_t len;
    char buf[LINE_MAX_LEN];
};

/* Kill and reap the process (a polite `quit` first when `polite`). */
static void proc_end(struct proc *c, int polite)
{
    if (c->pid <= 0)
        return;
    if (polite && c->fd >= 0)
        (void)send(c->fd, "quit\n", 5, MSG_NOSIGNAL);
    int status;
    int64_t until = now_ms() + (polite ? QUIT_GRACE_MS : 0);
    while (waitpid(c->pid, &status, WNOHANG) == 0) {
        if (now_ms() >= until) {
            kill(c->pid, SIGKILL);
            while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (c->fd >= 0)
        close(c->fd);
    c->pid = 0;
    c->fd = -1;
    c->len = 0;
}

static int proc_send(struct proc *c, const char *line, char *err, size_t err_size)
{
    size_t n = strlen(line);
    char text[LINE_MAX_LEN];
    if (n + 1 >= sizeof text)
        return fail(err, err_size, "a command too long for the engine");
    memcpy(text, line, n);
    text[n++] = '\n';
    for (size_t done = 0; done < n;) {
        ssize_t w = send(c->fd, text + done, n - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return fail(err, err_size, "the engine went away (%s)",
                        w < 0 ? strerror(errno) : "closed");
        done += (size_t)w;
    }
    return 0;
}

/* The next line, waiting at most timeout_ms of silence; when `stop` rises, `*stopped`
 * is set and the wait goes on (the caller sends `stop`).  1 a line, -1 with err. */
static int proc_read(struct proc *c, char *line, int64_t timeout_ms, const atomic_int *stop,
                     int *stopped, char *err, size_t err_size)
{
    int64_t until = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(c->buf, '\n', c->len);
        if (nl) {
            size_t n = (size_t)(nl - c->buf);
            memcpy(line, c->buf, n);
            line[n] = 0;
            if (n && line[n - 1] == '\r')
                line[n - 1] = 0;
            memmove(c->buf, nl + 1, c->len - n - 1);
            c->len -= n + 1;
            return 1;
        }
        if (c->len == sizeof c->buf)
            return fail(err, err_size, "the engine wrote a line longer than %d characters",
                        LINE_MAX_LEN);
        if (stop && stopped && !*stopped && atomic_load(stop)) {
            *stopped = 1;
            return 0;
        }
        int64_t left = until - now_ms();
        if (left <= 0)
            return fail(err, err_size, "the engine said nothing for %" PRId64 " ms", timeout_ms);
        struct pollfd pfd = {c->fd, POLLIN, 0};
        int pr = poll(&pfd, 1, (int)(left < SLICE_MS ? left : SLICE_MS));
        if (pr < 0 && errno != EINTR)
            return fail(err, err_size, "poll: %s", strerror(errno));
        if (pr <= 0)
            continue;
        ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - c->len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return fail(err, err_size, "the engine exited");
        c->len += (size_t)r;
    }
}

/* The first word of `line` is `word`. */
static int starts(const char *line, const char *word)
{
    size_t n = strlen(word);
    return !strncmp(line, word, n) && (line[n] == 0 || line[n] == ' ');
}

/* Read until a line beginning with `word`, noting `id name` into name (may be NULL). */
static int proc_expect(struct proc *c, const char *word, int64_t timeout_ms, char *name, char *err,
                       size_t err_size)
{
    char line[LINE_MAX_LEN];
    for (int unknown = 0; unknown < UNKNOWN_MAX; unknown++) {
        if (proc_read(c, line, timeout_ms, NULL, NULL, err, err_size) != 1)
            return -1;
        if (starts(line, word))
            return 0;
        if (name && !strncmp(line, "id name ", 8)) {
            snprintf(name, UCI_ENGINE_NAME_MAX, "%.*s", UCI_ENGINE_NAME_MAX - 1, line + 8);
            unknown = -1;
        }
    }
    return fail(err, err_size, "the engine does not answer '%s' (garbage instead)", word);
}

/* Fork and exec the engine on a socket pair, at the pool's nice value, then greet it. */
static int proc_start(struct proc *c, const struct uci_engine_config *cfg, char *name, char *err,
                      size_t err_size)
{
    int sv[2];
    c->pid = 0;
    c->fd = -1;
    c->len = 0;
    c->multipv = 1;
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return fail(err, err_size, "socketpair: %s", strerror(errno));
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    long maxfd = sysconf(_SC_OPEN_MAX);
    if (maxfd < 0 || maxfd > 65536)
        maxfd = 65536;
    char *argv[] = {(char *)cfg->path, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec. */
        if (cfg->nice >= 0)
            (void)setpriority(PRIO_PROCESS, 0, cfg->nice);
        if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0)
            _exit(127);
        if (devnull >= 0)
            (void)dup2(devnull, 2);
        for (long fd = 3; fd < maxfd; fd++)
            (void)close((int)fd);
        execv(cfg->path, argv);
        _exit(127);
    }
    close(sv[1]);
    if (devnull >= 0)
        close(devnull);
    if (pid < 0) {
        close(sv[0]);
        return fail(err, err_size, "fork: %s", strerror(errno));
    }
    c->pid = pid;
    c->fd = sv[0];
    char e[ERROR_TEXT_MAX], cmd[64];
    int64_t t = cfg->timeout_ms;
    int ok =
        proc_send(c, "uci", e, sizeof e) == 0 && proc_expect(c, "uciok", t, name, e, sizeof e) == 0;
    snprintf(cmd, sizeof cmd, "setoption name Hash value %d", cfg->hash_mb);
    ok = ok && proc_send(c, "setoption name Threads value 1", e, sizeof e) == 0 &&
         proc_send(c, cmd, e, sizeof e) == 0 &&
         proc_send(c, "setoption name MultiPV value 1", e, sizeof e) == 0 &&
         proc_send(c, "isready", e, sizeof e) == 0 &&
         proc_expect(c, "readyok", t, NULL, e, sizeof e) == 0;
    if (!ok) {
        proc_end(c, 0);
        return fail(err, err_size, "%s: %s", cfg->path, e);
    }
    return 0;
}

/* ---- Parsing an answer -------------------------------------------------------------- */

static int read_int(const char **p, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(*p, &end, 10);
    if (end == *p || errno || (*end && *end != ' '))
        return -1;
    *v = x;
    *p = end;
    return 0;
}

/* An `info` line: 1 with *l for an exact report of a line with a score and a pv, 0 for
 * one that reports something else (a bound, currmove, a string), -1 for garbage. */
static int parse_info(const char *line, struct uci_engine_line *l)
{
    memset(l, 0, sizeof *l);
    l->multipv = 1;
    int scored = 0, bound = 0, has_pv = 0;
    const char *p = line + 4;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *w = p;
        size_t n = strcspn(p, " ");
        p += n;
        while (*p == ' ')
            p++;
#define WORD(s) (n == sizeof(s) - 1 && !strncmp(w, s, n))
        long long v = 0;
        if (WORD("string"))
            return 0; /* free text to the end */
        if (WORD("pv")) {
            snprintf(l->pv, sizeof l->pv, "%s", p);
            has_pv = *p != 0;
            break;
        }
        if (WORD("lowerbound") || WORD("upperbound")) {
            bound = 1;
        } else if (WORD("score")) {
            int mate = !strncmp(p, "mate ", 5);
            if (!mate && strncmp(p, "cp ", 3))
                return -1;
            p += mate ? 5 : 3;
            if (read_int(&p, &v) != 0 || v < -100000 || v > 100000)
                return -1;
            l->is_mate = mate;
            if (mate)
                l->mate = (int)v;
            else
                l->cp = (int)v;
            scored = 1;
        } else if (WORD("depth") || WORD("seldepth") || WORD("multipv") || WORD("nodes") ||
                   WORD("time")) {
            if (read_int(&p, &v) != 0 || v < 0)
                return -1;
            if (WORD("depth"))
                l->depth = (int)v;
            else if (WORD("seldepth"))
                l->seldepth = (int)v;
            else if (WORD("multipv"))
                l->multipv = (int)v;
            else if (WORD("nodes"))
                l->nodes = (uint64_t)v;
            else
                l->time_ms = v;
        } else if (WORD("currmove") || WORD("refutation") || WORD("currline")) {
            return 0;
        }
        /* Other words (nps, hashfull, tbhits, wdl's numbers ...) are skipped. */
#undef WORD
    }
    if (l->multipv < 1)
        return -1;
    return scored && has_pv && !bound ? 1 : 0;
}

/* ---- The pool ----------------------------------------------------------------------- */

struct uci_pool {
    struct uci_engine_config cfg;
    char path[1024];
    char name[UCI_ENGINE_NAME_MAX];
    pthread_mutex_t mu; /* busy, starts */
    pthread_cond_t cv;
    int size, starts;
    struct proc *procs;
    unsigned char *busy;
};

struct uci_pool *uci_pool_new(const struct uci_engine_config *cfg, char *err, size_t err_size)
{
    if (!cfg->path || !cfg->path[0]) {
        fail(err, err_size, "no engine named");
        return NULL;
    }
    if (access(cfg->path, X_OK) != 0) {
        fail(err, err_size, "%s: %s", cfg->path, strerror(errno));
        return NULL;
    }
    struct uci_pool *p = calloc(1, sizeof *p);
    int size = cfg->size > 0 ? cfg->size : 1;
    if (p) {
        p->procs = calloc((size_t)size, sizeof *p->procs);
        p->busy = calloc((size_t)size, 1);
    }
    if (!p || !p->procs || !p->busy || strlen(cfg->path) >= sizeof p->path) {
        if (p) {
            free(p->procs);
            free(p->busy);
        }
        free(p);
        fail(err, err_size, "out of memory");
        return NULL;
    }
    p->cfg = *cfg;
    snprintf(p->path, sizeof p->path, "%s", cfg->path);
    p->cfg.path = p->path;
    p->cfg.hash_mb = cfg->hash_mb > 0 ? cfg->hash_mb : 16;
    p->cfg.timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 10000;
    p->size = size;
    for (int i = 0; i < size; i++)
        p->procs[i].fd = -1;
    snprintf(p->name, sizeof p->name, "%s", cfg->path);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (proc_start(&p->procs[0], &p->cfg, p->name, err, err_size) != 0) {
        uci_pool_free(p);
        return NULL;
    }
    p->starts = 1;
    return p;
}

void uci_pool_free(struct uci_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->size; i++)
        proc_end(&p->procs[i], 1);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->procs);
    free(p->busy);
    free(p);
}

const char *uci_pool_name(const struct uci_pool *p)
{
    return p->name;
}

int uci_pool_starts(struct uci_pool *p)
{
    pthread_mutex_lock(&p->mu);
    int n = p->starts;
    pthread_mutex_unlock(&p->mu);
    return n;
}

/* A free process (its index), waiting while all are busy; -1 when stop rises. */
static int acquire(struct uci_pool *p, const atomic_int *stop)
{
    pthread_mutex_lock(&p->mu);
    int got = -1;
    for (;;) {
        /* A running process first: a restart costs a handshake. */
        for (int i = 0; i < p->size && got < 0; i++)
            if (!p->busy[i] && p->procs[i].pid > 0)
                got = i;
        for (int i = 0; i < p->size && got < 0; i++)
            if (!p->busy[i])
                got = i;
        if (got >= 0 || (stop && atomic_load(stop)))
            break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += SLICE_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
    }
    if (got >= 0)
        p->busy[got] = 1;
    pthread_mutex_unlock(&p->mu);
    return got;
}

static void release(struct uci_pool *p, int i)
{
    pthread_mutex_lock(&p->mu);
    p->busy[i] = 0;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Keep line l (of its multipv) in cur; a full iteration goes to out and on_lines. */
static void take_line(const struct uci_engine_go *go, const struct uci_engine_line *l,
                      struct uci_engine_line *cur, int *have, struct uci_engine_line *out, int *n)
{
    if (l->multipv > go->multipv)
        return;
    cur[l->multipv - 1] = *l;
    *have |= 1 << (l->multipv - 1);
    int full = (1 << go->expect) - 1;
    if (l->multipv != go->expect || (*have & full) != full)
        return;
    memcpy(out, cur, sizeof *cur * (size_t)go->expect);
    *n = go->expect;
    if (go->on_lines)
        go->on_lines(go->ctx, out, *n);
}

/* The analysis itself on process c.  The lines of the last full iteration, or -1. */
static int run_go(struct uci_pool *p, struct proc *c, const struct uci_engine_go *go,
                  struct uci_engine_line *out, char *best, size_t best_size, char *err,
                  size_t err_size)
{
    char cmd[LINE_MAX_LEN], line[LINE_MAX_LEN];
    int64_t t = p->cfg.timeout_ms;
    if (go->new_game && proc_send(c, "ucinewgame", err, err_size) != 0)
        return -1;
    if (go->multipv != c->multipv) {
        snprintf(cmd, sizeof cmd, "setoption name MultiPV value %d", go->multipv);
        if (proc_send(c, cmd, err, err_size) != 0)
            return -1;
        c->multipv = go->multipv;
    }
    if (proc_send(c, "isready", err, err_size) != 0 ||
        proc_expect(c, "readyok", t, NULL, err, err_size) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "position fen %s", go->position);
    if (proc_send(c, cmd, err, err_size) != 0)
        return -1;
    int len = snprintf(cmd, sizeof cmd, "go");
    if (go->depth > 0)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " depth %d", go->depth);
    if (go->nodes > 0)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " nodes %" PRIu64, go->nodes);
    if (go->movetime_ms > 0)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " movetime %" PRId64, go->movetime_ms);
    if (len == 2)
        snprintf(cmd + len, sizeof cmd - (size_t)len, " infinite");
    if (proc_send(c, cmd, err, err_size) != 0)
        return -1;
    /* While it thinks: silence longer than the timeout (past the time asked) is a hang. */
    int64_t wait = t + (go->movetime_ms > 0 ? go->movetime_ms : 0);
    struct uci_engine_line cur[UCI_ENGINE_LINES_MAX], l;
    int have = 0, n = 0, stopped = 0, unknown = 0;
    for (;;) {
        int r = proc_read(c, line, stopped ? (t < STOPPED_MAX_MS ? t : STOPPED_MAX_MS) : wait,
                          go->stop, &stopped, err, err_size);
        if (r < 0)
            return -1;
        if (r == 0) { /* stop rose */
            if (proc_send(c, "stop", err, err_size) != 0)
                return -1;
            continue;
        }
        if (starts(line, "bestmove")) {
            const char *m = line + 8;
            m += strspn(m, " ");
            size_t k = strcspn(m, " ");
            if (k == 0 || k >= best_size)
                return fail(err, err_size, "the engine's answer is not a move: '%.60s'", line);
            memcpy(best, m, k);
            best[k] = 0;
            /* Fewer lines than expected (a position with fewer moves): those it gave. */
            for (; !n && n < go->multipv && (have >> n & 1); n++)
                out[n] = cur[n];
            return n;
        }
        if (starts(line, "info")) {
            int got = parse_info(line, &l);
            if (got < 0)
                return fail(err, err_size, "the engine wrote garbage: '%.60s'", line);
            if (got > 0)
                take_line(go, &l, cur, &have, out, &n);
            unknown = 0;
        } else if (++unknown >= UNKNOWN_MAX) {
            return fail(err, err_size, "the engine wrote garbage: '%.60s'", line);
        }
    }
}

int uci_pool_go(struct uci_pool *p, const struct uci_engine_go *go, struct uci_engine_line *out,
                char *best, size_t best_size, char *err, size_t err_size)
{
    if (go->multipv < 1 || go->multipv > UCI_ENGINE_LINES_MAX || go->expect < 1 ||
        go->expect > go->multipv || !go->position || strchr(go->position, '\n'))
        return fail(err, err_size, "a request the engine cannot be asked");
    best[0] = 0;
    int i = acquire(p, go->stop);
    if (i < 0)
        return 0; /* stopped while waiting: no lines */
    struct proc *c = &p->procs[i];
    char e[ERROR_TEXT_MAX];
    int n = -1;
    if (c->pid <= 0) {
        char name[UCI_ENGINE_NAME_MAX] = "";
        if (proc_start(c, &p->cfg, name, e, sizeof e) == 0) {
            pthread_mutex_lock(&p->mu);
            p->starts++;
            pthread_mutex_unlock(&p->mu);
        } else {
            fail(err, err_size, "%s could not be restarted: %s", p->name, e);
            release(p, i);
            return -1;
        }
    }
    n = run_go(p, c, go, out, best, best_size, e, sizeof e);
    if (n < 0) {
        fail(err, err_size, "%s failed: %s", p->name, e);
        proc_end(c, 0);
    }
    release(p, i);
    return n;
}
