/* Storage of games and moves, behind an interface.
 *
 * The server talks to a `struct store` only through the calls below (store_<name>,
 * one per operation of store_ops.def), so either backend, SQLite (src/store/sqlite/,
 * embedded, the default) or PostgreSQL over libpq (src/store/postgres/, for several
 * stateless servers behind one database), serves the server unchanged; store_open
 * picks one by its URL.
 * Every call is safe from any thread (a backend serialises internally as it must),
 * returns 0 on success and -1 with one line in `err` on failure (STORE_BUSY when the
 * gate refuses it, or when the database does not answer: PostgreSQL away).  A write
 * returns only after it is durable (committed): the server acknowledges a move only
 * after store_add_moves returns 0. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/types.h"

#define STORE_ID_LEN 32   /* hex digits of a game id (128 random bits) */
#define STORE_HASH_LEN 64 /* hex digits of a token hash (SHA-256) */
#define STORE_NAME_MAX 32
#define STORE_PLAYER_NAME_CHARS 40 /* a display name: 40 characters (code points) */
#define STORE_PLAYER_NAME_MAX (4 * STORE_PLAYER_NAME_CHARS + 1) /* its bytes of UTF-8, NUL */

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
    int plies_max;    /* people games: the most plies it ever had (takebacks do not lower it) */
    int rated_capped; /* asked rated, played unrated: its two players' rated games of the day
                         were counted already (the server's cap per pair) */
    /* A tournament's game (store.h "Tournaments"): its tournament, its Swiss round (0 in
     * an arena), and who berserked (bit 0 white, bit 1 black: that side's clock is half
     * the initial time, without increment). */
    char tournament_id[STORE_ID_LEN + 1];
    int round;
    int berserk;
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
    int is_public; /* listed (find_clubs), seen and joined by anyone without an invite */
};
/* A public club found (find_clubs), with its count of members. */
typedef void (*store_found_club_fn)(void *ctx, const struct store_club *c, int members);
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

/* A player (src/server/API.md "Players"): a display name under a token's hash, and a
 * public id made when the name is first stored (16 hex digits, random: never the token
 * nor derived from it) that stays the same when the name changes.  A hidden player is
 * listed in no search and no leaderboard. */
#define STORE_PLAYER_ID_LEN 16
struct store_player {
    char id[STORE_PLAYER_ID_LEN + 1];
    char token_hash[STORE_HASH_LEN + 1];
    char name[STORE_PLAYER_NAME_MAX];
    int hidden;
    int64_t created_ms;
};
typedef void (*store_player_fn)(void *ctx, const struct store_player *p);
/* One of a player's ratings: its game and class, when it last changed. */
typedef void (*store_rating_fn)(void *ctx, const char *game, const char *klass,
                                const struct store_rating *r, int64_t updated_ms);
/* One point of a player's rating history: the rating after the rated game `game_id`
 * ended (deviation 0: not known, a game rated before the history was kept). */
typedef void (*store_point_fn)(void *ctx, const char *game, const char *klass, const char *game_id,
                               double rating, double deviation, int64_t at_ms);
/* A player's finished games against the computer in `game` at `level`. */
typedef void (*store_level_fn)(void *ctx, const char *game, int level, int wins, int draws,
                               int losses);
/* A club a player belongs to, with their role (enum club_role). */
typedef void (*store_club_fn)(void *ctx, const char *club_id, const char *name, int role);
/* A player's games as their archive asks for them (archive_games): every game of the
 * token's, against the computer (its token_hash) or a person (either colour), newest
 * first.  "" or 0: no filter. */
enum store_outcome { OUTCOME_ANY, OUTCOME_WIN, OUTCOME_DRAW, OUTCOME_LOSS, OUTCOME_ONGOING };
struct store_archive {
    const char *token_hash;
    const char *game;          /* a registry name */
    const char *opponent_hash; /* only the games against this person */
    int computer;              /* 1: only the games against the computer */
    int outcome;               /* enum store_outcome, from the player's side */
    int64_t from_ms, to_ms;    /* created in [from_ms, to_ms); to_ms 0: no end */
    int offset, limit;
};
/* Who stands on a leaderboard (leaderboard): at least `min_games` rated games in the
 * game and class, deviation below `max_deviation`, rated at or after `since_ms`, not
 * hidden; the best `limit`, by rating, then games, then name. */
