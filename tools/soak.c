/* A soak test of `agora serve` on loopback (tools/soak runs it): for SECONDS, a mix of
 *
 *   - paced players: PLAYERS threads, each on its own keep-alive connection from its own
 *     loopback address (127.0.0.2, .3, ...), play first-legal moves against level 1 in
 *     Egara-guti, Agon and chess in turn, waiting 0..2 s before each move, now and then
 *     taking a move back;
 *   - bursts: every 90 s, 40 connections at once each fetch the catalogue, the page, a
 *     game's state and a history list;
 *   - event streams coming and going: 8 threads open a game's event stream, read it for
 *     2..15 s and drop it (the server must forget it);
 *   - invalid requests: bad JSON, bad moves, no token, foreign origins, oversized bodies,
 *     unknown games, garbage request lines, ten a second.
 *
 * Every minute one line: the counts so far and the server's resident memory (VmRSS of
 * PID from /proc) and open descriptors.  At the end every game's ply on the server is
 * compared with the last one its player was answered (a lost move is a game the server
 * has at fewer plies than acknowledged), and the games are written to FILE so that
 * `soak verify PORT FILE` can compare them again after a restart of the server.
 *
 *   build/soak PORT PID SECONDS [PLAYERS=24] [FILE]
 *   build/soak verify PORT FILE
 *
 * Valid requests must all succeed (errors: 0); invalid ones must get a 4xx (a 5xx or no
 * answer counts as "invalid answered wrongly").  Exit 1 when anything failed. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
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
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int port, server_pid;
static int burst_every = 90; /* seconds; 20 in runs under 5 minutes */
static double t_start, t_end;
static atomic_int stop_all;
static atomic_long moves, takebacks, games_created, valid_errors, streams_opened, stream_events,
    burst_requests, invalid_sent, invalid_wrong;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void complain(const char *what, int status)
{
    static atomic_int shown;
    if (atomic_fetch_add(&shown, 1) < 30)
        fprintf(stderr, "soak: %.1f s: %s: %d\n", now_s() - t_start, what, status);
}

/* ---- the games played, for the lost-move check ---- */

struct played {
    char id[40], token[40];
    int ply; /* the ply of the last answer its player got */
};

static pthread_mutex_t games_mu = PTHREAD_MUTEX_INITIALIZER;
static struct played *games;
static int n_games, cap_games;

static int game_add(const char *id, const char *token, int ply)
{
    pthread_mutex_lock(&games_mu);
    if (n_games == cap_games) {
        cap_games = cap_games ? 2 * cap_games : 1024;
        games = realloc(games, (size_t)cap_games * sizeof *games);
    }
    int k = n_games++;
    snprintf(games[k].id, sizeof games[k].id, "%s", id);
    snprintf(games[k].token, sizeof games[k].token, "%s", token);
    games[k].ply = ply;
    pthread_mutex_unlock(&games_mu);
    return k;
}

static void game_set_ply(int k, int ply)
{
    pthread_mutex_lock(&games_mu);
    games[k].ply = ply;
    pthread_mutex_unlock(&games_mu);
}

/* A random game's id and token (false when there is none yet). */
static bool game_pick(unsigned *seed, char *id, char *token)
{
    pthread_mutex_lock(&games_mu);
    bool ok = n_games > 0;
    if (ok) {
        int k = (int)(rand_r(seed) % (unsigned)n_games);
        snprintf(id, 40, "%s", games[k].id);
        snprintf(token, 40, "%s", games[k].token);
    }
    pthread_mutex_unlock(&games_mu);
    return ok;
}

/* ---- HTTP on loopback ---- */

struct client {
    int fd;
    int addr; /* the last byte of the source address 127.0.0.x */
    char buf[1 << 18];
};

static int client_connect(struct client *c)
{
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return -1;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct timeval tv = {30, 0}; /* no answer in 30 s is an error */
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in src = {.sin_family = AF_INET};
    src.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)c->addr);
    bind(c->fd, (struct sockaddr *)&src, sizeof src);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(c->fd);
        c->fd = -1;
        return -1;
    }
    return 0;
}

