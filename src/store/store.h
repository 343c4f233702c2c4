/* Storage of games and moves, behind an interface.
 *
 * The server talks to a `struct store` only through its `ops` table, so a second
 * backend (PostgreSQL over libpq, for several stateless servers behind one database)
 * can replace the SQLite one without touching the server.  Every function is safe to
 * call from any thread (a backend serialises internally as it must), returns 0 on
 * success and -1 with one line in `err` on failure.  A write returns only after it is
 * durable (committed): the server acknowledges a move only after add_moves returns 0. */
#pragma once

#include <stdint.h>

#include "core/types.h"

#define STORE_ID_LEN 32   /* hex digits of a game id (128 random bits) */
#define STORE_HASH_LEN 64 /* hex digits of a token hash (SHA-256) */
#define STORE_NAME_MAX 32
#define STORE_PLAYER_NAME_MAX 41 /* a display name: 40 bytes of UTF-8 */

/* One game's row: everything but its moves. */
struct store_game {
    char id[STORE_ID_LEN + 1];
    char game[STORE_NAME_MAX];     /* the registry name: "egara-guti" */
    int level;                     /* 1..8 */
    int human_side;                /* enum side */
    char start[POSITION_TEXT_MAX]; /* start position text; "" = the game's start */
    char token_hash[STORE_HASH_LEN + 1];
    uint64_t seed;                  /* the computer's moves use seed + ply */
    int64_t created_ms, updated_ms; /* Unix time in milliseconds */
    int result, reason;             /* enum result / enum reason once over, else 0 */
    int plies;                      /* moves stored */
    int takebacks;                  /* takebacks used (POST .../takeback) */
    /* A game between two people (src/server/API.md "People"); all 0 or "" for a game
     * against the computer.  token_hash is then the challenge's creator's. */
    int people;
    char white_hash[STORE_HASH_LEN + 1], black_hash[STORE_HASH_LEN + 1];
    char white_name[STORE_PLAYER_NAME_MAX], black_name[STORE_PLAYER_NAME_MAX];
    int64_t clock_initial_ms, clock_increment_ms; /* real-time clock; both 0: none */
    int days;                                     /* correspondence: days a move; 0: none */
    int rated;
    /* Standing offers: the side that made it + 1, 0 for none. */
    int draw_offer, takeback_offer, rematch_offer;
    char rematch_id[STORE_ID_LEN + 1];          /* the rematch's game, once both asked */
    int64_t deadline_ms;                        /* when the running clock falls (0: none running) */
    int white_rating, black_rating;             /* rated games: the players' ratings at the start */
    int rated_done;                             /* the result went into the ratings (rate_game) */
    char club_id[STORE_ID_LEN + 1];             /* a club's challenge started it; "" otherwise */
    int white_rating_after, black_rating_after; /* once rated (rate_game); else 0 */
};

/* A player's Glicko-2 rating in one game and rating class (the numbers of
 * src/rating/glicko2.h); games 0: none yet. */
struct store_rating {
    double rating, deviation, volatility;
    int games;
};
/* The server's rating rules, for rate_game: the class of a finished game (NULL: not
 * rated), and the two players' ratings after it from those before (games 0: new). */
struct store_rater {
    const char *(*klass)(const struct store_game *row);
    void (*update)(const struct store_game *row, const struct store_rating *white,
                   const struct store_rating *black, struct store_rating *white_after,
                   struct store_rating *black_after);
};

/* A challenge (an invite link) or a seek in the lobby (lobby = 1): the creator waits
 * for someone to accept; the store takes it exactly once (accept_challenge). */
enum challenge_status { CHALLENGE_OPEN, CHALLENGE_ACCEPTED, CHALLENGE_CANCELLED };
struct store_challenge {
    char id[STORE_ID_LEN + 1];
    char game[STORE_NAME_MAX];
    int64_t clock_initial_ms, clock_increment_ms;
    int days;
    int side; /* the creator's: enum side, or 2 for random */
    int rated, lobby;
    char creator_hash[STORE_HASH_LEN + 1];
    char creator_name[STORE_PLAYER_NAME_MAX];
    int status; /* enum challenge_status; an open one past expires_ms is expired */
    char game_id[STORE_ID_LEN + 1];
    int64_t created_ms, expires_ms;
    int creator_rating; /* in the challenge's game and class, when it is rated; else 0 */
    char club_id[STORE_ID_LEN + 1]; /* a club's challenge: only its members accept; "" */
};

