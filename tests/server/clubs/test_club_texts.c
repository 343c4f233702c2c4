/* A club's texts (issue 25 item 9), against a real server on loopback: a name of only
 * spaces is refused; a description's line breaks are allowed as a browser sends them
 * ("\r\n", kept as "\n", so 500 lines of one letter fit the 1000 bytes), other control
 * characters refused with the right message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/server.h"

static int create(int port, const char *club, const char *description, json_t **out)
{
    char body[4096];
    snprintf(body, sizeof body,
             "{\"club\":\"%s\",\"description\":\"%s\",\"languages\":[\"en\"],\"name\":\"Ann\"}",
             club, description);
    return api_call(port, "POST", "/api/clubs", NULL, body, out);
}

TEST(server_club_texts_spaces_and_line_breaks)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    const char *blank[] = {"   ", " "};
    for (int i = 0; i < 2; i++) {
        json_t *j = NULL;
        CHECK_EQ_INT(create(port, blank[i], "", &j), 400);
        CHECK_MSG(strstr(fx_str(j, "error"), "\"club\"") && strstr(fx_str(j, "error"), "spaces"),
                  "%s", fx_str(j, "error"));
        json_decref(j);
    }
    json_t *j = NULL;
    CHECK_EQ_INT(create(port, "Knights", "Fridays\\r\\nSundays\\r\\n", &j), 201);
    CHECK_STR(fx_str(j, "description"), "Fridays\nSundays\n");
    json_decref(j);
    /* 500 lines of one letter, as a textarea sends them: 1500 bytes sent, 1000 kept. */
    char *lines = malloc(500 * 5 + 1);
    lines[0] = 0;
    for (int i = 0; i < 500; i++)
        strcat(lines, "a\\r\\n");
    j = NULL;
    CHECK_EQ_INT(create(port, "Long", lines, &j), 201);
    CHECK_EQ_INT(strlen(fx_str(j, "description")), 1000);
    json_decref(j);
    free(lines);
    /* A lone carriage return or a tab is another control character: said so. */
    j = NULL;
    CHECK_EQ_INT(create(port, "Knights", "a\\rb", &j), 400);
    CHECK_MSG(strstr(fx_str(j, "error"), "control characters"), "%s", fx_str(j, "error"));
    json_decref(j);
    server_stop(srv);
}
