/* The game server's API, against real servers on loopback ports started and stopped
 * by the tests (two at once where it matters: the server keeps no globals). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/registry.h"
#include "harness.h"
#include "server/server.h"
#include "server/token.h"
#include "server_client.h"

static struct server *start_server(const char *db, int per_minute, int think_ms)
{
    struct server_config cfg;
    server_config_default(&cfg);
    cfg.port = 0;
    cfg.db_path = db;
    cfg.web_dir = NULL;
    cfg.sync = STORE_SYNC_NORMAL;
    cfg.http_threads = 2;
    cfg.engine_workers = 2;
    cfg.cache_games = 64;
    cfg.new_games_per_minute = per_minute;
    cfg.test_think_ms = think_ms;
    char err[256];
    struct server *srv = server_start(&cfg, err, sizeof err);
    if (!srv)
        fprintf(stderr, "server_start: %s\n", err);
    return srv;
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
    cfg.sync = STORE_SYNC_NORMAL;
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
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[6] = {"agora"};
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
