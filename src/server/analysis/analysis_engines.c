/* The server's external analysis engines (analysis_engines.h), over the process's
 * pools (analysis/engine_pools.h). */
#include "server/analysis/analysis_engines.h"

#include <stdio.h>

#include "analysis/engine_pools.h"
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
    struct engine_pools_config cfg = {
        .path = srv->cfg.analysis_engine,
        .processes =
            srv->cfg.analysis_engines > 0 ? srv->cfg.analysis_engines : default_processes(srv),
        .nice = srv->cfg.analysis_nice,
        .timeout_ms = srv->cfg.analysis_engine_ms,
        .say = srv->cfg.quiet_engines ? NULL : stderr,
        .who = "agora",
        .what = "analysis",
    };
    engine_pools_start(&srv->an_engines, &cfg);
}

void analysis_engines_stop(struct server *srv)
{
    engine_pools_stop(&srv->an_engines);
}

struct uci_pool *analysis_engine_of(struct server *srv, const struct game *g, const char **why)
{
    return engine_pools_of(&srv->an_engines, g, why);
}
