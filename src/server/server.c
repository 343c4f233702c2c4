/* The composition root of `agora serve`: the server's settings, and its start and stop,
 * which open the store and start every room (the games' cache and workers, the
 * analyses and reviews, the clock, the puzzles, the stream hub) before the HTTP
 * adapter, and stop them after it.  server_request drives the API without HTTP (the
 * fuzz target). */
#include "server/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "games/registry.h"
#include "server/analysis/analysis_db.h"
#include "server/analysis/analysis_engines.h"
#include "server/analysis/analysis_jobs.h"
#include "server/analysis/review_jobs.h"
#include "server/common/ratelimit.h"
#include "server/common/seek_caps.h"
#include "server/common/stream_hub.h"
#include "server/games/cache.h"
#include "server/games/clock.h"
#include "server/games/outbox.h"
#include "server/games/session.h"
#include "server/games/workers.h"
#include "server/http/http.h"
#include "server/openings/openings_api.h"
#include "server/puzzles/puzzle_set.h"
#include "server/routes.h"
#include "server/server_state.h"
#include "server/tournaments/director.h"
#include "store/store.h"

void server_config_default(struct server_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->host = "127.0.0.1";
    cfg->port = 8080;
    cfg->db_path = "agora.db";
    cfg->sync = STORE_SURVIVES_KILL; /* survives kill -9; see API.md "Guarantees" */
    cfg->web_dir = "web";
    cfg->http_threads = 8;
    cfg->engine_workers = 2;
    cfg->committers = 8;
    cfg->move_time_ms = 5000;
    cfg->cache_games = 0;
    cfg->cache_mb = 512;
    cfg->new_games_per_minute = 30;
    cfg->max_plies = 1000;
    cfg->analysis_threads = 2;
    cfg->analysis_nice = 19;
    cfg->analysis_max = 4;
    cfg->analysis_per_client = 2;
    cfg->analysis_ms = 10000;
    cfg->review_threads = 1;
    cfg->review_max = 2;
    cfg->connections_per_address = 64;
    cfg->streams_per_address = 32;
    cfg->streams_per_game = 64;
    cfg->seeks_per_token = 3;
    cfg->seeks_per_address = 6;
    cfg->people_per_minute = 20;
    cfg->draw_offers_per_minute = 10;
    cfg->rated_per_pair = 5;
    cfg->header_ms = 5000;
    cfg->idle_ms = 60000;
    cfg->queued_per_address = 8;
    cfg->db_waiters = 0;
}

int server_port(const struct server *srv)
{
    return srv->port;
}

static void wake_streams(struct session *s)
{
    pthread_mutex_lock(&s->mu);
    session_notify(s);
    pthread_mutex_unlock(&s->mu);
}

void server_stop(struct server *srv)
{
    if (!srv)
        return;
    atomic_store(&srv->stopping, 1);
    director_stop(srv);
    outbox_stop(srv);
    clock_stop(srv);
    if (srv->buckets) {
        /* Answer every waiting request (the workers drain the queue), end every stream,
         * then stop the daemon, which must hold no suspended connection. */
        workers_stop(srv);
        analysis_db_stop(srv);   /* every analysis followed in the store ends */
        analysis_jobs_stop(srv); /* every analysis ends and wakes its stream */
        review_jobs_stop(srv);
        analysis_engines_stop(srv); /* no analysis or review asks them any more */
        cache_each(srv, wake_streams);
        if (srv->hub)
            stream_hub_ping_all(srv->hub, false); /* they see `stopping` and end */
        http_stop(srv);
        stream_hub_free(srv->hub);
        cache_free(srv);
    }
    if (srv->puzzles)
        puzzle_set_free(srv->puzzles);
    free(srv->puzzles);
    if (srv->store)
        store_close(srv->store);
    ratelimit_free(srv->limiter);
    ratelimit_free(srv->people_by_token);
    ratelimit_free(srv->people_by_addr);
    ratelimit_free(srv->draws_by_token);
    ratelimit_free(srv->draws_by_addr);
    seek_caps_free(srv->seek_caps);
    openings_free(srv);
    free(srv);
}

