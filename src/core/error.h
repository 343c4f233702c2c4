/* One-line error messages written into a caller's buffer. */
#pragma once

#include <stddef.h>

/* printf into err (if not NULL) and return -1, so parsers can `return fail(...)`. */
int fail(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
