/* What the files of the match module share: the running match, one game's outcome,
 * and the seats the players sit in. */
#pragma once

#include <pthread.h>

#include "core/rng.h"
#include "match.h"
#include "stats.h"
#include "uci_client.h"

#define MATCH_NO_MOVE_MS 60000 /* an engine without a clock gets this long a move */
#define MATCH_HASH_MB 16

enum match_fault { MATCH_FAULT_NONE, MATCH_FAULT_ILLEGAL, MATCH_FAULT_CRASH, MATCH_FAULT_TIME };

/* How one game went, and its record. */
struct match_game {
    enum result result; /* White's view */
    enum reason reason;
    enum match_fault fault;
    int fault_player; /* 0 or 1, when fault != MATCH_FAULT_NONE */
    int first_white;  /* player 0 had White */
    int plies;
    enum match_verdict verdict; /* when adjudicated */
    char start[POSITION_TEXT_MAX];
    int custom_start; /* start text differs from the game's start */
    char *record;     /* the game's record (malloc'd), NULL when none was asked or made */
};

struct match {
    const struct match_config *cfg;
    const struct game *g;
    FILE *out, *err;
    /* Shared between workers, under lock. */
    pthread_mutex_t lock;
    int next, finished, stopped_early;
    struct match_score score; /* player 0's */
    int faults[2][4];         /* by player, by enum match_fault */
    int adjudicated[4];       /* by enum match_verdict */
    double llr;               /* the SPRT's: pentanomial, over the finished pairs */
    double llr_games;         /* the trinomial one over games, shown beside it */
    int pairs[5];             /* finished pairs by player 0's half-points in them, 0..4 */
    signed char *half;        /* by pair: player 0's half-points in the pair's first finished game,
                               * -1 while none has finished */
    const char *sprt_verdict;
};

/* One side's seat in one worker: an external engine stays up between games; our
 * engine at full strength (depth:, nodes:, movetime: players) keeps its table across
 * the moves of a game, as it does over UCI.  Levels think as the server does, with a
 * fresh table each move, so the ladder measures what players meet. */
struct match_seat {
    struct match_uci *uci;
    int started;
    struct engine *engine;
};

/* What a player needs to know of the game in progress. */
struct match_turn {
    const struct match_game *game; /* its start */
    void *st;                      /* the position, given back unchanged */
    void *scratch;                 /* a state to replay the moves on */
    const Move *line;              /* the moves since the start */
    int n;
    const int64_t *clock; /* by side, when the player has a clock */
    struct rng *r;        /* for the random player */
    Move *buf;            /* room for the legal moves */
    uint64_t seed;        /* for the engine's levels */
};

/* play.c: game `index` (player 0 has White in even games) into *out. */
void match_play_game(struct match *m, int index, struct match_seat seats[2],
                     struct match_game *out);

/* player.c: the move of player `p` in seat `seat`: MATCH_FAULT_NONE and the move
 * (and the score it saw, when it reported one), or the fault. */
enum match_fault match_player_move(struct match *m, const struct match_player *p,
                                   struct match_seat *seat, const struct match_turn *turn,
                                   Move *out, int *score, int *has_score);
