/* The options `agora uci` offers: their table, `setoption` checked against it, and
 * how the strength options become a level.
 *
 * Three options choose the playing level; the last one set wins, except that while
 * UCI_LimitStrength is on, UCI_Elo decides:
 *   Level 0..8          0 plays at full strength within the `go` limits
 *   Skill Level 0..20   20 is full strength; 0..19 map onto levels 1..8
 *                       (level = 1 + skill * 7 / 19)
 *   UCI_Elo             the level whose rating (engine_level_elo) is nearest (offered
 *                       for a game whose engine profile rates its levels) */
#pragma once

#include <stddef.h>

#include "core/game.h"

#define UCI_PATH_MAX 1024

struct uci_options {
    int hash_mb, threads, multipv, move_overhead_ms;
    int ponder, limit_strength, elo, skill, level;
    int own_book;
    int algo; /* enum engine_algo */
    char book_file[UCI_PATH_MAX];
};

/* What a setoption needs done besides storing the value. */
enum uci_effect {
    UCI_EFFECT_NONE,
    UCI_EFFECT_HASH,       /* a new table of hash_mb */
    UCI_EFFECT_CLEAR_HASH, /* forget the table */
    UCI_EFFECT_BOOK,       /* open book_file when own_book, close the book otherwise */
};

/* The defaults for game g (its book file, its rating range). */
void uci_options_default(struct uci_options *o, const struct game *g);
/* The `option name ...` line of option i of game g (without a newline): 1, or 0 after
 * the last option. */
int uci_option_line(const struct game *g, int i, char *buf, size_t size);
/* setoption: name (any case) and value (NULL when none was given).  0 with o changed
 * and *effect set, or -1 with err naming the problem and o unchanged. */
int uci_option_set(struct uci_options *o, const struct game *g, const char *name, const char *value,
                   enum uci_effect *effect, char *err, size_t err_size);
/* The level `go` plays at: 0 (full strength within the limits) or 1..8. */
int uci_play_level(const struct uci_options *o, const struct game *g);

/* Skill Level 0..20 as a level (0: full strength). */
int uci_skill_level(int skill);
