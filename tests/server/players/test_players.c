/* The players' room (issue 28: a player's page, the archive, leaderboards), against a
 * real server on loopback: the page by public id, the search by name, the archive's
 * filters and pages and its export, hidden players, and the leaderboard's rule. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

#define BLITZ "{\"initial\":180,\"increment\":2}"

static struct server *pl_start(int board_games)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.http_threads = 4;
    cfg.people_per_minute = 0;
    cfg.rated_per_pair = 0;
    cfg.board_games = board_games;
    cfg.board_deviation = 350;
    return fx_start(&cfg);
}

/* A rated blitz game of chess: `white` (named wname) challenges, `black` (bname)
 * accepts, both move, and the loser (white when white_loses) resigns.  The tokens are
 * kept (a new one into an empty buffer); 0, or the failing status. */
static int pl_rated_game(int port, char *white, const char *wname, char *black, const char *bname,
                         bool white_loses)
{
    char body[256], path[160], game[40];
    snprintf(body, sizeof body,
             "{\"game\":\"chess\",\"clock\":" BLITZ ",\"side\":\"white\",\"rated\":true,"
             "\"name\":\"%s\"}",
             wname);
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/challenges", white[0] ? white : NULL, body, &j);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", fx_str(j, "id"));
    if (st == 201)
        snprintf(white, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    if (st != 201)
        return st;
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", bname);
    j = NULL;
    st = api_call(port, "POST", path, black[0] ? black : NULL, body, &j);
    snprintf(game, sizeof game, "%s", fx_str(j, "id"));
    if (st == 200)
        snprintf(black, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    if (st != 200)
        return st;
    if ((st = fx_move(port, game, white, "e2e4")) != 200 ||
        (st = fx_move(port, game, black, "e7e5")) != 200)
        return st;
    st = fx_game_post(port, game, "resign", white_loses ? white : black, NULL, NULL);
    return st == 200 ? 0 : st;
}

/* The public id of the token's player (GET /api/me) into id. */
static void pl_id(int port, const char *token, char *id)
{
    json_t *j = NULL;
    id[0] = 0;
    if (api_call(port, "GET", "/api/me", token, NULL, &j) == 200)
        snprintf(id, 40, "%s", fx_str(j, "id"));
    json_decref(j);
}

static int pl_get(int port, const char *path, const char *token, json_t **out)
{
    *out = NULL;
    return api_call(port, "GET", path, token, NULL, out);
}

static const char *pl_code(json_t *j)
{
    return fx_str(j, "code");
}

/* Whether the array j[key] holds an object whose `field` is `value`. */
static bool pl_has(json_t *j, const char *key, const char *field, const char *value)
{
    json_t *e;
    size_t i;
    json_array_foreach(json_object_get(j, key), i, e)
    {
        if (!strcmp(fx_str(e, field), value))
            return true;
    }
    return false;
}

/* A game of `game` against the computer with the player's token, resigned at once. */
static int pl_computer_game(int port, const char *token, const char *game)
{
    char body[128], id[40];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"level\":2,\"side\":\"white\"}", game);
    json_t *j = NULL;
    int st = api_call(port, "POST", "/api/games", token, body, &j);
    snprintf(id, sizeof id, "%s", fx_str(j, "id"));
    bool same = !strcmp(fx_str(j, "token"), token);
    json_decref(j);
    if (st != 201)
        return st;
    if (!same)
        return -1;
    st = fx_game_post(port, id, "resign", token, NULL, NULL);
    return st == 200 ? 0 : st;
}

