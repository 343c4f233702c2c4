/* The puzzles' part of the SQLite store (store.h's puzzle_* operations): the schema of
 * its migration and the statements, on the store's connection under its mutex. */
#pragma once

#include <pthread.h>
#include <sqlite3.h>

#include "store.h"

/* Ratings of players (per token hash and game) and of puzzles, and one row per counted
 * attempt (a token's first attempt of a puzzle). */
#define STORE_PUZZLES_SCHEMA                                                                       \
    "CREATE TABLE IF NOT EXISTS puzzle_players ("                                                  \
    " token_hash TEXT NOT NULL, game TEXT NOT NULL, rating REAL NOT NULL,"                         \
    " deviation REAL NOT NULL, volatility REAL NOT NULL, attempts INTEGER NOT NULL,"               \
    " solved INTEGER NOT NULL, streak INTEGER NOT NULL, updated_ms INTEGER NOT NULL,"              \
    " PRIMARY KEY (token_hash, game)) WITHOUT ROWID;"                                              \
    "CREATE TABLE IF NOT EXISTS puzzle_ratings ("                                                  \
    " puzzle_id TEXT PRIMARY KEY, rating REAL NOT NULL, deviation REAL NOT NULL,"                  \
    " volatility REAL NOT NULL, attempts INTEGER NOT NULL, solved INTEGER NOT NULL);"              \
    "CREATE TABLE IF NOT EXISTS puzzle_attempts ("                                                 \
    " token_hash TEXT NOT NULL, game TEXT NOT NULL, puzzle_id TEXT NOT NULL,"                      \
    " solved INTEGER NOT NULL, created_ms INTEGER NOT NULL,"                                       \
    " PRIMARY KEY (token_hash, game, puzzle_id)) WITHOUT ROWID;"

/* The puzzles served to each token, when (the latest serving of each). */
#define STORE_PUZZLES_SERVED_SCHEMA                                                                \
    "CREATE TABLE IF NOT EXISTS puzzle_served ("                                                   \
    " token_hash TEXT NOT NULL, puzzle_id TEXT NOT NULL, served_ms INTEGER NOT NULL,"              \
    " PRIMARY KEY (token_hash, puzzle_id)) WITHOUT ROWID;"

int store_puzzles_player(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash, const char *game,
                         struct store_puzzle_rating *out, char *err, size_t err_size);
int store_puzzles_ratings(sqlite3 *db, pthread_mutex_t *mu, store_puzzle_rating_fn fn, void *ctx,
                          char *err, size_t err_size);
int store_puzzles_attempted(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                            const char *game, store_puzzle_id_fn fn, void *ctx, char *err,
                            size_t err_size);
int store_puzzles_attempt(sqlite3 *db, pthread_mutex_t *mu, const struct store_puzzle_attempt *a,
                          char *err, size_t err_size);
int store_puzzles_serve(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                        const char *puzzle_id, int issued, int64_t now_ms, char *err,
                        size_t err_size);
int store_puzzles_served(sqlite3 *db, pthread_mutex_t *mu, const char *token_hash,
                         const char *puzzle_id, int64_t *served_ms, char *err, size_t err_size);
