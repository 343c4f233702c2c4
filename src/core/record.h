/* Game records: PGN's shape for every game.
 *
 * A record is the PGN standard's export format (tag pairs, then numbered moves and the
 * result), whatever the game: chess writes its moves in SAN (src/games/chess/pgn.c),
 * the other games in their own move texts through the generic record_write and
 * record_read below, which work over the game interface alone.  One PGN syntax for
 * all of them lives here:
 *
 *   - the header: tag pairs, the seven-tag roster first (Event, Site, Date, Round,
 *     White, Black, Result), then [Variant "..."] for games that are not chess,
 *     [SetUp "1"] and [FEN "<position text>"] when the game did not begin at the
 *     start, the other tags, and Termination;
 *   - the movetext: "1. m1 m2 2. m3 ...", a start with Black to move as "1... m1",
 *     lines under 80 columns, a comment {why it ended} and the result token.
 *
 * The reader accepts what people and programs write: comments in braces and after ';',
 * NAGs ($12), suffix annotations (!?), variations in parentheses (nested; skipped by
 * the games' readers, followed by record_read_tree below),
 * move numbers with or without a space ("1.e4", "3... Nf6"), escape lines ('%'), and
 * several records one after another.  A game's move texts must therefore never hold
 * white space or any of { } ( ) ; [ ] $, never begin with a digit and a '.', and never
 * be a result token (1-0, 0-1, 1/2-1/2, *): agon's "k1-k2" and "b7@l6", Egara-guti's
 * "c3-d4" and "d5xd3xd5", chess's SAN and UCI texts all qualify. */
#pragma once

#include "game.h"

#define RECORD_TAGS 32
#define RECORD_TAG_NAME_MAX 40
#define RECORD_TAG_VALUE_MAX 256

struct record_tag {
    char name[RECORD_TAG_NAME_MAX];
    char value[RECORD_TAG_VALUE_MAX];
};

/* The tag pairs of one record, in the order they were set or read. */
struct record_header {
    int ntags;
    struct record_tag tags[RECORD_TAGS];
};

/* Set (or add) a tag; values longer than the room are cut.  Returns -1 when full. */
int record_set_tag(struct record_header *h, const char *name, const char *value);
/* The tag's value, or NULL (also for h NULL). */
const char *record_tag(const struct record_header *h, const char *name);

/* "1-0", "0-1", "1/2-1/2" or "*" (ongoing). */
const char *record_result_token(enum result r);
/* The result a result token names (anything else: RESULT_ONGOING). */
enum result record_result_of(const char *token);

/* ---- Writing: the PGN syntax, for every game's writer -------------------------- */

struct record_writer {
    char *buf;
    size_t size, len; /* len counts what did not fit too */
    int column;
};

void record_writer_init(struct record_writer *w, char *buf, size_t size);
/* The tag section and the blank line after it.  `variant` (NULL: none) is written
 * after the roster and replaces any Variant tag of `h`; `setup` (NULL: the game began
 * at its start) is the start position's text for SetUp/FEN.  Missing roster tags are
 * "?" (Date "????.??.??"), Result comes from `end`, and Termination is h's own or,
 * without one, the PGN standard's value for `end` (normal, time forfeit, adjudication,
 * unterminated). */
void record_write_tags(struct record_writer *w, const struct record_header *h, const char *variant,
                       const char *setup, const struct game_status *end);
/* One move's text, preceded by its number when White moves or `first` is set
 * ("12. text", "12... text"). */
void record_write_move(struct record_writer *w, int number, enum side side, int first,
                       const char *text);
/* The reason comment (when `end` has a result and a reason), the result token and a
 * blank line.  Returns the length of the whole record, or -1 when it did not fit (the
 * text is then cut, and terminated). */
int record_write_end(struct record_writer *w, const struct game *g, const struct game_status *end);

/* ---- Reading: the PGN syntax, for every game's reader -------------------------- */

/* The deepest nesting of variations record_parse follows (when it follows them). */
#define RECORD_DEPTH_MAX 32

/* What a game's reader gives record_parse. */
struct record_reader {
    /* The tags are read: set up the game they describe (its FEN tag or the start).
     * 0, or -1 with err. */
    int (*begin)(void *ctx, const struct record_header *h, char *err, size_t err_size);
    /* One move token (its move number taken off, suffix annotations still on), the
     * `ply`th of the record counted from 0: make it, or -1 with err naming it.  Inside
     * a variation, `ply` counts the plies of the variation's position from the record's
     * start, so a variation's first move has the ply of the move it replaces. */
    int (*move)(void *ctx, const char *token, int ply, char *err, size_t err_size);
    void *ctx;

