/* A QR code as an SVG image (qr.c), made with Debian's libqrencode: the personal link's
 * code (API.md "Devices"), drawn by the server so that no outside service sees it. */
#pragma once

/* `text` (at most 1000 bytes) as a QR code (error correction level M, 8-bit data), an
 * SVG image with a quiet zone of 4 modules, one path of the dark modules, and `title`
 * (XML-escaped) as its accessible name; malloc'ed, NULL when it cannot be made. */
char *qr_svg(const char *text, const char *title);
