/* A live analysis's events (live.h). */
#include "analysis/live.h"

#include <stdlib.h>

#include "analysis/analysis_json.h"

struct live_run {
    const struct analysis_live *rq;
    struct analysis_engine_report report;
    struct analysis_tablebase tablebase;
    struct analysis_proof proof;
    bool in_tables, proven, ran;
};

static char *event_text(const struct live_run *r, const struct analysis_line *lines, int n,
                        bool done)
{
    const char *why = r->report.error[0]            ? r->report.error
                      : r->ran && r->rq->engine_why ? r->rq->engine_why
                                                    : "";
    return analysis_event_text(lines, n, done, r->report.name, why,
                               r->in_tables ? &r->tablebase : NULL, r->proven ? &r->proof : NULL);
}

/* After every finished iteration: the current lines go out. */
static void on_lines(void *ctx, const struct analysis_line *lines, int n)
{
    struct live_run *r = ctx;
    if (!r->rq->stop || !atomic_load(r->rq->stop))
        r->rq->emit(r->rq->ctx, event_text(r, lines, n, false), false);
}

void analysis_live_run(const struct analysis_live *rq)
{
    struct live_run r = {.rq = rq};
    struct analysis_line *lines = calloc(ANALYSIS_MAX_LINES, sizeof *lines);
    int n = 0;
    if (lines && !(rq->stop && atomic_load(rq->stop))) {
        r.ran = true;
        r.in_tables = analysis_tablebase(rq->g, rq->st, &r.tablebase);
        r.proven = analysis_proof(rq->g, rq->st, &r.proof);
        struct analysis_request a = {
            .multipv = rq->multipv,
            .nodes = rq->nodes,
            .stop = rq->stop,
            .on_lines = on_lines,
            .ctx = &r,
            .external = rq->external,
            .report = &r.report,
        };
        n = analysis_position(rq->g, rq->st, &a, NULL, lines);
        if (n < 0)
            n = 0; /* out of memory: a done event without lines */
    }
    rq->emit(rq->ctx, event_text(&r, lines, lines ? n : 0, true), true);
    free(lines);
}
