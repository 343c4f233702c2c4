/* A load test of games between people on `agora serve` (loopback): G games at once,
 * each between two simulated players.  A game is made as people make one (a challenge,
 * then its accept); each player keeps an event stream of the game open (with its seat
 * key) and a keep-alive connection for its moves, waits for the opponent's move event,
 * then answers with the first legal move.  Measured: the time from one player's move
 * being acknowledged (its reply read) to the opponent's stream delivering that move
 * (p50/p99/max over the moves after the first second), moves per second, errors (any
 * refused request, a stream that breaks or stays silent 10 s), and lost moves (at the
 * end each game's state must hold every acknowledged move).  A game that ends is
 * followed by a new one.
 *
 *   build/loadtest-people PORT[,PORT2] [GAMES=500] [SECONDS=20] [GAME=chess] [PAUSE_MS=0]
 *
 * With two ports (two servers on one database), each game's first player makes all its
 * requests and holds its stream on the first server, the second player on the second:
 * every move is acknowledged by one server and heard from the other's stream, so the
 * time measured is the trip through the database's outbox (issue 26, item 7).
 * PAUSE_MS > 0 makes each player think a uniform random 0..2*PAUSE_MS before its move.
 * The games are on a 30+0 clock, so every move also moves the clock's deadline. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
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

#define MAX_SAMPLES 1000000
#define SSE_BUF 32768

static int ports[2], n_ports, seconds, pause_ms;
static const char *game = "chess";
static double t_end, t_warm;
static atomic_int errors, lost, games_started, n_samples, moves_total;
static double samples[MAX_SAMPLES];

/* One error; the first ten are told on stderr with what failed when LOADTEST_VERBOSE is
 * set (to find what a run's errors were). */