static void client_close(struct client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* Send raw bytes and read one answer (Content-Length bodies only); its status, the body
 * in *body (inside c->buf), or -1 when the connection failed or closed. */
static int exchange(struct client *c, const char *raw, size_t rawlen, const char **body)
{
    *body = "";
    if (c->fd < 0 && client_connect(c) != 0)
        return -1;
    if (send(c->fd, raw, rawlen, MSG_NOSIGNAL) != (ssize_t)rawlen) {
        client_close(c);
        return -1;
    }
    size_t len = 0;
    char *sep = NULL;
    long clen = -1;
    for (;;) {
        ssize_t r = recv(c->fd, c->buf + len, sizeof c->buf - len - 1, 0);
        if (r <= 0) {
            client_close(c);
            return -1;
        }
        len += (size_t)r;
        c->buf[len] = 0;
        if (!sep && (sep = strstr(c->buf, "\r\n\r\n"))) {
            char *cl = strcasestr(c->buf, "Content-Length:");
            clen = cl && cl < sep ? strtol(cl + 15, NULL, 10) : 0;
        }
        if (sep && (long)(len - (size_t)(sep + 4 - c->buf)) >= clen)
            break;
        if (len + 1 >= sizeof c->buf) {
            client_close(c);
            return -1;
        }
    }
    int status = 0;
    sscanf(c->buf, "HTTP/1.%*d %d", &status);
    sep[4 + clen] = 0;
    *body = sep + 4;
    if (strcasestr(c->buf, "Connection: close"))
        client_close(c);
    return status;
}

static int request(struct client *c, const char *method, const char *path, const char *token,
                   const char *body, const char **out)
{
    char head[2048];
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s%sContent-Length: %zu\r\n\r\n%s",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", body ? "Content-Type: application/json\r\n" : "", blen,
                     body ? body : "");
    if (n < 0 || n >= (int)sizeof head)
        return -1;
    return exchange(c, head, (size_t)n, out);
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

/* The state's ply: its first "ply" key (it comes before the moves list), or -1. */
static int state_ply(const char *body)
{
    const char *p = strstr(body, "\"ply\":");
    return p ? atoi(p + 6) : -1;
}

static bool state_over(const char *body)
{
    const char *status = strstr(body, "\"status\":{");
    return status && strstr(status, "\"over\":true") != NULL;
}

/* ---- the players ---- */

static void *player(void *arg)
{
    int me = (int)(uintptr_t)arg;
    unsigned seed = (unsigned)me * 7919u;
    static const char *const kinds[] = {"egara-guti", "agon", "chess"};
    struct client *c = malloc(sizeof *c);
    c->fd = -1;
    c->addr = 2 + me % 200;
    int round = me;
    while (!atomic_load(&stop_all)) {
        char body[256], path[128], id[40], token[40], move[64];
        const char *reply;
        snprintf(body, sizeof body, "{\"game\":\"%s\",\"level\":1,\"side\":\"white\"}",
                 kinds[round++ % 3]);
        int code = request(c, "POST", "/api/games", NULL, body, &reply);
        if (code != 201) {
            atomic_fetch_add(&valid_errors, 1);
            complain("POST /api/games", code);
            sleep_ms(1000);
            continue;
        }
        atomic_fetch_add(&games_created, 1);
        field(reply, "id", id, sizeof id);
        field(reply, "token", token, sizeof token);
        int k = game_add(id, token, state_ply(reply));
        bool over = state_over(reply);
        field(strstr(reply, "\"legal_moves\":["), "move", move, sizeof move);
        /* Chess games are cut at 60 plies (a new one is started): first-legal moves shuffle
         * for a long time, and the players should come and go. */
        while (!over && !atomic_load(&stop_all)) {
            sleep_ms((long)(rand_r(&seed) % 2001u));
            bool takeback = rand_r(&seed) % 25u == 0;
            snprintf(path, sizeof path, "/api/games/%s/%s", id, takeback ? "takeback" : "moves");
            snprintf(body, sizeof body, "{\"move\":\"%s\"}", move);
            code = request(c, "POST", path, token, takeback ? NULL : body, &reply);
            if (code == 409 && takeback)
                continue; /* nothing to take back yet: fine */
            if (code != 200) {
                atomic_fetch_add(&valid_errors, 1);
                complain(takeback ? "POST takeback" : "POST moves", code);
                break;
            }
            atomic_fetch_add(takeback ? &takebacks : &moves, 1);
            int ply = state_ply(reply);
            game_set_ply(k, ply);
            over = state_over(reply);
            field(strstr(reply, "\"legal_moves\":["), "move", move, sizeof move);
            if (ply >= 60 && rand_r(&seed) % 4u == 0)
                break;
        }
    }
    client_close(c);
    free(c);
    return NULL;
}

/* ---- bursts ---- */

static void *burst_one(void *arg)
{
    int me = (int)(uintptr_t)arg;
    unsigned seed = (unsigned)me * 31u + (unsigned)time(NULL);
    struct client *c = malloc(sizeof *c);
    c->fd = -1;
    c->addr = 210 + me % 40;
    for (int i = 0; i < 10; i++) {
        char id[40], token[40], path[128];
        const char *reply;
        int code;
        const char *what;
        switch (i % 4) {
        case 0:
            what = "GET /api/catalog";
            code = request(c, "GET", "/api/catalog", NULL, NULL, &reply);
            break;
        case 1:
            what = "GET /";
            code = request(c, "GET", "/", NULL, NULL, &reply);
            break;
        case 2:
            what = "GET game";
            if (!game_pick(&seed, id, token))
                continue;
            snprintf(path, sizeof path, "/api/games/%s", id);
            code = request(c, "GET", path, NULL, NULL, &reply);
            break;
        default:
            what = "GET /api/games";
            if (!game_pick(&seed, id, token))
                continue;
            code = request(c, "GET", "/api/games", token, NULL, &reply);
            break;
        }
        atomic_fetch_add(&burst_requests, 1);
        if (code != 200) {
            atomic_fetch_add(&valid_errors, 1);
            complain(what, code);
        }
    }
    client_close(c);
    free(c);
    return NULL;
}

static void *bursts(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_all)) {
        for (int i = 0; i < burst_every && !atomic_load(&stop_all); i++)
            sleep_ms(1000);
        if (atomic_load(&stop_all))
            break;
        pthread_t th[40];
        for (int i = 0; i < 40; i++)
            pthread_create(&th[i], NULL, burst_one, (void *)(uintptr_t)i);
        for (int i = 0; i < 40; i++)
            pthread_join(th[i], NULL);
    }
    return NULL;
}

