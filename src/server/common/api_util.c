/* The routes' shared helpers: error bodies, replies, the body as JSON. */
#include "server/common/api_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/games/state_json.h"
#include "store/store.h"

/* Messages may quote what the client sent (and cut it anywhere): keep them printable
 * ASCII so they are always valid JSON strings. */
static void printable(char *msg)
{
    for (; *msg; msg++)
        if ((unsigned char)*msg < 0x20 || (unsigned char)*msg >= 0x7f)
            *msg = '?';
}

char *api_error_body(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printable(msg);
    json_t *j = json_object();
    json_object_set_new(j, "error", json_string(msg));
    return json_text(j);
}

void api_set_json(struct api_response *r, int status, json_t *j)
{
    r->kind = API_DONE;
    r->status = status;
    r->body = json_text(j);
    r->content_type = "application/json";
}

/* A JSON text made elsewhere (NULL: out of memory, a 500). */
void api_set_text(struct api_response *r, int status, char *text)
{
    r->kind = API_DONE;
    r->status = text ? status : 500;
    r->body = text ? text : api_error_body("out of memory");
    r->content_type = "application/json";
}

__attribute__((format(printf, 3, 0))) static void set_error(struct api_response *r, int status,
                                                            const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    printable(msg);
    json_t *j = json_object();
    json_object_set_new(j, "error", json_string(msg));
    api_set_json(r, status, j);
}

void api_set_error(struct api_response *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(r, status, fmt, ap);
    va_end(ap);
}

void api_store_error(struct api_response *r, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(r, rc == STORE_BUSY ? 503 : 500, fmt, ap);
    va_end(ap);
}

/* The bearer token of the request, or NULL. */
const char *api_bearer(const struct api_request *req)
{
    const char *a = req->authorization;
    if (!a || strncasecmp(a, "Bearer ", 7) != 0)
        return NULL;
    a += 7;
    while (*a == ' ')
        a++;
    return a;
}

/* The body as a JSON object; NULL (after a 400) when malformed.  An empty body is {}
 * when `optional`. */
json_t *api_body_object(const struct api_request *req, bool optional, struct api_response *r)
{
    size_t n = req->body_len;
    while (n && (req->body[n - 1] == ' ' || req->body[n - 1] == '\n' || req->body[n - 1] == '\r'))
        n--;
    if (n == 0) {
        if (optional)
            return json_object();
        api_set_error(r, 400, "malformed JSON: the body is empty");
        return NULL;
    }
    json_error_t jerr;
    json_t *j = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!j) {
        api_set_error(r, 400, "malformed JSON: %s (line %d, column %d)", jerr.text, jerr.line,
                      jerr.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        api_set_error(r, 400, "malformed JSON: the body must be an object");
        return NULL;
    }
    return j;
}
