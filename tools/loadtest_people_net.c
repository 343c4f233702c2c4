/* The sockets of tools/loadtest_people.c (see loadtest_people_net.h). */
#include "loadtest_people_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define REPLY_MAX (1 << 20) /* the largest reply read */

static int ep = -1; /* the epoll */
static struct endpoint **endpoints;
static uint32_t n_endpoints, endpoints_cap;

double net_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void net_field(const char *from, const char *key, char *out, size_t size)
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

long net_int_field(const char *from, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = from ? strstr(from, pat) : NULL;
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

int net_init(int capacity)
{
    ep = epoll_create1(EPOLL_CLOEXEC);
    endpoints = calloc((size_t)capacity, sizeof *endpoints);
    endpoints_cap = (uint32_t)capacity;
    return ep >= 0 && endpoints ? 0 : -1;
}

static void add(struct endpoint *e, int port, void *owner, bool is_stream)
{
    if (n_endpoints == endpoints_cap)
        abort(); /* net_init's capacity is the caller's count */
    *e = (struct endpoint){.is_stream = is_stream, .owner = owner, .fd = -1, .port = port};
    e->index = n_endpoints++;
    endpoints[e->index] = e;
}

int net_conn_init(struct conn *c, int port, void *owner, void (*done)(struct conn *))
{
    add(&c->e, port, owner, false);
    c->done = done;
    c->in_cap = 16384;
    c->in = malloc(c->in_cap);
    return c->in ? 0 : -1;
}

void net_stream_init(struct stream *s, int port, void *owner, void (*news)(struct stream *))
{
    add(&s->e, port, owner, true);
    s->news = news;
}

/* A non-blocking connection to the server, on the epoll; -1 if none. */
static int dial(struct endpoint *e)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)e->port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    e->dials++;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
                             .data.u64 = (uint64_t)e->index << 32 | e->dials};
    if ((connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 && errno != EINPROGRESS) ||
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        close(fd);
        return -1;
    }
    e->fd = fd;
    e->connecting = true;
    return 0;
}

static void hang_up(struct endpoint *e)
{
    if (e->fd >= 0)
        close(e->fd); /* leaves the epoll with it */
    e->fd = -1;
    e->connecting = false;
}

