/* The puzzles' tables in the SQLite store (store.h's puzzle_* operations, in
 * puzzles.c): the schema of their migration (backend.c). */
#pragma once

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