TEST(server_players_page_and_search)
{
    struct server *srv = pl_start(0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ann[40] = "", bob[40] = "", ann_id[40], bob_id[40], path[200];
    /* Ann (a name in two scripts) beats Bob once, rated. */
    CHECK_EQ_INT(pl_rated_game(port, ann, "Ann \xc3\x96lvir \xe0\xa6\x85", bob, "Bob", false), 0);
    pl_id(port, ann, ann_id);
    pl_id(port, bob, bob_id);
    CHECK_EQ_INT((int)strlen(ann_id), 16);
    CHECK(strcmp(ann_id, bob_id) != 0);
    CHECK(strcmp(ann_id, ann) != 0);
    /* A game against the computer under Ann's token is hers. */
    CHECK_EQ_INT(pl_computer_game(port, ann, "egara"), 0);
    json_t *j;
    snprintf(path, sizeof path, "/api/players/%s", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    CHECK_STR(fx_str(j, "name"), "Ann \xc3\x96lvir \xe0\xa6\x85");
    CHECK(!json_object_get(j, "me")); /* anyone's view */
    json_t *rt = json_array_get(json_object_get(j, "ratings"), 0);
    CHECK_STR(fx_str(rt, "game"), "chess");
    CHECK_STR(fx_str(rt, "class"), "blitz");
    CHECK_EQ_INT(fx_int(rt, "games"), 1);
    CHECK(fx_int(rt, "rating") > 1500);
    CHECK(json_is_false(json_object_get(rt, "established")));
    json_t *hist = json_object_get(j, "history");
    CHECK_EQ_INT((int)json_array_size(hist), 1);
    CHECK_EQ_INT(fx_int(json_array_get(hist, 0), "rating"), fx_int(rt, "rating"));
    json_t *lv = json_array_get(json_object_get(j, "computer"), 0);
    CHECK_STR(fx_str(lv, "game"), "egara-guti");
    CHECK_EQ_INT(fx_int(lv, "level"), 2);
    CHECK_EQ_INT(fx_int(lv, "losses"), 1);
    CHECK_EQ_INT(fx_int(lv, "wins"), 0);
    json_t *games = json_object_get(j, "games");
    CHECK_EQ_INT((int)json_array_size(games), 2);
    json_t *g0 = json_array_get(games, 0), *g1 = json_array_get(games, 1);
    CHECK_EQ_INT(fx_int(json_object_get(g0, "opponent"), "level"), 2); /* newest first */
    CHECK_STR(fx_str(g0, "result"), "loss");
    CHECK_STR(fx_str(g1, "result"), "win");
    CHECK_STR(fx_str(g1, "side"), "white");
    CHECK_STR(fx_str(g1, "class"), "blitz");
    CHECK_STR(fx_str(json_object_get(g1, "opponent"), "name"), "Bob");
    CHECK_STR(fx_str(json_object_get(g1, "opponent"), "id"), bob_id);
    /* The game's own state links both players to their pages. */
    json_t *st = fx_state(port, fx_str(g1, "id"), NULL);
    json_t *players = json_object_get(st, "players");
    CHECK_STR(fx_str(json_object_get(players, "white"), "id"), ann_id);
    CHECK_STR(fx_str(json_object_get(players, "black"), "id"), bob_id);
    json_decref(st);
    json_decref(j);
    /* Her own view says so. */
    CHECK_EQ_INT(pl_get(port, path, ann, &j), 200);
    CHECK(json_is_true(json_object_get(j, "me")));
    CHECK(json_is_false(json_object_get(j, "hidden")));
    json_decref(j);
    /* Unknown and malformed ids. */
    CHECK_EQ_INT(pl_get(port, "/api/players/0123456789abcdef", NULL, &j), 404);
    CHECK_STR(pl_code(j), "no_player");
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/players/nope", NULL, &j), 404);
    CHECK_STR(pl_code(j), "no_player");
    json_decref(j);
    /* The search: any case of ASCII letters, UTF-8 percent-encoded, by name. */
    CHECK_EQ_INT(pl_get(port, "/api/players?name=aNN", NULL, &j), 200);
    CHECK(pl_has(j, "players", "id", ann_id));
    CHECK(!pl_has(j, "players", "id", bob_id));
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/players?name=%C3%96lvir", NULL, &j), 200);
    CHECK(pl_has(j, "players", "id", ann_id));
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/players?name=zed", NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "players")), 0);
    json_decref(j);
    const char *bad[] = {
        "/api/players",          "/api/players?name=",
        "/api/players?name=%G1", "/api/players?name=%0A",
        "/api/players?name=%C3", "/api/players?name=12345678901234567890123456789012345678901"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(pl_get(port, bad[i], NULL, &j), 400);
        CHECK_STR(pl_code(j), "bad_query");
        json_decref(j);
    }
    server_stop(srv);
}

/* The number of records in an export (their Event tags). */
static int pl_records(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, "[Event ")); p++)
        n++;
    return n;
}

