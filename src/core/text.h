/* Small helpers the games' text parsers share. */
#pragma once

#include <stddef.h>

#include "types.h"

/* The next space-separated field of `text` from *pos: a pointer to it (NULL when
 * none is left) and its length; *pos moves past it. */
const char *text_next_field(const char *text, size_t *pos, size_t *len);

/* Copy `text` lower-cased into `out` (room `size`); -1 with a message when it is
 * empty or too long. */
int text_lower_copy(const char *text, char *out, size_t size, char *err, size_t err_size);

/* The side-to-move field after a board (`w` or `b`; `field` NULL when missing). */
int text_side(const char *field, size_t len, enum side *out, char *err, size_t err_size);
