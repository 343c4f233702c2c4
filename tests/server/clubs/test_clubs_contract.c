/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: a club member id that names nobody is a 409 for remove and
 * admin, malformed or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../server_client.h"
#include "server/server.h"

static int64_t ct_challenge_ms; /* an invite link's life for the next ct_start (0: 7 days) */

static struct server *ct_start(const char *db, const char *puzzles)
{
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = db;
    cfg.web_dir = NULL;
    cfg.puzzles_dir = puzzles;
    cfg.http_threads = 2;
    cfg.engine_workers = 1;
    cfg.cache_games = 16;
    cfg.new_games_per_minute = 0;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    cfg.challenge_ms = ct_challenge_ms;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
}

static const char *ct_str(json_t *j, const char *key)
{
    const char *s = json_string_value(json_object_get(j, key));
    return s ? s : "";
}

TEST(server_contract_unknown_club_member_is_409)
{
    struct server *srv = ct_start(":memory:", NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"K\",\"languages\":[\"fi\"],\"name\":\"Kim\"}", &c),
                 201);
    char id[40], tok[40], path[160];
    snprintf(id, sizeof id, "%s", ct_str(c, "id"));
    snprintf(tok, sizeof tok, "%s", ct_str(c, "token"));
    json_decref(c);
    const char *who[] = {"0123456789abcdef", "nosuch", "ZZZZZZZZZZZZZZZZ"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, who[i]);
        CHECK_EQ_INT(api_call(port, "POST", path, tok, NULL, NULL), 409);
        snprintf(path, sizeof path, "/api/clubs/%s/members/%s/admin", id, who[i]);
        CHECK_EQ_INT(api_call(port, "POST", path, tok, "{\"admin\":true}", NULL), 409);
    }
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    CHECK_EQ_INT(api_call(port, "GET", path, tok, NULL, &c), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(c, "members")), 1);
    json_decref(c);
    server_stop(srv);
}
