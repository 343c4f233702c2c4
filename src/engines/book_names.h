/* Names of a game's opening positions: a file of the game's records (PGN's shape, as
 * Debian's pgn-extract ships eco.pgn for chess), each record's tags naming the
 * position its moves reach (ECO "C50", Opening "Italian Game", Variation ...).  Read
 * with the game's own record reader, so every line's moves are checked as they are
 * read; looked up by the game's position key (a transposition finds the name too).
 * Game-independent: the profile names the file (engine_book_names_default). */
#pragma once

#include "core/game.h"

struct book_name {
    Key key;
    char code[8];                     /* the ECO tag, "" without one */
    char name[200];                   /* Opening, then ": " and Variation when given */
    char position[POSITION_TEXT_MAX]; /* the position the line reaches */
    char *record;                     /* the record's own text (its tags and moves) */
    int plies;
};

struct book_names;

/* Read every record of `path` for g: 0 and *out, or -1 with err naming the file and
 * the record that does not read.  Of lines reaching one position the first names it. */
int book_names_load(const struct game *g, const char *path, struct book_names **out, char *err,
                    size_t err_size);
void book_names_free(struct book_names *n);
const struct game *book_names_game(const struct book_names *n);
int book_names_count(const struct book_names *n);
/* The i-th name in the file's order (0 <= i < count). */
const struct book_name *book_names_at(const struct book_names *n, int i);
/* The name of the position with key `key`, or NULL. */
const struct book_name *book_names_find(const struct book_names *n, Key key);
