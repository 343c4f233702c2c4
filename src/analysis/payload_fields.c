/* The fields shared by the jobs' payloads (payload_fields.h). */
#include "analysis/payload_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int payload_text(json_t *o, const char *what, const char *key, char *out, size_t size, char *err,
                 size_t err_size)
{
    const char *v = json_string_value(json_object_get(o, key));
    if (!v)
        return fail(err, err_size, "the %s's payload has no \"%s\"", what, key);
    if (strlen(v) >= size)
        return fail(err, err_size, "the %s's payload's \"%s\" is too long", what, key);
    snprintf(out, size, "%s", v);
    return 0;
}

int payload_moves(json_t *o, const char *what, char (**moves)[MOVE_TEXT_MAX], int *n, char *err,
                  size_t err_size)
{
    json_t *a = json_object_get(o, "moves");
    *moves = NULL;
    *n = 0;
    if (!json_is_array(a))
        return fail(err, err_size, "the %s's payload has no \"moves\"", what);
    size_t count = json_array_size(a);
    char(*m)[MOVE_TEXT_MAX] = malloc(sizeof *m * (count ? count : 1));
    if (!m)
        return fail(err, err_size, "out of memory");
    for (size_t i = 0; i < count; i++) {
        const char *t = json_string_value(json_array_get(a, i));
        if (!t || strlen(t) >= MOVE_TEXT_MAX) {
            free(m);
            return fail(err, err_size, "the %s's payload's move %zu is not a move", what, i + 1);
        }
        snprintf(m[i], MOVE_TEXT_MAX, "%s", t);
    }
    *moves = m;
    *n = (int)count;
    return 0;
}
