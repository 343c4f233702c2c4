/* Chess by the FIDE Laws (rules/chess.md): the game table, the operations on a game in
 * progress that are not moves (draw claims, draw by agreement), and PGN. */
#pragma once

#include <stdbool.h>

#include "core/game.h"

extern const struct game chess_game;

/* Chess's own words (chess_game.reasons, .move_flag_names, .claim_names, and the
 * layout's flag_names).  The reasons' numbers are stored with finished games. */
enum chess_reason {
    CHESS_REASON_CHECKMATE = 1,
    CHESS_REASON_STALEMATE = 2,
    CHESS_REASON_FIVEFOLD = 8,      /* automatic */
    CHESS_REASON_SEVENTY_FIVE = 10, /* automatic */
    CHESS_REASON_DEAD_POSITION = 11,
    CHESS_REASON_CLAIM_THREEFOLD = 12, /* claimed by the player to move */
    CHESS_REASON_CLAIM_FIFTY = 13,     /* claimed by the player to move */
};
#define CHESS_MOVE_CASTLE (1u << 2) /* the rook's move is in also_from/also_to */
#define CHESS_MOVE_EN_PASSANT (1u << 3)
#define CHESS_MOVE_PROMOTION (1u << 4) /* the piece letter is in promotion */
#define CHESS_MOVE_CHECK (1u << 5)     /* the move gives check (or mate) */
#define CHESS_CLAIM_THREEFOLD (1u << 0)
#define CHESS_CLAIM_FIFTY_MOVES (1u << 1)
#define CHESS_CELL_DARK (1u << 0)

/* ---- Operations on a game in progress ------------------------------------------
 *
 * The state itself never records how a game ended other than by its position and
 * history (status reports mate, stalemate, fivefold, the 75-move rule and dead
 * positions).  A claim or an agreement is a decision the caller records: these
 * functions say whether it is valid now and fill the final status to record. */

/* The player to move claims a draw.  `which` is CHESS_CLAIM_THREEFOLD, CHESS_CLAIM_FIFTY_MOVES, or
 * 0 for whichever is available (threefold first).  Returns 0 and fills `out` (a draw
 * with CHESS_REASON_CLAIM_THREEFOLD or CHESS_REASON_CLAIM_FIFTY) when the claim is valid now;
 * otherwise -1 with one line in err, naming why (e.g. "occurred 2 times").  This is
 * the claim on the current position; chess_claim_draw_with_move claims on the
 * position a move would make. */
int chess_claim_draw(const void *st, unsigned which, struct game_status *out, char *err,
                     size_t err_size);

/* The player to move claims a draw by announcing the move `m` (one of gen_moves'
 * moves) that would make the position occur a third time or complete fifty moves
 * (FIDE 9.2.1.1, 9.3.1).  The move is not made: a valid claim ends the game in the
 * position before it (the caller may record the announced move with the result).
 * Same returns as chess_claim_draw. */
int chess_claim_draw_with_move(const void *st, unsigned which, Move m, struct game_status *out,
                               char *err, size_t err_size);

/* Both players agreed to a draw (an offer accepted).  Valid while the game is in
 * progress: returns 0 with a draw by REASON_AGREEMENT, else -1 and err. */
int chess_agree_draw(const void *st, struct game_status *out, char *err, size_t err_size);

/* ---- PGN (pgn.c): chess_game's write_record and read_record ----------------------
 *
 * The header is core's record header (core/record.h).
 *
 * Write the game held by `st` (its start position and every move of its history) as
 * PGN: the seven-tag roster (missing tags are "?", Date "????.??.??"), SetUp and FEN
 * when the game did not start from the usual position, the other tags of `h`, a
 * Termination tag (h's own, else one from `final`), the moves in SAN, and the
 * result.  `final` is how the game ended (NULL: the state's own status; ongoing writes
 * "*"; a result with REASON_NONE gets no reason comment).  Returns the length written, or
 * -1 if `size` was too small (the text is then cut). */
int chess_pgn_write(const void *st, const struct record_header *h, const struct game_status *final,
                    char *buf, size_t size);

/* Read one game from `text`: tags into `h`, the moves onto `st` (set to the FEN tag
 * or the start position).  Comments ({...}, ; to end of line), NAGs ($n, !, ?),
 * variations ((...), nested), move numbers and escape lines (%) are skipped.  Returns
 * the number of characters used (so the next call reads the next game), 0 at the end
 * of the text, or -1 with err naming the problem and where; `st` is then the position
 * before the bad move.  `result` gets the game's result token ("1-0", "*", ...). */
long chess_pgn_read(const char *text, void *st, struct record_header *h, char *result,
                    size_t result_size, char *err, size_t err_size);
