#include "book_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/record.h"

struct book_names {
    const struct game *g;
    struct book_name *all; /* the file's order */
    int count;
    int *by_key; /* indexes into all, by key (first of equal keys first) */
};

static char *read_file(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, err_size, "cannot open %s", path);
        return NULL;
    }
    char *text = NULL;
    size_t cap = 0, len = 0, got = 1;
    while (got > 0) {
        if (len + 4097 > cap) {
            char *grown = realloc(text, cap = (cap + 4097) * 2);
            if (!grown) {
                free(text);
                fclose(f);
                fail(err, err_size, "out of memory");
                return NULL;
            }
            text = grown;
        }
        got = fread(text + len, 1, cap - len - 1, f);
        len += got;
    }
    fclose(f);
    text[len] = 0;
    if (strlen(text) != len) {
        free(text);
        fail(err, err_size, "%s holds a NUL byte", path);
        return NULL;
    }
    return text;
}

static const struct book_names *sorting;
static int by_key(const void *a, const void *b)
{
    const struct book_name *x = &sorting->all[*(const int *)a], *y = &sorting->all[*(const int *)b];
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

static int add(struct book_names *n, const struct game *g, const void *st,
               const struct record_header *h, const char *text, long used)
{
    if (n->count % 256 == 0) {
        struct book_name *grown = realloc(n->all, sizeof *grown * (size_t)(n->count + 256));
        if (!grown)
            return -1;
        n->all = grown;
    }
    struct book_name *b = &n->all[n->count];
    memset(b, 0, sizeof *b);
    b->key = g->key(st);
    b->plies = g->ply(st);
    const char *eco = record_tag(h, "ECO"), *opening = record_tag(h, "Opening");
    const char *variation = record_tag(h, "Variation");
    snprintf(b->code, sizeof b->code, "%s", eco ? eco : "");
    snprintf(b->name, sizeof b->name, "%s%s%s", opening ? opening : "?", variation ? ": " : "",
             variation ? variation : "");
    g->write_position(st, b->position, sizeof b->position);
    while (used > 0 && (*text == '\n' || *text == '\r' || *text == ' ')) {
        text++;
        used--;
    }
    if (!(b->record = malloc((size_t)used + 1)))
        return -1;
    for (long i = 0; i < used; i++) /* one line: line breaks become spaces */
        b->record[i] = text[i] == '\n' || text[i] == '\r' || text[i] == '\t' ? ' ' : text[i];
    b->record[used] = 0;
    for (long i = used - 1; i >= 0 && b->record[i] == ' '; i--)
        b->record[i] = 0;
    n->count++;
    return 0;
}

int book_names_load(const struct game *g, const char *path, struct book_names **out, char *err,
                    size_t err_size)
{
    *out = NULL;
    char *text = read_file(path, err, err_size);
    if (!text)
        return -1;
    struct book_names *n = calloc(1, sizeof *n);
    void *st = game_state_new(g);
    struct record_header *h = malloc(sizeof *h);
    int rc = n && st && h ? 0 : fail(err, err_size, "out of memory");
    if (n)
        n->g = g;
    const char *p = text;
    for (int number = 1; !rc; number++) {
        char result[16], rerr[ERROR_TEXT_MAX];
        long used = g->read_record(p, st, h, result, sizeof result, rerr, sizeof rerr);
        if (used == 0)
            break;
        if (used < 0)
            rc = fail(err, err_size, "%s, record %d: %s", path, number, rerr);
        else if (add(n, g, st, h, p, used))
            rc = fail(err, err_size, "out of memory");
        p += used > 0 ? used : 0;
    }
    if (!rc && !(n->by_key = malloc(sizeof *n->by_key * (size_t)(n->count + 1))))
        rc = fail(err, err_size, "out of memory");
    if (!rc) {
        for (int i = 0; i < n->count; i++)
            n->by_key[i] = i;
        sorting = n; /* loading happens once, before any thread asks */
        qsort(n->by_key, (size_t)n->count, sizeof *n->by_key, by_key);
        sorting = NULL;
    }
    free(h);
    free(st);
    free(text);
    if (rc) {
        book_names_free(n);
        return -1;
    }
    *out = n;
    return 0;
}

void book_names_free(struct book_names *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->count; i++)
        free(n->all[i].record);
    free(n->all);
    free(n->by_key);
    free(n);
}

const struct game *book_names_game(const struct book_names *n)
{
    return n->g;
}

int book_names_count(const struct book_names *n)
{
    return n ? n->count : 0;
}

const struct book_name *book_names_at(const struct book_names *n, int i)
{
    return &n->all[i];
}

const struct book_name *book_names_find(const struct book_names *n, Key key)
{
    int lo = 0, hi = n ? n->count : 0; /* the first of the keys >= key */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (n->all[n->by_key[mid]].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < (n ? n->count : 0) && n->all[n->by_key[lo]].key == key ? &n->all[n->by_key[lo]]
                                                                       : NULL;
}
