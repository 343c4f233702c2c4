/* Small helpers the games' text parsers share. */
#pragma once

#include <stddef.h>

/* The next space-separated field of `text` from *pos: a pointer to it (NULL when
 * none is left) and its length; *pos moves past it. */
const char *text_next_field(const char *text, size_t *pos, size_t *len);

/* Copy `text` lower-cased into `out` (room `size`); -1 with a message when it is
 * empty or too long. */
int text_lower_copy(const char *text, char *out, size_t size, char *err, size_t err_size);
