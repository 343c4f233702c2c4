/* The game server's API, against real servers on loopback ports started and stopped
 * by the tests (two at once where it matters: the server keeps no globals). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book_file.h"
#include "cli/cli.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "harness.h"
#include "server/common/json_out.h"
#include "server/common/ratelimit.h"
#include "server/common/token.h"
#include "server/server.h"
#include "server_client.h"

/* The tests' configuration: a free port, no web folder, a small cache. */
static void test_config(struct server_config *cfg, const char *db, int per_minute, int think_ms)
{
    server_config_default(cfg);
    cfg->port = 0;
    cfg->db_path = db;
    cfg->web_dir = NULL;
    cfg->sync = STORE_SURVIVES_KILL;
    cfg->http_threads = 2;
    cfg->engine_workers = 2;
    cfg->cache_games = 64;
    cfg->new_games_per_minute = per_minute;
    cfg->test_think_ms = think_ms;
}

static struct server *start_with(const struct server_config *cfg)
{
    char err[256];
    struct server *srv = server_start(cfg, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
}

static struct server *start_server(const char *db, int per_minute, int think_ms)
{
    struct server_config cfg;
    test_config(&cfg, db, per_minute, think_ms);
    return start_with(&cfg);
}

/* A new game; fills id and token; returns the state (caller decrefs) or NULL. */
static json_t *new_game(int port, const char *game, const char *side, const char *position,
                        char *id, char *token)
{
    char body[512];
    if (position)
        snprintf(body, sizeof body,
                 "{\"game\":\"%s\",\"level\":1,\"side\":\"%s\",\"position\":\"%s\"}", game, side,
                 position);
    else
        snprintf(body, sizeof body, "{\"game\":\"%s\",\"level\":1,\"side\":\"%s\"}", game, side);
    json_t *j;
    if (api_call(port, "POST", "/api/games", NULL, body, &j) != 201) {
        json_decref(j);
        return NULL;
    }
    snprintf(id, 40, "%s", json_string_value(json_object_get(j, "id")));
    snprintf(token, 40, "%s", json_string_value(json_object_get(j, "token")));
    return j;
}

static const char *jstr(json_t *j, const char *key)
{
    const char *s = json_string_value(json_object_get(j, key));
    return s ? s : "";
}

/* The parts of a state that a rejected request must not change. */
static char *fingerprint(json_t *state)
{
    json_t *f =
        json_pack("{sOsOsOsO}", "position", json_object_get(state, "position"), "moves",
                  json_object_get(state, "moves"), "status", json_object_get(state, "status"),
                  "updated", json_object_get(state, "updated"));
    char *s = json_dumps(f, JSON_SORT_KEYS | JSON_COMPACT);
    json_decref(f);
    return s;
}

static char *fingerprint_of(int port, const char *id)
{
    json_t *st = api_get_state(port, id);
    char *f = st ? fingerprint(st) : strdup("(no state)");
    json_decref(st);
    return f;
}

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

static size_t games_count(void)
{
    size_t n = 0;
    while (game_registry[n])
        n++;
    return n;
}

TEST(server_new_game_and_state)
{
    struct server *srv = start_server(":memory:", 0, 0);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    char id[40], token[40];
    json_t *j = new_game(port, "egara", "white", NULL, id, token);
    CHECK(j != NULL);
    if (j) {
        CHECK_EQ_INT(strlen(id), 32);
        CHECK(token_well_formed(token));
        CHECK_STR(jstr(j, "game"), "egara-guti");
        CHECK_STR(jstr(j, "human_side"), "white");
        CHECK_STR(jstr(j, "side_to_move"), "white");
        CHECK(json_array_size(json_object_get(j, "legal_moves")) == 3);
        json_t *lm = json_array_get(json_object_get(j, "legal_moves"), 0);
        CHECK(json_is_string(json_object_get(lm, "from")) &&
              json_is_array(json_object_get(lm, "captured")));
        CHECK_STR(jstr(json_object_get(j, "status"), "result"), "ongoing");
        CHECK(json_is_string(json_object_get(j, "created")));
        CHECK_EQ_INT(json_array_size(json_object_get(j, "board")), 23);
        json_t *again = api_get_state(port, id);
        CHECK(again && !json_object_get(again, "token"));
        CHECK_STR(jstr(again, "position"), jstr(j, "position"));
        json_decref(again);
    }
    json_decref(j);
    json_t *cat;
    CHECK_EQ_INT(api_call(port, "GET", "/api/catalog", NULL, NULL, &cat), 200);
    json_t *eg = NULL;
    for (size_t i = 0; i < json_array_size(json_object_get(cat, "games")); i++)
        if (!strcmp(jstr(json_array_get(json_object_get(cat, "games"), i), "name"), "egara-guti"))
            eg = json_array_get(json_object_get(cat, "games"), i);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "games")), games_count());
    CHECK_STR(jstr(json_object_get(eg, "layout"), "shape"), "graph");
    CHECK_EQ_INT(json_array_size(json_object_get(json_object_get(eg, "layout"), "cells")), 23);
    CHECK_EQ_INT(json_array_size(json_object_get(json_object_get(eg, "layout"), "edges")), 40);
    json_decref(cat);
    /* Black: the computer (White) opens before the reply. */
    j = new_game(port, "egara-guti", "black", NULL, id, token);
    CHECK(j && json_array_size(json_object_get(j, "moves")) == 1);
    CHECK_STR(jstr(j, "side_to_move"), "black");
    json_decref(j);
    /* A start position. */
    j = new_game(port, "egara", "white", "1W3/3/3/1/3/3/1B3 w 0", id, token);
    CHECK(j != NULL);
    CHECK_STR(jstr(j, "start_position"), "1W3/3/3/1/3/3/1B3 w 0");
    json_decref(j);
    server_stop(srv);
}