/* A club (src/server/API.md "Clubs") and its members. */
#define STORE_CLUB_NAME_MAX 81
#define STORE_CLUB_TEXT_MAX 1001
enum club_role { CLUB_MEMBER, CLUB_ADMIN, CLUB_CREATOR };
struct store_club {
    char id[STORE_ID_LEN + 1];
    char name[STORE_CLUB_NAME_MAX];
    char description[STORE_CLUB_TEXT_MAX];
    char languages[32]; /* "en,fi": the club's languages */
    char invite[STORE_ID_LEN + 1];
    char creator_hash[STORE_HASH_LEN + 1];
    int64_t created_ms;
};
struct store_member {
    char id[17]; /* a member's public id in the club (not their token) */
    char token_hash[STORE_HASH_LEN + 1];
    char name[STORE_PLAYER_NAME_MAX];
    int role; /* enum club_role */
    int64_t joined_ms;
};
typedef void (*store_member_fn)(void *ctx, const struct store_member *m);
/* One line of a club's results: games between two members of one pairing and result. */
typedef void (*store_result_fn)(void *ctx, const char *white_hash, const char *black_hash,
                                int result, int count);
typedef void (*store_challenge_fn)(void *ctx, const struct store_challenge *c);
typedef void (*store_id_fn)(void *ctx, const char *id);

/* Called once per game by list_games, newest first. */
typedef void (*store_game_fn)(void *ctx, const struct store_game *row);

/* Puzzles (store_puzzles.c): the Glicko-2 rating of a player (a token's hash, per
 * game) or of a puzzle, with its counts. */
struct store_puzzle_rating {
    double rating, deviation, volatility;
    int attempts, solved;
    int streak; /* players: solved in a row, the last attempts */
};
/* One counted attempt: the player's and the puzzle's ratings after it. */
struct store_puzzle_attempt {
    char token_hash[STORE_HASH_LEN + 1];
    const char *game, *puzzle_id;
    int solved;
    int64_t now_ms;
    struct store_puzzle_rating player, puzzle;
};
typedef void (*store_puzzle_rating_fn)(void *ctx, const char *puzzle_id,
                                       const struct store_puzzle_rating *r);
typedef void (*store_puzzle_id_fn)(void *ctx, const char *puzzle_id);

struct store;
struct store_ops {
    int (*create_game)(struct store *s, const struct store_game *row, char *err, size_t err_size);
    /* Append `count` moves numbered from `first_ply` (1-based) and the game's new
     * result, updated time and ply count, all in one transaction (the human's move
     * and the computer's reply go together).  Fails, storing none, if one of those
     * plies is already stored. */
    int (*add_moves)(struct store *s, const char *id, int first_ply, int count,
                     const char *const *moves, int result, int reason, int64_t now_ms, char *err,
                     size_t err_size);
    /* End a game without a move (resignation, agreement, claim). */
    int (*set_result)(struct store *s, const char *id, int result, int reason, int64_t now_ms,
                      char *err, size_t err_size);
    /* A takeback: the moves after ply `keep_plies` are removed and the game's count of
     * takebacks grows by one, in one transaction; fails, changing nothing, when the
     * game is over or unknown. */
    int (*take_back)(struct store *s, const char *id, int keep_plies, int64_t now_ms, char *err,
                     size_t err_size);
    /* The game row and its moves in order (`*moves` is malloc'ed, `*count` of them,
     * MOVE_TEXT_MAX bytes each).  Returns 1 when there is no such game. */
    int (*load_game)(struct store *s, const char *id, struct store_game *row,
                     char (**moves)[MOVE_TEXT_MAX], int *count, char *err, size_t err_size);
    /* The games whose token hash is `token_hash`, newest first, at most `limit`. */
    int (*list_games)(struct store *s, const char *token_hash, int limit, store_game_fn fn,
                      void *ctx, char *err, size_t err_size);
    /* A finished review (src/server/API.md: the analysis of a stored game, under the
     * game's id, or of an imported record, under its own), kept as the JSON text the
     * server answers with; one with the same id is replaced. */
    int (*put_review)(struct store *s, const char *id, const char *game, const char *body,
                      int64_t now_ms, char *err, size_t err_size);
    /* The review `id` (*body malloc'ed, the caller frees).  Returns 1 when there is none. */
    int (*get_review)(struct store *s, const char *id, char **body, char *err, size_t err_size);

