/* The routes' shared helpers: error bodies, replies, the body as JSON. */
#include "server/common/api_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json_out.h"
#include "server/common/token.h"
#include "server/server_state.h"
#include "store/store.h"

/* Messages may quote what the client sent (and cut it anywhere): keep them printable
 * UTF-8 so they are always valid JSON strings (a control character, or a byte that is
 * not UTF-8, becomes '?'). */
static void printable(char *msg)
{
    size_t n = strlen(msg), k;
    for (size_t i = 0; i < n; i += k) {
        k = utf8_char_len(msg + i, n - i);
        if (!k || (unsigned char)msg[i] < 0x20 || msg[i] == 0x7f) {
            msg[i] = '?';
            k = 1;
        }
    }
}

char *json_text(json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

const char *api_status_code(int status)
{
    switch (status) {
    case 400: return "bad_request";
    case 403: return "forbidden";
    case 404: return "not_found";
    case 405: return "method_not_allowed";
    case 408: return "timeout";
    case 409: return "conflict";
    case 413: return "too_large";
    case 414: return "url_too_long";
    case 421: return "wrong_host";
    case 429: return "too_many";
    case 431: return "headers_too_large";
    case 503: return "busy";
    default: return status >= 400 && status < 500 ? "bad_request" : "server_error";
    }
}

__attribute__((format(printf, 3, 0))) static json_t *error_json(int status, const char *code,
                                                                const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    printable(msg);
    json_t *j = json_object();
    json_object_set_new(j, "error", json_string(msg));
    json_object_set_new(j, "code", json_string(code ? code : api_status_code(status)));
    return j;
}

char *api_error_body(int status, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    json_t *j = error_json(status, code, fmt, ap);
    va_end(ap);
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
    r->body = text ? text : api_error_body(500, NULL, "out of memory");
    r->content_type = "application/json";
}

void api_set_error(struct api_response *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    api_set_json(r, status, error_json(status, NULL, fmt, ap));
    va_end(ap);
}

void api_set_error_code(struct api_response *r, int status, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    api_set_json(r, status, error_json(status, code, fmt, ap));
    va_end(ap);
}

void api_store_error(struct api_response *r, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = rc == STORE_BUSY ? 503 : 500;
    api_set_json(r, status, error_json(status, NULL, fmt, ap));
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

int api_bearer_hash(struct server *srv, const struct api_request *req, char *out)
{
    const char *tok = api_bearer(req);
    if (!tok || !token_well_formed(tok))
        return -1;
    char own[STORE_HASH_LEN + 1], player[STORE_HASH_LEN + 1], err[128];
    token_hash(tok, own);
    bool device = store_device_player(srv->store, own, player, err, sizeof err) == 0;
    snprintf(out, STORE_HASH_LEN + 1, "%s", device ? player : own);
    return 0;
}

/* Whether a string in j (a value, or in an array or object in it) holds a NUL. */
static bool holds_nul(json_t *j)
{
    const char *key;
    json_t *v;
    size_t i;
    if (json_is_string(j))
        return strlen(json_string_value(j)) != json_string_length(j);
    bool nul = false;
    if (json_is_array(j))
        json_array_foreach(j, i, v)
        {
            nul |= holds_nul(v);
        }
    if (json_is_object(j))
        json_object_foreach(j, key, v)
        {
            nul |= holds_nul(v);
        }
    return nul;
}

/* A body that is not UTF-8: a 400 that names the field where it can.  Read again with
 * each stray byte as \u0000 (no text the API takes holds a NUL), the first top-level
 * field whose text holds a NUL is the one. */
static void not_utf8(const struct api_request *req, struct api_response *r)
{
    size_t n = req->body_len, at = n, k;
    char *copy = malloc(6 * n + 1), *o = copy;
    for (size_t i = 0; copy && i < n; i += k) {
        k = utf8_char_len(req->body + i, n - i);
        if (k) {
            memcpy(o, req->body + i, k);
            o += k;
        } else {
            at = at < n ? at : i;
            memcpy(o, "\\u0000", 6);
            o += 6;
            k = 1;
        }
    }
    json_t *j = copy ? json_loadb(copy, (size_t)(o - copy), JSON_ALLOW_NUL, NULL) : NULL;
    free(copy);
    const char *key, *field = NULL;
    json_t *v;
    json_object_foreach(j, key, v)
    {
        if (!field && holds_nul(v))
            field = key;
    }
    if (field)
        api_set_error(r, 400, "bad \"%.40s\": the text is not valid UTF-8", field);
    else
        api_set_error(r, 400, "malformed JSON: the body is not valid UTF-8 (byte %zu)", at + 1);
    json_decref(j);
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
    if (!j && !utf8_valid(req->body, req->body_len)) {
        not_utf8(req, r);
        return NULL;
    }
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

static int query_hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The value of ?key= in url, percent-decoded ('+' a space), into buf: 1 when there, 0
 * when absent, -1 when it is too long, badly escaped, not UTF-8 or holds a control
 * character. */
int api_query_text(const char *url, const char *key, char *buf, size_t size)
{
    const char *q = strchr(url, '?');
    size_t kl = strlen(key);
    for (const char *p = q; p && *p; p = strchr(p + 1, '&')) {
        if (strncmp(p + 1, key, kl) != 0 || p[1 + kl] != '=')
            continue;
        const char *v = p + 2 + kl;
        size_t len = strcspn(v, "&"), n = 0;
        for (size_t i = 0; i < len; i++) {
            int c = (unsigned char)v[i];
            if (c == '%') {
                int hi = i + 2 < len ? query_hex_digit(v[i + 1]) : -1;
                int lo = hi >= 0 ? query_hex_digit(v[i + 2]) : -1;
                if (lo < 0)
                    return -1;
                c = hi * 16 + lo;
                i += 2;
            } else if (c == '+') {
                c = ' ';
            }
            if (c < 0x20 || c == 0x7f || n + 1 >= size)
                return -1;
            buf[n++] = (char)c;
        }
        buf[n] = 0;
        return utf8_valid(buf, n) ? 1 : -1;
    }
    return 0;
}
