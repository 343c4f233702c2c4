/* The server tests' fixture: a server started with the settings a test names, and the
 * steps every room's tests take (make a game, post to it, read a field, wait for an
 * event).  Over server_client.h, the HTTP client.
 *
 *   struct server_config cfg;
 *   fx_config(&cfg);            the tests' settings (below)
 *   cfg.cache_games = 16;       then what this test needs
 *   struct server *srv = fx_start(&cfg);      or fx_start(NULL): fx_config's settings
 *   json_t *st = fx_new_game(server_port(srv), "egara", "white", NULL, id, token);
 *   fx_str(st, "side_to_move"), fx_int(st, "ply")
 */
#pragma once

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "server/server.h"
#include "server_client.h"

/* The database of the tests: SQLite by default; PostgreSQL when AGORA_TEST_DB names
 * a database there (tests/pg-run starts one and sets it), each test's store or server
 * then in a schema of its own in that database. */
/* A fresh, empty store's URL: ":memory:", or a new schema's postgresql:// URL. */
const char *fx_store_url(void);
/* The URL fx_start opens for a server_config's db_path: on PostgreSQL ":memory:" is a
 * new schema and a file path the schema named after that path (so a restart on the
 * same path finds its games); "sqlite:PATH" (a test about SQLite itself) and any URL
 * stay as they are.  On SQLite: db_path itself. */
const char *fx_db_for(const char *db_path);
/* Whether the tests run on PostgreSQL (AGORA_TEST_DB). */
int fx_on_postgres(void);

/* server_config_default's settings on any free loopback port, with an in-memory
 * database and no web folder. */
void fx_config_defaults(struct server_config *cfg);
/* fx_config_defaults, small: 2 HTTP threads, 1 engine worker, 64 games in memory and no
 * cap on new games per minute. */
void fx_config(struct server_config *cfg);
/* A server started with cfg (NULL: fx_config's settings), on fx_db_for(cfg->db_path)
 * (a pool of 4 connections on PostgreSQL unless cfg says); NULL, with the reason on
 * stderr, when it does not start.  server_stop stops it. */
struct server *fx_start(const struct server_config *cfg);
/* Two servers on one fresh database (several servers: PostgreSQL, issue 26), started
 * with cfg's settings and db_path the new schema's URL, kept in url (url_size bytes,
 * as long as the servers run).  0 with both; -1 with neither left running. */
int fx_start_pair(struct server_config *cfg, char *url, size_t url_size, struct server **a,
                  struct server **b);
/* `./agora worker --db url --quiet --analysis-engine none` (with `--move-ms move_ms`
 * when > 0) and `extra` (NULL-ended), started from the repository root: its pid. */
pid_t fx_spawn_worker(const char *url, int move_ms, const char *const *extra);
/* The exit status of a worker told to stop (SIGTERM); -1 when it did not exit. */
int fx_stop_worker(pid_t pid);
/* One number the database at url answers to `sql` (-1 when it does not). */
long long fx_db_number(const char *url, const char *sql);
/* A fresh temporary folder (dir, as test_tmpdir) and the path of a database NAME in it
 * (db); test_rmdir(dir) removes both. */
void fx_tmpdb(char *dir, size_t dir_size, char *db, size_t db_size, const char *name);

/* The string member `key` of j; "" when j has none (or j is NULL). */
const char *fx_str(json_t *j, const char *key);
/* The integer member `key` of j; 0 when j has none. */
long long fx_int(json_t *j, const char *key);

/* POST body to path (a game, a challenge, a seek): the status; the answer's id and
 * token into id and token (40 bytes each; "" when absent). */
int fx_create(int port, const char *path, const char *body, char *id, char *token);
/* A game of `game` at level 1 against the computer, the player on `side`, from
 * `position` (NULL: the start): its state (caller decrefs) with id and token filled,
 * or NULL unless 201. */
json_t *fx_new_game(int port, const char *game, const char *side, const char *position, char *id,
                    char *token);
/* POST /api/games/ID/OP with the token and body: the status; *out the answer (if out). */
int fx_game_post(int port, const char *id, const char *op, const char *token, const char *body,
                 json_t **out);
/* POST /api/games/ID/moves {"move": MOVE} with the token: the status. */
int fx_move(int port, const char *id, const char *token, const char *move);
/* GET /api/games/ID as the token's side sees it (NULL: anyone's view), or NULL unless
 * 200 (the caller decrefs). */
json_t *fx_state(int port, const char *id, const char *token);
/* The first of a state's legal moves ("" when none). */
const char *fx_first_legal(json_t *state);

/* The next event named `want` on r (others skipped), its data parsed; NULL on
 * timeout or the stream's end. */
json_t *fx_event(struct sse_reader *r, const char *want, int timeout_ms);

/* A connection to the server from the loopback address 127.0.0.`last`, or -1. */
int fx_connect_from(int port, int last);
/* The monotonic clock in milliseconds. */
int64_t fx_now_ms(void);
/* The wall clock in milliseconds since 1970 (the API's times, such as "expires"). */
int64_t fx_wall_ms(void);
void fx_sleep_ms(int ms);

/* A game between people: the challenge `body` (POST /api/challenges) made by its
 * creator and accepted by "Bob": the game's id and the creator's and Bob's tokens (40
 * bytes each); 0, or -1 when either step failed. */
int fx_people_game(int port, const char *body, char *game, char *creator_token, char *bob_token);

/* The parts of a state that a refused request must not change (position, moves,
 * status, updated) as one string (caller frees). */
char *fx_fingerprint(json_t *state);
/* The same of game ID as GET /api/games/ID has it ("(no state)" when none). */
char *fx_fingerprint_of(int port, const char *id);