/* Play a whole game (first legal move each turn) against level 1; the final ply. */
static int play_out(struct test_ctx *t__, int port, const char *game, const char *position)
{
    char id[40], token[40];
    json_t *st = new_game(port, game, "white", position, id, token);
    CHECK_MSG(st != NULL, "cannot start %s", game);
    int requests = 0;
    while (st && !json_is_true(json_object_get(json_object_get(st, "status"), "over")) &&
           requests < 2000) {
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0);
        CHECK(lm != NULL);
        if (!lm)
            break;
        int before = (int)json_integer_value(json_object_get(st, "ply"));
        json_t *next;
        int code = api_post_move(port, id, token, jstr(lm, "move"), &next);
        CHECK_EQ_INT(code, 200);
        json_decref(st);
        st = next;
        if (code != 200)
            break;
        int after = (int)json_integer_value(json_object_get(st, "ply"));
        bool over = json_is_true(json_object_get(json_object_get(st, "status"), "over"));
        CHECK_MSG(after == before + 2 || (over && after == before + 1),
                  "ply %d -> %d after a move and the reply", before, after);
        requests++;
    }
    CHECK_MSG(st && json_is_true(json_object_get(json_object_get(st, "status"), "over")),
              "%s did not end", game);
    int ply = st ? (int)json_integer_value(json_object_get(st, "ply")) : -1;
    /* The record lists every move and the result. */
    char path[128];
    snprintf(path, sizeof path, "/api/games/%.40s/record", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.body && strstr(r.body, "[Result \"") && !strstr(r.body, "[Result \"*\"]"));
    http_reply_free(&r);
    /* A finished game takes no more moves. */
    if (st) {
        json_t *e;
        CHECK_EQ_INT(api_post_move(port, id, token, "a1-b2", &e), 409);
        json_decref(e);
    }
    json_decref(st);
    return ply;
}

TEST(server_whole_games_every_game)
{
    struct server *srv = start_server(":memory:", 0, 0);
    if (!srv)
        SKIP("no server");
    for (int i = 0; game_registry[i]; i++) {
        int ply = play_out(t__, server_port(srv), game_registry[i]->name, NULL);
        CHECK_MSG(ply > 0, "%s: a whole game through the API", game_registry[i]->name);
    }
    /* Egara-guti from a near-final position: one capture ends it. */
    CHECK_EQ_INT(play_out(t__, server_port(srv), "egara", "5/3/3/1/W2/B2/5 w 0"), 1);
    server_stop(srv);
}

struct move_job {
    int port;
    const char *id, *token, *move;
    int code;
};

