/* The game interface: every game is one `const struct game` of function pointers.
 *
 * Everything above core (perft, bench, search, match, the CLI, the server, the tests)
 * is written once against this table and works for every registered game.  A game's
 * state is an opaque block of `state_size` bytes that the caller owns; the state
 * carries its own history (for unmake and repetition), so make/unmake need no
 * separate undo record.
 *
 * Contract shared by all functions below:
 *  - a `Move` passed to make_move, move_text, describe_move ... is one that
 *    gen_moves produced for that very state;
 *  - parse functions return 0 on success; on failure they return -1, write one
 *    line (no newline) naming the problem into `err` and leave the state untouched;
 *  - text buffers are at least the *_TEXT_MAX sizes of types.h.
 */
#pragma once

#include "types.h"

enum result {
    RESULT_ONGOING = 0,
    RESULT_WHITE_WINS,
    RESULT_BLACK_WINS,
    RESULT_DRAW,
};

/* Why a game ended: a number a game's status gives and the store keeps.  The words
 * below are every game's; a game names its own reasons (checkmate, formation, ...)
 * in its table `reasons` (struct game), with numbers of its choice other than these.
 * The numbers are stored with finished games: never renumber one. */
enum reason {
    REASON_NONE = 0,
    REASON_BLOCKED = 3,    /* the side to move has no legal move and loses */
    REASON_REPETITION = 7, /* the same position for the third time */
    REASON_AGREEMENT = 14, /* a draw offered and accepted */
    REASON_RESIGNATION = 15,
    REASON_TIME = 16,
    REASON_ADJUDICATION = 17, /* a match or server cap, not a rule */
    REASON_ABORTED = 18,      /* ended before both sides had moved: no result */
    REASON_ABANDONED = 19,    /* the side to move stayed away; the other claimed the win */
    REASON_TIMEOUT_DRAW = 20, /* time ran out, and the other side could not have won */
};

/* A name for a number a game gives (an end reason, a flag bit): `name` stable, for
 * APIs and logs ("quiet-limit"); `text` for people (NULL where there is none). */
struct game_word {
    unsigned code;
    const char *name;
    const char *text;
};

struct game_status {
    enum result result;
    int reason;      /* enum reason, or one of the game's own reasons */
    unsigned claims; /* bits of the game's claim_names: draw claims the player to move
                      * may make, only while ongoing */
};

/* What a board display needs to show one legal move.  Cells are the game's own
 * cell names ("e4", "f6", "d4"). */
#define MOVE_DESC_CELLS 24
#define CELL_NAME_MAX 8
/* Move flags: bit 0 is every game's; a game names its other bits in move_flag_names
 * (struct game). */
#define MOVE_FLAG_CAPTURE (1u << 0)
struct move_desc {
    unsigned flags; /* MOVE_FLAG_CAPTURE and the game's own bits */
    char from[CELL_NAME_MAX];
    char to[CELL_NAME_MAX];
    /* every cell the piece lands on, in order, ending with `to` */
    int path_len;
    char path[MOVE_DESC_CELLS][CELL_NAME_MAX];
    /* cells whose pieces this move captures (removes or marks) */
    int captured_len;
    char captured[MOVE_DESC_CELLS][CELL_NAME_MAX];
    char promotion; /* the piece the mover chooses to become (its letter), or 0 */
    /* a second piece that moves with this one (from, to), or empty */
    char also_from[CELL_NAME_MAX];
    char also_to[CELL_NAME_MAX];
};

/* The board as a picture: where each cell is drawn and which lines join them, so one
 * renderer (terminal or browser SVG) draws every game from data.  Cells are numbered
 * 0..cells-1 in the layout's own order; piece_at uses the same numbers. */
enum board_shape {
    BOARD_SQUARE, /* a grid of squares: x = file, y = rank, from 0 */
    BOARD_HEX,    /* flat-topped hexagons (files are vertical columns), centre at (x, y)
                   * in units of the cell width (corner to corner) */
    BOARD_GRAPH,  /* points on a grid joined by lines (edges) */
};
struct board_cell {
    char name[CELL_NAME_MAX];
    float x, y;     /* y grows upwards (towards Black) */
    int ring;       /* rings around the centre on a hex board, 0 the centre; 0 elsewhere */
    unsigned flags; /* bits named by the layout's flag_names (a dark square, a throne) */
};
struct board_layout {
    enum board_shape shape;
    int cells;
    const struct board_cell *cell;
    int edges;
    const int (*edge)[2];               /* pairs of cell numbers joined by a line */
    const struct game_word *flag_names; /* the cells' flag bits, ended by a NULL name */
};
enum piece_mark {
    PIECE_CAPTURED = 1u << 0, /* captured, and still standing on its cell */
};

struct record_header; /* core/record.h */

struct game {
    const char *name;           /* "egara-guti": the name on the command line */
    const char *title;          /* "Egara-guti": for people */
    const char *const *aliases; /* NULL-terminated, may be NULL */
    size_t state_size;
    /* The state's history: an array of history_size bytes at history_offset, of entries
     * of history_entry bytes, the first ply of them in use (all 0: none said, every copy
     * is of all state_size bytes).  game_state_copy leaves out the unused entries. */
    size_t history_offset, history_entry, history_size;
    int max_moves; /* no position has more legal moves than this */
    int max_plies; /* moves one state can hold in its history */

    /* Build the game's tables (Zobrist keys, adjacency).  Called once by games_init. */
    void (*init)(void);

    void (*start)(void *st);
    int (*parse_position)(void *st, const char *text, char *err, size_t err_size);
    void (*write_position)(const void *st, char *buf, size_t size);

