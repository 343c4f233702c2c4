/* The routes' shared helpers (api_util.c): error bodies, replies, the request's body
 * as a JSON object.  Below every route file (api.c, analysis_api.c). */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "server/common/api_types.h"

/* j as compact JSON text (malloc'ed; NULL: out of memory); j is released. */
char *json_text(json_t *j);
/* Every error body is {"error": message, "code": code}: the message is English for
 * people, the code a stable name for programs (the pages show their own language's
 * text for it); API.md "Errors" lists every code. */
/* The code of an error that has no code of its own: one for each status ("not_found"
 * for 404, "server_error" for a 5xx the table lacks, "bad_request" for such a 4xx). */
const char *api_status_code(int status);
/* A JSON error body (printable ASCII); `code` NULL: the status's code. */
char *api_error_body(int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Replies: a jansson value (released), a JSON text made elsewhere (NULL: out of memory,
 * a 500), an error. */
void api_set_json(struct api_response *r, int status, json_t *j);
void api_set_text(struct api_response *r, int status, char *text);
void api_set_error(struct api_response *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error with its own code (a literal, listed in API.md: a test checks). */
void api_set_error_code(struct api_response *r, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The answer to a failed store call (or a call that failed because one did): `rc` is
 * what it returned (store.h), the message in fmt.  STORE_BUSY (the database is stuck
 * and enough requests wait for it: store_gate.h) is 503, anything else 500; both with
 * the JSON error body.  Every route answers a store failure through this. */
void api_store_error(struct api_response *r, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The body as a JSON object; NULL (after a 400) when malformed.  An empty body is {}
 * when `optional`. */
json_t *api_body_object(const struct api_request *req, bool optional, struct api_response *r);
/* The bearer token of the request, or NULL. */
const char *api_bearer(const struct api_request *req);
/* The hash under which the player of the request's bearer token is kept: the player's
 * for a device's token (API.md "Devices": the store's device_player), else the token's
 * own SHA-256 (also when the store cannot say: the token then counts as its own).  0
 * with out filled (65 bytes), -1 when there is no well-formed bearer token. */
int api_bearer_hash(struct server *srv, const struct api_request *req, char *out);
/* The value of ?key= in url, percent-decoded ('+' a space), into buf: 1 when there, 0
 * when absent, -1 when it is too long, badly escaped, not UTF-8 or holds a control
 * character. */
int api_query_text(const char *url, const char *key, char *buf, size_t size);