TEST(server_players_archive_filters_pages_and_export)
{
    struct server *srv = pl_start(0);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ann[40] = "", bob[40] = "", ann_id[40], bob_id[40], path[300];
    CHECK_EQ_INT(pl_rated_game(port, ann, "Ann", bob, "Bob", true), 0);
    pl_id(port, ann, ann_id);
    pl_id(port, bob, bob_id);
    for (int i = 0; i < 22; i++)
        CHECK_EQ_INT(pl_computer_game(port, ann, i % 2 ? "agon" : "egara-guti"), 0);
    /* 23 games: a page of 20, then 3. */
    json_t *j;
    snprintf(path, sizeof path, "/api/players/%s/games", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 20);
    CHECK(json_is_true(json_object_get(j, "more")));
    json_decref(j);
    snprintf(path, sizeof path, "/api/players/%s/games?page=2", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 3);
    CHECK(json_is_false(json_object_get(j, "more")));
    CHECK_STR(fx_str(json_array_get(json_object_get(j, "games"), 2), "game"), "chess");
    json_decref(j);
    /* Filters, alone and together. */
    struct {
        const char *query;
        int count;
    } cases[] = {
        {"game=agon", 11},
        {"game=egara", 11}, /* an alias names the game too */
        {"game=chess", 1},
        {"opponent=computer", 20}, /* a page */
        {"opponent=computer&page=2", 2},
        {"result=loss&page=2", 3},
        {"result=win", 0},
        {"result=draw&game=chess", 0},
        {"from=2000-01-01&to=2000-12-31", 0},
        {"from=2020-02-29", 20},
        {"game=chess&result=loss&from=2020-01-01&to=2999-12-31", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, "/api/players/%s/games?%s", ann_id, cases[i].query);
        CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
        int n = (int)json_array_size(json_object_get(j, "games"));
        CHECK_MSG(n == cases[i].count, "%s: %d games, not %d", cases[i].query, n, cases[i].count);
        json_decref(j);
    }
    snprintf(path, sizeof path, "/api/players/%s/games?opponent=%s", ann_id, bob_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "games")), 1);
    json_decref(j);
    /* Bad filters: a clear error, nothing read. */
    struct {
        const char *query, *code;
        int status;
    } bad[] = {
        {"game=go", "bad_query", 400},
        {"result=maybe", "bad_query", 400},
        {"page=0", "bad_query", 400},
        {"page=1001", "bad_query", 400},
        {"page=2x", "bad_query", 400},
        {"from=2026-02-30", "bad_date", 400},
        {"from=2026-1-01", "bad_date", 400},
        {"to=yesterday", "bad_date", 400},
        {"from=2026-03-02&to=2026-03-01", "bad_date", 400},
        {"opponent=0123456789abcdef", "no_player", 404},
        {"opponent=%ZZ", "bad_query", 400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "/api/players/%s/games?%s", ann_id, bad[i].query);
        int st = pl_get(port, path, NULL, &j);
        CHECK_MSG(st == bad[i].status, "%s: %d", bad[i].query, st);
        CHECK_STR(pl_code(j), bad[i].code);
        json_decref(j);
    }
    /* Export: one game's records, filtered as the archive. */
    snprintf(path, sizeof path, "/api/players/%s/games/export", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 400);
    CHECK_STR(pl_code(j), "bad_query");
    json_decref(j);
    struct http_reply rep;
    snprintf(path, sizeof path, "/api/players/%s/games/export?game=agon", ann_id);
    http_call(port, "GET", path, NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 200);
    CHECK(strstr(rep.head, "text/plain") != NULL);
    CHECK_EQ_INT(pl_records(rep.body), 11);
    CHECK(strstr(rep.body, "[Variant ") != NULL);
    http_reply_free(&rep);
    snprintf(path, sizeof path, "/api/players/%s/games/export?game=chess", ann_id);
    http_call(port, "GET", path, NULL, NULL, 0, NULL, &rep);
    CHECK_EQ_INT(rep.status, 200);
    CHECK_EQ_INT(pl_records(rep.body), 1);
    CHECK(strstr(rep.body, "[White \"Ann\"]") && strstr(rep.body, "1. e4 e5"));
    CHECK(strstr(rep.body, "0-1") != NULL);
    http_reply_free(&rep);
    server_stop(srv);
}

