/* The API's request and response (data only), shared by the routes (api.c,
 * analysis_api.c), their helpers (api_util.c) and the HTTP layer above them.  Handlers
 * know nothing of HTTP libraries: they take an api_request and fill an api_response. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "server/common/session_waiter.h"

struct analysis_job;
struct server;

#define SERVER_BODY_MAX 16384

struct server;

/* A request that waits for the computer's reply (a suspended HTTP connection).  The
 * API fills it and hands `base` to the session; when the model answers, the API
 * makes the reply and calls done() (under the session mutex), which takes over `body`. */
struct api_waiter {
    struct session_waiter base; /* first: the session's waiter is this */
    void (*done)(struct api_waiter *w, int status, char *body);
    int ok_status;  /* 200, or 201 for a new game */
    char token[40]; /* a new game's token to include, or "" */
};

/* The outcome of an API call: a complete response, or "wait" (the session holds the
 * request's waiter until the computer has moved), or an event stream to start (a
 * game's, a challenge's: API_CHALLENGE_STREAM, a tournament's or a player's notices). */
enum api_kind {
    API_DONE,
    API_WAIT,
    API_STREAM,
    API_STATIC,
    API_ANALYSIS,
    API_CHALLENGE_STREAM,
    API_TOURNAMENT_STREAM,
    API_NOTICE_STREAM
};
struct api_request {
    const char *method, *url, *authorization, *last_event_id, *client;
    /* The Origin, Host and Content-Type headers (NULL when absent): cross-site checks. */
    const char *origin, *host, *content_type;
    const char *seat; /* the query's ?seat= (a player's event stream), or NULL */
    const char *body;
    size_t body_len;
    bool body_too_large;
    struct api_waiter *waiter; /* NULL: the computer's reply is made inline */
};
struct api_response {
    enum api_kind kind;
    int status;
    char *body; /* malloc'ed JSON or text */
    const char *content_type;
    char allow[32];           /* a 405's methods that would do (the Allow header), or "" */
    struct session *session;  /* API_WAIT: lock it and check; API_STREAM: its game (a ref) */
    int stream_from;          /* API_STREAM: moves the client already has */
    int stream_seat;          /* API_STREAM: a player's (their token or seat key): the side + 1;
                                 0: a spectator's, or a game against the computer */
    char challenge[40];       /* API_CHALLENGE_STREAM, API_TOURNAMENT_STREAM: the challenge's or
                                 the tournament's id (it exists) */
    char notice_hash[65];     /* API_NOTICE_STREAM: the player's token's hash */
    char path[4200];          /* API_STATIC: the file */
    struct analysis_job *job; /* API_ANALYSIS: the queued analysis (a reference) */
};