static void *move_thread(void *arg)
{
    struct move_job *job = arg;
    json_t *j;
    job->code = api_post_move(job->port, job->id, job->token, job->move, &j);
    json_decref(j);
    return NULL;
}

TEST(server_error_codes)
{
    struct server *srv = start_server(":memory:", 3, 300);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], path[128];
    json_t *j = new_game(port, "egara", "white", NULL, id, token), *e = NULL;
    CHECK(j != NULL);
    json_decref(j);
    char *before = fingerprint_of(port, id);
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
#define EXPECT(code, method, p, tok, body)                                                         \
    do {                                                                                           \
        CHECK_EQ_INT(api_call(port, method, p, tok, body, &e), code);                              \
        CHECK_MSG(json_is_string(json_object_get(e, "error")), "no JSON error (%d)", code);        \
        json_decref(e);                                                                            \
    } while (0)
    /* 400: malformed JSON, wrong shapes, illegal and malformed moves. */
    EXPECT(400, "POST", path, token, "{\"move\":");
    EXPECT(400, "POST", path, token, "[\"d3-d4\"]");
    EXPECT(400, "POST", path, token, "{\"move\":42}");
    EXPECT(400, "POST", path, token, "");
    EXPECT(400, "POST", path, token, "{\"move\":\"d3-d4\",\"move\":\"c3-d4\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"a1-a7\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"zz\"}");
    EXPECT(400, "POST", path, token, "{\"move\":\"d3-d4\\u0000x\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"go\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"level\":9}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"side\":\"red\"}");
    EXPECT(400, "POST", "/api/games", NULL, "{\"game\":\"egara\",\"position\":\"W/B\"}");
    EXPECT(400, "POST", "/api/games", NULL,
           "{\"game\":\"egara\",\"position\":\"5/3/3/1/3/3/1W3 w 0\"}");
    /* 403: missing or wrong token. */
    EXPECT(403, "POST", path, NULL, "{\"move\":\"d3-d4\"}");
    EXPECT(403, "POST", path, "00000000000000000000000000000000", "{\"move\":\"d3-d4\"}");
    EXPECT(403, "GET", "/api/games", NULL, NULL);
    /* 404: unknown games and paths. */
    EXPECT(404, "GET", "/api/games/0123456789abcdef0123456789abcdef", NULL, NULL);
    EXPECT(404, "GET", "/api/games/nope", NULL, NULL);
    EXPECT(404, "POST", "/api/games/0123456789abcdef0123456789abcdef/moves", token,
           "{\"move\":\"d3-d4\"}");
    EXPECT(404, "GET", "/api/nothing", NULL, NULL);
    snprintf(path, sizeof path, "/api/games/%.40s/fly", id);
    EXPECT(404, "POST", path, token, "{}");
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    EXPECT(405, "GET", path, NULL, NULL);
    /* 409: no claim here. */
    snprintf(path, sizeof path, "/api/games/%.40s/claim", id);
    EXPECT(409, "POST", path, token, NULL);
    char *after = fingerprint_of(port, id);
    CHECK_STR(after, before);
    free(after);
    free(before);

    /* 413: a body over 16 KiB, refused, nothing changed. */
    size_t big = 20000;
    char *body = malloc(big + 1);
    memset(body, ' ', big);
    memcpy(body, "{\"move\":\"d3-d4\"", 15);
    body[big - 1] = '}';
    body[big] = 0;
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "POST", path, token, body, big, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 413);
    http_reply_free(&r);
    free(body);
    before = fingerprint_of(port, id);
    CHECK(strstr(before, "\"moves\":[]") != NULL);

    /* 409: not your turn while the computer thinks (300 ms here). */
    struct move_job job = {port, id, token, "d3-d4", 0};
    pthread_t th;
    pthread_create(&th, NULL, move_thread, &job);
    usleep(100 * 1000);
    EXPECT(409, "POST", path, token, "{\"move\":\"c3-d4\"}");
    json_t *mid = api_get_state(port, id);
    CHECK(mid && json_is_true(json_object_get(mid, "thinking")));
    CHECK(mid && json_array_size(json_object_get(mid, "legal_moves")) > 0);
    json_decref(mid);
    pthread_join(th, NULL);
    CHECK_EQ_INT(job.code, 200);
    /* 409: the game is over (resigned). */
    snprintf(path, sizeof path, "/api/games/%.40s/resign", id);
    CHECK_EQ_INT(api_call(port, "POST", path, token, NULL, &e), 200);
    CHECK_STR(jstr(json_object_get(e, "status"), "reason"), "resignation");
    CHECK_STR(jstr(json_object_get(e, "status"), "result"), "black-wins");
    json_decref(e);
    EXPECT(409, "POST", path, token, NULL);
    snprintf(path, sizeof path, "/api/games/%.40s/moves", id);
    EXPECT(409, "POST", path, token, "{\"move\":\"c3-d4\"}");
    free(before);

    /* 429: the fourth new game within a minute from one address (limit 3). */
    json_t *g2 = new_game(port, "egara", "white", NULL, id, token);
    json_t *g3 = new_game(port, "egara", "white", NULL, id, token);
    CHECK(g2 && g3);
    json_decref(g2);
    json_decref(g3);
    EXPECT(429, "POST", "/api/games", NULL, "{\"game\":\"egara\"}");
