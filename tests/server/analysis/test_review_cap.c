/* Reviews have a per-address cap like analyses (issue 25 item 9), against a real server
 * on loopback: one address has one review live at once (429 for its second), so the
 * other addresses still have the rest of the server's reviews (two long reviews from one
 * address made everyone else's 503). */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "games/registry.h"
#include "server/server.h"

/* POST /api/reviews of `record` from address `from` (X-Forwarded-For): the status. */
static int review_from(int port, const char *from, const char *record)
{
    char body[512], headers[96];
    snprintf(body, sizeof body, "{\"game\":\"chess\",\"record\":\"%s\"}", record);
    snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\nContent-Type: application/json\r\n",
             from);
    struct http_reply r;
    int st = http_call(port, "POST", "/api/reviews", NULL, body, strlen(body), headers, &r) == 0
                 ? r.status
                 : 0;
    http_reply_free(&r);
    return st;
}

TEST(server_reviews_per_address_cap)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct server_config cfg;
    fx_config(&cfg);
    cfg.trust_proxy = 1; /* the test chooses client addresses by X-Forwarded-For */
    cfg.review_threads = 1;
    cfg.review_max = 3;
    cfg.review_nodes = 50000000; /* long reviews: still live while the test asks */
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    const char *records[] = {"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *",
                             "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O *",
                             "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 *"};
    CHECK_EQ_INT(review_from(port, "10.0.0.1", records[0]), 202);
    CHECK_EQ_INT(review_from(port, "10.0.0.1", records[1]), 429); /* its second at once */
    CHECK_EQ_INT(review_from(port, "10.0.0.2", records[1]), 202); /* another address */
    CHECK_EQ_INT(review_from(port, "10.0.0.3", records[2]), 202);
    server_stop(srv);
}
