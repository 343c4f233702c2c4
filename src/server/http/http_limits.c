/* The connection guard: request deadlines, event streams per address, streams whose
 * client went (http_limits.h says what and why). */
#include "server/http/http_limits.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/http/http_reply.h"

enum phase {
    PHASE_FIRST,   /* connected, the first request not all in: header_ms from the start */
    PHASE_REQUEST, /* a later request's line came, the rest not yet: header_ms from it */
    PHASE_IDLE,    /* kept alive between requests: idle_ms from the last answer */
    PHASE_BUSY,    /* the request is in (answered, waiting for the computer, streaming) */
};

/* One connection (libmicrohttpd's socket context), from its start to its close. */
struct tracked {
    int fd;
    atomic_int phase;
    atomic_llong since_ms;
    bool cut; /* shut by the sweeper already */
    struct tracked *prev, *next;
};

struct conn_limits {
    int header_ms, idle_ms, streams_per_address;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct tracked *conns;
    struct conn_stream_ticket *streams;
    int n_streams;
    int ep; /* epoll: each open stream's socket, to hear its hang-up (find_gone) */
    bool stop;
    pthread_t sweeper;
    bool sweeping;
};

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct tracked *tracked_of(struct MHD_Connection *mc)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static int fd_of(struct MHD_Connection *mc)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
    return ci ? ci->connect_fd : -1;
}

void conn_limits_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
                        enum MHD_ConnectionNotificationCode code)
{
    struct conn_limits *cl = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct tracked *t = calloc(1, sizeof *t);
        *socket_context = t;
        if (!t)
            return; /* not guarded, but served */
        t->fd = fd_of(mc);
        atomic_store(&t->phase, PHASE_FIRST);
        atomic_store(&t->since_ms, now_ms());
        pthread_mutex_lock(&cl->mu);
        t->next = cl->conns;
        if (cl->conns)
            cl->conns->prev = t;
        cl->conns = t;
        pthread_mutex_unlock(&cl->mu);
        return;
    }
    /* Closed: libmicrohttpd closes the socket after this returns, so the sweeper (under
     * the mutex) never touches a descriptor that may have been reused. */
    struct tracked *t = *socket_context;
    if (!t)
        return;
    pthread_mutex_lock(&cl->mu);
    if (t->prev)
        t->prev->next = t->next;
    else
        cl->conns = t->next;
    if (t->next)
        t->next->prev = t->prev;
    pthread_mutex_unlock(&cl->mu);
    free(t);
    *socket_context = NULL;
}

void *conn_limits_uri_log(void *cls, const char *uri, struct MHD_Connection *mc)
{
    (void)cls;
    (void)uri;
    struct tracked *t = tracked_of(mc);
    if (t && atomic_load(&t->phase) == PHASE_IDLE) {
        atomic_store(&t->since_ms, now_ms());
        atomic_store(&t->phase, PHASE_REQUEST);
    }
    return NULL;
}

void conn_limits_request_received(struct MHD_Connection *mc)
{
    struct tracked *t = tracked_of(mc);
    if (t)
        atomic_store(&t->phase, PHASE_BUSY);
}

void conn_limits_request_done(struct MHD_Connection *mc)
{
    struct tracked *t = tracked_of(mc);
    if (t) {
        atomic_store(&t->since_ms, now_ms());
        atomic_store(&t->phase, PHASE_IDLE);
    }
}