    /* People (src/server/API.md "People"); each write is one transaction. */
    int (*put_challenge)(struct store *s, const struct store_challenge *c, char *err,
                         size_t err_size);
    /* 1 when there is no such challenge. */
    int (*get_challenge)(struct store *s, const char *id, struct store_challenge *c, char *err,
                         size_t err_size);
    /* Take the open, unexpired challenge `id` for `acceptor_hash` (not its creator's) and
     * create `game` (a people game), in one transaction and one conditional UPDATE, so
     * of two accepts only one succeeds; 1 (nothing changed) when it is not to be taken. */
    int (*accept_challenge)(struct store *s, const char *id, const char *acceptor_hash,
                            const struct store_game *game, int64_t now_ms, char *err,
                            size_t err_size);
    /* The creator withdraws an open challenge; 1 when it is not theirs or not open. */
    int (*cancel_challenge)(struct store *s, const char *id, const char *creator_hash,
                            int64_t now_ms, char *err, size_t err_size);
    /* The open, unexpired seeks (lobby = 1), oldest first, at most `limit`. */
    int (*list_seeks)(struct store *s, int64_t now_ms, int limit, store_challenge_fn fn, void *ctx,
                      char *err, size_t err_size);
    /* A people game's move at `now_ms` (its time of receipt), the game's result after it
     * and the new deadline of the clock then running; the offers are cleared.  Fails,
     * storing nothing, when the ply is already stored (another writer) or the game over. */
    int (*add_people_move)(struct store *s, const char *id, int ply, const char *move, int result,
                           int reason, int64_t now_ms, int64_t deadline_ms, char *err,
                           size_t err_size);
    /* End a people game (time, resignation, agreement, abort...) at `at_ms`, only if it is
     * still on: 1 (nothing changed) when it is over already. */
    int (*end_people_game)(struct store *s, const char *id, int result, int reason, int64_t at_ms,
                           char *err, size_t err_size);
    /* The standing offers and the rematch's id. */
    int (*set_offers)(struct store *s, const char *id, int draw, int takeback, int rematch,
                      const char *rematch_id, int64_t now_ms, char *err, size_t err_size);
    /* The receipt time of every stored move, in ply order (*times malloc'ed). */
    int (*load_move_times)(struct store *s, const char *id, int64_t **times, int *count, char *err,
                           size_t err_size);
    /* The earliest deadline of a game on the clock; 1 when none runs. */
    int (*next_deadline)(struct store *s, int64_t *when, char *err, size_t err_size);
    /* The games on the clock whose deadline is at or before `now_ms`. */
    int (*due_games)(struct store *s, int64_t now_ms, store_id_fn fn, void *ctx, char *err,
                     size_t err_size);
    /* A player's rating in a game and class; 1 when they have none yet. */
    int (*get_rating)(struct store *s, const char *token_hash, const char *game, const char *klass,
                      struct store_rating *out, char *err, size_t err_size);
    /* Put a finished rated game into both players' ratings, exactly once (a conditional
     * UPDATE marks it), in one transaction, keeping the ratings after it in the game's
     * row (and in *white_after, *black_after when given); 1 when there was nothing to do. */
    int (*rate_game)(struct store *s, const char *id, const struct store_rater *rater,
                     int64_t now_ms, int *white_after, int *black_after, char *err,
                     size_t err_size);
    /* The finished rated games not yet in the ratings (a crash between the end and
     * rate_game): the clock's timer rates them on start. */
    int (*unrated_games)(struct store *s, store_id_fn fn, void *ctx, char *err, size_t err_size);
    /* Clubs: a club and its creator's membership in one transaction; one club; its
     * members (creator first, then by joining); a member joins (or renames); a member's
     * role set, or (role -1) the member removed, never the creator (1 when no such
     * member); the results between members (finished, not aborted games of the club's
     * challenges); its games, newest first; its open challenges. */
    int (*create_club)(struct store *s, const struct store_club *c, const struct store_member *m,
                       char *err, size_t err_size);
    int (*get_club)(struct store *s, const char *id, struct store_club *c, char *err,
                    size_t err_size);
    int (*list_members)(struct store *s, const char *club_id, store_member_fn fn, void *ctx,
                        char *err, size_t err_size);
    int (*join_club)(struct store *s, const char *club_id, const struct store_member *m, char *err,
                     size_t err_size);
    int (*set_member)(struct store *s, const char *club_id, const char *member_id, int role,
                      char *err, size_t err_size);
    /* A member removed by another (an admin): only a member whose role is at most
     * `max_role` (never the creator), and the club's invite code becomes `invite`, in
     * one transaction, so the removed member needs a new invite; 1 (nothing changed)
     * when there is no such member. */
    int (*remove_member)(struct store *s, const char *club_id, const char *member_id, int max_role,
                         const char *invite, char *err, size_t err_size);
    int (*club_results)(struct store *s, const char *club_id, store_result_fn fn, void *ctx,
                        char *err, size_t err_size);
    int (*club_games)(struct store *s, const char *club_id, int limit, store_game_fn fn, void *ctx,
                      char *err, size_t err_size);
    int (*club_challenges)(struct store *s, const char *club_id, int64_t now_ms,
                           store_challenge_fn fn, void *ctx, char *err, size_t err_size);
    /* A visitor's display name, by token hash; get: 1 when none is known. */
    int (*put_player)(struct store *s, const char *token_hash, const char *name, int64_t now_ms,
                      char *err, size_t err_size);
    int (*get_player)(struct store *s, const char *token_hash, char *name, size_t name_size,
                      char *err, size_t err_size);
    /* The player's puzzle rating in `game`: 0, or 1 when it has none yet. */
    int (*puzzle_player)(struct store *s, const char *token_hash, const char *game,
                         struct store_puzzle_rating *out, char *err, size_t err_size);
    /* Every puzzle's stored rating (those attempted at least once). */
    int (*puzzle_ratings)(struct store *s, store_puzzle_rating_fn fn, void *ctx, char *err,
                          size_t err_size);
    /* The puzzles of `game` the player has attempted. */
    int (*puzzle_attempted)(struct store *s, const char *token_hash, const char *game,
                            store_puzzle_id_fn fn, void *ctx, char *err, size_t err_size);
    /* Record a counted attempt and both new ratings in one transaction: 0; 1 (storing
     * nothing) when the player has attempted this puzzle already. */
    int (*puzzle_attempt)(struct store *s, const struct store_puzzle_attempt *a, char *err,
                          size_t err_size);
    /* Puzzle `puzzle_id` served to the token at now_ms (its attempt is timed from the
     * latest serving).  With `issued` the server made the token just now; otherwise the
     * token must be known already (a puzzle rating, or a puzzle served to it before):
     * 1, storing nothing, when it is not. */
    int (*puzzle_serve)(struct store *s, const char *token_hash, const char *puzzle_id, int issued,
                        int64_t now_ms, char *err, size_t err_size);
    /* When puzzle `puzzle_id` was last served to the token; 1 when it never was. */
    int (*puzzle_served)(struct store *s, const char *token_hash, const char *puzzle_id,
                         int64_t *served_ms, char *err, size_t err_size);
    void (*close)(struct store *s);
};

struct store {
    const struct store_ops *ops;
};

/* Durability of a commit in SQLite's WAL mode:
 *   STORE_SYNC_FULL    fsync on every commit: survives power loss;
 *   STORE_SYNC_NORMAL  the commit reaches the OS, fsync at checkpoints: survives a
 *                      killed process (kill -9) but a power loss may drop the last
 *                      commits.  The server's default. */
enum store_sync { STORE_SYNC_FULL, STORE_SYNC_NORMAL };

/* Open (creating on first use) the SQLite database at `path` (":memory:" for tests). */
struct store *store_sqlite_open(const char *path, enum store_sync sync, char *err, size_t err_size);
