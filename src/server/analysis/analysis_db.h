/* Analyses as jobs for the engine workers (analysis_db.c; issue 26, item 4): with
 * the store's jobs on (db_jobs_on: PostgreSQL and `--workers 0`), `POST /api/analysis`
 * puts a job of kind "analysis" (analysis/analysis_payload.h) in the store instead of
 * the analysis threads' queue; an `agora worker` on any machine runs it and writes
 * each event into the job's output; a follower thread of this server reads the
 * output of each stream it holds every ANALYSIS_DB_POLL_MS and queues the new events
 * on the stream's analysis_job (as the analysis threads do), ends the stream after
 * the `done`, and drops the job then, or when the client went away (the worker,
 * refused at its next write, stops), or when nobody finished it in time (the stream
 * then ends with a `done` event without lines, whose `engine_error` says so). */
#pragma once

#include <stddef.h>

#define ANALYSIS_DB_POLL_MS 100

struct server;
struct analysis_job;
struct move_rec;

/* Queue job j (its game, multipv, nodes, time_ms and client set; the position as
 * `start` text, "" for the game's own, and its n moves) for the workers and follow
 * it: 0 (a reference taken, as analysis_submit), or 429 / 503 with a message (the
 * caps, counted in the store over every server: analysis_per_client, analysis_max),
 * or -1 after a store error (err; *store_rc the store's code). */
int analysis_db_submit(struct analysis_job *j, const char *start, const struct move_rec *moves,
                       int n, int *store_rc, char *err, size_t err_size);
/* Stop following (every stream ended, every followed job dropped): the server stops
 * (`stopping` set), before analysis_jobs_stop; under no lock. */
void analysis_db_stop(struct server *srv);
