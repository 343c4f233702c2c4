/* A Swiss tournament: players with pairing numbers, the rounds played (opponent, colour,
 * result, byes, forfeits, absences) and the point system; the next round paired by the
 * FIDE Dutch system (dutch.c, FIDE Handbook C.04.3 in force since 1 July 2025), the
 * tie-breaks of FIDE C.07 (tiebreak.c) and FIDE's Tournament Report File (trf.c).
 *
 * The room knows no game, no server and no store: the server's tournaments and the
 * command `agora swiss pair` call the same functions.  NOTES.md says how the pairing
 * maps onto the handbook's articles. */
#pragma once

#include <stddef.h>

/* Points are counted in tenths (1.0 = 10, 0.5 = 5), as TRF writes them. */
typedef int SwissPoints;

/* Limits: a TRF pairing number has four digits; rounds are bounded to keep a player's
 * history a small array. */
#define SWISS_MAX_PLAYERS 9999
#define SWISS_MAX_ROUNDS 99

/* What one round was for one player (the TRF result codes in brackets). */
enum swiss_result {
    SWISS_NONE = 0,     /* not paired and no bye: absent (blank, or "0000 - -") */
    SWISS_WIN,          /* a played win [1], or unrated [W] */
    SWISS_DRAW,         /* [=] or [D] */
    SWISS_LOSS,         /* [0] or [L] */
    SWISS_FORFEIT_WIN,  /* [+]: the opponent did not come */
    SWISS_FORFEIT_LOSS, /* [-] */
    SWISS_BYE_PAIRING,  /* [U]: the pairing-allocated bye */
    SWISS_BYE_FULL,     /* [F]: a full-point bye, asked for */
    SWISS_BYE_HALF,     /* [H]: a half-point bye, asked for */
    SWISS_BYE_ZERO,     /* [Z]: a zero-point bye (absent, told in advance) */
};

enum swiss_colour { SWISS_NO_COLOUR = 0, SWISS_WHITE = 1, SWISS_BLACK = -1 };

struct swiss_game {
    int opponent;             /* pairing number, 0 for none */
    enum swiss_colour colour; /* SWISS_NO_COLOUR for byes and absences */
    enum swiss_result result;
    char code; /* the TRF result character, kept to write it back */
};

/* The point system (C.04.1 and the TRF's point lines): what each result is worth. */
struct swiss_points {
    SwissPoints win, draw, loss;
    SwissPoints forfeit_win, forfeit_loss;
    SwissPoints pairing_bye, full_bye, half_bye, zero_bye, absent;
};

struct swiss_player {
    int id;                   /* pairing number, 1..n */
    char name[34];            /* TRF columns 15-47 */
    int rating;               /* 0 when unrated */
    char sex_title[5];        /* TRF columns 10-13, kept as read */
    char extra[28];           /* TRF columns 54-80: federation, FIDE id, birth date */
    struct swiss_game *games; /* [rounds_played + 1]: the last is the next round's
                               * preset (a requested bye), SWISS_NONE otherwise */
    int withdrawn;            /* not paired in the next round */
};

struct swiss_tournament {
    char name[128];
    int n_players;
    struct swiss_player *players;     /* players[i].id == i + 1 */
    int rounds_played;                /* rounds with results */
    int rounds_total;                 /* planned rounds (TRF 142 / XXR) */
    enum swiss_colour initial_colour; /* the top player's colour in round 1 (C.04.3 5.2.5) */
    struct swiss_points points;
};

/* The points of C.04.1's usual system: win 1, draw 1/2, loss 0, byes as usual. */
struct swiss_points swiss_points_default(void);
/* What result `r` is worth under `p`. */
SwissPoints swiss_result_points(const struct swiss_points *p, enum swiss_result r);
/* A player's score after the first `rounds` rounds. */
SwissPoints swiss_score(const struct swiss_tournament *t, int id, int rounds);
/* Whether the game was played over the board (a win, draw or loss; not a forfeit). */
int swiss_played(const struct swiss_game *g);