struct store_board_rule {
    int min_games;
    double max_deviation;
    int64_t since_ms;
    int limit;
};
typedef void (*store_leader_fn)(void *ctx, const struct store_player *p,
                                const struct store_rating *r, int64_t updated_ms);

/* Puzzles (<backend>/puzzles.c): the Glicko-2 rating of a player (a token's hash, per
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

/* Tournaments (src/server/API.md "Tournaments"; sqlite/tournaments.c): an arena (play
 * as many games as you can in `duration_ms`) or a Swiss (`rounds` rounds), open to all
 * or to one club's members.  The store keeps the tournament, its entrants and which of
 * its games are whose; the standings are computed from those games' results (the
 * server's arena.c), so nothing is counted twice and a restart loses nothing. */
#define STORE_TOURNEY_NAME_MAX 81
enum tourney_kind { TOURNEY_ARENA, TOURNEY_SWISS };
enum tourney_status { TOURNEY_UPCOMING, TOURNEY_RUNNING, TOURNEY_FINISHED };
struct store_tournament {
    char id[STORE_ID_LEN + 1];
    int kind; /* enum tourney_kind */
    char name[STORE_TOURNEY_NAME_MAX];
    char game[STORE_NAME_MAX];
    int64_t clock_initial_ms, clock_increment_ms;
    int days; /* Swiss only: days a move (then no clock) */
    int rated;
    int64_t starts_ms;
    int64_t duration_ms;            /* arena: how long it runs */
    int rounds;                     /* Swiss: the rounds */
    int min_rating, max_rating;     /* who may join (0: no bound) */
    char club_id[STORE_ID_LEN + 1]; /* only this club's members; "" for everyone */
    char creator_hash[STORE_HASH_LEN + 1];
    char creator_name[STORE_PLAYER_NAME_MAX];
    int status; /* enum tourney_status */
    int round;  /* Swiss: the rounds paired so far */
    int64_t created_ms;
};
typedef void (*store_tournament_fn)(void *ctx, const struct store_tournament *t);
/* An entrant: active (paired when free), paused (not paired, stays in the standings) or
 * withdrawn (Swiss: paired no more). */
enum entrant_state { ENTRANT_ACTIVE, ENTRANT_PAUSED, ENTRANT_WITHDRAWN };
struct store_entrant {
    char token_hash[STORE_HASH_LEN + 1];
    char name[STORE_PLAYER_NAME_MAX];
    char player_id[STORE_PLAYER_ID_LEN + 1]; /* the public id ("" for none or hidden) */
    int rating;                              /* at joining, in the tournament's game and class */
    int state;                               /* enum entrant_state */
    int64_t joined_ms;
    int64_t active_ms; /* when they last joined or came back from a pause */
};
typedef void (*store_entrant_fn)(void *ctx, const struct store_entrant *e);
/* A Swiss round's pairing-allocated bye: the player of `token_hash` in `round`. */
typedef void (*store_bye_fn)(void *ctx, int round, const char *token_hash);

/* A device of a player's (each backend's devices.c): signed in through their personal link. */
struct store_device {
    char id[17]; /* the first 16 digits of its token's hash: names it, acts for nobody */
    char name[64];
    int64_t created_ms, seen_ms;
};
typedef void (*store_device_fn)(void *ctx, const struct store_device *d);

/* A passkey (devices.c; API.md "Passkeys"): a WebAuthn credential of a player's,
 * its ES256 public key (x then y, 128 hex digits) and its authenticator's count. */
#define STORE_PASSKEY_ID_MAX 344 /* base64url of a credential id of at most 255 bytes */
struct store_passkey {
    char id[STORE_PASSKEY_ID_MAX];
    char player_hash[STORE_HASH_LEN + 1];
    char public_key[129];
    int64_t sign_count;
    char name[64];
    int64_t created_ms, used_ms;
};
typedef void (*store_passkey_fn)(void *ctx, const struct store_passkey *p);

/* A notification (notices.c; API.md "Notifications"): what happened to a
 * player that their page tells them of, kept until read. */
