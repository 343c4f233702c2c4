#include "server_client.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int test_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read until the peer closes or timeout_ms have passed in all. */
static char *read_all(int fd, int timeout_ms, size_t *out_len)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left =
            timeout_ms - ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L);
        struct pollfd pfd = {fd, POLLIN, 0};
        if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
            break;
        if (len + 2048 > cap)
            buf = realloc(buf, cap *= 2);
        ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = 0;
    *out_len = len;
    return buf;
}

char *http_raw(int port, const char *bytes, size_t len, int timeout_ms, size_t *out_len)
{
    *out_len = 0;
    int fd = test_connect(port);
    if (fd < 0)
        return NULL;
    send_all(fd, bytes, len);
    char *r = read_all(fd, timeout_ms, out_len);
    close(fd);
    return r;
}

int http_call(int port, const char *method, const char *path, const char *auth, const char *body,
              size_t body_len, const char *extra_headers, struct http_reply *out)
{
    memset(out, 0, sizeof *out);
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s%s%s"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, auth ? "Authorization: Bearer " : "", auth ? auth : "",
                     auth ? "\r\n" : "", extra_headers ? extra_headers : "", body ? body_len : 0);
    int fd = test_connect(port);
    if (fd < 0)
        return -1;
    if (send_all(fd, head, (size_t)n) != 0 ||
        (body && body_len && send_all(fd, body, body_len) != 0)) {
        /* The server may answer (413) before reading everything: still read. */
    }
    size_t len;
    char *all = read_all(fd, 30000, &len);
    close(fd);
    char *sep = strstr(all, "\r\n\r\n");
    if (!sep || sscanf(all, "HTTP/1.%*d %d", &out->status) != 1) {
        free(all);
        return -1;
    }
    *sep = 0;
    out->head = all;
    out->body = sep + 4;
    out->body_len = len - (size_t)(out->body - all);
    return 0;
}

void http_reply_free(struct http_reply *r)
{
    free(r->head);
    memset(r, 0, sizeof *r);
}

json_t *http_json(const struct http_reply *r)
{
    return r->body ? json_loadb(r->body, r->body_len, 0, NULL) : NULL;
}

int api_call(int port, const char *method, const char *path, const char *token, const char *body,
             json_t **jout)
{
    struct http_reply r;
    if (jout)
        *jout = NULL;
    if (http_call(port, method, path, token, body, body ? strlen(body) : 0, NULL, &r) != 0)
        return 0;
    int status = r.status;
    if (jout)
        *jout = http_json(&r);
    http_reply_free(&r);
    return status;
}

void test_tmpdir(char *out, size_t size)
{
    snprintf(out, size, "/tmp/agora-test-XXXXXX");
    if (!mkdtemp(out))
        snprintf(out, size, "/tmp");
}

void test_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

int test_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
        port = ntohs(sa.sin_port);
    close(fd);
    return port;
}

json_t *api_get_state(int port, const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s", id);
    json_t *j;
    if (api_call(port, "GET", path, NULL, NULL, &j) != 200) {
        json_decref(j);
        return NULL;
    }
    return j;
}

int api_post_move(int port, const char *id, const char *token, const char *move, json_t **out)
{
    char path[128], body[256];
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    snprintf(body, sizeof body, "{\"move\":\"%s\"}", move);
    return api_call(port, "POST", path, token, body, out);
}

/* Read more into r->buf within timeout_ms; the bytes read (0: closed or timeout). */
static size_t sse_fill(struct sse_reader *r, int timeout_ms)
{
    struct pollfd pfd = {r->fd, POLLIN, 0};
    if (r->fd < 0 || poll(&pfd, 1, timeout_ms) <= 0)
        return 0;
    if (r->len + 4096 > r->cap) {
        r->cap = (r->len + 4096) * 2;
        r->buf = realloc(r->buf, r->cap);
    }
    ssize_t n = recv(r->fd, r->buf + r->len, r->cap - r->len - 1, 0);
    if (n <= 0)
        return 0;
    r->len += (size_t)n;
    r->buf[r->len] = 0;
    return (size_t)n;
}

static void sse_take(struct sse_reader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n + 1);
    r->len -= n;
}

int sse_post(struct sse_reader *r, int port, const char *path, const char *body,
             const char *extra_headers)
{
    memset(r, 0, sizeof *r);
    r->cap = 8192;
    r->buf = calloc(1, r->cap);
    r->fd = test_connect(port);
    if (r->fd < 0)
        return 0;
    char head[2048];
    int n = snprintf(head, sizeof head,
                     "POST %s HTTP/1.0\r\nHost: 127.0.0.1\r\n%sContent-Length: %zu\r\n\r\n", path,
                     extra_headers ? extra_headers : "", strlen(body));
    if (send_all(r->fd, head, (size_t)n) != 0 || send_all(r->fd, body, strlen(body)) != 0)
        return 0;
    char *end;
    while (!(end = strstr(r->buf, "\r\n\r\n")))
        if (!sse_fill(r, 10000))
            return 0;
    sscanf(r->buf, "HTTP/%*s %d", &r->status);
    sse_take(r, (size_t)(end + 4 - r->buf));
    return r->status;
}

int sse_get(struct sse_reader *r, int port, const char *path, const char *extra_headers)
{
    memset(r, 0, sizeof *r);
    r->cap = 8192;
    r->buf = calloc(1, r->cap);
    r->fd = test_connect(port);
    if (r->fd < 0)
        return 0;
    char head[2048];
    int n = snprintf(head, sizeof head, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n%s\r\n", path,
                     extra_headers ? extra_headers : "");
    if (send_all(r->fd, head, (size_t)n) != 0)
        return 0;
    char *end;
    while (!(end = strstr(r->buf, "\r\n\r\n")))
        if (!sse_fill(r, 10000))
            return 0;
    sscanf(r->buf, "HTTP/%*s %d", &r->status);
    sse_take(r, (size_t)(end + 4 - r->buf));
    return r->status;
}

char *sse_next(struct sse_reader *r, char *event, size_t event_size, int timeout_ms)
{
    for (;;) {
        char *end = strstr(r->buf, "\n\n");
        if (!end) {
            if (!sse_fill(r, timeout_ms))
                return NULL;
            continue;
        }
        *end = 0;
        char *data = NULL;
        snprintf(event, event_size, "message");
        for (char *line = r->buf, *next; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = 0;
            if (!strncmp(line, "event: ", 7))
                snprintf(event, event_size, "%s", line + 7);
            else if (!strncmp(line, "data: ", 6) && !data)
                data = strdup(line + 6);
        }
        sse_take(r, (size_t)(end + 2 - r->buf));
        if (data)
            return data;
    }
}

void sse_close(struct sse_reader *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    free(r->buf);
    r->buf = NULL;
}

pid_t test_spawn_agora(int port, const char *db)
{
    char portbuf[16];
    snprintf(portbuf, sizeof portbuf, "%d", port);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 1);
        execl("./agora", "agora", "serve", "--port", portbuf, "--db", db, "--web", "/nonexistent",
              "--new-games-per-minute", "0", (char *)NULL);
        _exit(127);
    }
    /* Ready when it answers. */
    for (int i = 0; i < 200 && pid > 0; i++) {
        struct http_reply r;
        if (http_call(port, "GET", "/api/nothing", NULL, NULL, 0, NULL, &r) == 0) {
            http_reply_free(&r);
            return pid;
        }
        usleep(20 * 1000);
    }
    return pid;
}