/* ---- event streams coming and going ---- */

static void *streamer(void *arg)
{
    int me = (int)(uintptr_t)arg;
    unsigned seed = (unsigned)me * 104729u;
    struct client *c = malloc(sizeof *c);
    c->addr = 250 + me % 5;
    while (!atomic_load(&stop_all)) {
        char id[40], token[40], head[256];
        if (!game_pick(&seed, id, token)) {
            sleep_ms(500);
            continue;
        }
        c->fd = -1;
        if (client_connect(c) != 0) {
            atomic_fetch_add(&valid_errors, 1);
            complain("stream connect", -1);
            sleep_ms(1000);
            continue;
        }
        struct timeval tv = {1, 0};
        setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        int n = snprintf(head, sizeof head,
                         "GET /api/games/%s/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", id);
        send(c->fd, head, (size_t)n, MSG_NOSIGNAL);
        atomic_fetch_add(&streams_opened, 1);
        double until = now_s() + 2 + rand_r(&seed) % 14u;
        bool first = true, ended = false;
        while (now_s() < until && !atomic_load(&stop_all) && !ended) {
            ssize_t r = recv(c->fd, c->buf, sizeof c->buf - 1, 0);
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
                ended = true; /* the game was over: the stream said end and closed */
            if (r <= 0)
                continue;
            c->buf[r] = 0;
            if (first) {
                int status = 0;
                sscanf(c->buf, "HTTP/1.%*d %d", &status);
                if (status != 200) {
                    atomic_fetch_add(&valid_errors, 1);
                    complain("GET events", status);
                    break;
                }
                first = false;
            }
            for (const char *p = c->buf; (p = strstr(p, "event: ")); p++)
                atomic_fetch_add(&stream_events, 1);
        }
        if (first && !ended) {
            atomic_fetch_add(&valid_errors, 1);
            complain("GET events: no answer", 0);
        }
        client_close(c);
    }
    free(c);
    return NULL;
}

