/* Engine profiles: for each game, how the engines play it.  One profile per game
 * (src/engines/agon_profile.c, egara_profile.c, chess/profile.c) in one table (profiles.c);
 * everything above — the engine front, the CLI, the server, match, analysis — asks the profile of
 * a game and names no game.
 *
 * A profile says: which search plays the game at full strength (alpha-beta, MCTS or
 * a search of its own), its eight levels as search limits, what those levels are
 * rated (an Elo table, where measured), the depth `agora bench` searches, the opening
 * book hook, and the few defaults of the tools that differ by game. */
#pragma once

#include <stddef.h>

#include "core/rng.h"
#include "puzzle_rules.h"
#include "search/search.h"

#define ENGINE_LEVEL_MIN 1
#define ENGINE_LEVEL_MAX 8

/* One level: the search, its limits and its deliberate noise.  Node and depth limits
 * make a level play the same on any machine; the time cap only guards a slow one. */
struct level_plan {
    enum engine_algo algo;
    int depth;
    uint64_t nodes;
    int64_t movetime_ms;
    int noise;      /* centipawns of root noise */
    int blunder;    /* per mille of moves replaced by a random move that does not lose
                     * at once: the mistakes that decide games between solid players */
    int book_plies; /* plies played from an opening book when one is given */
    int plain;      /* 1: alpha-beta without the profile's search_features (the beginners'
                     * levels keep the strength they were measured at) */
};

/* A game's own search (ENGINE_ALGO_OWN): same contract as ab_search (search.h). */
typedef Move (*engine_own_search)(void *st, const struct search_params *p, struct search_ctl *ctl,
                                  struct tt *tt, struct engine_result *out);

/* The opening-book hook of a game: a file format it reads, its default file, and a
 * weighted pick.  `book` is the hook's own object, opaque above the profile. */
struct engine_book_hook {
    const char *default_path; /* used when installed; NULL: none */
    int (*open)(const char *path, void **book, char *err, size_t err_size);
    void (*close)(void *book);
    /* 1 with *out (a legal move of st), 0 when the book has none, -1 with err. */
    int (*pick)(const void *book, const void *st, struct rng *r, Move *out, char *err,
                size_t err_size);
    /* Every book move of st (legal moves) with its weight, at most max: their count,
     * or -1 with err. */
    int (*moves)(const void *book, const void *st, Move *out, unsigned *weight, int max, char *err,
                 size_t err_size);
    /* A file of the game's records naming opening positions (its tags name them),
     * read by the game's own record reader (engines/book_names.h); NULL: none. */
    const char *names_path;
};

struct engine_profile {
    const struct game *game;
    enum engine_algo algo; /* the stronger search for this game, by measurement */
    int bench_depth;       /* the fixed depth of `agora bench` */
    /* Alpha-beta's refinements (SEARCH_*, search_types.h) kept for this game by self-play
     * (src/engines/NOTES.md): full strength and every level not marked plain. */
    unsigned search_features;
    struct level_plan levels[ENGINE_LEVEL_MAX];
    /* What each level is rated, on an outside scale (UCI_Elo) or on the levels' own
     * ladder (level_elo_own_scale), or NULL where the levels have not been measured;
     * strictly increasing. */
    const int *level_elo;
    /* 1: level_elo is the levels' own ladder (adjacent levels played against each
     * other, level 1 anchored at a stated number), not an outside scale: shown to
     * players, but UCI offers no UCI_Elo on it. */
    int level_elo_own_scale;
    /* The game's own search and its name (`algo=NAME`, UCI's Algorithm), or NULL. */
    engine_own_search own_search;
    const char *own_search_name;
    const struct engine_book_hook *book; /* NULL: the game has no opening books */
    int uci_native;   /* UCI is this game's own protocol: `agora uci` plays it by default */
    int random_plies; /* `agora match`'s default of random opening plies */
    /* Analysis (src/analysis/): the win-chance curve's slope per centipawn
     * (engine_win_chance) and a review's node budget per position. */
    double win_k;
    uint64_t review_nodes;
    /* An external UCI engine that judges this game better than agora's own, used for
     * analysis when installed (engines/uci_engine.h); NULL: agora's own always. */
    const char *analysis_engine;
    /* Puzzles (src/puzzles/): what wins in this game and its themes; NULL: none. */
    const struct puzzle_rules *puzzles;
    /* Endgame tables (src/tablebase/), NULL where the game has none: the legal moves
     * of st that keep the best result the tables give (the quiet count included), at
     * most max of them, their number, with *score the exact result (SCORE_WIN - plies
     * for a win, 0 a draw); 0 when the position is not in tables found at run time. */
    int (*tablebase_moves)(const void *st, Move *out, int max, Score *score);
    /* The same tables inside the search (search/oracle.h), or NULL where the game has
     * none or none were found at run time. */
    const struct search_oracle *(*tablebase_oracle)(void);
    /* The tables' verdict on st for the side to move: 1 with *wdl (+1 win, 0 draw, -1
     * loss) and *plies (the plies to the end under best play; -1 when the distance search
     * did not finish within its budget), 0 when st is not in tables found at run time. */
    int (*tablebase_verdict)(const void *st, int *wdl, int *plies);
    /* A proof search for forced wins (search/proof.h) before the search at the levels
     * without noise or blunders, and on the analysis board: up to proof_plies plies and
     * proof_nodes tree nodes; proof_word names such a win ("formation"); 0: none. */
    int proof_plies;
    uint64_t proof_nodes;
    const char *proof_word;
    /* Look for the tables in `dir` from now on (NULL: none; `agora serve --tablebases`). */
    void (*tablebase_dir)(const char *dir);
};

