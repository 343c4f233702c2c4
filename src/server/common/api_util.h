/* The routes' shared helpers (api_util.c): error bodies, replies, the request's body
 * as a JSON object.  Below every route file (api.c, analysis_api.c). */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "server/common/api_types.h"

/* j as compact JSON text (malloc'ed; NULL: out of memory); j is released. */
char *json_text(json_t *j);
/* A JSON error body {"error": message} (printable ASCII). */
char *api_error_body(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Replies: a jansson value (released), a JSON text made elsewhere (NULL: out of memory,
 * a 500), an error. */
void api_set_json(struct api_response *r, int status, json_t *j);
void api_set_text(struct api_response *r, int status, char *text);
void api_set_error(struct api_response *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
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
