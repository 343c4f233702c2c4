/* JSON text written straight into one growing buffer: the server's hot replies (a
 * game's state after every move, its events) and the reviews (the server's and the
 * engine worker's) without building a tree of values first.  Commas are placed by
 * the writer; strings are UTF-8 as they are, with only what JSON requires escaped
 * ('"', '\\', C0 controls; DEL and C1 pass as they are), and a byte that is not UTF-8
 * written as U+FFFD.  Out of memory is remembered and reported once, by jout_finish. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct jout {
    char *buf;
    size_t len, cap;
    bool failed;     /* out of memory: the text is lost */
    bool need_comma; /* a value was written at this level */
};

void jout_init(struct jout *j, size_t cap_hint);
/* '{' or '[' (as a value: after a key, or in an array), and its closing '}' or ']'. */
void jout_open(struct jout *j, char bracket);
void jout_close(struct jout *j, char bracket);
/* An object's key; the next call writes its value. */
void jout_key(struct jout *j, const char *key);
void jout_str(struct jout *j, const char *s);
void jout_int(struct jout *j, long long v);
void jout_bool(struct jout *j, bool v);
void jout_null(struct jout *j);
/* Text already in JSON form, as one value. */
void jout_raw(struct jout *j, const char *json);
/* key and value at once. */
void jout_kstr(struct jout *j, const char *key, const char *s);
void jout_kint(struct jout *j, const char *key, long long v);
void jout_kbool(struct jout *j, const char *key, bool v);
/* The text (malloc'ed, the caller frees), or NULL when memory ran out. */
char *jout_finish(struct jout *j);

/* The length of the well-formed UTF-8 character at s (of n bytes): 1 to 4, or 0 when
 * it is not one (a stray or missing continuation byte, an overlong form, a surrogate,
 * past U+10FFFF, or n == 0). */
size_t utf8_char_len(const char *s, size_t n);
/* n bytes at s are well-formed UTF-8. */
bool utf8_valid(const char *s, size_t n);
/* The characters (code points) of n bytes of well-formed UTF-8 at s. */
size_t utf8_chars(const char *s, size_t n);
