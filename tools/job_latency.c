/* How long a computer move queued in the database waits before an idle `agora worker`
 * starts it, and how many transactions idle workers cost the database (issue 26).
 *
 *   build/job-latency URL [JOBS=200] [WORKERS=1] [THREADS=1] [IDLE_SECONDS=20]
 *
 * URL is a PostgreSQL database of its own (tools/job-latency makes one in tests/pg-run's
 * server).  Starts WORKERS `./agora worker --db URL --threads THREADS` processes
 * ($AGORA_BIN, default ./agora: an older build measures the code before a change).
 *
 * First, nothing queued, it counts the statements the idle workers send over
 * IDLE_SECONDS, and prints them a second and a second per worker process: the server
 * logs every statement meanwhile (ALTER SYSTEM, as the superuser tests/pg-run makes
 * us), and the lines of URL's database are counted in its log, JOB_LATENCY_PG_LOG
 * (unset: not counted).  Not pg_stat_database's transactions: a LISTENing session
 * commits more of them than it runs statements (its notification reads).
 *
 * JOB_LATENCY_SERVE=1: the same of WORKERS `./agora serve --db URL --workers THREADS
 * --shared-jobs --port 0` servers instead, whose idle engine threads take the shared
 * queue's moves (src/server/games/workers_shared.h).  A server says nothing a move, so a
 * job's start is read from the database: the tool asks every millisecond whether the
 * job is claimed (or gone), which makes its waits up to a millisecond longer.
 *
 * Then it queues JOBS computer moves one at a time (a new egara game at level 1 where the computer
 * opens, its job put with store_put_job), each after a random pause of 50 to 150 ms, so the workers
 * are idle when it comes.  A worker's line "game G ply 1: MOVE in T ms" comes T ms after it claimed
 * the job (run_job's start, right after the claim), so the job started at the line's arrival less
 * T; the wait is that start less the time put_job was called.  Prints the waits' p50, p90, p99 and
 * max in milliseconds. */
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/types.h"
#include "store/store.h"

#define WORKERS_MAX 16
#define LINE_MAX_LEN 512
#define WAIT_FOR_LINE_MS 10000

struct worker_proc {
    pid_t pid;
    int fd;                 /* its stdout */
    char buf[LINE_MAX_LEN]; /* a line being read */
    size_t len;
    double read_at; /* when buf's last bytes came */
};

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static bool serve_mode(void)
{
    const char *v = getenv("JOB_LATENCY_SERVE");
    return v && !strcmp(v, "1");
}

/* `agora worker --db url --threads n` (or serve_mode's server), its stdout (and a
 * server's stderr, where it says it serves) a pipe to us. */
static int spawn(struct worker_proc *w, const char *url, int threads)
{
    const char *bin = getenv("AGORA_BIN") ? getenv("AGORA_BIN") : "./agora";
    int p[2];
    if (pipe(p) != 0)
        return -1;
    char n[16];
    snprintf(n, sizeof n, "%d", threads);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(p[1], 1);
        if (serve_mode())
            dup2(p[1], 2);
        close(p[0]);
        close(p[1]);
        if (serve_mode())
            execl(bin, "agora", "serve", "--db", url, "--workers", n, "--shared-jobs", "--port",
                  "0", "--move-ms", "100", (char *)NULL);
        else
            execl(bin, "agora", "worker", "--db", url, "--threads", n, "--move-ms", "100",
                  (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    w->pid = pid;
    w->fd = p[0];
    w->len = 0;
    return 0;
}

/* The next whole line of any worker within `ms` (into line, its arrival into *at):
 * 1, or 0 when none came, -1 when a worker's output ended. */
static int next_line(struct worker_proc *ws, int n, int ms, char *line, double *at)
{
    double until = wall_ms() + ms;
    for (;;) {
        for (int i = 0; i < n; i++) {
            char *nl = memchr(ws[i].buf, '\n', ws[i].len);
            if (nl) {
                size_t k = (size_t)(nl - ws[i].buf);
                memcpy(line, ws[i].buf, k);
                line[k] = 0;
                *at = ws[i].read_at;
                memmove(ws[i].buf, nl + 1, ws[i].len - k - 1);
                ws[i].len -= k + 1;
                return 1;
            }
        }
        int left = (int)(until - wall_ms());
        if (left <= 0)
            return 0;
        struct pollfd p[WORKERS_MAX];
        for (int i = 0; i < n; i++)
            p[i] = (struct pollfd){.fd = ws[i].fd, .events = POLLIN};
        if (poll(p, (nfds_t)n, left) < 0 && errno != EINTR)
            return -1;
        double now = wall_ms();
        for (int i = 0; i < n; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP)))
                continue;
            ssize_t got = read(ws[i].fd, ws[i].buf + ws[i].len, sizeof ws[i].buf - 1 - ws[i].len);
            if (got <= 0)
                return -1;
            ws[i].len += (size_t)got;
            ws[i].read_at = now;
        }
    }
}