struct server *server_start(const struct server_config *cfg, char *err, size_t err_size)
{
    struct server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    srv->cfg = *cfg;
    openings_init(srv);
    snprintf(srv->host, sizeof srv->host, "%s", cfg->host ? cfg->host : "127.0.0.1");
    srv->cfg.host = srv->host;
    if (srv->cfg.cache_games <= 0) {
        /* States differ a lot (chess keeps 18000 plies of history: ~280 KB): budget
         * by the largest, so any mix of games fits in cache_mb. */
        size_t largest = 1;
        for (int i = 0; game_registry[i]; i++)
            if (game_registry[i]->state_size > largest)
                largest = game_registry[i]->state_size;
        size_t budget = (size_t)(srv->cfg.cache_mb > 0 ? srv->cfg.cache_mb : 512) << 20;
        srv->cfg.cache_games = (int)(budget / largest < 1000000 ? budget / largest : 1000000);
    }
    if (srv->cfg.cache_games < 16)
        srv->cfg.cache_games = 16;
    if (srv->cfg.http_threads < 1)
        srv->cfg.http_threads = 1;
    struct stat sb;
    if (cfg->web_dir && stat(cfg->web_dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
        strlen(cfg->web_dir) < sizeof srv->web_dir) {
        snprintf(srv->web_dir, sizeof srv->web_dir, "%s", cfg->web_dir);
        srv->have_web = true;
    }
    if (!cfg->no_http && http_check_host(srv->host, err, err_size) != 0)
        goto fail;
    /* At most db_waiters HTTP threads inside the database at once (store_gate.h): a
     * locked database cannot take all of them. */
    int db_waiters = cfg->db_waiters > 0 ? cfg->db_waiters : (srv->cfg.http_threads + 1) / 2;
    struct store_options opt = {
        .durability = cfg->sync, .max_waiting = db_waiters, .pool = cfg->db_pool};
    srv->store = store_open(cfg->db_path, &opt, err, err_size);
    if (!srv->store)
        goto fail;
    srv->puzzles = calloc(1, sizeof *srv->puzzles);
    if (!srv->puzzles ||
        puzzle_set_load(srv->puzzles, cfg->puzzles_dir, srv->store, err, err_size) != 0)
        goto fail;
    if (cfg->new_games_per_minute > 0 &&
        !(srv->limiter = ratelimit_new(cfg->new_games_per_minute))) {
        fail(err, err_size, "out of memory");
        goto fail;
    }
    /* Games between people: the caps per token and per address (API.md "Limits of
     * games between people"). */
    int people = cfg->people_per_minute, draws = cfg->draw_offers_per_minute;
    if ((people > 0 && (!(srv->people_by_token = ratelimit_new(people)) ||
                        !(srv->people_by_addr = ratelimit_new(3 * people)))) ||
        (draws > 0 && (!(srv->draws_by_token = ratelimit_new(draws)) ||
                       !(srv->draws_by_addr = ratelimit_new(3 * draws)))) ||
        !(srv->seek_caps = seek_caps_new())) {
        fail(err, err_size, "out of memory");
        goto fail;
    }
    if (!strncmp(cfg->db_path, "postgresql://", 13) || !strncmp(cfg->db_path, "postgres://", 11)) {
        /* Several servers on one database: a client's requests counted on all of them. */
        srv->limits_shared = true;
        ratelimit_share(srv->limiter, srv->store, "new_games");
        ratelimit_share(srv->people_by_token, srv->store, "people_by_token");
        ratelimit_share(srv->people_by_addr, srv->store, "people_by_addr");
        ratelimit_share(srv->draws_by_token, srv->store, "draws_by_token");
        ratelimit_share(srv->draws_by_addr, srv->store, "draws_by_addr");
        if (srv->puzzles) {
            ratelimit_share(srv->puzzles->attempts, srv->store, "puzzle_attempts");
            ratelimit_share(srv->puzzles->tokens, srv->store, "puzzle_tokens");
        }
    }
    cache_init(srv);
    srv->hub = stream_hub_new();
    if (!srv->buckets || !srv->hub) {
        fail(err, err_size, "out of memory");
        goto fail;
    }
    analysis_engines_start(srv);
    if (workers_start(srv, err, err_size) != 0 || analysis_jobs_start(srv, err, err_size) != 0 ||
        review_jobs_start(srv, err, err_size) != 0 || clock_start(srv, err, err_size) != 0 ||
        outbox_start(srv, err, err_size) != 0 || director_start(srv, err, err_size) != 0)
        goto fail;
    if (cfg->no_http)
        return srv;
    if (http_start(srv, err, err_size) != 0)
        goto fail;
    return srv;
fail:
    server_stop(srv);
    return NULL;
}

int server_request(struct server *srv, const char *method, const char *url,
                   const char *authorization, const char *body, size_t body_len, char **out)
{
    struct api_request req = {
        .method = method,
        .url = url,
        .authorization = authorization,
        .client = "fuzz",
        .body = body,
        .body_len = body_len,
        .body_too_large = body_len > SERVER_BODY_MAX,
    };
    struct api_response ar;
    api_handle(srv, &req, &ar);
    *out = NULL;
    if (ar.kind == API_DONE) {
        *out = ar.body;
        return ar.status;
    }
    if (ar.kind == API_STREAM)
        cache_put(ar.session);
    if (ar.kind == API_ANALYSIS) { /* no stream to send it to: stopped at once */
        atomic_store(&ar.job->stop, 1);
        analysis_job_put(ar.job);
    }
    *out = strdup(ar.kind == API_STATIC ? "file" : "stream");
    return 200;
}