#undef EXPECT
    server_stop(srv);
}

TEST(server_cache_evicts_and_reloads)
{
    /* 16 games fit in memory; 40 are played, so most are dropped and rebuilt from the
     * store (start position + moves) when they come back. */
    char dir[64], db[128];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/cache.db", dir);
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = db;
    cfg.web_dir = NULL;
    cfg.sync = STORE_SURVIVES_KILL;
    cfg.cache_games = 16;
    cfg.new_games_per_minute = 0;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    enum { N = 40 };
    char ids[N][40], tokens[N][40];
    char *prints[N];
    for (int i = 0; i < N; i++) {
        json_t *st = new_game(port, "egara", i % 2 ? "black" : "white", NULL, ids[i], tokens[i]);
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0), *next = NULL;
        CHECK_EQ_INT(api_post_move(port, ids[i], tokens[i], jstr(lm, "move"), &next), 200);
        prints[i] = next ? fingerprint(next) : strdup("");
        json_decref(next);
        json_decref(st);
    }
    for (int i = 0; i < N; i++) {
        char *now = fingerprint_of(port, ids[i]);
        CHECK_STR(now, prints[i]);
        free(now);
        free(prints[i]);
    }
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_static_files)
{
    char dir[64], path[160];
    test_tmpdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        SKIP("cannot write a temporary web folder");
    fputs("<!doctype html><title>hall</title>", f);
    fclose(f);
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = ":memory:";
    cfg.web_dir = dir;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.body && strstr(r.body, "<title>hall</title>"));
    CHECK(r.head && strstr(r.head, "text/html"));
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "GET", "/nope.js", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 404);
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "GET", "/../../../etc/passwd", NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.status == 404 || r.status == 400);
    CHECK(!r.body || !strstr(r.body, "root:"));
    http_reply_free(&r);
    CHECK_EQ_INT(http_call(port, "DELETE", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 405);
    http_reply_free(&r);
    server_stop(srv);
    test_rmdir(dir);
    /* No web/ folder: a placeholder page says so. */
    cfg.web_dir = "/nonexistent-agora-web";
    srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        return;
    CHECK_EQ_INT(http_call(server_port(srv), "GET", "/", NULL, NULL, 0, NULL, &r), 0);
    CHECK_EQ_INT(r.status, 200);
    CHECK(r.body && strstr(r.body, "not built yet"));
    http_reply_free(&r);
    server_stop(srv);
}

TEST(server_adjudicates_long_games)
{
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = ":memory:";
    cfg.web_dir = NULL;
    cfg.max_plies = 4;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40];
    json_t *st = new_game(port, "egara", "white", NULL, id, token);
    for (int i = 0; st && i < 2; i++) {
        json_t *next = NULL;
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0);
        CHECK_EQ_INT(api_post_move(port, id, token, jstr(lm, "move"), &next), 200);
        json_decref(st);
        st = next;
    }
    json_t *status = json_object_get(st, "status");
    CHECK_EQ_INT(json_integer_value(json_object_get(st, "ply")), 4);
    CHECK_STR(jstr(status, "result"), "draw");
    CHECK_STR(jstr(status, "reason"), "adjudication");
    json_decref(st);
    server_stop(srv);
}

