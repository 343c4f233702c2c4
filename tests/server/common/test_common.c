/* The common room (src/server/common): tokens, the rate limit by client address
 * (behind a proxy or not), and the JSON writer. */
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "core/json_out.h"
#include "server/common/ratelimit.h"
#include "server/common/token.h"
#include "server/server.h"

TEST(server_token_sha256)
{
    char h[65];
    token_hash("abc", h);
    CHECK_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    token_hash("", h);
    CHECK_STR(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    token_hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", h);
    CHECK_STR(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char tok[TOKEN_HEX_LEN + 1], tok2[TOKEN_HEX_LEN + 1];
    CHECK_EQ_INT(token_random_hex(tok, TOKEN_HEX_LEN / 2), 0);
    CHECK_EQ_INT(token_random_hex(tok2, TOKEN_HEX_LEN / 2), 0);
    CHECK(token_well_formed(tok));
    CHECK(strcmp(tok, tok2) != 0);
    CHECK(!token_well_formed("abc"));
    CHECK(token_equal(tok, tok) && !token_equal(tok, tok2));
}

/* POST /api/games from this connection with an X-Forwarded-For header (or none). */
static int create_from(int port, const char *forwarded_for)
{
    char headers[256] = "";
    if (forwarded_for)
        snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\n", forwarded_for);
    const char *body = "{\"game\":\"egara\"}";
    struct http_reply r;
    if (http_call(port, "POST", "/api/games", NULL, body, strlen(body), headers, &r) != 0)
        return 0;
    int status = r.status;
    http_reply_free(&r);
    return status;
}

TEST(server_rate_limit_ignores_forwarded_for_by_default)
{
    /* Without --trust-proxy a client cannot dodge the limit by naming other addresses. */
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 2;
    cfg.new_games_per_minute = 2;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    CHECK_EQ_INT(create_from(port, "203.0.113.1"), 201);
    CHECK_EQ_INT(create_from(port, "203.0.113.2"), 201);
    CHECK_EQ_INT(create_from(port, "203.0.113.3"), 429);
    CHECK_EQ_INT(create_from(port, "198.51.100.1, 203.0.113.4"), 429);
    CHECK_EQ_INT(create_from(port, NULL), 429);
    server_stop(srv);
}

TEST(server_rate_limit_behind_a_trusted_proxy)
{
    /* With --trust-proxy the limit keys on the last X-Forwarded-For address (the one
     * the proxy appended); what the client put before it changes nothing. */
    struct server_config cfg;
    fx_config(&cfg);
    cfg.engine_workers = 2;
    cfg.new_games_per_minute = 2;
    cfg.trust_proxy = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    CHECK_EQ_INT(create_from(port, "203.0.113.7"), 201);
    CHECK_EQ_INT(create_from(port, "10.9.9.9, 203.0.113.7"), 201);
    CHECK_EQ_INT(create_from(port, "10.8.8.8,203.0.113.7"), 429);
    /* Another visitor behind the same proxy (same socket address) is not limited. */
    CHECK_EQ_INT(create_from(port, "203.0.113.7, 2001:db8::5 "), 201);
    CHECK_EQ_INT(create_from(port, "2001:db8::5"), 201);
    CHECK_EQ_INT(create_from(port, "2001:db8::5"), 429);
    /* No header, or one that names no address: the socket's own address. */
    CHECK_EQ_INT(create_from(port, NULL), 201);
    CHECK_EQ_INT(create_from(port, "203.0.113.7, not-an-address"), 201);
    CHECK_EQ_INT(create_from(port, ""), 429);
    server_stop(srv);
}

TEST(server_forwarded_addr_parsing)
{
    char out[48];
    CHECK(ratelimit_forwarded_addr("1.2.3.4", out, sizeof out) && !strcmp(out, "1.2.3.4"));
    CHECK(ratelimit_forwarded_addr("9.9.9.9, 1.2.3.4", out, sizeof out) && !strcmp(out, "1.2.3.4"));
    CHECK(ratelimit_forwarded_addr(" a, ::1 ", out, sizeof out) && !strcmp(out, "::1"));
    CHECK(!ratelimit_forwarded_addr(NULL, out, sizeof out));
    CHECK(!ratelimit_forwarded_addr("", out, sizeof out));
    CHECK(!ratelimit_forwarded_addr("1.2.3.4,", out, sizeof out));
    CHECK(!ratelimit_forwarded_addr("1.2.3.4, x y", out, sizeof out));
    CHECK(!ratelimit_forwarded_addr("1.2.3.4, evil\"name", out, sizeof out));
    CHECK(!ratelimit_forwarded_addr(
        "1.2.3.4, 1111:2222:3333:4444:5555:6666:7777:8888:9999:0000:1111", out, sizeof out));
}

TEST(server_json_out_writes_valid_json)
{
    struct jout j;
    jout_init(&j, 0); /* a tiny start: the buffer grows */
    jout_open(&j, '{');
    jout_kstr(&j, "q", "say \"hi\" \\ back\tnow\x01 caf\xc3\xa9");
    jout_kint(&j, "n", -42);
    jout_key(&j, "list");
    jout_open(&j, '[');
    for (int i = 0; i < 100; i++) {
        jout_open(&j, '{');
        jout_kbool(&j, "even", i % 2 == 0);
        jout_close(&j, '}');
    }
    jout_open(&j, '[');
    jout_close(&j, ']');
    jout_null(&j);
    jout_raw(&j, "{\"x\":1}");
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *text = jout_finish(&j);
    CHECK(text != NULL);
    json_error_t e;
    json_t *v = text ? json_loads(text, JSON_REJECT_DUPLICATES, &e) : NULL;
    CHECK_MSG(v != NULL, "not JSON: %s", text ? text : "(null)");
    CHECK_STR(fx_str(v, "q"), "say \"hi\" \\ back\tnow\x01 caf\xc3\xa9");
    CHECK_EQ_INT(json_integer_value(json_object_get(v, "n")), -42);
    json_t *list = json_object_get(v, "list");
    CHECK_EQ_INT(json_array_size(list), 103);
    CHECK(json_is_true(json_object_get(json_array_get(list, 0), "even")) &&
          json_is_false(json_object_get(json_array_get(list, 99), "even")));
    CHECK(json_is_array(json_array_get(list, 100)) && json_is_null(json_array_get(list, 101)));
    CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(list, 102), "x")), 1);
    json_decref(v);
    free(text);
}