/* A game where the computer (white) opens, and its first move's job. */
static int queue_one(struct store *s, int i, double *put_at)
{
    char err[256];
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "b%031d", i);
    snprintf(g.game, sizeof g.game, "egara");
    snprintf(g.token_hash, sizeof g.token_hash, "bench");
    g.level = 1;
    g.human_side = SIDE_BLACK;
    g.seed = (uint64_t)i;
    g.created_ms = g.updated_ms = (int64_t)wall_ms();
    if (store_create_game(s, &g, err, sizeof err) != 0) {
        fprintf(stderr, "job-latency: create game: %s\n", err);
        return -1;
    }
    struct store_job j;
    memset(&j, 0, sizeof j);
    snprintf(j.id, sizeof j.id, "%s.0", g.id);
    snprintf(j.kind, sizeof j.kind, "move");
    snprintf(j.game_id, sizeof j.game_id, "%s", g.id);
    snprintf(j.client, sizeof j.client, "bench");
    j.created_ms = (int64_t)wall_ms();
    *put_at = wall_ms();
    if (store_put_job(s, &j, err, sizeof err) != 0) {
        fprintf(stderr, "job-latency: put job: %s\n", err);
        return -1;
    }
    return 0;
}

/* The wait of job i into *wait, from its worker's line: 0, or -1 when none came. */
static int wait_of(struct worker_proc *ws, int n, int i, double put_at, double *wait)
{
    char want[64], line[LINE_MAX_LEN];
    snprintf(want, sizeof want, "game b%031d ply 1: ", i);
    double at = 0;
    for (;;) {
        int rc = next_line(ws, n, WAIT_FOR_LINE_MS, line, &at);
        if (rc <= 0) {
            fprintf(stderr, "job-latency: job %d: no line from the workers\n", i);
            return -1;
        }
        char *p = strstr(line, want);
        char *in = p ? strstr(p, " in ") : NULL;
        if (in) {
            *wait = at - atof(in + 4) - put_at;
            return 0;
        }
    }
}

/* serve_mode's wait of job i: the first time the database says it is claimed (or
 * done), less put_at: 0, or -1 when it never is. */
