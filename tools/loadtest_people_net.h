/* The sockets of tools/loadtest_people.c: keep-alive request connections and event
 * streams to the server on loopback, all non-blocking on one epoll (edge-triggered) and
 * moved on by net_wait on one thread.  A connection's reply and a stream's news come to
 * their owner through a callback. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_SSE_BUF 32768

/* What a connection and a stream share: the socket and the request to send.  The
 * epoll's data of a socket is its endpoint's index (from net_add) and the endpoint's
 * dial count: an event of a socket closed earlier in the same batch (its endpoint since
 * dialled again) is passed over. */
struct endpoint {
    bool is_stream;
    void *owner; /* for the callback */
    int fd, port;
    uint32_t index, dials;
    bool connecting; /* connect() not yet done */
    char out[1024];  /* the request, sent from out_off on */
    size_t out_len, out_off;
};

/* A keep-alive request connection: one request at a time.  When its reply is read (or
 * the connection failed: status -1, body NULL) `done` is called; the body stays until
 * the next request. */
struct conn {
    struct endpoint e;
    void (*done)(struct conn *c);
    bool busy; /* a request is out, its reply not yet read */
    char *in;
    size_t in_len, in_cap;
    int status;
    char *body;
};

/* An event stream (HTTP/1.0: unchunked until the server closes it).  Its move events are
 * read as they come; the latest one (the highest ply) is kept with the time it came.
 * `news` is called after each read (and when it breaks: `broken`). */
struct stream {
    struct endpoint e;
    void (*news)(struct stream *s);
    bool headers_done, broken;
    char buf[NET_SSE_BUF];
    size_t len;
    int heard_ply;
    char heard_move[64];
    double heard_at, last_rx;
};

/* Seconds on the monotonic clock. */
double net_now(void);

/* The string value of the first "key" at or after `from` (NULL: none), or "". */
void net_field(const char *from, const char *key, char *out, size_t size);

/* The integer value of the first "key" at or after `from`, or -1. */
long net_int_field(const char *from, const char *key);

/* The epoll, with room for `endpoints` endpoints; -1 if it cannot be made. */
int net_init(int endpoints);

/* Set up a connection (callback `done`) or a stream (`news`) to the port, not yet
 * dialled; 0, or -1 out of memory. */
int net_conn_init(struct conn *c, int port, void *owner, void (*done)(struct conn *));
void net_stream_init(struct stream *s, int port, void *owner, void (*news)(struct stream *));

/* One request on the connection (dialled again if it was closed); `done` follows,
 * perhaps at once if it cannot be sent. */
void net_request(struct conn *c, const char *method, const char *path, const char *token,
                 const char *body);

/* (Re)open the stream of a game with a seat key; 0, or -1 (it is then broken). */
int net_stream_open(struct stream *s, const char *game_id, const char *seat);

/* Wait up to wait_ms for socket events and handle them. */
void net_wait(int wait_ms);
