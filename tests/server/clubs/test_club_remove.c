/* Removing a club's members (issue 25 item 9), against a real server on loopback: the
 * member removed needs a new invite (the club's invite code changes on removal), and
 * only the creator removes admins. */
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

/* Join club `id` with the invite `code` as `name` (with `token`, or a new one into
 * out): the status. */
static int join_as(int port, const char *id, const char *code, const char *name, const char *token,
                   char *out)
{
    char path[128], body[160];
    snprintf(path, sizeof path, "/api/clubs/%s/join", id);
    snprintf(body, sizeof body, "{\"invite\":\"%s\",\"name\":\"%s\"}", code, name);
    json_t *j = NULL;
    int st = api_call(port, "POST", path, token, body, &j);
    if (out)
        snprintf(out, 40, "%s", fx_str(j, "token"));
    json_decref(j);
    return st;
}

static void member_id(json_t *club, const char *name, char *out)
{
    json_t *m;
    size_t i;
    out[0] = 0;
    json_array_foreach(json_object_get(club, "members"), i, m)
    {
        if (!strcmp(fx_str(m, "name"), name))
            snprintf(out, 20, "%s", fx_str(m, "id"));
    }
}

TEST(server_club_removal_renews_the_invite_and_spares_admins)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    json_t *club = NULL;
    CHECK_EQ_INT(api_call(port, "POST", "/api/clubs", NULL,
                          "{\"club\":\"Knights\",\"languages\":[\"en\"],\"name\":\"Ann\"}", &club),
                 201);
    char id[40], code[40], ta[40], tb[40], tc[40], td[40], path[160];
    snprintf(id, sizeof id, "%s", fx_str(club, "id"));
    snprintf(code, sizeof code, "%s", fx_str(club, "invite"));
    snprintf(ta, sizeof ta, "%s", fx_str(club, "token"));
    json_decref(club);
    CHECK_EQ_INT(join_as(port, id, code, "Bob", NULL, tb), 200);
    CHECK_EQ_INT(join_as(port, id, code, "Cy", NULL, tc), 200);
    CHECK_EQ_INT(join_as(port, id, code, "Dee", NULL, td), 200);
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, ta, NULL, &club), 200);
    char bob[20], cy[20], dee[20];
    member_id(club, "Bob", bob);
    member_id(club, "Cy", cy);
    member_id(club, "Dee", dee);
    json_decref(club);
    /* Bob and Dee are admins. */
    const char *admins[] = {bob, dee};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "/api/clubs/%s/members/%s/admin", id, admins[i]);
        CHECK_EQ_INT(api_call(port, "POST", path, ta, "{\"admin\":true}", NULL), 200);
    }
    /* An admin does not remove another admin; the creator does. */
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, dee);
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, NULL), 403);
    /* An admin removes a member: the invite code changes. */
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, cy);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "POST", path, tb, NULL, &club), 200);
    char fresh[40];
    snprintf(fresh, sizeof fresh, "%s", fx_str(club, "invite"));
    CHECK(strlen(fresh) == 32 && strcmp(fresh, code) != 0);
    json_decref(club);
    /* Cy cannot come back with the old code (her own token or a new one); with the new
     * one she can. */
    CHECK_EQ_INT(join_as(port, id, code, "Cy", tc, NULL), 403);
    CHECK_EQ_INT(join_as(port, id, code, "Cy again", NULL, NULL), 403);
    CHECK_EQ_INT(join_as(port, id, fresh, "Cy", tc, NULL), 200);
    /* The creator removes the admin Dee. */
    snprintf(path, sizeof path, "/api/clubs/%s/members/%s/remove", id, dee);
    CHECK_EQ_INT(api_call(port, "POST", path, ta, NULL, NULL), 200);
    snprintf(path, sizeof path, "/api/clubs/%s", id);
    club = NULL;
    CHECK_EQ_INT(api_call(port, "GET", path, ta, NULL, &club), 200);
    CHECK_EQ_INT(json_array_size(json_object_get(club, "members")), 3);
    json_decref(club);
    server_stop(srv);
}