bool conn_limits_stream_open(struct conn_limits *cl, struct conn_stream_ticket *t,
                             struct MHD_Connection *mc, const char *client, void (*gone)(void *arg),
                             void *arg)
{
    memset(t, 0, sizeof *t);
    t->gone = gone; /* before the sweeper can see it */
    t->arg = arg;
    t->fd = fd_of(mc);
    snprintf(t->client, sizeof t->client, "%s", client ? client : "?");
    pthread_mutex_lock(&cl->mu);
    int same = 0;
    if (cl->streams_per_address > 0)
        for (struct conn_stream_ticket *o = cl->streams; o; o = o->next)
            same += !strcmp(o->client, t->client);
    bool ok = cl->streams_per_address <= 0 || same < cl->streams_per_address;
    if (ok) {
        t->next = cl->streams;
        if (cl->streams)
            cl->streams->prev = t;
        cl->streams = t;
        cl->n_streams++;
        /* Heard once (one-shot) when the client hangs up; the ticket is taken out of the
         * set under the mutex before it is freed (conn_limits_stream_close). */
        struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLONESHOT, .data.ptr = t};
        if (t->fd >= 0)
            t->watched = epoll_ctl(cl->ep, EPOLL_CTL_ADD, t->fd, &ev) == 0;
    } else {
        t->fd = -1;
    }
    pthread_mutex_unlock(&cl->mu);
    return ok;
}

void conn_limits_stream_close(struct conn_limits *cl, struct conn_stream_ticket *t)
{
    pthread_mutex_lock(&cl->mu);
    if (t->fd >= 0) {
        if (t->watched)
            epoll_ctl(cl->ep, EPOLL_CTL_DEL, t->fd, NULL);
        t->watched = false;
        if (t->prev)
            t->prev->next = t->next;
        else
            cl->streams = t->next;
        if (t->next)
            t->next->prev = t->prev;
        t->prev = t->next = NULL;
        t->fd = -1;
        cl->n_streams--;
    }
    pthread_mutex_unlock(&cl->mu);
}

void conn_limits_watch(struct conn_limits *cl, struct conn_stream_ticket *t,
                       struct MHD_Connection *mc, void (*gone)(void *arg), void *arg)
{
    memset(t, 0, sizeof *t);
    t->gone = gone;
    t->arg = arg;
    t->fd = fd_of(mc);
    pthread_mutex_lock(&cl->mu);
    struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLONESHOT, .data.ptr = t};
    if (t->fd >= 0)
        t->watched = epoll_ctl(cl->ep, EPOLL_CTL_ADD, t->fd, &ev) == 0;
    pthread_mutex_unlock(&cl->mu);
}

void conn_limits_unwatch(struct conn_limits *cl, struct conn_stream_ticket *t)
{
    pthread_mutex_lock(&cl->mu);
    if (t->watched)
        epoll_ctl(cl->ep, EPOLL_CTL_DEL, t->fd, NULL);
    t->watched = false;
    pthread_mutex_unlock(&cl->mu);
}

int conn_limits_streams(struct conn_limits *cl)
{
    pthread_mutex_lock(&cl->mu);
    int n = cl->n_streams;
    pthread_mutex_unlock(&cl->mu);
    return n;
}

struct sizes {
    size_t bytes;
    int count;
};

static enum MHD_Result add_size(void *cls, enum MHD_ValueKind kind, const char *key,
                                const char *value)
{
    (void)kind;
    struct sizes *sz = cls;
    sz->bytes += strlen(key) + (value ? strlen(value) : 0) + 4; /* ": " and CRLF, or "=&" */
    sz->count++;
    return MHD_YES;
}

int conn_limits_request_too_big(struct MHD_Connection *mc, const char *url, char *why, size_t size)
{
    struct sizes query = {strlen(url), 0}, head = {0, 0};
    MHD_get_connection_values(mc, MHD_GET_ARGUMENT_KIND, add_size, &query);
    if (query.bytes > URL_MAX) {
        snprintf(why, size, "the URL is over %d bytes", URL_MAX);
        return 414;
    }
    MHD_get_connection_values(mc, MHD_HEADER_KIND, add_size, &head);
    if (head.bytes > HEADERS_MAX || head.count > HEADERS_COUNT_MAX) {
        snprintf(why, size, "the request's headers are over %d bytes or %d lines", HEADERS_MAX,
                 HEADERS_COUNT_MAX);
        return 431;
    }
    return 0;
}

