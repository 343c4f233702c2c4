#include "server/common/json_out.h"

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

static void quoted(struct jout *j, const char *s)
{
    size_t n = strlen(s);
    if (!room(j, 2 * n + 2)) /* every byte escaped at most as "\\x" */
        return;
    char *o = j->buf + j->len;
    *o++ = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else {
            *o++ = c >= 0x20 && c < 0x7f ? (char)c : '?';
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