static void error(const char *what, int status)
{
    int n = atomic_fetch_add(&errors, 1);
    if (n < 10 && getenv("LOADTEST_VERBOSE"))
        fprintf(stderr, "error: %s (%d)\n", what, status);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The string value of the first "key" at or after `from`, or "". */
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

static long int_field(const char *from, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = from ? strstr(from, pat) : NULL;
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

struct conn {
    int fd, port;
    char *buf;
    size_t cap;
};

/* One request on the keep-alive connection; the status, the body in c->buf (from *body). */
static int request(struct conn *c, const char *method, const char *path, const char *token,
                   const char *body, char **out)
{
    char head[1024];
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "%s%s%sContent-Length: %zu\r\n\r\n%s",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", blen, body ? body : "");
    if (c->fd < 0 && (c->fd = dial(c->port)) < 0)
        return -1;
    if (send(c->fd, head, (size_t)n, MSG_NOSIGNAL) != n)
        return -1;
    size_t len = 0;
    char *sep = NULL;
    long clen = -1;
    for (;;) {
        ssize_t r = recv(c->fd, c->buf + len, c->cap - len - 1, 0);
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
        if (len + 1 >= c->cap)
            return -1;
    }
    int status = 0;
    sscanf(c->buf, "HTTP/1.%*d %d", &status);
    sep[4 + clen] = 0;
    *out = sep + 4;
    return status;
}

/* An event stream (HTTP/1.0: unchunked until the server closes it). */
struct stream {
    int fd, port;
    char buf[SSE_BUF];
    size_t len;
};

static int stream_open(struct stream *s, const char *id, const char *seat)
{
    s->len = 0;
    if ((s->fd = dial(s->port)) < 0)
        return -1;
    char head[256];
    int n =
        snprintf(head, sizeof head,
                 "GET /api/games/%s/events?seat=%s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", id, seat);
    return send(s->fd, head, (size_t)n, MSG_NOSIGNAL) == n ? 0 : -1;
}

/* Wait for the move event of ply k (earlier events are passed over); 0, or -1. */
static int stream_wait(struct stream *s, int k, char *move, size_t move_size)
{
    char want[48];
    snprintf(want, sizeof want, "id: %d\nevent: move\ndata: ", k);
    for (;;) {
        char *hit = strstr(s->buf, want);
        char *end = hit ? strstr(hit, "\n\n") : NULL;
        if (end) {
            field(hit, "move", move, move_size);
            size_t used = (size_t)(end + 2 - s->buf);
            memmove(s->buf, end + 2, s->len - used + 1);
            s->len -= used;
            return 0;
        }
        /* Keep only the tail that may start the event we want. */
        if (s->len > SSE_BUF / 2) {
            size_t keep = 256;
            memmove(s->buf, s->buf + s->len - keep, keep);
            s->len = keep;
            s->buf[keep] = 0;
        }
        struct pollfd p = {s->fd, POLLIN, 0};
        if (poll(&p, 1, 10000) <= 0)
            return -1;
        ssize_t r = recv(s->fd, s->buf + s->len, SSE_BUF - s->len - 1, 0);
        if (r <= 0)
            return -1;
        s->len += (size_t)r;
        s->buf[s->len] = 0;
    }
}

struct player {
    char token[40], seat[24];
    struct conn c;
    struct stream s;
};

static void sleep_ms(int ms)
{
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

static int new_game(struct player *p, char *id)
{
    char body[256], path[128], cid[40];
    char *out;
    snprintf(body, sizeof body,
             "{\"game\":\"%s\",\"clock\":{\"initial\":1800,\"increment\":0},\"side\":\"white\","
             "\"name\":\"Load A\"}",
             game);
    int st =
        request(&p[0].c, "POST", "/api/challenges", p[0].token[0] ? p[0].token : NULL, body, &out);
    if (st != 201) {
        error(st > 0 ? out : "a challenge", st);
        return -1;
    }
    field(out, "id", cid, sizeof cid);
    field(out, "token", p[0].token, sizeof p[0].token);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    st = request(&p[1].c, "POST", path, p[1].token[0] ? p[1].token : NULL, "{\"name\":\"Load B\"}",
                 &out);
    if (st != 200) {
        error(st > 0 ? out : "an accept", st);
        return -1;
    }
    field(out, "id", id, 40);
    field(out, "token", p[1].token, sizeof p[1].token);
    field(out, "seat", p[1].seat, sizeof p[1].seat);
    snprintf(path, sizeof path, "/api/games/%s", id);
    st = request(&p[0].c, "GET", path, p[0].token, NULL, &out);
    if (st != 200) {
        error(st > 0 ? out : "the new game's state", st);
        return -1;
    }
    field(out, "seat", p[0].seat, sizeof p[0].seat);
    for (int i = 0; i < 2; i++) {
        if (p[i].s.fd >= 0)
            close(p[i].s.fd);
        if (stream_open(&p[i].s, id, p[i].seat) != 0) {
            error("a stream's request", 0);
            return -1;
        }
    }
    atomic_fetch_add(&games_started, 1);
    return 0;
}

/* At the end of a game (or of the run): every acknowledged move is in its state. */
static void check_moves(struct player *p, const char *id, int acked)
{
    char path[128], *out;
    snprintf(path, sizeof path, "/api/games/%s", id);
    int st = request(&p->c, "GET", path, p->token, NULL, &out);
    if (st != 200) {
        error("the final state", st);
        return;
    }
    long ply = int_field(out, "ply");
    if (ply != acked)
        atomic_fetch_add(&lost, acked > ply ? (int)(acked - ply) : 1);
}

static void *play(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u;
    struct player p[2];
    memset(p, 0, sizeof p);
    for (int i = 0; i < 2; i++) {
        p[i].c.fd = p[i].s.fd = -1;
        p[i].c.port = p[i].s.port = ports[i % n_ports];
        p[i].c.cap = 1 << 17;
        p[i].c.buf = malloc(p[i].c.cap);
    }
    char id[40] = "", move[64] = "";
    int ply = 0;
    bool live = false;
    while (now_s() < t_end) {
        if (!live) {
            if (new_game(p, id) != 0) { /* its error counted */
                sleep_ms(200);
                continue;
            }
            live = true;
            ply = 0;
            move[0] = 0;
        }
        struct player *me = &p[ply % 2], *them = &p[1 - ply % 2];
        if (!move[0]) { /* the game's first move: from the state */
            char path[128], *out;
            snprintf(path, sizeof path, "/api/games/%s", id);
            int st = request(&me->c, "GET", path, me->token, NULL, &out);
            if (st != 200) {
                error("the first state", st);
                live = false;
                continue;
            }
            field(strstr(out, "\"legal_moves\":["), "move", move, sizeof move);
        }
        if (pause_ms > 0)
            sleep_ms((int)(rand_r(&seed) % (unsigned)(2 * pause_ms + 1)));
        char body[96], path[128], *out;
        snprintf(body, sizeof body, "{\"move\":\"%s\"}", move);
        snprintf(path, sizeof path, "/api/games/%s/moves", id);
        int st = request(&me->c, "POST", path, me->token, body, &out);
        double acked = now_s();
        if (st != 200) {
            error(st > 0 ? out : "a move", st);
            live = false;
            continue;
        }
        ply++;
        atomic_fetch_add(&moves_total, 1);
        bool over = strstr(strstr(out, "\"status\":{") ? strstr(out, "\"status\":{") : out,
                           "\"over\":true") != NULL;
        /* The opponent's next move: the first legal move of the state after this one. */
        char next[64];
        field(strstr(out, "\"legal_moves\":["), "move", next, sizeof next);
        char heard[64] = "";
        if (stream_wait(&them->s, ply, heard, sizeof heard) != 0 || strcmp(heard, move) != 0) {
            error(heard[0] ? "the stream told another move" : "the stream broke or was silent",
                  ply);
            live = false;
            continue;
        }
        double t = now_s() - acked;
        if (acked > t_warm) {
            int k = atomic_fetch_add(&n_samples, 1);
            if (k < MAX_SAMPLES)
                samples[k] = t;
        }
        if (over || !next[0]) {
            check_moves(me, id, ply);
            live = false;
            continue;
        }
        snprintf(move, sizeof move, "%s", next);
    }
    if (live)
        check_moves(&p[0], id, ply);
    for (int i = 0; i < 2; i++) {
        if (p[i].c.fd >= 0)
            close(p[i].c.fd);
        if (p[i].s.fd >= 0)
            close(p[i].s.fd);
        free(p[i].c.buf);
    }
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
                "usage: loadtest-people PORT[,PORT2] [GAMES] [SECONDS] [GAME] [PAUSE_MS]\n");
        return 2;
    }
    char *next = NULL;
    ports[n_ports++] = (int)strtol(argv[1], &next, 10);
    if (*next == ',')
        ports[n_ports++] = atoi(next + 1);
    int games = argc > 2 ? atoi(argv[2]) : 500;
    seconds = argc > 3 ? atoi(argv[3]) : 20;
    if (argc > 4)
        game = argv[4];
    pause_ms = argc > 5 ? atoi(argv[5]) : 0;
    double t0 = now_s();
    t_warm = t0 + 1.0;
    t_end = t0 + seconds;
    pthread_t *th = calloc((size_t)games, sizeof *th);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    for (int i = 0; i < games; i++)
        pthread_create(&th[i], &attr, play, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < games; i++)
        pthread_join(th[i], NULL);
    double elapsed = now_s() - t0;
    int n = atomic_load(&n_samples);
    if (n > MAX_SAMPLES)
        n = MAX_SAMPLES;
    qsort(samples, (size_t)n, sizeof samples[0], cmp);
    double p50 = n ? samples[n / 2] * 1e3 : 0, p99 = n ? samples[(int)(n * 0.99)] * 1e3 : 0;
    double mx = n ? samples[n - 1] * 1e3 : 0;
    printf("people games at once %d (%s, 30+0)%s, %d games started, %.1f s\n", games, game,
           n_ports > 1 ? " across 2 servers" : "", atomic_load(&games_started), elapsed);
    printf("moves %d (%.0f/s); acknowledged move -> opponent's event: p50 %.2f ms, p99 %.2f ms, "
           "max %.2f ms (%d samples)\n",
           atomic_load(&moves_total), atomic_load(&moves_total) / elapsed, p50, p99, mx, n);
    printf("errors %d, lost moves %d\n", atomic_load(&errors), atomic_load(&lost));
    return atomic_load(&errors) || atomic_load(&lost) ? 1 : 0;
}