    enum side (*side_to_move)(const void *st);
    /* Plies made since start or parse: the depth of the state's history. */
    int (*ply)(const void *st);
    /* Names the state for the search's table: the position, and Egara-guti's quiet
     * count (its 40-ply limit is always near); chess leaves its 50-move count out. */
    Key (*key)(const void *st);

    /* The legal moves by the rules of the position alone; rules that depend on the
     * history (repetition, move counters) are left to status.  Returns the count. */
    int (*gen_moves)(const void *st, Move *moves);
    void (*make_move)(void *st, Move m);
    void (*unmake_move)(void *st, Move m);
    /* The move made at ply `i` of the state's history (0 <= i < ply(st); 0 is the first
     * move after start or parse_position), so a record can be written from the state. */
    Move (*history_move)(const void *st, int i);

    /* Ongoing, or over with result and reason, for the side to move now. */
    void (*status)(const void *st, struct game_status *out);

    /* Move text (the game's canonical notation, UCI for chess) both ways. */
    void (*move_text)(const void *st, Move m, char *buf, size_t size);
    int (*parse_move)(const void *st, const char *text, Move *out, char *err, size_t err_size);
    /* Text for people (SAN for chess); NULL means move_text. */
    void (*move_display)(const void *st, Move m, char *buf, size_t size);
    void (*describe_move)(const void *st, Move m, struct move_desc *out);

    /* Static evaluation, side to move's point of view. */
    Score (*evaluate)(const void *st);
    /* Captures and other moves a quiescence search should look at. */
    int (*is_noisy)(const void *st, Move m);

    /* The board's geometry (static), and what stands on cell `cell` of it: the letter
     * of the position text (0 for an empty cell) and enum piece_mark bits. */
    const struct board_layout *(*layout)(void);
    char (*piece_at)(const void *st, int cell, unsigned *marks);

    /* The board as text for a terminal, several lines. */
    void (*render)(const void *st, char *buf, size_t size);
    /* Recompute everything derivable from scratch; 0 if consistent. */
    int (*check)(const void *st, char *err, size_t err_size);

    /* Optional fast perft (bulk counting, direct calls); NULL uses core's. */
    uint64_t (*perft)(void *st, int depth);

    /* The game's own words: its end reasons (code: the reason), the bits of its move
     * flags beyond MOVE_FLAG_CAPTURE and of its draw claims; each ended by a NULL
     * name, each may be NULL for none. */
    const struct game_word *reasons;
    const struct game_word *move_flag_names;
    const struct game_word *claim_names;

    /* Optional: the player to move claims a draw, of the kinds `which` (bits of
     * claim_names; 0: any).  Returns 0 and fills `out` with the final status to record
     * when status().claims allows such a claim now; -1 otherwise.  The state is not changed: the
     * caller records the end.  NULL for games without claims. */
    int (*claim_draw)(const void *st, unsigned which, struct game_status *out);

    /* Records (core/record.h), PGN's shape for every game.  `record_variant` is the
     * value of the Variant tag the game's records carry, so a reader can pick the game
     * from a record (record_game); NULL for standard PGN (chess), which has none.
     *
     * write_record: the game `st` holds, from its start position, with the tags of `h`
     * (may be NULL; Result and Termination come from `final` unless h has a
     * Termination), `final` the outcome (NULL: the state's own status).  Returns the
     * length written, or -1 when `size` was too small.
     *
     * read_record: one record from `text`: its tags into `h`, its moves onto `st` (set
     * to its FEN tag or the start), its result token into `result` (empty without one).
     * Returns the characters used (so the next call reads the next record), 0 at the
     * end of the text, or -1 with err naming the problem and where; `st` is then the
     * position before the bad move.  Reads what write_record writes. */
    const char *record_variant;
    int (*write_record)(const void *st, const struct record_header *h,
                        const struct game_status *final, char *buf, size_t size);
    long (*read_record)(const char *text, void *st, struct record_header *h, char *result,
                        size_t result_size, char *err, size_t err_size);

    /* Optional: 0 when `side` cannot win from here by any series of legal moves
     * (chess: the other side's flag falls, and this one has too little to mate), so a
     * fallen flag is a draw; NULL: a side can always win (a fallen flag loses); else 1. */
    int (*can_win)(const void *st, enum side side);
};

const char *result_name(enum result r);
/* An end reason of game g (core's or the game's own): a short stable name
 * ("checkmate", "quiet-limit") for APIs and logs, "?" for a number g does not give. */
const char *reason_name(const struct game *g, int reason);
/* A phrase for people: "the side to move has no legal move". */
const char *reason_text(const struct game *g, int reason);
/* The name of flag bit `bit` in `words` (NULL when it has none). */
const char *game_word_name(const struct game_word *words, unsigned bit);
/* The code of the word called `name` in `words`, or 0 when there is none. */
unsigned game_word_code(const struct game_word *words, const char *name);

/* The legal moves of a game in progress: none once status says it is over. */
int game_legal_moves(const struct game *g, const void *st, Move *moves);

/* The move whose move_text is `text` among the legal moves, or an error naming
 * the text.  Games use this after their own syntax check. */
int game_find_move(const struct game *g, const void *st, const char *text, Move *out, char *err,
                   size_t err_size);

/* The display text (move_display, or move_text where a game has none). */
void game_move_display(const struct game *g, const void *st, Move m, char *buf, size_t size);

/* A fresh zeroed state of the game, or NULL without memory. */
void *game_state_new(const struct game *g);
/* Copy the state src into dst (state_size bytes) as far as it is used: all of it but
 * the history's unused entries (a chess state is 700 KB, of which a game of 40 moves
 * uses 3). */
void game_state_copy(const struct game *g, void *dst, const void *src);
