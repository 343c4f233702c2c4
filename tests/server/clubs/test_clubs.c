/* Clubs (API.md "Clubs") against a real server on loopback: a club created with its
 * invite link, joined with display names (a wrong code refused), an admin named by the
 * creator removing a member, the club's lobby of challenges open to members only, a
 * game played from it and counted in the results between members, a member leaving
 * (never the creator), and bad input refused with nothing changed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* The member id of `name` in a club's JSON, or "". */
static const char *member_id(json_t *club, const char *name)
{
    json_t *m;
    size_t i;
    json_array_foreach(json_object_get(club, "members"), i, m)
    {
        if (!strcmp(fx_str(m, "name"), name))
            return fx_str(m, "id");
    }
    return "";
}

static int join(int port, const char *club, const char *code, const char *name, char *token)
{
    char path[128], body[160];
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"%s\"}", code, name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, NULL, body, &j);
    if (token)
        snprintf(token, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

TEST(server_clubs_create_join_play_leave)
{
    struct server_config cfg;
    fx_config(&cfg);
    cfg.cache_games = 32;
    struct server *srv = fx_start(&cfg);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    static const char *const bad[] = {
        "{\"club\":\"\",\"languages\":[\"en\"],\"name\":\"Ann\"}",
        "{\"club\":\"Knights\",\"languages\":[],\"name\":\"Ann\"}",
        "{\"club\":\"Knights\",\"languages\":[\"de\"],\"name\":\"Ann\"}",
        "{\"club\":\"Knights\",\"languages\":[\"en\",\"en\"],\"name\":\"Ann\"}",
        "{\"club\":\"Knights\",\"languages\":[\"en\"]}",
        "{\"club\":7,\"languages\":[\"en\"],\"name\":\"Ann\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(api_call(port, "POST", "/api/clubs", NULL, bad[i], NULL) == 400, "took %s",
                  bad[i]);
    json_t *club = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Knights of Kolkata\",\"description\":\"Friday nights\\n"
                          "and Sundays\",\"languages\":[\"bn\",\"en\"],\"name\":\"Ann\"}",
                          &club),
                 201);
    char id[40], code[40], ta[40], tb[40], tc[40], path[160];
    snprintf(id, sizeof id, "%s", fx_str(club, "id"));
    snprintf(code, sizeof code, "%s", fx_str(club, "invite"));
    snprintf(ta, sizeof ta, "%s", fx_str(club, "token"));
    CHECK_STR(fx_str(json_object_get(club, "you"), "role"), "creator");
    CHECK_STR(json_string_value(json_array_get(json_object_get(club, "languages"), 1)), "en");
    CHECK(strstr(fx_str(club, "invite_url"), code) != NULL);
    json_decref(club);

    CHECK_EQ_INT(join(port, id, "0123456789abcdef0123456789abcdef", "Bob", NULL), 403);
    CHECK_EQ_INT(join(port, id, code, "Bob", tb), 200);
    CHECK_EQ_INT(join(port, id, code, "Cy", tc), 200);
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &club), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(club, "members")), 3);
    CHECK(json_is_null(json_object_get(club, "you")));
    CHECK(!json_object_get(club, "invite")); /* not for outsiders */
    char bob[20], cy[20];
    snprintf(bob, sizeof bob, "%s", member_id(club, "Bob"));
    snprintf(cy, sizeof cy, "%s", member_id(club, "Cy"));
    json_decref(club);

    /* Only the creator names admins; an admin removes a member. */
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, cy);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 403);
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/admin", id, bob);
    CHECK_EQ_INT(api_call(port, "POST", path, tc, "{\"admin\":true}", NULL), 403);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, "{\"admin\":\"yes\"}", NULL), 400);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, "{\"admin\":true}", NULL), 200);
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, cy);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 200);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 409);

    /* The club's lobby: members only. */
    const char *ch = "{\"game\":\"chess\",\"clock\":{\"initial\":300,\"increment\":3},"
                     "\"side\":\"black\",\"rated\":true}";
    snprintf(path, sizeof path, "/api/clubs/%s/challenges", id);
    CHECK_EQ_INT(api_call(port, "POST", path, tc, ch, NULL), 403);
    json_t *c = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, tb, ch, &c), 201);
    char cid[40];
    snprintf(cid, sizeof cid, "%s", fx_str(c, "id"));
    json_decref(c);
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, ta, NULL, &club), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(club, "challenges")), 1);
    CHECK_STR(fx_str(json_array_get(json_object_get(club, "challenges"), 0), "name"), "Bob");
    json_decref(club);
    json_t *seeks = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/seeks", NULL, NULL, &seeks), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(seeks, "seeks")), 0); /* not the public lobby */
    json_decref(seeks);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    CHECK_EQ_INT(api_call(port, "POST", path, tc, "{}", NULL),
                 403); /* removed: no longer a member */
    json_t *st = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, ta, "{}", &st), 200);
    char game[40];
    snprintf(game, sizeof game, "%s", fx_str(st, "id"));
    CHECK_STR(fx_str(st, "you"), "white");
    json_decref(st);
    const char *line[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
    for (int i = 0; i < 4; i++) {
        json_t *r = NULL;
        CHECK_EQ_INT(api_post_move(port, game, i % 2 ? tb : ta, line[i], &r), 200);
        json_decref(r);
    }
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, tb, NULL, &club), 200);
    CHECK_STR(fx_str(json_object_get(club, "you"), "role"), "admin");
    json_t *games = json_object_get(club, "games");
    CHECK_EQ_INT(json_array_size(games), 1);
    CHECK_STR(fx_str(json_array_get(games, 0), "result"), "black-wins");
    json_t *res = json_array_get(json_object_get(club, "results"), 0);
    CHECK(res != NULL);
    bool ann_first = !strcmp(fx_str(res, "a"), "Ann");
    CHECK_EQ_INT(json_integer_value(json_object_get(res, ann_first ? "b_wins" : "a_wins")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(res, ann_first ? "a_wins" : "b_wins")), 0);
    CHECK_EQ_INT(json_array_size(json_object_get(club, "challenges")), 0);
    json_decref(club);

    /* Leaving: a member may, the creator may not. */
    snprintf(path, sizeof path, "/api/clubs/%s/leave", id);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, NULL, NULL), 409);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 200);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 403);
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, NULL, NULL, &club), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(club, "members")), 1);
    json_decref(club);
    CHECK_EQ_INT(
        api_call(port, "GET", "/api/clubs/0123456789abcdef0123456789abcdef", NULL, NULL, NULL),
        404);
    CHECK_EQ_INT(api_call(port, "PUT", "/api/clubs", NULL, NULL, NULL), 405); /* GET lists them */
    server_stop(srv);
}