TEST(server_cli_bad_arguments)
{
    static const char *const bad[][4] = {
        {"serve", "--port", "http", NULL},
        {"serve", "--port", "70000", NULL},
        {"serve", "--sync", "sometimes", NULL},
        {"serve", "--bogus", "1", NULL},
        {"serve", "--port", NULL, NULL},
        {"serve", "--db", "/nonexistent-dir/x/agora.db", NULL},
        {"serve", "--host", "localhost:80", NULL},
        /* --trust-proxy is a flag: it takes no value, so the next option is read. */
        {"serve", "--trust-proxy", "--sync", "sometimes"},
        {"serve", "--trust-proxy", "yes", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[7] = {"agora"};
        int argc = 1;
        for (int k = 0; k < 4 && bad[i][k]; k++)
            argv[argc++] = (char *)bad[i][k];
        if (i == 5 || i == 6) { /* valid options that fail at start: use a free port */
            argv[argc++] = "--port";
            argv[argc++] = "0";
        }
        FILE *out = tmpfile(), *err = tmpfile();
        struct cli_io io = {stdin, out, err};
        int code = cli_main(argc, argv, &io);
        CHECK_MSG(code == 2, "case %zu exits %d", i, code);
        char line[512] = "";
        rewind(err);
        CHECK_MSG(fgets(line, sizeof line, err) && !strncmp(line, "agora: ", 7), "case %zu: '%s'",
                  i, line);
        fclose(out);
        fclose(err);
    }
}

TEST(server_chess_claim_and_record)
{
    if (!game_find("chess"))
        SKIP("chess is not registered");
    struct server *srv = start_server(":memory:", 0, 0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40], path[128];
    /* Fifty moves without a capture or pawn move: White may claim. */
    json_t *st = new_game(port, "chess", "white", "8/8/8/4k3/8/8/8/R3K3 w - - 100 80", id, token);
    CHECK(st != NULL);
    json_t *claims = json_object_get(st, "claims");
    CHECK(json_array_size(claims) == 1 &&
          !strcmp(json_string_value(json_array_get(claims, 0)), "fifty-moves"));
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%.40s/claim", id);
    json_t *e;
    CHECK_EQ_INT(api_call(port, "POST", path, token, "{\"claim\":\"threefold\"}", &e), 409);
    json_decref(e);
    CHECK_EQ_INT(api_call(port, "POST", path, token, "{\"claim\":\"fifty-moves\"}", &e), 200);
    CHECK_STR(jstr(json_object_get(e, "status"), "result"), "draw");
    CHECK_STR(jstr(json_object_get(e, "status"), "reason"), "fifty-move-claim");
    json_decref(e);
    /* A chess game's record is PGN with SAN. */
    st = new_game(port, "chess", "white", NULL, id, token);
    json_t *next = NULL;
    CHECK_EQ_INT(api_post_move(port, id, token, "e2e4", &next), 200);
    CHECK_STR(jstr(json_array_get(json_object_get(next, "moves"), 0), "display"), "e4");
    CHECK_STR(jstr(json_array_get(json_object_get(next, "moves"), 0), "san"), "e4");
    json_decref(next);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%.40s/record", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.body && strstr(r.body, "[White \"Player\"]") && strstr(r.body, "1. e4 ") &&
          !strstr(r.body, "[Variant"));
    http_reply_free(&r);
    /* From a FEN, the PGN numbers its moves from the FEN's move number. */
    st = new_game(port, "chess", "white", "8/8/8/4k3/8/8/8/R3K3 w - - 0 80", id, token);
    CHECK_EQ_INT(api_post_move(port, id, token, "a1a2", &next), 200);
    json_decref(next);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%.40s/record", id);
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.body && strstr(r.body, "[SetUp \"1\"]") &&
          strstr(r.body, "[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 0 80\"]") && strstr(r.body, "80. Ra2"));
    http_reply_free(&r);
    server_stop(srv);
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
    struct server *srv = start_server(":memory:", 2, 0);
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
    test_config(&cfg, ":memory:", 2, 0);
    cfg.trust_proxy = 1;
    struct server *srv = start_with(&cfg);
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

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

