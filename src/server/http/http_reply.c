/* Answers over libmicrohttpd (http_reply.h): a body with its type, and the security
 * headers every answer carries. */
#include "server/http/http_reply.h"

#include <stdlib.h>
#include <string.h>

/* The security headers of every answer, files and API alike (http_reply.h). */
void http_security_headers(struct MHD_Response *r)
{
    MHD_add_response_header(r, "Content-Security-Policy", HTTP_CONTENT_SECURITY_POLICY);
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
}

enum MHD_Result http_send_body(struct MHD_Connection *mc, int status, char *body, const char *type)
{
    return http_send_answer(mc, status, body, type, NULL);
}

enum MHD_Result http_send_answer(struct MHD_Connection *mc, int status, char *body,
                                 const char *type, const char *allow)
{
    if (!body)
        return MHD_NO;
    struct MHD_Response *r =
        MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (allow && *allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    http_security_headers(r);
    enum MHD_Result ok = MHD_queue_response(mc, (unsigned)status, r);
    MHD_destroy_response(r);
    return ok;
}