#define STORE_NOTICE_KIND_MAX 32
struct store_notice {
    int64_t id;
    char kind[STORE_NOTICE_KIND_MAX];
    const char *body; /* a JSON object's text, valid during the call */
    int read;
    int64_t created_ms;
};
typedef void (*store_notice_fn)(void *ctx, const struct store_notice *n);
/* One event of the outbox (store_ops.def "Events"): what a server's event streams tell,
 * numbered so that every server reads every event once, in one order. */
#define STORE_EVENT_KIND_MAX 32
struct store_event {
    int64_t seq; /* 1, 2, ...: in the order the events were committed, without gaps */
    char game_id[STORE_ID_LEN + 1];
    char kind[STORE_EVENT_KIND_MAX]; /* "move", "offer", "end"... */
    const char *body;                /* the JSON the streams send; valid during the call */
    int64_t created_ms;
};
typedef void (*store_event_fn)(void *ctx, const struct store_event *e);
/* One engine job (store_ops.def "Engine jobs"): a computer move to make, claimed by
 * a worker (`agora worker`, or a server's own threads) for a lease; one not finished
 * when its lease runs out goes back to the queue. */
/* A job's priority: the games' moves first, the reviews after them. */
#define STORE_JOB_PRIORITY_MOVE 0
#define STORE_JOB_PRIORITY_ANALYSIS 1 /* the analysis board's: after the games' moves */
#define STORE_JOB_PRIORITY_REVIEW 2
#define STORE_JOB_PRIORITY_ANY 1000000 /* claim_job's max_priority: every job */
#define STORE_JOB_ID_MAX 48
#define STORE_JOB_KIND_MAX 16
#define STORE_JOB_CLIENT_MAX 64
#define STORE_JOB_WORKER_MAX 40
struct store_job {
    char id[STORE_JOB_ID_MAX];         /* a move's: "<game id>.<ply>" */
    char kind[STORE_JOB_KIND_MAX];     /* "move", "review" or "analysis" */
    char game_id[STORE_ID_LEN + 1];    /* the game */
    char game[STORE_NAME_MAX];         /* its registry name ("" in rows made before
                                          migration 17: read the payload) */
    int ply;                           /* the moves stored when it was queued */
    char client[STORE_JOB_CLIENT_MAX]; /* the address that asked ("" none): its fair share */
    int priority;                      /* 0 first (games), higher later (analyses) */
    int round;                         /* its turn among the addresses (put_job) */
    int64_t created_ms;
    int64_t lease_until_ms; /* 0: waiting; else claimed until then */
    char worker[STORE_JOB_WORKER_MAX];
    int tries;           /* claims so far */
    int done, total;     /* a review's progress (job_progress): positions searched, of total;
                          * an analysis's: events written, 1 once the last is (job_output_add) */
    const char *payload; /* put_job's: what the job needs (a review's JSON); NULL: "" */
};

/* A server's presence in one game (store_ops.def "Several servers"): its event streams
 * on the game and when it last saw each player, for the viewer count and abandonment
 * on every server. */
struct store_presence {
    char game_id[STORE_ID_LEN + 1];
    int viewers;        /* spectators' event streams */
    int seated[2];      /* by side: the player's page streams there */
    int64_t seen_ms[2]; /* by side: the player last seen there (0: never) */
};
typedef void (*store_presence_fn)(void *ctx, const struct store_presence *p);

/* An event in the change's own transaction (issue 26): a server attaches the event of
 * a change to the operation that makes it, so a committed change always has its event
 * (a server killed after the commit cannot leave the other servers without the news).
 * store_attach_event attaches it to the next operation this thread calls: the first
 * write of that operation that commits appends it (put_event's meaning: numbered, the
 * waiters woken) in the same transaction; an operation that changes nothing (refused,
 * failed, a read) appends nothing.  The attachment goes when that operation returns,
 * whatever it did.  kind and body as put_event's (the body cut to
 * STORE_ATTACHED_BODY_MAX - 1 bytes). */
