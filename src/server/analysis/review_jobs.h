/* Reviews in the background (review_jobs.c): a game's every move judged by
 * analysis_review at the game's review budget, on a thread of their own at the lowest
 * scheduling priority (behind the games, as the analyses are: analysis_jobs.h).  At
 * most one review runs per id (a game's id, or an imported record's own), and a
 * bounded number in all.  A finished review is handed to `format` (the layer above
 * writes the JSON) and stored; until then its progress is read here.  Knows no JSON
 * and no HTTP. */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "core/game.h"
#include "store/store.h"

struct server;
struct review_job;

/* The text to store for a finished review (malloc'ed; NULL without memory). */
typedef char *(*review_format_fn)(const struct review_job *j);

#define REVIEW_CLIENT_MAX 64
#define REVIEW_PER_CLIENT 1 /* reviews live at once per client address (429 beyond) */

struct review_job {
    struct server *srv;
    char id[STORE_ID_LEN + 1];
    char client[REVIEW_CLIENT_MAX]; /* the address that asked (its cap: REVIEW_PER_CLIENT) */
    const struct game *g;
    void *start;                        /* the position before the first move (owned) */
    char start_text[POSITION_TEXT_MAX]; /* "" for the game's own start */
    Move *moves;                        /* n of them (owned) */
    int n;
    atomic_int done, total; /* positions searched, of n + 1 */
    atomic_int stop;
    atomic_int refs;
    review_format_fn format;
    struct review_job *next, *live_next; /* the queue's and the live list's (rv_mu) */
    /* Written by the review thread before the job leaves the live list. */
    struct analysis_ply *plies;
    struct analysis_summary sum;
    int n_reviewed;
    struct analysis_engine_report report; /* who judged */
    const char *engine_why;               /* why not the external engine, when missing */
};

int review_jobs_start(struct server *srv, char *err, size_t err_size);
void review_jobs_stop(struct server *srv);
/* A job reviewing the game in `st` (its history: every move since its start; the
 * state is taken over).  NULL without memory. */
struct review_job *review_job_new(struct server *srv, const struct game *g, void *st,
                                  const char *id);
/* Queue j, unless a review with its id is live: then that one.  Returns the live
 * review (a reference for the caller; j is given back when it is not the one), or
 * NULL with a message and *code: 429 when j's client has REVIEW_PER_CLIENT live, 503
 * when too many are live in all or the server stops. */
struct review_job *review_submit(struct review_job *j, int *code, char *err, size_t err_size);
/* The live review with this id (a reference), or NULL. */
struct review_job *review_find(struct server *srv, const char *id);
void review_job_put(struct review_job *j);
