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

int text_side(const char *field, size_t len, enum side *out, char *err, size_t err_size)
{
    if (!field)
        return fail(err, err_size, "missing side to move (w or b) after the board");
    if (len != 1 || (field[0] != 'w' && field[0] != 'b'))
        return fail(err, err_size, "unknown side to move '%.*s' (expected w or b)", (int)len,
                    field);
    *out = field[0] == 'w' ? SIDE_WHITE : SIDE_BLACK;
    return 0;
}
