/* The next-puzzle request's latency on loopback: one keep-alive connection asks
 * GET /api/puzzles/next?game=GAME N times (a new token's visitor, then the same token)
 * and, every other time, sends a failed attempt at the puzzle it got, so the player's
 * list of attempted puzzles grows as a real one's does.  Prints p50/p99/max of the
 * next-puzzle round trips, in milliseconds.
 *
 *   build/puzzle-latency PORT [N=2000] [GAME=chess]
 *
 * tools/puzzle-latency runs it beside tools/loadtest's games. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* One request on the connection; the reply's body (malloc'ed) and status. */
static char *request(int fd, const char *method, const char *path, const char *token,
                     const char *body, int *status)
{
    char head[1024];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%sContent-Type: "
                     "application/json\r\nContent-Length: %zu\r\n\r\n",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", body ? strlen(body) : 0);
    if (write(fd, head, (size_t)n) != n || (body && write(fd, body, strlen(body)) < 0))
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    long want = -1;
    char *start = NULL;
    for (;;) {
        if (len + 4096 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t r = read(fd, buf + len, cap - len - 1);
        if (r <= 0) {
            free(buf);
            return NULL;
        }
        len += (size_t)r;
        buf[len] = 0;
        if (!start && (start = strstr(buf, "\r\n\r\n"))) {
            start += 4;
            const char *cl = strcasestr(buf, "Content-Length:");
            want = cl ? strtol(cl + 15, NULL, 10) : 0;
            *status = atoi(buf + 9);
        }
        if (start && (long)(len - (size_t)(start - buf)) >= want)
            break;
    }
    size_t off = (size_t)(start - buf);
    memmove(buf, start, len - off + 1);
    return buf;
}

/* The string value of "key" in a JSON text (no escapes: ids and tokens). */
static void field(const char *json, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(json, pat);
    out[0] = 0;
    if (!p)
        return;
    p += strlen(pat);
    size_t n = strcspn(p, "\"");
    if (n >= size)
        n = size - 1;
    memcpy(out, p, n);
    out[n] = 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: puzzle-latency PORT [N] [GAME]\n");
        return 2;
    }
    int port = atoi(argv[1]), n = argc > 2 ? atoi(argv[2]) : 2000;
    const char *game = argc > 3 ? argv[3] : "chess";
    int fd = connect_to(port);
    if (fd < 0) {
        fprintf(stderr, "puzzle-latency: cannot connect to port %d\n", port);
        return 1;
    }
    double *ms = calloc((size_t)n, sizeof *ms);
    char token[64] = "", path[128], id[64];
    int errors = 0;
    snprintf(path, sizeof path, "/api/puzzles/next?game=%s", game);
    for (int i = 0; i < n; i++) {
        int status = 0;
        double t0 = now_ms();
        char *body = request(fd, "GET", path, token[0] ? token : NULL, NULL, &status);
        ms[i] = now_ms() - t0;
        if (!body) {
            fprintf(stderr, "puzzle-latency: the connection closed\n");
            return 1;
        }
        if (status != 200)
            errors++;
        if (!token[0])
            field(body, "token", token, sizeof token);
        field(body, "id", id, sizeof id);
        free(body);
        if (i % 2 == 0 && id[0]) {
            char apath[160];
            snprintf(apath, sizeof apath, "/api/puzzles/%s/attempts", id);
            char *a = request(fd, "POST", apath, token, "{\"moves\":[]}", &status);
            free(a);
        }
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp);
    printf("next-puzzle requests %d (errors %d): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", n,
           errors, ms[n / 2], ms[(n * 99) / 100], ms[n - 1]);
    free(ms);
    close(fd);
    return errors ? 1 : 0;
}
