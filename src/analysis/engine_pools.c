/* The external analysis engines of one process (engine_pools.h). */
#include "analysis/engine_pools.h"

#include <string.h>

#include "engines/profile.h"
#include "engines/uci_engine.h"

void engine_pools_start(struct engine_pools *e, const struct engine_pools_config *cfg)
{
    e->n = 0;
    for (int i = 0; engine_profiles[i] && e->n < ENGINE_POOLS_MAX; i++) {
        const struct engine_profile *p = engine_profiles[i];
        if (!p->analysis_engine)
            continue;
        const char *path = cfg->path ? cfg->path : p->analysis_engine;
        struct engine_pool_of *a = &e->of[e->n++];
        memset(a, 0, sizeof *a);
        a->g = p->game;
        if (!strcmp(path, "none")) {
            if (cfg->say)
                fprintf(cfg->say, "%s: %s %s by agora's own engine (engine: none)\n", cfg->who,
                        p->game->name, cfg->what);
            continue;
        }
        struct uci_engine_config ucfg = {
            .path = path,
            .size = cfg->processes > 0 ? cfg->processes : 1,
            .nice = cfg->nice,
            .timeout_ms = cfg->timeout_ms,
        };
        char err[ERROR_TEXT_MAX];
        a->pool = uci_pool_new(&ucfg, err, sizeof err);
        if (!a->pool)
            snprintf(a->why, sizeof a->why, "%s", err);
        if (cfg->say)
            fprintf(cfg->say, "%s: %s %s by %s%s%s\n", cfg->who, p->game->name, cfg->what,
                    a->pool ? uci_pool_name(a->pool) : "agora's own engine", a->pool ? "" : ": ",
                    a->why);
    }
    if (cfg->say)
        fflush(cfg->say);
}

void engine_pools_stop(struct engine_pools *e)
{
    for (int i = 0; i < e->n; i++) {
        uci_pool_free(e->of[i].pool);
        e->of[i].pool = NULL;
    }
    e->n = 0;
}

struct uci_pool *engine_pools_of(struct engine_pools *e, const struct game *g, const char **why)
{
    for (int i = 0; i < e->n; i++)
        if (e->of[i].g == g) {
            if (why)
                *why = e->of[i].why;
            return e->of[i].pool;
        }
    if (why)
        *why = "";
    return NULL;
}