/* Public clubs (issue 28 item 6): listed and searched by name and language, joined
 * without an invite; a barred member cannot join again with any code; only admins make
 * a club public or bar; bad input refused. */
TEST(server_clubs_public_list_join_and_bar)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Helsinki Rooks\",\"languages\":[\"fi\",\"en\"],\"name\":"
                          "\"Aino\",\"public\":true}",
                          &j),
                 201);
    char club[40], aino[40], invite[40];
    snprintf(club, sizeof club, "%s", fx_str(j, "id"));
    snprintf(aino, sizeof aino, "%s", fx_str(j, "token"));
    snprintf(invite, sizeof invite, "%s", fx_str(j, "invite"));
    CHECK(json_is_true(json_object_get(j, "public")));
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Quiet rooks\",\"languages\":[\"en\"],\"name\":\"Bo\"}", &j),
                 201);
    char quiet[40], bo[40];
    snprintf(quiet, sizeof quiet, "%s", fx_str(j, "id"));
    snprintf(bo, sizeof bo, "%s", fx_str(j, "token"));
    json_decref(j);
    /* The list: the public one only, by name (either case) and language. */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/clubs?name=ROOKS", NULL, NULL, &j), 200);
    json_t *list = json_object_get(j, "clubs");
    CHECK_EQ_INT((int)json_array_size(list), 1);
    CHECK_STR(fx_str(json_array_get(list, 0), "id"), club);
    CHECK_EQ_INT(fx_int(json_array_get(list, 0), "members"), 1);
    json_decref(j);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "GET", "/api/clubs?lang=bn", NULL, NULL, &j), 200);
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "clubs")), 0);
    json_decref(j);
    CHECK_EQ_INT(api_call(port, "GET", "/api/clubs?lang=xx", NULL, NULL, NULL), 400);
    CHECK_EQ_INT(api_call(port, "GET", "/api/clubs?name=%ZZ", NULL, NULL, NULL), 400);
    /* Anyone joins the public club without a code, not the other one. */
    char path[160];
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Eero\"}", &j), 200);
    char eero[40], eero_id[40];
    snprintf(eero, sizeof eero, "%s", fx_str(j, "token"));
    snprintf(eero_id, sizeof eero_id, "%s", fx_str(json_object_get(j, "you"), "id"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/clubs/%s/join", quiet);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, NULL, "{\"name\":\"Eero\"}", &j), 400);
    json_decref(j);
    /* Only admins make a club public; a bad body changes nothing. */
    snprintf(path, sizeof path, "/api/clubs/%s/public", quiet);
    CHECK_EQ_INT(api_call(port, "POST", path, eero, "{\"public\":true}", NULL), 403);
    CHECK_EQ_INT(api_call(port, "POST", path, bo, "{\"public\":1}", NULL), 400);
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, bo, "{\"public\":true}", &j), 200);
    CHECK(json_is_true(json_object_get(j, "public")));
    json_decref(j);
    /* Eero is barred: no code lets him back, nor the public door. */
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/bar", club, eero_id);
    CHECK_EQ_INT(api_call(port, "POST", path, eero, NULL, NULL), 403); /* not an admin */
    j = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, aino, NULL, &j), 200);
    snprintf(invite, sizeof invite, "%s", fx_str(j, "invite"));
    json_decref(j);
    snprintf(path, sizeof path, "/api/clubs/%s/join", club);
    char body[160];
    snprintf(body, sizeof body, "{\"name\":\"Eero\",\"invite\":\"%s\"}", invite);
    const char *tries[] = {"{\"name\":\"Eero\"}", body};
    for (int i = 0; i < 2; i++) {
        j = NULL;
        CHECK_EQ_INT(api_call(port, "POST", path, eero, tries[i], &j), 403);
        CHECK_STR(fx_str(j, "code"), "club_barred");
        json_decref(j);
    }
    j = NULL;
    snprintf(path, sizeof path, "/api/clubs/%s", club);
    CHECK_EQ_INT(api_call(port, "GET", path, eero, NULL, &j), 200); /* the page, as anyone */
    CHECK(json_is_null(json_object_get(j, "you")));
    CHECK_EQ_INT((int)json_array_size(json_object_get(j, "members")), 1);
    json_decref(j);
    server_stop(srv);
}
