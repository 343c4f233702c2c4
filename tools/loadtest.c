/* A bounded load test of `agora serve` on loopback: G concurrent games (one thread and
 * one keep-alive connection each) play first-legal moves against level 1 for S seconds,
 * starting a new game when one ends.  Prints throughput, the p50/p99/max round trip of
 * move requests (each includes the computer's reply) and the errors.
 *
 *   build/loadtest PORT [GAMES=200] [SECONDS=10] [PAUSE_MS=0] [GAME=egara-guti]
 *
 * Round trips are those of moves sent after the first second (when all the games
 * start at once); moves/s counts them all.
 *
 * The client reads only the fields it needs from each reply (id, token, the first
 * legal move, status.over) by searching for their keys: a full JSON parse of every
 * state cost this client more CPU than the server spends on the whole move, on the
 * same two cores (perf: 80% of the client in jansson and malloc).
 *
 * PAUSE_MS 0 is a closed loop (each game sends its next move the moment it has the
 * reply): a saturation test, where latency is concurrency / throughput.  PAUSE_MS > 0
 * makes each player wait a uniform random 0..2*PAUSE_MS before each move, like people
 * (who take seconds), so the latency is the server's own at that offered load. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SAMPLES 200000

static int port, seconds, pause_ms;
static const char *game = "egara-guti";
static double t_end, t_warm;
static atomic_int warm_samples;
static atomic_int errors, games_started, n_samples;
/* The errors by status (0: no answer, a connection failed); 600 and above: other. */
static atomic_int errors_by[601];

static void count_error(int status)
{
    atomic_fetch_add(&errors, 1);
    atomic_fetch_add(&errors_by[status < 0 ? 0 : status > 600 ? 600 : status], 1);
}
static double samples[MAX_SAMPLES];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct client {
    int fd;
    char buf[1 << 17];
};

static int client_connect(struct client *c)
{
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return connect(c->fd, (struct sockaddr *)&sa, sizeof sa);
}

/* A reply's body and the fields the players use. */
struct reply {
    char id[64], token[64], move[64];
    int over; /* status.over is true */
};

/* The string value of the first "key" at or after `from` in body, or "". */
static void field(const char *from, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = from ? strstr(from, pat) : NULL;
    size_t n = 0;
    if (p) {
        p += strlen(pat);
        while (p[n] && p[n] != '"' && n + 1 < size)
            n++;
        memcpy(out, p, n);
    }
    out[n] = 0;
}

static void read_reply(const char *body, struct reply *r)
{
    field(body, "id", r->id, sizeof r->id);
    field(body, "token", r->token, sizeof r->token);
    field(strstr(body, "\"legal_moves\":["), "move", r->move, sizeof r->move);
    const char *status = strstr(body, "\"status\":{");
    r->over = status && strstr(status, "\"over\":true") != NULL;
}

/* One request on the keep-alive connection; the status, the body's fields in *out. */
static int request(struct client *c, const char *method, const char *path, const char *token,
                   const char *body, struct reply *out)
{
    char head[1024];
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%sContent-Length: %zu\r\n\r\n%s",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", blen, body ? body : "");
    memset(out, 0, sizeof *out);
    if (send(c->fd, head, (size_t)n, MSG_NOSIGNAL) != n)
        return -1;
    size_t len = 0;
    char *sep = NULL;
    long clen = -1;
    for (;;) {
        ssize_t r = recv(c->fd, c->buf + len, sizeof c->buf - len - 1, 0);
        if (r <= 0)
            return -1;
        len += (size_t)r;
        c->buf[len] = 0;
        if (!sep && (sep = strstr(c->buf, "\r\n\r\n"))) {
            char *cl = strcasestr(c->buf, "Content-Length:");
            clen = cl && cl < sep ? strtol(cl + 15, NULL, 10) : 0;
        }
        if (sep && (long)(len - (size_t)(sep + 4 - c->buf)) >= clen)
            break;
        if (len + 1 >= sizeof c->buf)
            return -1;
    }
    int status = 0;
    sscanf(c->buf, "HTTP/1.%*d %d", &status);
    sep[4 + clen] = 0;
    read_reply(sep + 4, out);
    return status;
}