TEST(server_players_hidden_from_search_and_boards)
{
    struct server *srv = pl_start(1);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ann[40] = "", bob[40] = "", ann_id[40], bob_id[40], path[200];
    CHECK_EQ_INT(pl_rated_game(port, ann, "Ann", bob, "Bob", false), 0);
    pl_id(port, ann, ann_id);
    pl_id(port, bob, bob_id);
    json_t *j;
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/blitz", NULL, &j), 200);
    CHECK(pl_has(j, "players", "id", ann_id));
    json_decref(j);
    /* A bad "hidden" changes nothing. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", ann, "{\"hidden\":\"yes\"}", &j), 400);
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/players?name=ann", NULL, &j), 200);
    CHECK(pl_has(j, "players", "id", ann_id));
    json_decref(j);
    /* A token without a name cannot hide (it has no page). */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", NULL, "{\"hidden\":true}", &j), 400);
    CHECK_STR(pl_code(j), "bad_name");
    json_decref(j);
    /* Ann hides: no search, no leaderboard, no page for others; hers still answers. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", ann, "{\"hidden\":true}", &j), 200);
    CHECK(json_is_true(json_object_get(j, "hidden")));
    CHECK_STR(fx_str(j, "name"), "Ann");
    CHECK_STR(fx_str(j, "id"), ann_id);
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/players?name=ann", NULL, &j), 200);
    CHECK(!pl_has(j, "players", "id", ann_id));
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/blitz", NULL, &j), 200);
    CHECK(!pl_has(j, "players", "id", ann_id));
    CHECK(pl_has(j, "players", "id", bob_id));
    json_decref(j);
    snprintf(path, sizeof path, "/api/players/%s", ann_id);
    CHECK_EQ_INT(pl_get(port, path, bob, &j), 404);
    CHECK_STR(pl_code(j), "no_player");
    json_decref(j);
    snprintf(path, sizeof path, "/api/players/%s/games", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 404);
    json_decref(j);
    snprintf(path, sizeof path, "/api/players/%s", ann_id);
    CHECK_EQ_INT(pl_get(port, path, ann, &j), 200);
    CHECK(json_is_true(json_object_get(j, "hidden")));
    json_decref(j);
    /* Her game still shows to Bob, under her name, without a link. */
    snprintf(path, sizeof path, "/api/players/%s/games", bob_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    json_t *opp = json_object_get(json_array_get(json_object_get(j, "games"), 0), "opponent");
    CHECK_STR(fx_str(opp, "name"), "Ann");
    CHECK(!json_object_get(opp, "id"));
    json_decref(j);
    /* Shown again. */
    CHECK_EQ_INT(api_call(port, "POST", "/api/me", ann, "{\"hidden\":false}", NULL), 200);
    CHECK_EQ_INT(pl_get(port, "/api/players?name=ann", NULL, &j), 200);
    CHECK(pl_has(j, "players", "id", ann_id));
    json_decref(j);
    server_stop(srv);
}

