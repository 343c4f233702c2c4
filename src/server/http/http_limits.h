/* What one client may hold of the server's connections (the HTTP layer's guard):
 *
 *  - a deadline for each request to arrive: its line, headers and body within
 *    header_ms of the connection's start (the first request) or of its request line (the
 *    next ones on a kept-alive connection), and the next request line within idle_ms of
 *    the last answer; a connection past its deadline gets a 408 (JSON) when it was
 *    sending a request and is shut, so that slow senders (slowloris) hold nothing long;
 *  - event streams: at most streams_per_address at once from one client address (the
 *    caller counts those per game), and a stream whose client has gone (its socket hung
 *    up) noticed within a sweep (SWEEP_MS, from an epoll set of the streams' sockets),
 *    while libmicrohttpd does not look at its suspended connection at all.
 *
 * One sweeper thread does both, every CONN_LIMITS_SWEEP_MS.  The connections per
 * address are capped by libmicrohttpd itself (MHD_OPTION_PER_IP_CONNECTION_LIMIT, set in
 * http.c).  Locking: the guard's mutex is taken before any session's (a stream's gone
 * callback runs under it), never after. */
#pragma once

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#define CONN_LIMITS_SWEEP_MS 100

struct conn_limits;

/* An event stream's entry in the guard (a member of the stream; the guard owns nothing). */
struct conn_stream_ticket {
    int fd;
    char client[48];
    void (*gone)(void *arg); /* called once, under the guard's mutex, when the client went */
    void *arg;
    bool gone_called;
    bool watched; /* in the guard's epoll set */
    struct conn_stream_ticket *prev, *next;
};

struct conn_limits *conn_limits_new(int header_ms, int idle_ms, int streams_per_address);
/* Stops the sweeper; every connection must be closed already (the daemon stopped). */
void conn_limits_free(struct conn_limits *cl);

/* libmicrohttpd's callbacks (MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_URI_LOG_CALLBACK;
 * cls is the struct conn_limits).  uri_log returns NULL (no request context). */
void conn_limits_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
                        enum MHD_ConnectionNotificationCode code);
void *conn_limits_uri_log(void *cls, const char *uri, struct MHD_Connection *mc);
/* The whole request is in (the handler's last call): no deadline while it is answered. */
void conn_limits_request_received(struct MHD_Connection *mc);
/* Its answer went out: the connection is idle until the next request line. */
void conn_limits_request_done(struct MHD_Connection *mc);

/* Our own limits of a request's size, below libmicrohttpd's (its buffer of
 * HTTP_MEMORY_LIMIT per connection, past which it answers 414 or 431 by itself, in
 * HTML): a URL with its query over URL_MAX bytes gets 414, headers over HEADERS_MAX
 * bytes or HEADERS_COUNT_MAX lines get 431, both in JSON.  The status (0: fine), with
 * the JSON error's text in why. */
#define HTTP_MEMORY_LIMIT (256 * 1024)
#define URL_MAX 8192
#define HEADERS_MAX 16384
#define HEADERS_COUNT_MAX 100
int conn_limits_request_too_big(struct MHD_Connection *mc, const char *url, char *why, size_t size);

/* Register an event stream of `client` on connection mc, gone(arg) to be called when
 * its client hangs up; false (nothing registered) when that client has
 * streams_per_address open already. */
bool conn_limits_stream_open(struct conn_limits *cl, struct conn_stream_ticket *t,
                             struct MHD_Connection *mc, const char *client, void (*gone)(void *arg),
                             void *arg);
/* The stream ended (call it without holding a session's mutex); idempotent. */
void conn_limits_stream_close(struct conn_limits *cl, struct conn_stream_ticket *t);
/* Watch connection mc's socket for its client's hang-up only, not counted among the
 * streams (an analysis's stream followed in the store): gone(arg) once, under the
 * guard's mutex, when the client goes.  Unwatch before t goes; idempotent. */
void conn_limits_watch(struct conn_limits *cl, struct conn_stream_ticket *t,
                       struct MHD_Connection *mc, void (*gone)(void *arg), void *arg);
void conn_limits_unwatch(struct conn_limits *cl, struct conn_stream_ticket *t);
/* Streams open now (tests and the measuring tool). */
int conn_limits_streams(struct conn_limits *cl);
