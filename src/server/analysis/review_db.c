/* Reviews as jobs for the engine workers (review_db.h). */
#include "server/analysis/review_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/review_payload.h"
#include "core/error.h"
#include "games/registry.h"
#include "server/analysis/review_jobs.h"
#include "server/games/db_jobs.h"
#include "server/games/session.h"
#include "server/server_state.h"
#include "store/store.h"

bool review_db_on(const struct server *srv)
{
    return db_jobs_on(srv);
}

static void job_id(const char *id, char *out, size_t size)
{
    snprintf(out, size, "review.%s", id);
}

/* The game the job's payload names (NULL when it cannot be read): for a row made before
 * the jobs had their game's column (migration 17). */
static const struct game *job_game(struct server *srv, const char *jid)
{
    char err[ERROR_TEXT_MAX], *text = NULL;
    if (store_job_payload(srv->store, jid, &text, err, sizeof err) != 0)
        return NULL;
    struct review_payload p;
    const struct game *g = NULL;
    if (review_payload_read(text, &p, err, sizeof err) == 0) {
        g = game_find(p.game);
        review_payload_free(&p);
    }
    free(text);
    return g;
}

int review_db_running(struct server *srv, const char *id, int *done, int *total,
                      const struct game **g, char *err, size_t err_size)
{
    char jid[STORE_JOB_ID_MAX];
    job_id(id, jid, sizeof jid);
    struct store_job job;
    int rc = store_get_job(srv->store, jid, &job, err, err_size);
    if (rc != 0)
        return rc;
    *done = job.done;
    *total = job.total > 0 ? job.total : job.ply + 1; /* not claimed yet: its plies + 1 */
    if (g) /* the row's game; a row made before migration 17 names it in its payload */
        *g = job.game[0] ? game_find(job.game) : job_game(srv, jid);
    return 0;
}

/* A refusal by the caps (store_put_job_capped's *full): -1 with *code and err. */
static int refused(int full, int total, int *code, char *err, size_t err_size)
{
    if (full == 1) {
        *code = 429;
        return fail(err, err_size, "too many reviews from this address at once (at most %d)",
                    REVIEW_PER_CLIENT);
    }
    *code = 503;
    return fail(err, err_size, "the server is reviewing all it can (%d at once); try again soon",
                total);
}

int review_db_submit(struct server *srv, const struct review_job *j, int *code, char *err,
                     size_t err_size)
{
    int total = srv->cfg.review_max > 0 ? srv->cfg.review_max : 2;
    uint64_t nodes = srv->cfg.review_nodes > 0 ? (uint64_t)srv->cfg.review_nodes : 0;
    char *payload =
        review_payload_text(j->id, j->g, j->start, j->start_text, j->moves, j->n, nodes);
    if (!payload) {
        *code = 500;
        return fail(err, err_size, "out of memory");
    }
    struct store_job job;
    memset(&job, 0, sizeof job);
    job_id(j->id, job.id, sizeof job.id);
    snprintf(job.kind, sizeof job.kind, "review");
    snprintf(job.game_id, sizeof job.game_id, "%s", j->id);
    snprintf(job.game, sizeof job.game, "%s", j->g->name);
    snprintf(job.client, sizeof job.client, "%s", j->client);
    job.ply = j->n;
    job.priority = STORE_JOB_PRIORITY_REVIEW; /* after every game's moves */
    job.created_ms = server_now_ms();
    job.payload = payload;
    /* The caps counted and the job queued in one step: two servers asked at once never
     * pass a cap together. */
    int full = 0;
    int rc = store_put_job_capped(srv->store, &job, REVIEW_PER_CLIENT, total, &full, err, err_size);
    free(payload);
    *code = 0;
    if (rc == 0 && full)
        return refused(full, total, code, err, err_size);
    return rc;
}