/* ---- invalid requests ---- */

static void *invalid(void *arg)
{
    (void)arg;
    unsigned seed = 4242u;
    struct client *c = malloc(sizeof *c);
    c->fd = -1;
    c->addr = 255;
    while (!atomic_load(&stop_all)) {
        sleep_ms(100);
        char id[40] = "0123456789abcdef0123456789abcdef", token[40] = "", path[128], raw[30000];
        game_pick(&seed, id, token);
        const char *reply;
        int code, kind = (int)(rand_r(&seed) % 10u);
        switch (kind) {
        case 0: code = request(c, "POST", "/api/games", NULL, "{\"game\":", &reply); break;
        case 1: code = request(c, "POST", "/api/games", NULL, "{\"game\":\"go\"}", &reply); break;
        case 2:
            snprintf(path, sizeof path, "/api/games/%s/moves", id);
            code = request(c, "POST", path, token, "{\"move\":\"z9-z10\"}", &reply);
            break;
        case 3:
            snprintf(path, sizeof path, "/api/games/%s/moves", id);
            code = request(c, "POST", path, NULL, "{\"move\":\"a1\"}", &reply);
            break;
        case 4:
            code = request(c, "GET", "/api/games/ffffffffffffffffffffffffffffffff", NULL, NULL,
                           &reply);
            break;
        case 5: { /* a body over the limit, announced: the 413 comes before it is sent */
            int n = snprintf(raw, sizeof raw,
                             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                             "application/json\r\nContent-Length: 20000\r\n\r\n");
            code = exchange(c, raw, (size_t)n, &reply);
            client_close(c);
            break;
        }
        case 6: code = request(c, "GET", "/api/games?token=abc", NULL, NULL, &reply); break;
        case 7: {
            int n = snprintf(raw, sizeof raw,
                             "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                             "http://evil.example\r\nContent-Type: application/json\r\n"
                             "Content-Length: 15\r\n\r\n{\"game\":\"agon\"}");
            code = exchange(c, raw, (size_t)n, &reply);
            break;
        }
        case 8: {
            int n = snprintf(raw, sizeof raw, "BLAH /\x01\x02 HTTP/1.1\r\n\r\n");
            code = exchange(c, raw, (size_t)n, &reply);
            if (code < 0)
                code = 400; /* a garbage line may just be hung up on */
            client_close(c);
            break;
        }
        default: code = request(c, "GET", "/no/such/file.js", NULL, NULL, &reply); break;
        }
        atomic_fetch_add(&invalid_sent, 1);
        if (code < 400 || code > 499) {
            atomic_fetch_add(&invalid_wrong, 1);
            complain("invalid request answered", kind * 1000 + code);
        }
    }
    client_close(c);
    free(c);
    return NULL;
}

/* ---- the server's memory ---- */

static long rss_kb(void)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", server_pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

static int open_fds(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", server_pid);
    DIR *d = opendir(path);
    int n = 0;
    while (d && readdir(d))
        n++;
    if (d)
        closedir(d);
    return n - 2;
}

/* ---- the check of every game's ply ---- */

static int verify(struct played *list, int n, long *lost, long *differ)
{
    struct client *c = malloc(sizeof *c);
    c->fd = -1;
    c->addr = 1;
    *lost = *differ = 0;
    int failed = 0;
    for (int i = 0; i < n; i++) {
        char path[128];
        const char *reply;
        snprintf(path, sizeof path, "/api/games/%s", list[i].id);
        int code = request(c, "GET", path, NULL, NULL, &reply);
        if (code != 200) {
            failed++;
            continue;
        }
        int ply = state_ply(reply);
        if (ply < list[i].ply)
            ++*lost;
        if (ply != list[i].ply)
            ++*differ;
    }
    client_close(c);
    free(c);
    return failed;
}

