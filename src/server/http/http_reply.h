/* Answers over libmicrohttpd shared by the HTTP layer's files (http_reply.c). */
#pragma once

#include <microhttpd.h>

/* The security headers of every answer (API.md "Security headers"): the page may run
 * only the site's own scripts and styles (no inline code), load only from here (and
 * data: images: the icon), and may not be framed by another site; no Referer leaves the
 * page (it could carry a game's address); no content-type sniffing. */
#define HTTP_CONTENT_SECURITY_POLICY                                                               \
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "              \
    "connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; "             \
    "base-uri 'none'; form-action 'self'"
/* The same headers as raw header lines, for an answer written to the socket itself. */
#define HTTP_SECURITY_HEADER_LINES                                                                 \
    "Content-Security-Policy: " HTTP_CONTENT_SECURITY_POLICY "\r\n"                                \
    "X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\n"
void http_security_headers(struct MHD_Response *r);
/* Queue `body` (malloc'ed, taken over; NULL: MHD_NO) with its content type, no-store
 * and the security headers. */
enum MHD_Result http_send_body(struct MHD_Connection *mc, int status, char *body, const char *type);
/* The same, with an Allow header when `allow` is a 405's list of methods ("" or NULL:
 * none). */
enum MHD_Result http_send_answer(struct MHD_Connection *mc, int status, char *body,
                                 const char *type, const char *allow);