static void *player(void *arg)
{
    unsigned seedp = (unsigned)(uintptr_t)arg;
    struct client *c = malloc(sizeof *c);
    if (client_connect(c) != 0) {
        count_error(0);
        free(c);
        return NULL;
    }
    char id[64] = "", token[64] = "", path[128], body[256];
    struct reply st;
    bool have = false; /* st holds a game's state */
    while (now_s() < t_end) {
        if (!have || st.over) {
            snprintf(body, sizeof body, "{\"game\":\"%s\",\"level\":1,\"side\":\"white\"}", game);
            int made = request(c, "POST", "/api/games", NULL, body, &st);
            if (made != 201) {
                count_error(made);
                break;
            }
            have = true;
            atomic_fetch_add(&games_started, 1);
            snprintf(id, sizeof id, "%s", st.id);
            snprintf(token, sizeof token, "%s", st.token);
            continue;
        }
        if (pause_ms > 0) {
            long us = (long)(rand_r(&seedp) % (unsigned)(2 * pause_ms + 1)) * 1000L;
            struct timespec ts = {us / 1000000L, (us % 1000000L) * 1000L};
            nanosleep(&ts, NULL);
            if (now_s() >= t_end)
                break;
        }
        snprintf(path, sizeof path, "/api/games/%s/moves", id);
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", st.move);
        double t0 = now_s();
        int code = request(c, "POST", path, token, body, &st);
        double dt = now_s() - t0;
        if (code != 200) {
            count_error(code);
            if (code < 0)
                break;
            have = false;
            continue;
        }
        if (t0 < t_warm) { /* the first second: every game starting at once */
            atomic_fetch_add(&warm_samples, 1);
            continue;
        }
        int k = atomic_fetch_add(&n_samples, 1);
        if (k < MAX_SAMPLES)
            samples[k] = dt;
    }
    close(c->fd);
    free(c);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: loadtest PORT [GAMES=200] [SECONDS=10] [PAUSE_MS=0] [GAME=egara-guti]\n");
        return 2;
    }
    port = atoi(argv[1]);
    int n = argc > 2 ? atoi(argv[2]) : 200;
    seconds = argc > 3 ? atoi(argv[3]) : 10;
    pause_ms = argc > 4 ? atoi(argv[4]) : 0;
    if (argc > 5)
        game = argv[5];
    if (n < 1 || n > 1000 || seconds < 1 || seconds > 120 || pause_ms < 0 || pause_ms > 60000) {
        fprintf(stderr, "loadtest: 1..1000 games, 1..120 seconds, pause 0..60000 ms\n");
        return 2;
    }
    pthread_t *th = calloc((size_t)n, sizeof *th);
    double t0 = now_s();
    t_end = t0 + seconds;
    t_warm = t0 + 1.0;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);
    for (int i = 0; i < n; i++)
        pthread_create(&th[i], &attr, player, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    double elapsed = now_s() - t0;
    int k = atomic_load(&n_samples);
    if (k > MAX_SAMPLES)
        k = MAX_SAMPLES;
    qsort(samples, (size_t)k, sizeof samples[0], cmp);
    printf("games: %d concurrent, %d started, %s, level 1, %.1f s, pause 0..%d ms\n", n,
           atomic_load(&games_started), game, elapsed, 2 * pause_ms);
    int warm = atomic_load(&warm_samples);
    printf("moves: %d acknowledged (each with the computer's reply), %.0f moves/s"
           " (+%d in the first second, not in the times below)\n",
           k + warm, (k + warm) / elapsed, warm);
    if (k)
        printf("round trip: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", 1e3 * samples[k / 2],
               1e3 * samples[(int)(k * 0.99)], 1e3 * samples[k - 1]);
    printf("errors: %d", atomic_load(&errors));
    for (int i = 0; i <= 600; i++) /* by status; 0: no answer */
        if (atomic_load(&errors_by[i]))
            printf(", status %d: %d", i, atomic_load(&errors_by[i]));
    printf("\n");
    free(th);
    return atomic_load(&errors) ? 1 : 0;
}
