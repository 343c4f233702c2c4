/* What the page needs to show and tell a move without the rules (API.md "The state"):
 * `last_move` in every state and position (the move as a legal move is described,
 * with its side, its piece and the letters of the pieces it took), the `check` flag of
 * chess moves, and the levels' ratings in the catalogue. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "core/rng.h"
#include "games/registry.h"
#include "server/server.h"

static struct server *start_plain(void)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 16;
    return fx_start(&cfg);
}

static int has_string(json_t *arr, const char *s)
{
    for (size_t i = 0; i < json_array_size(arr); i++)
        if (!strcmp(json_string_value(json_array_get(arr, i)) ?: "", s))
            return 1;
    return 0;
}

static char letter_on(const struct game *g, const void *st, const char *name)
{
    const struct board_layout *lay = g->layout();
    for (int i = 0; i < lay->cells; i++)
        if (!strcmp(lay->cell[i].name, name)) {
            unsigned marks = 0;
            return g->piece_at(st, i, &marks);
        }
    return '?';
}

TEST(server_last_move_is_the_move_described)
{
    /* Every game, random games of up to 60 plies: after each ply the position's
     * last_move is the game's own description of that move in the position before it,
     * with the mover's side, the moving piece and the pieces on the captured cells. */
    struct server *srv = start_plain();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    struct rng r;
    rng_seed(&r, 20);
    int captures = 0, checked = 0;
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        g->start(st);
        Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
        char body[16384];
        int n = snprintf(body, sizeof body, "{\"game\":\"%s\",\"moves\":[", g->name);
        json_t *j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                              (snprintf(body + n, sizeof body - (size_t)n, "]}"), body), &j),
                     200);
        CHECK(json_is_null(json_object_get(j, "last_move")));
        json_decref(j);
        for (int ply = 1; ply <= 60; ply++) {
            int k = game_legal_moves(g, st, moves);
            if (k == 0)
                break;
            Move m = moves[rng_below(&r, (uint32_t)k)];
            char text[MOVE_TEXT_MAX];
            struct move_desc d;
            memset(&d, 0, sizeof d);
            g->move_text(st, m, text, sizeof text);
            g->describe_move(st, m, &d);
            const char *side = g->side_to_move(st) == SIDE_BLACK ? "black" : "white";
            char piece = letter_on(g, st, d.from), taken[MOVE_DESC_CELLS];
            for (int c = 0; c < d.captured_len; c++)
                taken[c] = letter_on(g, st, d.captured[c]);
            g->make_move(st, m);
            n += snprintf(body + n, sizeof body - (size_t)n, "%s\"%s\"", ply > 1 ? "," : "", text);
            snprintf(body + n, sizeof body - (size_t)n, "]}");
            CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL, body, &j), 200);
            json_t *lm = json_object_get(j, "last_move");
            CHECK_MSG(json_is_object(lm), "%s ply %d: no last_move", g->name, ply);
            CHECK_EQ_INT((int)json_integer_value(json_object_get(lm, "ply")), ply);
            CHECK_STR(fx_str(lm, "move"), text);
            CHECK_STR(fx_str(lm, "side"), side);
            CHECK_STR(fx_str(lm, "from"), d.from);
            CHECK_STR(fx_str(lm, "to"), d.to);
            CHECK_MSG(fx_str(lm, "piece")[0] == piece, "%s %s: piece %s, not %c", g->name, text,
                      fx_str(lm, "piece"), piece);
            json_t *path = json_object_get(lm, "path"), *cap = json_object_get(lm, "captured");
            json_t *tk = json_object_get(lm, "taken");
            CHECK_EQ_INT((int)json_array_size(path), d.path_len);
            for (int c = 0; c < d.path_len; c++)
                CHECK_STR(json_string_value(json_array_get(path, (size_t)c)), d.path[c]);
            CHECK_EQ_INT((int)json_array_size(cap), d.captured_len);
            CHECK_EQ_INT((int)json_array_size(tk), d.captured_len);
            for (int c = 0; c < d.captured_len; c++) {
                CHECK_STR(json_string_value(json_array_get(cap, (size_t)c)), d.captured[c]);
                CHECK(json_string_value(json_array_get(tk, (size_t)c))[0] == taken[c]);
                CHECK(taken[c] != 0);
            }
            json_t *flags = json_object_get(lm, "flags");
            CHECK_EQ_INT(has_string(flags, "capture"), (d.flags & MOVE_FLAG_CAPTURE) != 0);
            captures += d.captured_len > 0;
            checked++;
            json_decref(j);
        }
        free(moves);
        free(st);
    }
    CHECK_MSG(captures > 3, "only %d captures in the random games", captures);
    fprintf(stderr, "    %d moves checked, %d with captures\n", checked, captures);
    server_stop(srv);
}

