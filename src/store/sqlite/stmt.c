/* The statement helper (private.h): the prepare, bind, step, read-a-row and reset that
 * every operation of the backend would repeat, said once. */
#include <stdarg.h>
#include <stdio.h>

#include "store/sqlite/private.h"

sqlite3_stmt *sq_bind(struct store *s, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st = sqlite_store_stmt(s, sql);
    if (!st)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; fmt[i]; i++) {
        int at = i + 1;
        switch (fmt[i]) {
        case 't': {
            const char *t = va_arg(ap, const char *);
            sqlite3_bind_text(st, at, t ? t : "", -1, SQLITE_STATIC);
            break;
        }
        case 'i': sqlite3_bind_int(st, at, va_arg(ap, int)); break;
        case 'I': sqlite3_bind_int64(st, at, va_arg(ap, int64_t)); break;
        case 'd': sqlite3_bind_double(st, at, va_arg(ap, double)); break;
        default: /* a typo in the backend: fail the statement rather than guess */
            va_end(ap);
            sqlite3_clear_bindings(st);
            return NULL;
        }
    }
    va_end(ap);
    return st;
}

int sq_row(sqlite3_stmt *st)
{
    if (!st)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 1;
    sq_end(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

void sq_end(sqlite3_stmt *st)
{
    if (!st)
        return;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

int sq_done(sqlite3_stmt *st)
{
    int rc = sq_row(st);
    if (rc > 0) {
        sq_end(st);
        return -1; /* a row from a statement that returns none */
    }
    return rc;
}

void sq_text(sqlite3_stmt *st, int col, char *dst, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}
