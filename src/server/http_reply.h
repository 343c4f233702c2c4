/* Answers over libmicrohttpd shared by the HTTP layer's files (http_reply.c). */
#pragma once

#include <microhttpd.h>

/* The security headers of every answer (API.md "Security headers"). */
void http_security_headers(struct MHD_Response *r);
/* Queue `body` (malloc'ed, taken over; NULL: MHD_NO) with its content type, no-store
 * and the security headers. */
enum MHD_Result http_send_body(struct MHD_Connection *mc, int status, char *body, const char *type);
