/* The server's external analysis engines (analysis_engines.h). */
#include "server/analysis/analysis_engines.h"

#include <stdio.h>
#include <string.h>

#include "engines/profile.h"
#include "engines/uci_engine.h"
#include "server/server_state.h"

/* By default one process per analysis or review thread: the engine then takes no
 * more of the machine than agora's own analyses did (one core each, at the same nice
 * value), and no analysis waits for a process a review holds. */
static int default_processes(const struct server *srv)
{
    int n = srv->cfg.analysis_threads + srv->cfg.review_threads;
    return n > 0 ? n : 1;
}

void analysis_engines_start(struct server *srv)
{
    srv->n_an_engines = 0;
    for (int i = 0; engine_profiles[i] && srv->n_an_engines < SERVER_ANALYSIS_ENGINES; i++) {
        const struct engine_profile *p = engine_profiles[i];
        if (!p->analysis_engine)
            continue;
        const char *path = srv->cfg.analysis_engine ? srv->cfg.analysis_engine : p->analysis_engine;
        struct server_analysis_engine *a = &srv->an_engines[srv->n_an_engines++];
        memset(a, 0, sizeof *a);
        a->g = p->game;
        if (!strcmp(path, "none")) {
            if (!srv->cfg.quiet_engines)
                fprintf(stderr, "agora: %s analysis by agora's own engine (engine: none)\n",
                        p->game->name);
            continue;
        }
        struct uci_engine_config cfg = {
            .path = path,
            .size =
                srv->cfg.analysis_engines > 0 ? srv->cfg.analysis_engines : default_processes(srv),
            .nice = srv->cfg.analysis_nice,
            .timeout_ms = srv->cfg.analysis_engine_ms,
        };
        char err[ERROR_TEXT_MAX];
        a->pool = uci_pool_new(&cfg, err, sizeof err);
        if (!a->pool)
            snprintf(a->why, sizeof a->why, "%s", err);
        if (!srv->cfg.quiet_engines)
            fprintf(stderr, "agora: %s analysis by %s%s%s\n", p->game->name,
                    a->pool ? uci_pool_name(a->pool) : "agora's own engine", a->pool ? "" : ": ",
                    a->why);
    }
}

void analysis_engines_stop(struct server *srv)
{
    for (int i = 0; i < srv->n_an_engines; i++) {
        uci_pool_free(srv->an_engines[i].pool);
        srv->an_engines[i].pool = NULL;
    }
    srv->n_an_engines = 0;
}

struct uci_pool *analysis_engine_of(struct server *srv, const struct game *g, const char **why)
{
    for (int i = 0; i < srv->n_an_engines; i++)
        if (srv->an_engines[i].g == g) {
            if (why)
                *why = srv->an_engines[i].why;
            return srv->an_engines[i].pool;
        }
    if (why)
        *why = "";
    return NULL;
}
