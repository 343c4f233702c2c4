/* The API's entry (routes.c): one route table over every room's handlers.  Handlers
 * know nothing of HTTP libraries: they take an api_request and fill an api_response,
 * so the HTTP adapter (http/http.c) and the fuzz target (server_request) drive them
 * alike. */
#pragma once

#include <stddef.h>

#include "server/common/route.h"

/* Answer one request: every field of resp is set. */
void api_handle(struct server *srv, const struct api_request *req, struct api_response *resp);
/* The table, every endpoint a row (for the test that holds it against API.md). */
const struct route *routes_table(size_t *n);
/* 1 when `path` fits `pattern` (its {parameters} then in a, in order), else 0. */
int routes_match(const char *pattern, const char *path, struct route_args *a);