TEST(server_watchdog_ends_a_move_over_its_cap)
{
    /* An engine with no limit of its own (it would search for ever) at level 8: only
     * the watchdog's stop at the per-move cap ends it.  The move is still answered,
     * soon after the cap, with a legal reply, stored: the game goes on, the same after
     * a restart. */
    char dir[64], db[128], id[40], token[40];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/watchdog.db", dir);
    struct server_config cfg;
    test_config(&cfg, db, 0, 0);
    cfg.engine_workers = 1;
    cfg.move_time_ms = 150;
    cfg.test_uncapped_engine = 1;
    struct server *srv = start_with(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL,
                          "{\"game\":\"egara\",\"level\":8,\"side\":\"white\"}", &st),
                 201);
    snprintf(id, sizeof id, "%s", jstr(st, "id"));
    snprintf(token, sizeof token, "%s", jstr(st, "token"));
    json_decref(st);
    const char *mine[2] = {"d3-d4", NULL};
    for (int round = 0; round < 2; round++) {
        json_t *now = api_get_state(port, id);
        if (!mine[round] && now) /* the second move: any legal one */
            mine[round] = jstr(json_array_get(json_object_get(now, "legal_moves"), 0), "move");
        char move[16];
        snprintf(move, sizeof move, "%s", mine[round] ? mine[round] : "?");
        json_decref(now);
        json_t *reply = NULL;
        int64_t t0 = now_ms();
        CHECK_EQ_INT(api_post_move(port, id, token, move, &reply), 200);
        int64_t took = now_ms() - t0;
        /* Not before the cap (nothing else stops this engine), and well before a
         * search without end: the cap, the watchdog's 50 ms grace and its 20 ms tick,
         * with room for a slow (sanitizer) build on a busy machine. */
        CHECK_MSG(took >= cfg.move_time_ms && took < 3000, "round %d took %lld ms", round,
                  (long long)took);
        CHECK_EQ_INT(json_integer_value(json_object_get(reply, "ply")), 2 * (round + 1));
        CHECK(json_is_true(json_object_get(reply, "your_turn")) &&
              json_is_false(json_object_get(reply, "thinking")));
        CHECK_STR(jstr(json_array_get(json_object_get(reply, "moves"), 2 * round), "move"), move);
        json_t *again = api_get_state(port, id);
        CHECK(again && !strcmp(jstr(again, "position"), jstr(reply, "position")));
        json_decref(again);
        json_decref(reply);
    }
    json_t *before = api_get_state(port, id);
    server_stop(srv);
    srv = start_with(&cfg);
    json_t *after = srv ? api_get_state(server_port(srv), id) : NULL;
    CHECK(before && after);
    if (before && after) {
        CHECK_STR(jstr(after, "position"), jstr(before, "position"));
        CHECK_EQ_INT(json_integer_value(json_object_get(after, "ply")), 4);
    }
    json_decref(before);
    json_decref(after);
    server_stop(srv);
    test_rmdir(dir);
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
    CHECK_STR(jstr(v, "q"), "say \"hi\" \\ back?now? caf??");
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

/* The chess levels open from the server's book (cfg.book): the computer's first move
 * as White is the book's only move. */
TEST(server_chess_levels_open_from_the_book)
{
    const struct test_book_entry only[] = {{TEST_BOOK_START_KEY, test_book_move("a2", "a3", 0), 1}};
    char path[64], err[ERROR_TEXT_MAX];
    test_book_write(path, only, 1, 0);
    struct engine_book *book = NULL;
    CHECK_MSG(
        engine_book_open(engine_profile_of(game_find("chess")), path, &book, err, sizeof err) == 0,
        "%s", err);
    struct server_config cfg;
    test_config(&cfg, ":memory:", 0, 0);
    cfg.book = book;
    struct server *srv = book ? start_with(&cfg) : NULL;
    CHECK(srv != NULL);
    if (srv) {
        char id[40], token[40];
        json_t *j = new_game(server_port(srv), "chess", "black", NULL, id, token);
        CHECK(j && json_array_size(json_object_get(j, "moves")) == 1);
        CHECK_STR(jstr(json_array_get(json_object_get(j, "moves"), 0), "san"), "a3");
        json_decref(j);
        server_stop(srv);
    }
    engine_book_close(book);
    unlink(path);
}