static int verify_file(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    struct played p;
    while (fscanf(f, "%39s %39s %d", p.id, p.token, &p.ply) == 3)
        game_add(p.id, p.token, p.ply);
    fclose(f);
    long lost, differ;
    int failed = verify(games, n_games, &lost, &differ);
    printf("after restart: %d games checked, %d not found, %ld with lost moves, %ld differing\n",
           n_games, failed, lost, differ);
    return failed || lost || differ ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "verify")) {
        port = atoi(argv[2]);
        return verify_file(argv[3]);
    }
    if (argc < 4) {
        fprintf(stderr, "usage: soak PORT PID SECONDS [PLAYERS=24] [FILE]\n"
                        "       soak verify PORT FILE\n");
        return 2;
    }
    port = atoi(argv[1]);
    server_pid = atoi(argv[2]);
    int seconds = atoi(argv[3]);
    int players = argc > 4 ? atoi(argv[4]) : 24;
    const char *file = argc > 5 ? argv[5] : NULL;
    if (seconds < 10 || seconds > 86400 || players < 1 || players > 400) {
        fprintf(stderr, "soak: 10..86400 seconds, 1..400 players\n");
        return 2;
    }
    if (seconds < 300)
        burst_every = 20;
    t_start = now_s();
    t_end = t_start + seconds;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 20);
    pthread_t *th = calloc((size_t)players + 10, sizeof *th);
    int n = 0;
    for (int i = 0; i < players; i++)
        pthread_create(&th[n++], &attr, player, (void *)(uintptr_t)i);
    pthread_create(&th[n++], &attr, bursts, NULL);
    for (int i = 0; i < 8; i++)
        pthread_create(&th[n++], &attr, streamer, (void *)(uintptr_t)i);
    pthread_create(&th[n++], &attr, invalid, NULL);
    printf("soak: %d players (pause 0..2 s), bursts of 40 every %d s, 8 stream threads, 10 "
           "invalid requests/s, %d s\n",
           players, burst_every, seconds);
    printf("%6s %8s %6s %6s %8s %8s %7s %8s %6s %6s %9s %5s\n", "min", "moves", "takeb", "games",
           "streams", "events", "bursts", "invalid", "wrong", "errors", "rss_kb", "fds");
    long rss_first = -1, rss_max = 0, rss_5 = -1;
    for (int minute = 1; now_s() < t_end; minute++) {
        while (now_s() < t_start + 60.0 * minute && now_s() < t_end)
            sleep_ms(200);
        long rss = rss_kb();
        if (rss_first < 0)
            rss_first = rss;
        if (minute == 5)
            rss_5 = rss;
        if (rss > rss_max)
            rss_max = rss;
        printf("%6d %8ld %6ld %6ld %8ld %8ld %7ld %8ld %6ld %6ld %9ld %5d\n", minute,
               atomic_load(&moves), atomic_load(&takebacks), atomic_load(&games_created),
               atomic_load(&streams_opened), atomic_load(&stream_events),
               atomic_load(&burst_requests), atomic_load(&invalid_sent),
               atomic_load(&invalid_wrong), atomic_load(&valid_errors), rss, open_fds());
        fflush(stdout);
    }
    atomic_store(&stop_all, 1);
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    long rss_end = rss_kb();
    sleep_ms(2000); /* the dropped streams and connections go */
    long lost, differ;
    int failed = verify(games, n_games, &lost, &differ);
    printf("moves: %ld acknowledged, %ld takebacks, %ld games; errors on valid requests: %ld\n",
           atomic_load(&moves), atomic_load(&takebacks), atomic_load(&games_created),
           atomic_load(&valid_errors));
    printf("streams: %ld opened, %ld events; bursts: %ld requests; invalid: %ld sent, %ld "
           "answered other than 4xx\n",
           atomic_load(&streams_opened), atomic_load(&stream_events), atomic_load(&burst_requests),
           atomic_load(&invalid_sent), atomic_load(&invalid_wrong));
    printf("games checked: %d, not found %d, with lost moves %ld, differing %ld\n", n_games, failed,
           lost, differ);
    printf("server RSS: %ld kB after 1 min, %ld kB after 5 min, %ld kB at the end, %ld kB max; "
           "%d descriptors open after\n",
           rss_first, rss_5, rss_end, rss_max, open_fds());
    if (file) {
        FILE *f = fopen(file, "w");
        for (int i = 0; f && i < n_games; i++)
            fprintf(f, "%s %s %d\n", games[i].id, games[i].token, games[i].ply);
        if (f)
            fclose(f);
    }
    free(th);
    return valid_errors || invalid_wrong || failed || lost || differ ? 1 : 0;
}