TEST(server_last_move_tells_check_capture_promotion)
{
    struct server *srv = start_plain();
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"d7d5\",\"e4d5\",\"d8d5\","
                          "\"b1c3\",\"d5e5\"]}",
                          &j),
                 200);
    json_t *lm = json_object_get(j, "last_move");
    CHECK_STR(fx_str(lm, "display"), "Qe5+");
    CHECK_STR(fx_str(lm, "piece"), "q");
    CHECK(has_string(json_object_get(lm, "flags"), "check"));
    CHECK(!has_string(json_object_get(lm, "flags"), "capture"));
    /* The legal moves carry the flag too: White's Be2 and Qe2 block, neither checks. */
    json_t *legal = json_object_get(j, "legal_moves");
    for (size_t i = 0; i < json_array_size(legal); i++)
        CHECK(!has_string(json_object_get(json_array_get(legal, i), "flags"), "check"));
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"moves\":[\"e2e4\",\"d7d5\",\"e4d5\"]}", &j),
                 200);
    lm = json_object_get(j, "last_move");
    CHECK(has_string(json_object_get(lm, "flags"), "capture"));
    CHECK_STR(json_string_value(json_array_get(json_object_get(lm, "taken"), 0)), "p");
    CHECK_STR(fx_str(lm, "side"), "white");
    json_decref(j);
    /* A promotion that checks: the new piece's letter and both flags. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/positions", NULL,
                          "{\"game\":\"chess\",\"position\":\"3k4/P7/8/8/8/8/8/4K3 w - - 0 1\","
                          "\"moves\":[\"a7a8q\"]}",
                          &j),
                 200);
    lm = json_object_get(j, "last_move");
    CHECK_STR(fx_str(lm, "promotion"), "q");
    CHECK(has_string(json_object_get(lm, "flags"), "promotion"));
    CHECK(has_string(json_object_get(lm, "flags"), "check"));
    json_decref(j);
    server_stop(srv);
}

TEST(server_catalog_levels_are_rated)
{
    /* Every game's eight levels with a rating, strictly increasing. */
    struct server *srv = start_plain();
    if (!srv)
        SKIP("no server");
    json_t *cat = NULL;
    CHECK_EQ_INT(api_call(server_port(srv), "GET", "/api/catalog", NULL, NULL, &cat), 200);
    json_t *games = json_object_get(cat, "games");
    CHECK(json_array_size(games) >= 3);
    for (size_t i = 0; i < json_array_size(games); i++) {
        json_t *g = json_array_get(games, i);
        json_t *levels = json_object_get(g, "levels");
        CHECK_EQ_INT((int)json_array_size(levels), 8);
        long prev = -100000;
        for (size_t k = 0; k < json_array_size(levels); k++) {
            json_t *l = json_array_get(levels, k);
            CHECK_EQ_INT((int)json_integer_value(json_object_get(l, "level")), (int)k + 1);
            json_t *elo = json_object_get(l, "elo");
            CHECK_MSG(json_is_integer(elo), "%s level %d has no rating", fx_str(g, "name"),
                      (int)k + 1);
            CHECK(json_integer_value(elo) > prev);
            prev = (long)json_integer_value(elo);
        }
    }
    json_decref(cat);
    server_stop(srv);
}