static int claimed_of(PGconn *db, int i, double put_at, double *wait)
{
    char id[64];
    snprintf(id, sizeof id, "b%031d.0", i);
    const char *params[1] = {id};
    for (double until = wall_ms() + WAIT_FOR_LINE_MS; wall_ms() < until; sleep_ms(1)) {
        PGresult *r =
            PQexecParams(db, "SELECT count(*) FROM engine_jobs WHERE id = $1 AND worker = ''", 1,
                         NULL, params, NULL, NULL, 0);
        int waiting = PQresultStatus(r) == PGRES_TUPLES_OK ? atoi(PQgetvalue(r, 0, 0)) : -1;
        PQclear(r);
        if (waiting == 0) {
            *wait = wall_ms() - put_at;
            return 0;
        }
        if (waiting < 0)
            break;
    }
    fprintf(stderr, "job-latency: job %d: not claimed: %s", i, PQerrorMessage(db));
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(const double *v, int n, double p)
{
    int k = (int)(p * (n - 1) + 0.5);
    return v[k];
}

/* One statement on the tool's connection: 0, or -1 (said). */
static int run_sql(PGconn *db, const char *sql)
{
    PGresult *r = PQexec(db, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        fprintf(stderr, "job-latency: %s: %s", sql, PQerrorMessage(db));
    PQclear(r);
    return ok ? 0 : -1;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* The statements of database `db` the server logged between offsets from and to. */
static long statements_logged(const char *path, long from, long to, const char *db)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, from, SEEK_SET);
    char line[8192], tag[160];
    snprintf(tag, sizeof tag, "] %s ", db);
    long n = 0;
    while (ftell(f) < to && fgets(line, sizeof line, f))
        if (strstr(line, tag) &&
            (strstr(line, "LOG:  statement: ") || strstr(line, "LOG:  execute ")))
            n++;
    fclose(f);
    return n;
}

/* The statements a second the idle workers send, counted in the server's log (`log`,
 * its statements logged for the window's length and a settling second before it). */
static double idle_rate(const char *url, const char *log, int seconds)
{
    PGconn *db = PQconnectdb(url);
    if (PQstatus(db) != CONNECTION_OK) {
        fprintf(stderr, "job-latency: %s", PQerrorMessage(db));
        PQfinish(db);
        return -1;
    }
    char name[128];
    PGresult *r = PQexec(db, "SELECT current_database()");
    snprintf(name, sizeof name, "%s",
             PQresultStatus(r) == PGRES_TUPLES_OK ? PQgetvalue(r, 0, 0) : "?");
    PQclear(r);
    double rate = -1;
    if (run_sql(db, "ALTER SYSTEM SET log_statement = 'all'") == 0 &&
        run_sql(db, "ALTER SYSTEM SET log_line_prefix = '%m [%p] %d '") == 0 &&
        run_sql(db, "SELECT pg_reload_conf()") == 0) {
        sleep_ms(1500); /* every session has read the new settings */
        long from = file_size(log);
        sleep_ms(seconds * 1000);
        long to = file_size(log);
        long n = from < 0 || to < 0 ? -1 : statements_logged(log, from, to, name);
        if (n < 0)
            fprintf(stderr, "job-latency: cannot read %s\n", log);
        else
            rate = (double)n / seconds;
    }
    run_sql(db, "ALTER SYSTEM RESET log_statement");
    run_sql(db, "ALTER SYSTEM RESET log_line_prefix");
    run_sql(db, "SELECT pg_reload_conf()");
    PQfinish(db);
    return rate;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: build/job-latency URL [JOBS] [WORKERS] [THREADS] [IDLE_SECONDS]\n");
        return 2;
    }
    const char *url = argv[1];
    int jobs = argc > 2 ? atoi(argv[2]) : 200, n = argc > 3 ? atoi(argv[3]) : 1;
    int threads = argc > 4 ? atoi(argv[4]) : 1, idle = argc > 5 ? atoi(argv[5]) : 20;
    if (jobs < 1 || n < 1 || n > WORKERS_MAX || threads < 1 || idle < 1) {
        fprintf(stderr, "job-latency: bad arguments\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    char err[256];
    struct store *s = store_open(url, NULL, err, sizeof err);
    if (!s) {
        fprintf(stderr, "job-latency: %s\n", err);
        return 1;
    }
    struct worker_proc ws[WORKERS_MAX];
    int started = 0, rc = 1;
    double *waits = calloc((size_t)jobs, sizeof *waits);
    for (; waits && started < n; started++)
        if (spawn(&ws[started], url, threads) != 0)
            goto out;
    char line[LINE_MAX_LEN];
    double at;
    for (int i = 0; i < n; i++) /* each worker's first line: it is started */
        do {
            if (next_line(ws, n, WAIT_FOR_LINE_MS, line, &at) != 1)
                goto out;
        } while (serve_mode() && !strstr(line, "serving on"));
    sleep_ms(2000); /* settled */
    const char *log = getenv("JOB_LATENCY_PG_LOG");
    double rate = log ? idle_rate(url, log, idle) : -1;
    if (log && rate < 0)
        goto out;
    if (log)
        printf("job-latency: %d %s%s of %d thread%s idle over %d s: %.1f statements/s to the"
               " database, %.1f per process\n",
               n, serve_mode() ? "server" : "worker", n == 1 ? "" : "s", threads,
               threads == 1 ? "" : "s", idle, rate, rate / n);
    else
        printf("job-latency: no JOB_LATENCY_PG_LOG: the idle statements are not counted\n");
    fflush(stdout);
    PGconn *watch = serve_mode() ? PQconnectdb(url) : NULL;
    srand(1);
    for (int i = 0; i < jobs; i++) {
        sleep_ms(50 + rand() % 101);
        double put_at;
        if (queue_one(s, i, &put_at) != 0 || (watch ? claimed_of(watch, i, put_at, &waits[i])
                                                    : wait_of(ws, n, i, put_at, &waits[i])) != 0) {
            PQfinish(watch);
            goto out;
        }
    }
    PQfinish(watch);
    qsort(waits, (size_t)jobs, sizeof *waits, cmp_double);
    printf("job-latency: %d jobs, %d %s%s of %d thread%s: put_job to the %s"
           " p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
           jobs, n, serve_mode() ? "server" : "worker", n == 1 ? "" : "s", threads,
           threads == 1 ? "" : "s", serve_mode() ? "claim" : "worker's start",
           pct(waits, jobs, 0.5), pct(waits, jobs, 0.9), pct(waits, jobs, 0.99), waits[jobs - 1]);
    fflush(stdout);
    rc = 0;
out:
    for (int i = 0; i < started; i++) {
        kill(ws[i].pid, SIGTERM);
        waitpid(ws[i].pid, NULL, 0);
        close(ws[i].fd);
    }
    free(waits);
    store_close(s);
    return rc;
}
