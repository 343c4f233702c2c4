#include "book_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned test_book_move(const char *from, const char *to, unsigned promo)
{
    unsigned f = (unsigned)(from[0] - 'a') + 8u * (unsigned)(from[1] - '1');
    unsigned t = (unsigned)(to[0] - 'a') + 8u * (unsigned)(to[1] - '1');
    return t | f << 6 | promo << 12;
}

static void put_be(FILE *f, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--)
        fputc((int)(v >> (8 * i)) & 0xff, f);
}

void test_book_write(char *path, const struct test_book_entry *e, int n, int extra)
{
    strcpy(path, "/tmp/agora-book-XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    for (int i = 0; f && i < n; i++) {
        put_be(f, e[i].key, 8);
        put_be(f, e[i].move, 2);
        put_be(f, e[i].weight, 2);
        put_be(f, 0, 4);
    }
    for (int i = 0; f && i < extra; i++)
        fputc(0, f);
    if (f)
        fclose(f);
    else if (fd >= 0)
        close(fd);
}
