/* Reviews as jobs for the engine workers (review_db.c; issue 26): on a server whose
 * computer moves are jobs in the database (db_jobs_on: PostgreSQL and `--workers 0`),
 * a review asked of it is queued as a job of kind "review" in the store, after every
 * game's moves, and an `agora worker` process on any machine claims it, reviews the
 * game its payload carries (analysis/review_payload.h) and stores the review; every
 * server answers its progress from the job and the finished review from the store.
 * The caps of the review thread hold, counted in the store over every server: one
 * review at once per address, and review_max in all.  Knows no JSON and no HTTP. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

struct server;
struct review_job;

/* Whether this server's reviews are jobs for the workers (the same switch as its
 * computer moves'). */
bool review_db_on(const struct server *srv);
/* The review `id` queued or running: 0 with its progress (*done of *total) and, when
 * `g` is not NULL, its game (NULL when the job's payload names none known); 1 when
 * there is no such job; else the store's failure (-1 or STORE_BUSY) with err. */
int review_db_running(struct server *srv, const char *id, int *done, int *total,
                      const struct game **g, char *err, size_t err_size);
/* Queue j (its id, game, start, moves and client; left to the caller) as a job: 0; or
 * -1 with err and *code 429 (its address has a review queued or running) or 503 (the
 * workers have review_max queued or running); or the store's failure (-1 or
 * STORE_BUSY) with *code 0. */
int review_db_submit(struct server *srv, const struct review_job *j, int *code, char *err,
                     size_t err_size);
