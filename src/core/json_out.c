#include "core/json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jout_init(struct jout *j, size_t cap_hint)
{
    j->len = 0;
    j->cap = cap_hint > 64 ? cap_hint : 64;
    j->buf = malloc(j->cap);
    j->failed = !j->buf;
    j->need_comma = false;
}

/* Room for n more bytes and the final NUL. */
static bool room(struct jout *j, size_t n)
{
    if (j->failed)
        return false;
    if (j->len + n + 1 <= j->cap)
        return true;
    size_t cap = j->cap * 2;
    while (cap < j->len + n + 1)
        cap *= 2;
    char *b = realloc(j->buf, cap);
    if (!b) {
        j->failed = true;
        return false;
    }
    j->buf = b;
    j->cap = cap;
    return true;
}

static void put(struct jout *j, const char *s, size_t n)
{
    if (room(j, n)) {
        memcpy(j->buf + j->len, s, n);
        j->len += n;
    }
}

/* Before a value: the comma after the previous one at this level. */
static void sep(struct jout *j)
{
    if (j->need_comma)
        put(j, ",", 1);
    j->need_comma = true;
}

size_t utf8_char_len(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0)
        return 0;
    if (u[0] < 0x80)
        return 1;
    /* The lead byte: the length, and the range of the second byte that rules out
     * overlong forms, surrogates (U+D800..U+DFFF) and code points past U+10FFFF. */
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (u[0] >= 0xc2 && u[0] <= 0xdf)
        len = 2;
    else if (u[0] >= 0xe0 && u[0] <= 0xef) {
        len = 3;
        lo = u[0] == 0xe0 ? 0xa0 : 0x80;
        hi = u[0] == 0xed ? 0x9f : 0xbf;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
        len = 4;
        lo = u[0] == 0xf0 ? 0x90 : 0x80;
        hi = u[0] == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (n < len || u[1] < lo || u[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (u[i] < 0x80 || u[i] > 0xbf)
            return 0;
    return len;
}

bool utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0, k; i < n; i += k)
        if (!(k = utf8_char_len(s + i, n - i)))
            return false;
    return true;
}

size_t utf8_chars(const char *s, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += ((unsigned char)s[i] & 0xc0) != 0x80; /* every byte but a continuation */
    return count;
}

/* A JSON string: UTF-8 as it is, with only what JSON requires escaped ('"', '\\',
 * C0 controls); DEL and C1 controls pass as they are; a byte that is not UTF-8
 * becomes U+FFFD, so the answer is always valid UTF-8. */
static void quoted(struct jout *j, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(s);
    if (!room(j, 6 * n + 2)) /* every byte escaped at most as "\u00XX" */
        return;
    char *o = j->buf + j->len;
    *o++ = '"';
    for (size_t i = 0, k; i < n; i += k) {
        unsigned char c = (unsigned char)s[i];
        k = utf8_char_len(s + i, n - i);
        const char *esc = c == '"'    ? "\\\""
                          : c == '\\' ? "\\\\"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : NULL;
        if (esc) {
            memcpy(o, esc, 2);
            o += 2;
        } else if (c < 0x20) {
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        } else if (k) {
            memcpy(o, s + i, k);
            o += k;
        } else {
            memcpy(o, "\xef\xbf\xbd", 3); /* U+FFFD */
            o += 3;
            k = 1;
        }
    }
    *o++ = '"';
    j->len = (size_t)(o - j->buf);
}

void jout_open(struct jout *j, char bracket)
{
    sep(j);
    put(j, &bracket, 1);
    j->need_comma = false;
}

void jout_close(struct jout *j, char bracket)
{
    put(j, &bracket, 1);
    j->need_comma = true;
}

void jout_key(struct jout *j, const char *key)
{
    sep(j);
    quoted(j, key);
    put(j, ":", 1);
    j->need_comma = false;
}

void jout_str(struct jout *j, const char *s)
{
    sep(j);
    quoted(j, s);
}

void jout_int(struct jout *j, long long v)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%lld", v);
    sep(j);
    put(j, num, (size_t)n);
}

void jout_bool(struct jout *j, bool v)
{
    sep(j);
    put(j, v ? "true" : "false", v ? 4 : 5);
}

void jout_null(struct jout *j)
{
    sep(j);
    put(j, "null", 4);
}

void jout_raw(struct jout *j, const char *json)
{
    sep(j);
    put(j, json, strlen(json));
}

void jout_kstr(struct jout *j, const char *key, const char *s)
{
    jout_key(j, key);
    jout_str(j, s);
}

void jout_kint(struct jout *j, const char *key, long long v)
{
    jout_key(j, key);
    jout_int(j, v);
}

void jout_kbool(struct jout *j, const char *key, bool v)
{
    jout_key(j, key);
    jout_bool(j, v);
}

char *jout_finish(struct jout *j)
{
    if (j->failed) {
        free(j->buf);
        j->buf = NULL;
        return NULL;
    }
    j->buf[j->len] = 0;
    char *text = j->buf;
    j->buf = NULL;
    return text;
}
