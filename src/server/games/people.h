/* A game between two people, in the model's terms (beside session.c, below the cache):
 * whose token plays which side, the clocks derived from the stored receipt times of
 * the moves (src/server/API.md "Clocks"), a move at its time of receipt, a fallen
 * flag, endings of a game still on, the standing offers.  Every change goes to the
 * store first (conditional where two writers could meet), then to memory, then to
 * the watchers.  All under s->mu. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "server/games/session.h"

#define PEOPLE_DAY_MS (24 * 3600 * 1000LL)
#define PEOPLE_ABANDON_MS (120 * 1000LL) /* away this long: the other may claim (default) */
#define PEOPLE_PRESENT_MS (15 * 1000LL)  /* a request this recent: the player is present */

struct people_clock {
    bool on;             /* the game has a clock (real-time or days a move) */
    int64_t left_ms[2];  /* by side, at the time asked */
    int running;         /* the side whose clock runs, or -1 */
    int64_t deadline_ms; /* when it falls (running >= 0) */
};

/* The clocks at `now_ms` (a finished game's stand still at its end). */
void people_clock(const struct session *s, int64_t now_ms, struct people_clock *out);
/* Both sides have moved (ever: a takeback does not undo it).  Before, the game can only
 * be aborted (resigning aborts it; no draw offers) and is never rated. */
bool people_both_moved(const struct session *s);
/* The side a token hash plays in s (SIDE_WHITE, SIDE_BLACK), or -1. */
int people_side(const struct session *s, const char *token_hash);
/* Below, "-1 when the store fails" is the store's answer: -1, or STORE_BUSY when its
 * gate refused the call (store.h), which the routes answer with 503 (api_store_error). */
/* Load the receipt times of the stored moves (after session_replay). */
int people_load(struct session *s, char *err, size_t err_size);
/* Each side's public player id into s->player_id (a store failure leaves "": the state
 * then shows the names without links).  Before anyone else can reach the session. */
void people_read_ids(struct session *s);
/* The mover's legal move m, received at now_ms (the caller checked the side, the turn
 * and that the flag stands).  0, or -1 (nothing changed) when the store refuses it. */
int people_move(struct session *s, Move m, int64_t now_ms, char *err, size_t err_size);
/* The running clock has fallen by now_ms: end the game on time (a draw when the other
 * side cannot win, struct game can_win) at the moment it fell.  1 when it ended the
 * game (or found it ended), 0 when no flag fell, -1 when the store failed. */
int people_check_flag(struct session *s, int64_t now_ms, char *err, size_t err_size);
/* End the game (resignation, agreement, claim, abort, abandonment) at at_ms.  0; 1 when
 * it was over already (the row is then reloaded); -1 when the store failed. */
int people_end(struct session *s, enum result r, int reason, int64_t at_ms, char *err,
               size_t err_size);
/* The standing offers (enum side + 1, 0: none) and a rematch's game id. */
int people_offers(struct session *s, int draw, int takeback, int rematch, const char *rematch_id,
                  char *err, size_t err_size);
/* A takeback the opponent accepted: the last move goes (unclocked games only). */
int people_takeback(struct session *s, char *err, size_t err_size);
/* Abandonment (src/server/API.md "A game between people"): whether the side to move is
 * away, since when, and when the other player may claim the win.  The time away counts
 * from the later of the start of their turn (the last move or takeback, or the game's
 * start) and the last time they were present; a player is present while their page's
 * event stream is open (stream hub, the seat) or for PEOPLE_PRESENT_MS (the abandonment
 * time, if shorter) after a request with their token. */
struct people_away {
    int side;            /* the side to move, when away; -1: nobody is (or no claim applies:
                            the game is over or a clock runs) */
    int64_t away_ms;     /* how long they have been away */
    int64_t claim_in_ms; /* until the other may claim the win (0: now) */
};
void people_away(const struct session *s, int64_t now_ms, struct people_away *out);
/* The player of `side` was seen at now_ms (a request with their token, their stream). */
void people_seen(struct session *s, int side, int64_t now_ms);
/* Something other than a move changed (offers, viewers): streams send an update. */
void people_touch(struct session *s);
