/* A record that goes on past the end of the game is refused (issue 25 item 9), against a
 * real server on loopback: POST /api/positions and POST /api/reviews answer 400 naming
 * the first move after the end (here a fivefold repetition), for chess's PGN reader and
 * the record tree alike; the record that stops at the end is read. */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "games/registry.h"
#include "server/server.h"

/* The start position a fifth time after 8. Ng1 Ng8 (fivefold: the game is drawn). */
#define SHUFFLE                                                                                    \
    "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8"

TEST(server_record_past_the_end_is_refused)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct server_config cfg;
    fx_config(&cfg);
    cfg.analysis_threads = 1;
    cfg.review_threads = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    const char *paths[] = {"/api/positions", "/api/reviews"};
    const int ok[] = {200, 202};
    for (int i = 0; i < 2; i++) {
        json_t *j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", paths[i], NULL,
                              "{\"game\":\"chess\",\"record\":\"" SHUFFLE " 9. Nf3 Nf6 *\"}", &j),
                     400);
        const char *e = fx_str(j, "error");
        CHECK_MSG(strstr(e, "move 9. Nf3") && strstr(e, "over"), "%s: %s", paths[i], e);
        json_decref(j);
        j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", paths[i], NULL,
                              "{\"game\":\"chess\",\"record\":\"" SHUFFLE " 1/2-1/2\"}", &j),
                     ok[i]);
        json_decref(j);
    }
    /* A variation that goes past the end is refused too (the record's tree). */
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. "
                          "Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Nd5 (8... Ng8 9. Nf3) "
                          "*\"}",
                          &j),
                 400);
    const char *e = fx_str(j, "error");
    CHECK_MSG(strstr(e, "move 9. Nf3 in a variation") && strstr(e, "over"), "%s", e);
    json_decref(j);
    server_stop(srv);
}
