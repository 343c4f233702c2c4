/* A small HTTP/1.1 client over loopback for the server tests (one request per
 * connection, Connection: close), and helpers to start servers. */
#pragma once

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

struct http_reply {
    int status; /* 0 when the connection failed */
    char *head; /* status line and headers */
    char *body; /* NUL-terminated */
    size_t body_len;
};

/* Send one request; `auth` is a token (sent as Bearer) or NULL; extra_headers ends each
 * line with \r\n or is NULL. */
int http_call(int port, const char *method, const char *path, const char *auth, const char *body,
              size_t body_len, const char *extra_headers, struct http_reply *out);
/* Send raw bytes, read the reply until close or timeout_ms; the bytes read. */
char *http_raw(int port, const char *bytes, size_t len, int timeout_ms, size_t *out_len);
void http_reply_free(struct http_reply *r);
/* The reply body as JSON (NULL if not JSON). */
json_t *http_json(const struct http_reply *r);

/* A JSON call: returns the status and (if jout) the parsed body. */
int api_call(int port, const char *method, const char *path, const char *token, const char *body,
             json_t **jout);

/* A fresh temporary folder for databases; returns its path (static per call site buffer). */
void test_tmpdir(char *out, size_t size);
/* A connected socket to the loopback port, or -1. */
int test_connect(int port);
/* Remove a test folder and the files in it. */
void test_rmdir(const char *dir);
/* A loopback port nothing listens on now. */
int test_free_port(void);

/* `./agora serve` on the port and database in a child process (stdout to /dev/null),
 * returned once it answers; its pid (kill it; waitpid). */
pid_t test_spawn_agora(int port, const char *db);

/* GET /api/games/ID: the state (caller decrefs), or NULL unless 200. */
json_t *api_get_state(int port, const char *id);
/* POST /api/games/ID/moves {"move": MOVE} with the token; the HTTP status, *out the reply. */
int api_post_move(int port, const char *id, const char *token, const char *move, json_t **out);

/* An event stream read as it comes (the analysis stream): the request is sent as
 * HTTP/1.0, so the events arrive unchunked until the server closes. */
struct sse_reader {
    int fd;
    int status; /* of the reply (0: no reply) */
    char *buf;  /* what was read and not yet taken */
    size_t len, cap;
};
/* POST `body` to `path` (extra_headers: lines ending in \r\n, or NULL) and read the
 * reply's head; the status (and r->status), 0 when it failed.  The body of a refusal
 * stays in r->buf. */
int sse_post(struct sse_reader *r, int port, const char *path, const char *body,
             const char *extra_headers);
/* The same for a GET (a game's event stream). */
int sse_get(struct sse_reader *r, int port, const char *path, const char *extra_headers);
/* The next event within timeout_ms: its name into `event` and its data (malloc'ed), or
 * NULL at the end of the stream (or timeout).  Comments are skipped. */
char *sse_next(struct sse_reader *r, char *event, size_t event_size, int timeout_ms);
void sse_close(struct sse_reader *r);