static const char timeout_reply[] =
    "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nConnection: close\r\n"
    "Cache-Control: no-store\r\n" HTTP_SECURITY_HEADER_LINES "Content-Length: 70\r\n\r\n"
    "{\"error\":\"the request did not arrive in time (slow)\",\"code\":\"timeout\"}";

/* Shut the connections past their deadline.  A request still arriving gets its 408
 * first (libmicrohttpd only reads from it in that state, so nothing interleaves); then
 * shutdown() makes libmicrohttpd see the end of the connection and close it. */
static void cut_late(struct conn_limits *cl, long long now)
{
    for (struct tracked *t = cl->conns; t; t = t->next) {
        int phase = atomic_load(&t->phase);
        long long age = now - atomic_load(&t->since_ms);
        bool late = phase == PHASE_IDLE   ? cl->idle_ms > 0 && age > cl->idle_ms
                    : phase == PHASE_BUSY ? false
                                          : cl->header_ms > 0 && age > cl->header_ms;
        if (!late || t->cut || t->fd < 0)
            continue;
        if (phase != PHASE_IDLE)
            (void)!send(t->fd, timeout_reply, sizeof timeout_reply - 1,
                        MSG_NOSIGNAL | MSG_DONTWAIT);
        shutdown(t->fd, SHUT_RDWR);
        t->cut = true;
    }
}

/* Streams whose client hung up: libmicrohttpd does not poll a suspended connection, so
 * without this a dropped stream would stay until its next ping.  The epoll set says
 * which, so a sweep costs the hang-ups since the last, not the streams open (4000
 * players hold 4000 streams). */
static void find_gone(struct conn_limits *cl)
{
    struct epoll_event evs[256];
    int n;
    do {
        n = epoll_wait(cl->ep, evs, 256, 0);
        for (int i = 0; i < n; i++) {
            struct conn_stream_ticket *t = evs[i].data.ptr;
            if (!t->gone_called) {
                t->gone_called = true;
                t->gone(t->arg);
            }
        }
    } while (n == 256);
}

static void *sweeper_main(void *arg)
{
    struct conn_limits *cl = arg;
    pthread_mutex_lock(&cl->mu);
    while (!cl->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += CONN_LIMITS_SWEEP_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cl->cv, &cl->mu, &until);
        if (cl->stop)
            break;
        cut_late(cl, now_ms());
        find_gone(cl);
    }
    pthread_mutex_unlock(&cl->mu);
    return NULL;
}

struct conn_limits *conn_limits_new(int header_ms, int idle_ms, int streams_per_address)
{
    struct conn_limits *cl = calloc(1, sizeof *cl);
    if (!cl)
        return NULL;
    cl->header_ms = header_ms;
    cl->idle_ms = idle_ms;
    cl->streams_per_address = streams_per_address;
    cl->ep = epoll_create1(EPOLL_CLOEXEC);
    if (cl->ep < 0) {
        free(cl);
        return NULL;
    }
    pthread_mutex_init(&cl->mu, NULL);
    pthread_cond_init(&cl->cv, NULL);
    if (pthread_create(&cl->sweeper, NULL, sweeper_main, cl) != 0) {
        pthread_mutex_destroy(&cl->mu);
        pthread_cond_destroy(&cl->cv);
        close(cl->ep);
        free(cl);
        return NULL;
    }
    cl->sweeping = true;
    return cl;
}

void conn_limits_free(struct conn_limits *cl)
{
    if (!cl)
        return;
    pthread_mutex_lock(&cl->mu);
    cl->stop = true;
    pthread_cond_signal(&cl->cv);
    pthread_mutex_unlock(&cl->mu);
    if (cl->sweeping)
        pthread_join(cl->sweeper, NULL);
    pthread_mutex_destroy(&cl->mu);
    pthread_cond_destroy(&cl->cv);
    close(cl->ep);
    free(cl);
}
