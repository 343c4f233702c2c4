/* The JSON API (api.c): routing and one handler per operation.  Handlers know nothing
 * of HTTP libraries: they take an api_request and fill an api_response, so the HTTP
 * layer (http.c) and the fuzz target (server_request) drive them alike. */
#pragma once

#include "server/common/api_types.h"
#include "server/common/api_util.h"

void api_handle(struct server *srv, const struct api_request *req, struct api_response *resp);
