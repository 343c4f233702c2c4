/* Analyses off the HTTP threads and behind the games (analysis_jobs.c): a bounded
 * queue and pool of analysis threads of their own, each analysis bounded in nodes and
 * time, at most a few at once per client address and in total.  Beside the workers:
 * it knows no HTTP; the events' text is analysis/live.h's, and the HTTP layer reads
 * the text and registers `wake`.
 *
 * Games come first: the analysis threads run at the lowest scheduling priority (nice
 * 19) and are never the engine workers, so a game's move never waits in a queue
 * behind an analysis, and on a busy machine the kernel gives the game's worker
 * nearly all of a core (see NOTES.md for the measurement). */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "core/game.h"

#define ANALYSIS_CLIENT_MAX 64

struct server;
struct analysis_job;

struct analysis_job {
    struct server *srv;
    const struct game *g;
    void *st; /* the position (owned) */
    int multipv;
    uint64_t nodes;
    int64_t time_ms;
    char client[ANALYSIS_CLIENT_MAX];
    atomic_int stop; /* raised: the reader went away, the time is up, the server stops */
    _Atomic int64_t deadline_ms; /* while running: when the watchdog raises stop */
    atomic_int refs; /* the analysis thread's (while queued or running) and the reader's */
    struct analysis_job *next, *live_next; /* the queue's, the live list's (an_mu) */

    /* The stream's text and its reader, under mu. */
    pthread_mutex_t mu;
    char *out;
    size_t out_len, out_cap, out_off;
    bool finished;  /* the last event is queued */
    bool suspended; /* the reader waits for text: wake() when some comes */
    void (*wake)(struct analysis_job *j);
    void *reader;
    /* Followed in the store (analysis_db.c): the HTTP layer watches the client's
     * hang-up (`watch`, its own), since no line may come to show it. */
    bool followed;
    void *watch;
};

int analysis_jobs_start(struct server *srv, char *err, size_t err_size);
/* Stop every analysis (queued ones end at once), wait for the threads. */
void analysis_jobs_stop(struct server *srv);
/* The default and the cap of the nodes of an analysis of `lines` lines for game g
 * (from its engine profile's review budget; the server's analysis_nodes_cap lowers
 * both). */
void analysis_budget(const struct server *srv, const struct game *g, int lines, uint64_t *def,
                     uint64_t *cap);
/* A job for position `st` (taken over; freed with the job).  NULL without memory. */
struct analysis_job *analysis_job_new(struct server *srv, const struct game *g, void *st);
/* Queue it: 0 (the caller keeps one reference, the thread has the other), or 429 (too
 * many from this client), 503 (too many in all, or the server stops) with a message;
 * the job is then the caller's alone. */
int analysis_submit(struct analysis_job *j, char *err, size_t err_size);
/* Queue an event's text (malloc'ed, taken over; NULL: none) for the reader and wake
 * it; `last`: the stream ends after it. */
void analysis_job_emit(struct analysis_job *j, char *text, bool last);
/* Give back a reference; the last frees the job. */
void analysis_job_put(struct analysis_job *j);
/* Analyses queued or running now (tests, the measurement). */
int analysis_jobs_live(struct server *srv);
