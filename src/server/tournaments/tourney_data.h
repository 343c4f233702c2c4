/* A tournament as the store has it now (tourney_data.c): the row, its entrants and its
 * games, read together for the director, the API and the streams. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct server;

struct tourney_data {
    struct store_tournament t;
    struct store_entrant *e;
    int n, cap_e;
    struct store_game *g;
    int m, cap_g;
    /* Swiss: the pairing-allocated byes, by round (at most one a round). */
    struct tourney_bye {
        int round;
        char hash[STORE_HASH_LEN + 1];
    } * byes;
    int n_byes, cap_byes;
};

/* Read tournament `id`: 0, 1 when there is none, or the store's failure (-1,
 * STORE_BUSY) with a message.  tourney_data_free frees it in every case. */
int tourney_load(struct server *srv, const char *id, struct tourney_data *d, char *err,
                 size_t err_size);
void tourney_data_free(struct tourney_data *d);
/* The index of the entrant of token_hash in d, or -1. */
int tourney_entrant(const struct tourney_data *d, const char *token_hash);
/* When the arena ends (starts + duration). */
int64_t tourney_end_ms(const struct store_tournament *t);
/* The game of a pairing, as a challenge of white's that black accepted would make it:
 * tournament d's game of `round` (0 in an arena), made at now_ms, into row; 0, or -1
 * with a message. */
int tourney_game_row(struct server *srv, const struct tourney_data *d,
                     const struct store_entrant *w, const struct store_entrant *b, int64_t now_ms,
                     int round, struct store_game *row, char *err, size_t err_size);
