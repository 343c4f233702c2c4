/* Games against the computer through the API (a new game and its state, whole games of
 * every game, claims and records, the cache, the watchdog, the levels' book), against
 * real servers on loopback ports started and stopped by the tests (two at once where it
 * matters: the server keeps no globals). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../book_file.h"
#include "../../harness.h"
#include "../fixture.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/common/token.h"
#include "server/server.h"

/* These tests' settings: the fixture's, with two engine workers. */
static void test_config(struct server_config *cfg, const char *db, int per_minute, int think_ms)
{
    fx_config(cfg);
    cfg->db_path = db;
    cfg->engine_workers = 2;
    cfg->new_games_per_minute = per_minute;
    cfg->test_think_ms = think_ms;
}

static struct server *start_server(const char *db, int per_minute, int think_ms)
{
    struct server_config cfg;
    test_config(&cfg, db, per_minute, think_ms);
    return fx_start(&cfg);
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
    json_t *j = fx_new_game(port, "egara", "white", NULL, id, token);
    CHECK(j != NULL);
    if (j) {
        CHECK_EQ_INT(strlen(id), 32);
        CHECK(token_well_formed(token));
        CHECK_STR(fx_str(j, "game"), "egara-guti");
        CHECK_STR(fx_str(j, "human_side"), "white");
        CHECK_STR(fx_str(j, "side_to_move"), "white");
        CHECK(json_array_size(json_object_get(j, "legal_moves")) == 3);
        json_t *lm = json_array_get(json_object_get(j, "legal_moves"), 0);
        CHECK(json_is_string(json_object_get(lm, "from")) &&
              json_is_array(json_object_get(lm, "captured")));
        CHECK_STR(fx_str(json_object_get(j, "status"), "result"), "ongoing");
        CHECK(json_is_string(json_object_get(j, "created")));
        CHECK_EQ_INT(json_array_size(json_object_get(j, "board")), 23);
        json_t *again = api_get_state(port, id);
        CHECK(again && !json_object_get(again, "token"));
        CHECK_STR(fx_str(again, "position"), fx_str(j, "position"));
        json_decref(again);
    }
    json_decref(j);
    json_t *cat;
    CHECK_EQ_INT(api_call(port, "GET", "/api/catalog", NULL, NULL, &cat), 200);
    json_t *eg = NULL;
    for (size_t i = 0; i < json_array_size(json_object_get(cat, "games")); i++)
        if (!strcmp(fx_str(json_array_get(json_object_get(cat, "games"), i), "name"), "egara-guti"))
            eg = json_array_get(json_object_get(cat, "games"), i);
    CHECK_EQ_INT(json_array_size(json_object_get(cat, "games")), games_count());
    CHECK_STR(fx_str(json_object_get(eg, "layout"), "shape"), "graph");
    CHECK_EQ_INT(json_array_size(json_object_get(json_object_get(eg, "layout"), "cells")), 23);
    CHECK_EQ_INT(json_array_size(json_object_get(json_object_get(eg, "layout"), "edges")), 40);
    json_decref(cat);
    /* Black: the computer (White) opens before the reply. */
    j = fx_new_game(port, "egara-guti", "black", NULL, id, token);
    CHECK(j && json_array_size(json_object_get(j, "moves")) == 1);
    CHECK_STR(fx_str(j, "side_to_move"), "black");
    json_decref(j);
    /* A start position. */
    j = fx_new_game(port, "egara", "white", "1W3/3/3/1/3/3/1B3 w 0", id, token);
    CHECK(j != NULL);
    CHECK_STR(fx_str(j, "start_position"), "1W3/3/3/1/3/3/1B3 w 0");
    json_decref(j);
    server_stop(srv);
}

/* Play a whole game (first legal move each turn) against level 1; the final ply. */
static int play_out(struct test_ctx *t__, int port, const char *game, const char *position)
{
    char id[40], token[40];
    json_t *st = fx_new_game(port, game, "white", position, id, token);
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
        int code = api_post_move(port, id, token, fx_str(lm, "move"), &next);
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

TEST(server_cache_evicts_and_reloads)
{
    /* 16 games fit in memory; 40 are played, so most are dropped and rebuilt from the
     * store (start position + moves) when they come back. */
    char dir[64], db[128];
    fx_tmpdb(dir, sizeof dir, db, sizeof db, "cache.db");
    struct server_config cfg;
    fx_config_defaults(&cfg);
    cfg.db_path = db;
    cfg.cache_games = 16;
    cfg.new_games_per_minute = 0;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    enum { N = 40 };
    char ids[N][40], tokens[N][40];
    char *prints[N];
    for (int i = 0; i < N; i++) {
        json_t *st = fx_new_game(port, "egara", i % 2 ? "black" : "white", NULL, ids[i], tokens[i]);
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0), *next = NULL;
        CHECK_EQ_INT(api_post_move(port, ids[i], tokens[i], fx_str(lm, "move"), &next), 200);
        prints[i] = next ? fx_fingerprint(next) : strdup("");
        json_decref(next);
        json_decref(st);
    }
    for (int i = 0; i < N; i++) {
        char *now = fx_fingerprint_of(port, ids[i]);
        CHECK_STR(now, prints[i]);
        free(now);
        free(prints[i]);
    }
    server_stop(srv);
    test_rmdir(dir);
}

