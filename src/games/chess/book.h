/* Polyglot opening books (.bin): read-only, probed by position key.
 *
 * A book is a file of 16-byte entries sorted by key, every field big-endian:
 *
 *   bytes  0..7   key      the position's Polyglot key (agora's chess key is that key)
 *   bytes  8..9   move     bits 0-2 to file, 3-5 to rank, 6-8 from file, 9-11 from rank,
 *                          12-14 promotion (0 none, 1 knight, 2 bishop, 3 rook, 4 queen);
 *                          castling is written king-takes-rook (e1h1 for e1g1)
 *   bytes 10..11  weight   how often to play it, relative to the position's other moves
 *   bytes 12..15  learn    learning data (read, not used)
 *
 * The file stays on disk (pread), so a large book costs no memory; opening it checks
 * every entry once.  An open book may be probed from several threads. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "core/types.h"

#define CHESS_BOOK_ENTRY_SIZE 16
/* Debian's gnuchess-book (public domain), the book agora uses when it is installed. */
#define CHESS_BOOK_DEFAULT_PATH "/usr/share/games/gnuchess/book.bin"

struct chess_book;

/* One book move of a position, as a legal move of that position. */
struct chess_book_move {
    Move move;
    unsigned weight;
    uint32_t learn;
};

/* Open and check the book at `path`: 0 and *out, or -1 with err naming the problem
 * (missing or unreadable, empty, not a whole number of entries, keys out of order, a
 * bad promotion piece). */
int chess_book_open(const char *path, struct chess_book **out, char *err, size_t err_size);
void chess_book_close(struct chess_book *b);
/* Entries in the file. */
long chess_book_entries(const struct chess_book *b);

/* The book moves of the chess state `st` in file order, at most `max`: returns their
 * count, or -1 with err when the file cannot be read.  Entries whose move is not legal
 * in `st` (a key collision, a bad book) are left out. */
int chess_book_moves(const struct chess_book *b, const void *st, struct chess_book_move *out,
                     int max, char *err, size_t err_size);

/* A book move for `st`, picked with probability weight / (sum of weights) using `r`:
 * 1 with *out, 0 when the book has no move of positive weight here, -1 with err when
 * the file cannot be read. */
int chess_book_pick(const struct chess_book *b, const void *st, struct rng *r, Move *out, char *err,
                    size_t err_size);

/* A book move's 16 bits as the legal move of `st` it names, or 0 when it names none. */
Move chess_book_decode(const void *st, unsigned raw);
/* The 16 bits a book stores for the legal move `m` of `st` (castling as king takes
 * rook): for tools and tests that write books. */
unsigned chess_book_encode(const void *st, Move m);
