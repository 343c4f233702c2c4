/* The opening trainer's API (src/server/API.md: POST /api/positions with "book",
 * GET /api/openings/GAME) against a real server on loopback: book moves with weights,
 * all legal; the opening's name along the way; games without books or names; bad
 * paths and methods.  Uses Debian's gnuchess-book and pgn-extract's eco.pgn when
 * installed (scripts/setup installs both); without them the parts needing them pass. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../harness.h"
#include "../fixture.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/server.h"

#define BOOK "/usr/share/games/gnuchess/book.bin"
#define NAMES "/usr/share/pgn-extract/eco.pgn"

static struct server *start(const char *db, const struct engine_book *book)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.new_games_per_minute = 30; /* server_config_default's */
    cfg.db_path = db;
    cfg.book = book;
    return fx_start(&cfg);
}

static bool legal_has(json_t *pos, const char *move)
{
    size_t i;
    json_t *m;
    json_array_foreach(
        json_object_get(pos, "legal_moves"), i,
        m) if (!strcmp(json_string_value(json_object_get(m, "move")), move)) return true;
    return false;
}

TEST(server_openings_book_moves_and_names)
{
    char dir[256], db[300], err[256];
    test_tmpdir(dir, sizeof dir);
    snprintf(db, sizeof db, "%s/a.db", dir);
    bool have_book = access(BOOK, R_OK) == 0, have_names = access(NAMES, R_OK) == 0;
    struct engine_book *book = NULL;
    const struct engine_profile *p = engine_profile_of(game_find("chess"));
    if (have_book)
        CHECK_MSG(engine_book_open(p, BOOK, &book, err, sizeof err) == 0, "%s", err);
    struct server *srv = start(db, book);
    CHECK(srv != NULL);
    if (!srv)
        return;
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"e7e5\",\"g1f3\",\"b8c6\","
                          "\"f1c4\",\"f8c5\",\"a2a3\"],\"book\":true}",
                          &j),
                 200);
    json_t *bk = json_object_get(j, "book");
    CHECK(json_is_array(json_object_get(bk, "moves")));
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(bk, "moves"), i, m)
    {
        CHECK(legal_has(j, json_string_value(json_object_get(m, "move"))));
        CHECK(json_string_length(json_object_get(m, "display")) > 0);
        CHECK(json_integer_value(json_object_get(m, "weight")) >= 0);
    }
    json_t *name = json_object_get(bk, "name");
    if (have_names) {
        CHECK_MSG(json_is_object(name), "no name after the Giuoco Piano and a3");
        CHECK_EQ_INT(json_integer_value(json_object_get(name, "ply")), 6);
        CHECK(!strcmp(json_string_value(json_object_get(name, "code")), "C50"));
    }
    json_decref(j);
    /* The start: the book has moves (with weights), no name yet. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"moves\":[],\"book\":true}", &j),
                 200);
    bk = json_object_get(j, "book");
    if (have_book)
        CHECK(json_array_size(json_object_get(bk, "moves")) > 3 &&
              json_integer_value(
                  json_object_get(json_array_get(json_object_get(bk, "moves"), 0), "weight")) > 0);
    CHECK(json_is_null(json_object_get(bk, "name")));
    json_decref(j);
    /* Without "book" there is no book field; a record gets its tree and the book. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL, "{\"game\":\"chess\"}", &j), 200);
    CHECK(!json_object_get(j, "book"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"record\":\"1. e4 c5 *\",\"book\":true}", &j),
                 200);
    CHECK(json_object_get(j, "tree") && json_object_get(j, "book"));
    if (have_names)
        CHECK(json_is_object(json_object_get(json_object_get(j, "book"), "name")));
    json_decref(j);
    /* A game without book or names. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"agon\",\"moves\":[\"f1-f2\"],\"book\":true}", &j),
                 200);
    bk = json_object_get(j, "book");
    CHECK(json_array_size(json_object_get(bk, "moves")) == 0 &&
          json_is_null(json_object_get(bk, "name")));
    json_decref(j);
    /* The names list; its errors. */
    if (have_names) {
        CHECK_EQ_INT(api_call(port, "GET", "/api/openings/chess", NULL, NULL, &j), 200);
        CHECK(json_integer_value(json_object_get(j, "count")) > 1000);
        json_t *first = json_array_get(json_object_get(j, "names"), 0);
        CHECK(first && json_string_length(json_object_get(first, "record")) > 0 &&
              json_string_length(json_object_get(first, "position")) > 0);
        json_decref(j);
    }
    CHECK_EQ_INT(api_call(port, "GET", "/api/openings/agon", NULL, NULL, &j), 404);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/openings/nope", NULL, NULL, &j), 404);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/openings/chess/x", NULL, NULL, &j), 404);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/openings/chess", NULL, "{}", &j), 405);
    json_decref(j);
    server_stop(srv);
    engine_book_close(book);
    test_rmdir(dir);
}
