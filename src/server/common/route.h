/* What a route's handler is given (the route table itself is src/server/routes.c):
 * the request, the parameters its path pattern named, in order, and the response to
 * fill.  Every room declares its handlers with this one signature. */
#pragma once

#include "server/common/api_types.h"

#define ROUTE_PARAMS_MAX 3 /* {id}, {member}: the most any pattern names */
#define ROUTE_PARAM_MAX 64 /* a parameter's bytes, NUL included: longer never matches */

struct route_args {
    const char *path; /* the request's path, without its query */
    int n;            /* parameters taken */
    char param[ROUTE_PARAMS_MAX][ROUTE_PARAM_MAX];
};

typedef void route_handler(struct server *srv, const struct api_request *req,
                           const struct route_args *a, struct api_response *r);

/* What a handler needs from the request, as the table says it (API.md's tables say the
 * same in words): a token (the handler answers 403 without one, in its own words), a
 * JSON body (a 400 when it is no object; ROUTE_BODY_OPTIONAL: an empty body is {}). */
enum route_needs {
    ROUTE_NEEDS_NOTHING = 0,
    ROUTE_TOKEN = 1 << 0,
    ROUTE_TOKEN_OPTIONAL = 1 << 1,
    ROUTE_BODY = 1 << 2,
    ROUTE_BODY_OPTIONAL = 1 << 3,
};

/* One endpoint: a method ("GET" also answers HEAD), a path pattern ("/api/games/{id}":
 * a {name} is one non-empty segment), its handler and what it needs. */
struct route {
    const char *method;
    const char *pattern;
    route_handler *handler;
    unsigned needs;
};