TEST(server_leaderboard_rule_and_order)
{
    struct server *srv = pl_start(3);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ann[40] = "", bob[40] = "", cy[40] = "", dee[40] = "";
    char ann_id[40], bob_id[40], cy_id[40], dee_id[40];
    /* Ann beats Bob three times; Cy and Dee play twice: too few. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(pl_rated_game(port, ann, "Ann", bob, "Bob", false), 0);
    for (int i = 0; i < 2; i++)
        CHECK_EQ_INT(pl_rated_game(port, cy, "Cy", dee, "Dee", i == 0), 0);
    pl_id(port, ann, ann_id);
    pl_id(port, bob, bob_id);
    pl_id(port, cy, cy_id);
    pl_id(port, dee, dee_id);
    json_t *j;
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/blitz", NULL, &j), 200);
    CHECK_EQ_INT(fx_int(json_object_get(j, "rule"), "games"), 3);
    json_t *players = json_object_get(j, "players");
    CHECK_EQ_INT((int)json_array_size(players), 2);
    json_t *p0 = json_array_get(players, 0), *p1 = json_array_get(players, 1);
    CHECK_STR(fx_str(p0, "id"), ann_id);
    CHECK_EQ_INT(fx_int(p0, "rank"), 1);
    CHECK_EQ_INT(fx_int(p0, "games"), 3);
    CHECK_STR(fx_str(p1, "id"), bob_id);
    CHECK(fx_int(p0, "rating") > fx_int(p1, "rating"));
    CHECK(!pl_has(j, "players", "id", cy_id) && !pl_has(j, "players", "id", dee_id));
    json_decref(j);
    /* One more game puts Cy and Dee on it, between Ann and Bob (Cy won one, lost one,
     * now wins again: above Dee). */
    CHECK_EQ_INT(pl_rated_game(port, cy, "Cy", dee, "Dee", false), 0);
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/blitz", NULL, &j), 200);
    players = json_object_get(j, "players");
    CHECK_EQ_INT((int)json_array_size(players), 4);
    CHECK_STR(fx_str(json_array_get(players, 0), "id"), ann_id);
    CHECK_STR(fx_str(json_array_get(players, 1), "id"), cy_id);
    CHECK_STR(fx_str(json_array_get(players, 3), "id"), bob_id);
    long long last = 99999;
    json_t *e;
    size_t i;
    json_array_foreach(players, i, e)
    {
        CHECK(fx_int(e, "rating") <= last);
        last = fx_int(e, "rating");
    }
    json_decref(j);
    /* Other boards are empty; unknown ones are refused. */
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/rapid", NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "players")), 0);
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/bullet", NULL, &j), 404);
    CHECK_STR(pl_code(j), "no_leaderboard");
    json_decref(j);
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/go/blitz", NULL, &j), 404);
    CHECK_STR(pl_code(j), "no_leaderboard");
    json_decref(j);
    /* The history: a point per rated game, oldest first, Ann's rising. */
    char path[120];
    snprintf(path, sizeof path, "/api/players/%s", ann_id);
    CHECK_EQ_INT(pl_get(port, path, NULL, &j), 200);
    json_t *hist = json_object_get(j, "history");
    CHECK_EQ_INT((int)json_array_size(hist), 3);
    CHECK(fx_int(json_array_get(hist, 0), "rating") < fx_int(json_array_get(hist, 2), "rating"));
    json_decref(j);
    server_stop(srv);
}

/* The default rule: 10 games and an established deviation; three games are not enough. */
TEST(server_leaderboard_default_rule_needs_ten_games)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.people_per_minute = 0;
    cfg.rated_per_pair = 0;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    char ann[40] = "", bob[40] = "";
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(pl_rated_game(port, ann, "Ann", bob, "Bob", false), 0);
    json_t *j;
    CHECK_EQ_INT(pl_get(port, "/api/leaderboards/chess/blitz", NULL, &j), 200);
    json_t *rule = json_object_get(j, "rule");
    CHECK_EQ_INT(fx_int(rule, "games"), 10);
    CHECK_EQ_INT(fx_int(rule, "deviation"), 110);
    CHECK_EQ_INT(fx_int(rule, "days"), 90);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "players")), 0);
    json_decref(j);
    server_stop(srv);
}