TEST(server_adjudicates_long_games)
{
    struct server_config cfg;
    fx_config_defaults(&cfg);
    cfg.max_plies = 4;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char id[40], token[40];
    json_t *st = fx_new_game(port, "egara", "white", NULL, id, token);
    for (int i = 0; st && i < 2; i++) {
        json_t *next = NULL;
        json_t *lm = json_array_get(json_object_get(st, "legal_moves"), 0);
        CHECK_EQ_INT(api_post_move(port, id, token, fx_str(lm, "move"), &next), 200);
        json_decref(st);
        st = next;
    }
    json_t *status = json_object_get(st, "status");
    CHECK_EQ_INT(json_integer_value(json_object_get(st, "ply")), 4);
    CHECK_STR(fx_str(status, "result"), "draw");
    CHECK_STR(fx_str(status, "reason"), "adjudication");
    json_decref(st);
    server_stop(srv);
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
    json_t *st =
        fx_new_game(port, "chess", "white", "8/8/8/4k3/8/8/8/R3K3 w - - 100 80", id, token);
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
    CHECK_STR(fx_str(json_object_get(e, "status"), "result"), "draw");
    CHECK_STR(fx_str(json_object_get(e, "status"), "reason"), "fifty-move-claim");
    json_decref(e);
    /* A chess game's record is PGN with SAN. */
    st = fx_new_game(port, "chess", "white", NULL, id, token);
    json_t *next = NULL;
    CHECK_EQ_INT(api_post_move(port, id, token, "e2e4", &next), 200);
    CHECK_STR(fx_str(json_array_get(json_object_get(next, "moves"), 0), "display"), "e4");
    CHECK_STR(fx_str(json_array_get(json_object_get(next, "moves"), 0), "san"), "e4");
    json_decref(next);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%.40s/record", id);
    struct http_reply r;
    CHECK_EQ_INT(http_call(port, "GET", path, NULL, NULL, 0, NULL, &r), 0);
    CHECK(r.body && strstr(r.body, "[White \"Player\"]") && strstr(r.body, "1. e4 ") &&
          !strstr(r.body, "[Variant"));
    http_reply_free(&r);
    /* From a FEN, the PGN numbers its moves from the FEN's move number. */
    st = fx_new_game(port, "chess", "white", "8/8/8/4k3/8/8/8/R3K3 w - - 0 80", id, token);
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

TEST(server_watchdog_ends_a_move_over_its_cap)
{
    /* An engine with no limit of its own (it would search for ever) at level 8: only
     * the watchdog's stop at the per-move cap ends it.  The move is still answered,
     * soon after the cap, with a legal reply, stored: the game goes on, the same after
     * a restart. */
    char dir[64], db[128], id[40], token[40];
    fx_tmpdb(dir, sizeof dir, db, sizeof db, "watchdog.db");
    struct server_config cfg;
    test_config(&cfg, db, 0, 0);
    cfg.engine_workers = 1;
    cfg.move_time_ms = 150;
    cfg.test_uncapped_engine = 1;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *st = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/games", NULL,
                          "{\"game\":\"egara\",\"level\":8,\"side\":\"white\"}", &st),
                 201);
    snprintf(id, sizeof id, "%s", fx_str(st, "id"));
    snprintf(token, sizeof token, "%s", fx_str(st, "token"));
    json_decref(st);
    const char *mine[2] = {"d3-d4", NULL};
    for (int round = 0; round < 2; round++) {
        json_t *now = api_get_state(port, id);
        if (!mine[round] && now) /* the second move: any legal one */
            mine[round] = fx_str(json_array_get(json_object_get(now, "legal_moves"), 0), "move");
        char move[16];
        snprintf(move, sizeof move, "%s", mine[round] ? mine[round] : "?");
        json_decref(now);
        json_t *reply = NULL;
        int64_t t0 = fx_now_ms();
        CHECK_EQ_INT(api_post_move(port, id, token, move, &reply), 200);
        int64_t took = fx_now_ms() - t0;
        /* Not before the cap (nothing else stops this engine), and well before a
         * search without end: the cap, the watchdog's 50 ms grace and its 20 ms tick,
         * with room for a slow (sanitizer) build on a busy machine. */
        CHECK_MSG(took >= cfg.move_time_ms && took < 3000, "round %d took %lld ms", round,
                  (long long)took);
        CHECK_EQ_INT(json_integer_value(json_object_get(reply, "ply")), 2 * (round + 1));
        CHECK(json_is_true(json_object_get(reply, "your_turn")) &&
              json_is_false(json_object_get(reply, "thinking")));
        CHECK_STR(fx_str(json_array_get(json_object_get(reply, "moves"), 2 * round), "move"), move);
        json_t *again = api_get_state(port, id);
        CHECK(again && !strcmp(fx_str(again, "position"), fx_str(reply, "position")));
        json_decref(again);
        json_decref(reply);
    }
    json_t *before = api_get_state(port, id);
    server_stop(srv);
    srv = fx_start(&cfg);
    json_t *after = srv ? api_get_state(server_port(srv), id) : NULL;
    CHECK(before && after);
    if (before && after) {
        CHECK_STR(fx_str(after, "position"), fx_str(before, "position"));
        CHECK_EQ_INT(json_integer_value(json_object_get(after, "ply")), 4);
    }
    json_decref(before);
    json_decref(after);
    server_stop(srv);
    test_rmdir(dir);
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
    struct server *srv = book ? fx_start(&cfg) : NULL;
    CHECK(srv != NULL);
    if (srv) {
        char id[40], token[40];
        json_t *j = fx_new_game(server_port(srv), "chess", "black", NULL, id, token);
        CHECK(j && json_array_size(json_object_get(j, "moves")) == 1);
        CHECK_STR(fx_str(json_array_get(json_object_get(j, "moves"), 0), "san"), "a3");
        json_decref(j);
        server_stop(srv);
    }
    engine_book_close(book);
    unlink(path);
}