#define STORE_ATTACHED_BODY_MAX 128
struct store_attached_event {
    char game_id[STORE_ID_LEN + 1];
    char kind[STORE_EVENT_KIND_MAX];
    char body[STORE_ATTACHED_BODY_MAX];
    int64_t now_ms;
};
void store_attach_event(const char *game_id, const char *kind, const char *body, int64_t now_ms);
/* True, once, when the last event this thread attached was committed with its change
 * and was of `game_id`: the news is told already (and forgotten by this answer). */
bool store_event_told(const char *game_id);
/* For the backends' writes: the event attached to the running operation, taken (the
 * operation's later writes get none), or NULL; and, once its transaction committed,
 * its number (on the calling thread of the operation). */
const struct store_attached_event *store_event_take(void);
void store_event_committed(const struct store_attached_event *e, int64_t seq);

struct store;
struct store_gate;

/* The answer of an operation refused by the gate (store_gate.h: the database is stuck
 * and enough requests wait for it already); never returned by a backend itself. */
#define STORE_BUSY (-2)

/* For the backends: the running operation failed because the database is away (its
 * connection broke and connecting again failed).  The operation's -1 then becomes
 * STORE_BUSY (the server's 503), its message saying so; the next operation connects
 * again, so the store recovers by itself once the database answers. */
void store_note_away(void);

/* Spreads an operation's parenthesised parameter or argument list (store_ops.def). */
#define STORE_LIST(...) __VA_ARGS__

/* A backend's table: one function per operation of store_ops.def, then close. */
struct store_ops {
#define STORE_OP(name, params, args)                                                               \
    int (*name)(struct store * s, STORE_LIST params, char *err, size_t err_size);
#include "store/store_ops.def"
#undef STORE_OP
    void (*close)(struct store *s);
};

/* A backend's store begins with this (the backend's own state follows). */
struct store {
    const struct store_ops *ops;
    struct store_gate *gate; /* NULL: no bound (store_open's max_waiting 0) */
    /* Tests (store_test_lose_answers): so many more successful calls of the operation
     * named answer as if the database went away after their COMMIT. */
    atomic_int lose_answers;
    const char *lose_answer_op;
};

/* Tests: the next `count` calls of operation `op` (its name in store_ops.def) that
 * succeed answer STORE_BUSY with the database-away message, as when the connection
 * breaks after the COMMIT went through: the change is stored, its answer lost. */
void store_test_lose_answers(struct store *s, const char *op, int count);

/* The calls: store_<name>(s, <the operation's parameters>, err, err_size) for every
 * operation of store_ops.def, each through the gate, then the backend's function. */
#define STORE_OP(name, params, args)                                                               \
    int store_##name(struct store *s, STORE_LIST params, char *err, size_t err_size);
#include "store/store_ops.def"
#undef STORE_OP

/* What a write's return promises (the server's --sync):
 *   STORE_SURVIVES_POWER_LOSS  the write is on the disk: it survives a power loss;
 *   STORE_SURVIVES_KILL        it survives a killed process (kill -9), but a power
 *                              loss may drop the last writes.  The server's default. */
enum store_durability { STORE_SURVIVES_POWER_LOSS, STORE_SURVIVES_KILL };

struct store_options {
    enum store_durability durability;
    /* The gate (store_gate.h): at most this many marked threads wait inside the store
     * once it is stuck; 0: no bound. */
    int max_waiting;
    /* The connections of a backend that pools them (PostgreSQL): at most this many
     * operations at once; 0: STORE_POOL_DEFAULT. */
    int pool;
};
#define STORE_POOL_DEFAULT 8

/* Open the store at `url`, creating it on first use; the backend is told by the URL:
 *   a file path, ":memory:" (for tests), or "sqlite:" and either: SQLite;
 *   "postgresql://USER@HOST:PORT/DB" or "postgres://...": PostgreSQL (libpq's URI;
 *   what it leaves out comes from libpq's PG* environment variables), its schema
 *   created or migrated (store/migrations.h);
 *   "<scheme>://..." of a backend not built in: refused, the message naming those
 *   built in.
 * `opt` NULL: STORE_SURVIVES_KILL, no gate.  NULL with one line in err on failure. */
struct store *store_open(const char *url, const struct store_options *opt, char *err,
                         size_t err_size);
/* Close a store (NULL: nothing), its gate with it. */
void store_close(struct store *s);