    /* Optional, for readers that keep what the main line's readers skip; left NULL
     * (as the game readers leave them) the reading is the main line alone, variations
     * and comments skipped.  Each returns 0, or -1 with err to stop the reading.
     *
     * variation_start: a '(' after at least one move of the current line: the moves
     * until the matching variation_end are an alternative to the line's last move,
     * played from the position before it (PGN's rule); `ply` is that move's ply
     * (0-based) and `depth` the variation's nesting (1 for one in the main line).
     * Variations then nest at most RECORD_DEPTH_MAX deep; a '(' before a line's first
     * move, a result token inside a variation and a variation left open are errors.
     * With variation_start NULL, variation_end is never called. */
    int (*variation_start)(void *ctx, int ply, int depth, char *err, size_t err_size);
    /* variation_end: its ')': the line that held the variation goes on after the move
     * the variation replaced; `ply` counts the plies made on that line. */
    int (*variation_end)(void *ctx, int ply, int depth, char *err, size_t err_size);
    /* comment: the text of a comment of the movetext ("{text}" without its braces,
     * or ';' to the line's end), not terminated: `len` bytes.  It follows the last
     * move of the line being read, or comes before the line's first move (after a
     * '(', or before the record's first move).  Comments in skipped variations and
     * around the tags are not given. */
    int (*comment)(void *ctx, const char *text, size_t len, char *err, size_t err_size);
};

/* Read one record from `text`: tags into `h`, then begin, then every move through the
 * reader.  Returns the number of characters used (so the next call reads the next
 * record), 0 at the end of the text, or -1 with err naming the problem.  `result` gets
 * the record's result token ("1-0", "*", ...; empty without one). */
long record_parse(const char *text, const struct record_reader *rd, struct record_header *h,
                  char *result, size_t result_size, char *err, size_t err_size);

/* The tags of the next record of `text` into `h` (none at the end of the text): 0, or
 * -1 at a bad tag pair (h then holds the tags before it). */
int record_peek_tags(const char *text, struct record_header *h);

/* ---- Records of any game, over the game interface ------------------------------- */

/* The write_record of a game without a record format of its own: the tags above (with
 * [Variant g->record_variant]), the moves in the game's move texts.  As game.h's
 * write_record. */
int record_write(const struct game *g, const void *st, const struct record_header *h,
                 const struct game_status *final, char *buf, size_t size);
/* The read_record that reads what record_write writes.  A move is read by the game's
 * parse_move, or else by its display text; a Variant tag must name the game.  As
 * game.h's read_record. */
long record_read(const struct game *g, const char *text, void *st, struct record_header *h,
                 char *result, size_t result_size, char *err, size_t err_size);

/* Does a Variant tag's value name game g: its record_variant, its name or an alias
 * (case ignored)?  The table of games (games/registry.h) picks a record's game by it. */
int record_names_game(const struct game *g, const char *variant);

/* ---- A record's whole tree: main line, variations, comments --------------------- */

/* One move of a record's tree. */
struct record_node {
    int parent; /* the node it follows (an index into the tree's nodes); -1: the start */
    int ply;    /* its ply from the record's start: 1 for a first move */
    Move move;
    char text[MOVE_TEXT_MAX];    /* the game's move text (move_text) */
    char display[MOVE_TEXT_MAX]; /* its display text (game_move_display: SAN for chess) */
    char *comment; /* the comments after it, joined by a space (malloc'ed); NULL: none */
};

/* The moves of one record in reading order.  A node's children are the nodes whose
 * parent it is, in order: the first is the line's continuation, the others are its
 * variations (alternatives to the first, played from the same position).  The first
 * child of the start (parent -1) begins the main line. */
struct record_tree {
    struct record_header h;
    char result[16]; /* the result token ("*", "1-0", ...); empty without one */
    int n, cap;
    struct record_node *nodes;
};

/* Read one record of game g from `text` with every variation and comment: tags into
 * t->h, its start (its FEN tag, else the game's start) into `st` (a state of g), its
 * moves into t (nested variations too).  A move is read by the game's parse_move, or
 * else by the move text or display text of a move the position allows (chess: SAN,
 * as its reader reads it).  Comments before a line's first move are left out.
 * Returns the characters used, 0 at the end of the text (t empty), or -1 with err
 * naming the bad move as "move 3... Nf9: ..." ("move 3... Nf9 in a variation: ..."
 * inside one) or the problem, and t empty.  t is overwritten (free an earlier tree
 * first); free it with record_tree_free.  Moves are numbered from 1, or, for standard
 * PGN (g->record_variant NULL), from the FEN tag's move number. */
long record_read_tree(const struct game *g, const char *text, void *st, struct record_tree *t,
                      char *err, size_t err_size);
/* Frees the nodes and their comments; t is then an empty tree. */
void record_tree_free(struct record_tree *t);
