#include "server/common/qr.h"

#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUIET 4

/* A growing text. */
struct buf {
    char *s;
    size_t len, cap;
    int failed;
};

static void put_raw(struct buf *b, const char *piece, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, piece, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void put_str(struct buf *b, const char *s)
{
    put_raw(b, s, strlen(s));
}

/* A number, as text. */
static void put_int(struct buf *b, int v)
{
    char n[16];
    snprintf(n, sizeof n, "%d", v);
    put_str(b, n);
}

/* Text in an XML element. */
static void put_text(struct buf *b, const char *t)
{
    for (; *t; t++) {
        const char *esc = *t == '<' ? "&lt;" : *t == '>' ? "&gt;" : *t == '&' ? "&amp;" : NULL;
        if (esc)
            put_str(b, esc);
        else
            put_raw(b, t, 1);
    }
}

char *qr_svg(const char *text, const char *title)
{
    if (!text || strlen(text) > 1000)
        return NULL;
    QRcode *q = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M);
    if (!q)
        return NULL;
    int size = q->width + 2 * QUIET;
    struct buf b = {0};
    put_str(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ");
    put_int(&b, size);
    put_str(&b, " ");
    put_int(&b, size);
    put_str(&b, "\" shape-rendering=\"crispEdges\" role=\"img\"><title>");
    put_text(&b, title ? title : "QR code");
    put_str(&b,
            "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" d=\"");
    /* Each module: bit 0 of its byte is dark (libqrencode's layout); a run of dark
     * modules in a row is one rectangle. */
    for (int y = 0; y < q->width; y++) {
        for (int x = 0; x < q->width;) {
            if (!(q->data[y * q->width + x] & 1)) {
                x++;
                continue;
            }
            int run = 1;
            while (x + run < q->width && (q->data[y * q->width + x + run] & 1))
                run++;
            put_str(&b, "M");
            put_int(&b, x + QUIET);
            put_str(&b, " ");
            put_int(&b, y + QUIET);
            put_str(&b, "h");
            put_int(&b, run);
            put_str(&b, "v1h-");
            put_int(&b, run);
            put_str(&b, "z");
            x += run;
        }
    }
    put_str(&b, "\"/></svg>");
    QRcode_free(q);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