/* The side to move's chance 0..1 of winning at score `s` (its view): the logistic
 * 1/(1+exp(-win_k*s)) below ENGINE_WIN_BOUND, 1 for a proven win, 0 for a proven
 * loss.  Symmetric: engine_win_chance(p, -s) == 1 - engine_win_chance(p, s). */
double engine_win_chance(const struct engine_profile *p, Score s);

/* The profile of `g`: its own, or a default (alpha-beta, the levels' usual shape) for
 * a game that has none yet.  Never NULL. */
const struct engine_profile *engine_profile_of(const struct game *g);
/* The profiles, NULL-terminated (those of games with a profile of their own). */
extern const struct engine_profile *const engine_profiles[];

/* Level 1..8 of the game (clamped into that range). */
void engine_level_plan(const struct engine_profile *p, int level, struct level_plan *out);
/* The rating of a level, and the level whose rating is nearest `elo` (0: the profile
 * has no ratings). */
int engine_level_elo(const struct engine_profile *p, int level);
int engine_elo_level(const struct engine_profile *p, int elo);

/* Search names: "auto", "alphabeta", "mcts", and the profile's own search's name. */
const char *engine_algo_name(const struct engine_profile *p, enum engine_algo a);
/* 0 with *out for a name this game's engines know (case ignored), else -1. */
int engine_algo_parse(const struct engine_profile *p, const char *name, enum engine_algo *out);
/* The names this game's engines know, joined by `sep` ("auto, alphabeta, mcts"). */
void engine_algo_list(const struct engine_profile *p, const char *sep, char *buf, size_t size);

/* ---- Opening books ----------------------------------------------------------------
 * An open book is a list (one book per game at most): engine_limits.book takes the
 * list and a search uses the book of its own game.  */

/* The book file a game opens by default (installed or not), or NULL: no books. */
const char *engine_book_default(const struct engine_profile *p);
/* Open the book at `path` (NULL: the default) for `p`'s game and put it at the head
 * of *list: 0, or -1 with err naming the problem (the list unchanged).  A profile
 * without books: -1 ("GAME has no opening books"). */
int engine_book_open(const struct engine_profile *p, const char *path, struct engine_book **list,
                     char *err, size_t err_size);
/* Close every book of the list. */
void engine_book_close(struct engine_book *list);
/* A move of the book of g in `list` for `st`, by weight with `r`: 1 with *out, 0 when
 * the list has no book of g or the book no move here, -1 with err when the book cannot
 * be read. */
int engine_book_pick(const struct engine_book *list, const struct game *g, const void *st,
                     struct rng *r, Move *out, char *err, size_t err_size);
/* Every move of the book of g in `list` for `st` with its weight, at most max: their
 * count (0 also when the list has no book of g), or -1 with err. */
int engine_book_moves(const struct engine_book *list, const struct game *g, const void *st,
                      Move *out, unsigned *weight, int max, char *err, size_t err_size);
/* The file naming a game's opening positions (installed or not), or NULL: none. */
const char *engine_book_names_default(const struct engine_profile *p);
/* The path a book was opened from. */
const char *engine_book_path(const struct engine_book *b);