/* Finish a connect and send what is left of the request; -1 if the socket failed. */
static int flush(struct endpoint *e, uint32_t events)
{
    if (e->connecting) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return 0;
        int err = 0;
        socklen_t len = sizeof err;
        if (getsockopt(e->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err)
            return -1;
        e->connecting = false;
    }
    while (e->out_off < e->out_len) {
        ssize_t w = send(e->fd, e->out + e->out_off, e->out_len - e->out_off, MSG_NOSIGNAL);
        if (w < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
        e->out_off += (size_t)w;
    }
    return 0;
}

/* ---- Requests */

/* The reply is whole: its status and its body (terminated), 0 if more is to come, -1 if
 * it is not HTTP. */
static int reply_whole(struct conn *c, bool *close_after)
{
    char *sep = strstr(c->in, "\r\n\r\n");
    if (!sep)
        return 0;
    *sep = 0; /* the head alone, for the header searches */
    char *cl = strcasestr(c->in, "Content-Length:");
    long clen = cl ? strtol(cl + 15, NULL, 10) : 0;
    *close_after = strcasestr(c->in, "Connection: close") != NULL;
    *sep = '\r';
    if ((long)(c->in_len - (size_t)(sep + 4 - c->in)) < clen)
        return 0;
    int status = 0;
    sscanf(c->in, "HTTP/1.%*d %d", &status);
    c->body = sep + 4;
    c->body[clen] = 0;
    return status > 0 ? status : -1;
}

static void conn_done(struct conn *c, int status)
{
    c->busy = false;
    c->status = status;
    if (status < 0) {
        c->body = NULL;
        hang_up(&c->e);
    }
    c->done(c);
}

/* Read all there is; true at the end of the connection (closed, failed or too long). */
static bool conn_read(struct conn *c)
{
    for (;;) {
        if (c->in_len + 1 >= c->in_cap) {
            if (c->in_cap >= REPLY_MAX)
                return true;
            c->in_cap *= 2;
            c->in = realloc(c->in, c->in_cap);
            if (!c->in)
                abort();
        }
        ssize_t r = recv(c->e.fd, c->in + c->in_len, c->in_cap - c->in_len - 1, 0);
        if (r > 0) {
            c->in_len += (size_t)r;
            c->in[c->in_len] = 0;
            continue;
        }
        return !(r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
    }
}

static void conn_event(struct conn *c, uint32_t events)
{
    if (flush(&c->e, events) != 0) {
        if (c->busy)
            conn_done(c, -1);
        else
            hang_up(&c->e);
        return;
    }
    if (c->e.connecting)
        return;
    size_t before = c->in_len;
    bool eof = conn_read(c);
    if (!c->busy) { /* the server closed an idle connection: dial again at the next request */
        if (eof || c->in_len > before)
            hang_up(&c->e);
        c->in_len = 0;
        return;
    }
    bool close_after = false;
    int status = reply_whole(c, &close_after);
    if (status > 0 && close_after)
        hang_up(&c->e);
    if (status > 0)
        conn_done(c, status);
    else if (eof || status < 0)
        conn_done(c, -1);
}

void net_request(struct conn *c, const char *method, const char *path, const char *token,
                 const char *body)
{
    size_t blen = body ? strlen(body) : 0;
    int n = snprintf(c->e.out, sizeof c->e.out,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "%s%s%sContent-Length: %zu\r\n\r\n%s",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", blen, body ? body : "");
    c->e.out_len = n > 0 && (size_t)n < sizeof c->e.out ? (size_t)n : 0;
    c->e.out_off = 0;
    c->in_len = 0;
    c->in[0] = 0;
    c->busy = true;
    if (!c->e.out_len || (c->e.fd < 0 && dial(&c->e) != 0) || flush(&c->e, 0) != 0)
        conn_done(c, -1);
}

/* ---- Streams */

/* Take the whole events in s->buf: the move events' ply and move; -1 if it cannot. */
static int stream_parse(struct stream *s)
{
    if (!s->headers_done) {
        char *sep = strstr(s->buf, "\r\n\r\n");
        if (!sep)
            return s->len + 1 >= NET_SSE_BUF ? -1 : 0;
        int status = 0;
        if (sscanf(s->buf, "HTTP/1.%*d %d", &status) != 1 || status != 200)
            return -1;
        size_t used = (size_t)(sep + 4 - s->buf);
        memmove(s->buf, sep + 4, s->len - used + 1);
        s->len -= used;
        s->headers_done = true;
    }
    static const char move_event[] = "\nevent: move\ndata: ";
    char *end;
    while ((end = strstr(s->buf, "\n\n"))) {
        *end = 0;
        char *data = strstr(s->buf, move_event);
        if (!strncmp(s->buf, "id: ", 4) && data) {
            int k = atoi(s->buf + 4);
            if (k > s->heard_ply) {
                s->heard_ply = k;
                net_field(data, "move", s->heard_move, sizeof s->heard_move);
                s->heard_at = net_now();
            }
        }
        size_t used = (size_t)(end + 2 - s->buf);
        memmove(s->buf, end + 2, s->len - used + 1);
        s->len -= used;
    }
    return s->len + 1 >= NET_SSE_BUF ? -1 : 0; /* an event longer than the buffer */
}

static void stream_event(struct stream *s, uint32_t events)
{
    bool bad = flush(&s->e, events) != 0;
    if (!bad && s->e.connecting)
        return;
    while (!bad) {
        ssize_t r = recv(s->e.fd, s->buf + s->len, NET_SSE_BUF - s->len - 1, 0);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (r <= 0) {
            bad = true;
            break;
        }
        s->len += (size_t)r;
        s->buf[s->len] = 0;
        s->last_rx = net_now();
        if (stream_parse(s) != 0)
            bad = true;
    }
    if (bad) {
        hang_up(&s->e);
        s->broken = true;
    }
    s->news(s);
}

int net_stream_open(struct stream *s, const char *game_id, const char *seat)
{
    hang_up(&s->e);
    s->len = 0;
    s->buf[0] = 0;
    s->headers_done = s->broken = false;
    s->heard_ply = 0;
    s->heard_move[0] = 0;
    s->last_rx = net_now();
    int n = snprintf(s->e.out, sizeof s->e.out,
                     "GET /api/games/%s/events?seat=%s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n",
                     game_id, seat);
    s->e.out_len = n > 0 && (size_t)n < sizeof s->e.out ? (size_t)n : 0;
    s->e.out_off = 0;
    if (!s->e.out_len || dial(&s->e) != 0 || flush(&s->e, 0) != 0) {
        hang_up(&s->e);
        s->broken = true;
        return -1;
    }
    return 0;
}

void net_wait(int wait_ms)
{
    struct epoll_event evs[512];
    int n = epoll_wait(ep, evs, (int)(sizeof evs / sizeof evs[0]), wait_ms);
    for (int i = 0; i < n; i++) {
        uint32_t index = (uint32_t)(evs[i].data.u64 >> 32);
        struct endpoint *e = index < n_endpoints ? endpoints[index] : NULL;
        if (!e || e->dials != (uint32_t)evs[i].data.u64 || e->fd < 0)
            continue; /* a socket since closed */
        if (e->is_stream)
            stream_event((struct stream *)e, evs[i].events);
        else
            conn_event((struct conn *)e, evs[i].events);
    }
}
