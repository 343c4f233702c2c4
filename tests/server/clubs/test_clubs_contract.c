/* Contract checks from an outside reading of issues 16, 17 and API.md, against real
 * servers on loopback: a club member id that names nobody is a 409 for remove and
 * admin, malformed or not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

TEST(server_contract_unknown_club_member_is_409)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    cfg.analysis_threads = 0;
    cfg.review_threads = 0;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"K\",\"languages\":[\"fi\"],\"name\":\"Kim\"}", &c),
                 201);
    char id[40], tok[40], path[160];
    snprintf(id, sizeof id, "%s", fx_str(c, "id"));
    snprintf(tok, sizeof tok, "%s", fx_str(c, "token"));
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