/* A new tournament of n players (names empty, ratings 0) and `total` rounds; NULL
 * without memory.  Free with swiss_free. */
struct swiss_tournament *swiss_new(int n_players, int rounds_total);
void swiss_free(struct swiss_tournament *t);
/* Append a round (results SWISS_NONE) to every player: 0, or -1 past the limits or
 * without memory. */
int swiss_add_round(struct swiss_tournament *t);

/* One board of a round: white and black pairing numbers; black 0 for the
 * pairing-allocated bye. */
struct swiss_pair {
    int white, black;
};

/* Results of swiss_pair_next. */
#define SWISS_OK 0
#define SWISS_NO_PAIRING 1 /* no pairing satisfies the absolute criteria */
#define SWISS_ERROR (-1)   /* out of memory or too large; message in err */

/* Pair round rounds_played + 1 by the FIDE Dutch system.  Fills pairs[] (room for
 * n_players / 2 + 1) boards ordered as C.04.2 orders them (the top board first) and
 * sets *n_pairs.  Changes nothing in t. */
int swiss_pair_next(const struct swiss_tournament *t, struct swiss_pair *pairs, int *n_pairs,
                    char *err, size_t err_size);

/* The tournament as it stood after its first `rounds` rounds, with the next round's
 * requested byes and absences kept (so that pairing it pairs round rounds + 1 as it
 * was meant to be); NULL without memory or when rounds > rounds_played. */
struct swiss_tournament *swiss_cut(const struct swiss_tournament *t, int rounds);

/* Write a round's pairing as the endorsed programs do: the number of pairs, then
 * "WHITE BLACK" a line, the bye as "N 0". Returns the characters written or -1. */
int swiss_format_pairs(const struct swiss_pair *pairs, int n_pairs, char *out, size_t size);

/* TRF (trf.c).  Read a TRF-2026 or TRF(x) text (lines ended by CR, LF or CRLF): the
 * players, their rounds and the point system (162 or BBx lines), the number of rounds
 * (142 or XXR) and the initial colour (152 or XXC).  NULL with "line L, column C: ..."
 * in err on malformed input; the tournament is either whole or not made. */
struct swiss_tournament *swiss_trf_read(const char *text, size_t len, char *err, size_t err_size);
enum swiss_trf_format { SWISS_TRF_2026, SWISS_TRF_X };
/* Write t as TRF: a malloc'd NUL-terminated text (lines ended by CR as FIDE asks), or
 * NULL without memory. */
char *swiss_trf_write(const struct swiss_tournament *t, enum swiss_trf_format format);

/* Tie-breaks of FIDE C.07 after `rounds` rounds (tiebreak.c).  Buchholz and
 * Sonneborn-Berger in hundredths of a point; wins as a count. */
enum swiss_tiebreak {
    SWISS_TB_BUCHHOLZ,         /* BH: the sum of the opponents' scores */
    SWISS_TB_BUCHHOLZ_CUT1,    /* BH-C1: less the lowest contribution */
    SWISS_TB_SONNEBORN_BERGER, /* SB: opponents' scores weighted by the result */
    SWISS_TB_WINS,             /* WIN: the rounds won (games and forfeits and byes that score
                                * a win, as C.07 counts them) */
    SWISS_TB_GAMES_WON,        /* WON: the games won over the board */
};
/* The tie-break of player `id`.  Unplayed rounds as C.07 article 16 says: opponents'
 * scores adjusted (a bye asked for that ends a player's tournament counts as a draw),
 * a player's own unplayed round a game against a dummy with the player's own score
 * (capped), Cut-1 cutting a voluntary unplayed round first (tiebreak.c). */
long swiss_tiebreak(const struct swiss_tournament *t, int id, int rounds, enum swiss_tiebreak tb);
