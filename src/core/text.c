#include "text.h"

#include <ctype.h>
#include <string.h>

#include "error.h"

const char *text_next_field(const char *text, size_t *pos, size_t *len)
{
    size_t i = *pos;
    while (text[i] == ' ')
        i++;
    size_t start = i;
    while (text[i] && text[i] != ' ')
        i++;
    *pos = i;
    *len = i - start;
    return *len ? text + start : NULL;
}

int text_lower_copy(const char *text, char *out, size_t size, char *err, size_t err_size)
{
    size_t len = strlen(text);
    if (len == 0)
        return fail(err, err_size, "empty move text");
    if (len >= size)
        return fail(err, err_size, "move text too long");
    for (size_t i = 0; i <= len; i++)
        out[i] = (char)tolower((unsigned char)text[i]);
    return 0;
}
