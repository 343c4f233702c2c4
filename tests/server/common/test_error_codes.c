/* Error codes (issue 25 item 11): every error answer carries a stable "code" beside its
 * English "error" text, so the pages can show their own language's text.  A sample of
 * errors across the rooms carry their codes, and every code the server's sources pass
 * (api_set_error_code, api_error_body) or a status gives (api_status_code) is listed in
 * API.md's "Error codes" table. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../harness.h"
#include "../fixture.h"
#include "server/common/api_util.h"
#include "server/server.h"

#define EC_GAME "{\"game\":\"chess\",\"clock\":null,\"side\":\"white\",\"name\":\"Ann\"}"
#define EC_ZERO_TOKEN "0000000000000000000000000000000000000000"

/* The request's status and its body's "code" into code ("" when none; "(not JSON)"). */
static int ec_call(int port, const char *method, const char *path, const char *token,
                   const char *body, char *code, size_t size)
{
    json_t *j = NULL;
    int status = api_call(port, method, path, token, body, &j);
    snprintf(code, size, "%s", j ? fx_str(j, "code") : "(not JSON)");
    if (j && !json_is_string(json_object_get(j, "error")))
        snprintf(code, size, "(no error text)");
    json_decref(j);
    return status;
}

#define EC_EXPECT(port, method, path, token, body, want_status, want_code)                         \
    do {                                                                                           \
        char got_[64];                                                                             \
        int st_ = ec_call(port, method, path, token, body, got_, sizeof got_);                     \
        CHECK_MSG(st_ == (want_status) && !strcmp(got_, want_code),                                \
                  "%s %s: %d \"%s\", expected %d \"%s\"", method, path, st_, got_, want_status,    \
                  want_code);                                                                      \
    } while (0)

TEST(server_error_codes_across_rooms)
{
    struct server *srv = fx_start(NULL);
    if (!srv)
        SKIP("no server");
    int port = server_port(srv);
    /* Routes and the body. */
    EC_EXPECT(port, "GET", "/api/no-such-thing", NULL, NULL, 404, "not_found");
    EC_EXPECT(port, "GET", "/api/games/42/moves", NULL, NULL, 405, "method_not_allowed");
    EC_EXPECT(port, "POST", "/api/games", NULL, "{", 400, "bad_request");
    /* A game against the computer. */
    char id[40], token[40], path[160];
    json_t *st = fx_new_game(port, "chess", "white", NULL, id, token);
    CHECK(st != NULL);
    json_decref(st);
    snprintf(path, sizeof path, "/api/games/%s/moves", id);
    EC_EXPECT(port, "POST", path, token, "{\"move\":\"e2e5\"}", 400, "illegal_move");
    EC_EXPECT(port, "POST", path, EC_ZERO_TOKEN, "{\"move\":\"e2e4\"}", 403, "wrong_token");
    EC_EXPECT(port, "POST", path, NULL, "{\"move\":\"e2e4\"}", 403, "no_token");
    snprintf(path, sizeof path, "/api/games/%s/claim", id);
    EC_EXPECT(port, "POST", path, token, NULL, 409, "no_claim");
    /* People: names, challenges, a game between people. */
    EC_EXPECT(port, "POST", "/api/me", NULL, "{\"name\":\"\"}", 400, "bad_name");
    char cid[40], ctok[40];
    CHECK_EQ_INT(fx_create(port, "/api/challenges", EC_GAME, cid, ctok), 201);
    snprintf(path, sizeof path, "/api/challenges/%s/accept", cid);
    EC_EXPECT(port, "POST", path, ctok, "{\"name\":\"Ann\"}", 409, "challenge_own");
    char game[40], ta[40], tb[40];
    CHECK_EQ_INT(fx_people_game(port, EC_GAME, game, ta, tb), 0);
    snprintf(path, sizeof path, "/api/games/%s/claim-win", game);
    EC_EXPECT(port, "POST", path, ta, NULL, 409, "claim_own_move");
    snprintf(path, sizeof path, "/api/games/%s/moves", game);
    EC_EXPECT(port, "POST", path, tb, "{\"move\":\"e7e5\"}", 403, "not_your_turn");
    EC_EXPECT(port, "POST", path, ta, "{\"move\":\"e2e5\"}", 400, "illegal_move");
    snprintf(path, sizeof path, "/api/games/%s/draw", game);
    EC_EXPECT(port, "POST", path, ta, NULL, 409, "abort_only");
    /* Puzzles and clubs. */
    EC_EXPECT(port, "POST", "/api/puzzles/no-such/attempts", NULL, "{\"moves\":[]}", 403,
              "no_token");
    server_stop(srv);
}

/* The codes listed in API.md's "Error codes" table, one "|code|" after another. */
static char *ec_listed(void)
{
    FILE *f = fopen("src/server/API.md", "r");
    if (!f)
        return NULL;
    size_t cap = 8192;
    char *list = malloc(cap), line[1024];
    strcpy(list, "|");
    bool in = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            in = !strcmp(line, "### Error codes\n");
        char *end = in && !strncmp(line, "| `", 3) ? strchr(line + 3, '`') : NULL;
        if (!end)
            continue;
        *end = 0;
        size_t len = strlen(list);
        if (len + strlen(line + 3) + 2 > cap)
            list = realloc(list, cap *= 2);
        snprintf(list + len, cap - len, "%s|", line + 3);
    }
    fclose(f);
    return list;
}

static bool ec_is_listed(const char *list, const char *code)
{
    char key[160];
    snprintf(key, sizeof key, "|%s|", code);
    return strstr(list, key) != NULL;
}

/* What the source scan found: the codes not listed, and how many calls it read. */
static char ec_missing[2048];
static int ec_calls;
static const char *ec_list;

/* The argument `want` (0-based) of the call whose '(' is at p: copied into arg. */
static void ec_argument(const char *p, int want, char *arg, size_t size)
{
    int depth = 0, k = 0;
    size_t n = 0;
    arg[0] = 0;
    for (p++; *p; p++) {
        if (*p == '"') { /* a string literal, kept whole */
            const char *q = p + 1;
            while (*q && *q != '"')
                q += q[0] == '\\' && q[1] ? 2 : 1;
            if (k == want)
                for (const char *c = p; c <= q && *c && n + 1 < size; c++)
                    arg[n++] = *c;
            p = *q ? q : q - 1;
            continue;
        }
        if (*p == '(')
            depth++;
        else if (*p == ')' && depth-- == 0)
            break;
        else if (*p == ',' && depth == 0) {
            k++;
            continue;
        }
        if (k == want && *p != ' ' && *p != '\n' && n + 1 < size)
            arg[n++] = *p;
    }
    arg[n] = 0;
}

static void ec_scan_calls(const char *text, const char *file, const char *name, int code_arg)
{
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        const char *open = p + strlen(name);
        if ((p > text && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z'))) || *open != '(')
            continue;
        char arg[128];
        ec_argument(open, code_arg, arg, sizeof arg);
        if (!strncmp(arg, "const", 5) || !strncmp(arg, "int", 3))
            continue; /* the declaration or definition */
        ec_calls++;
        size_t n = strlen(arg);
        bool literal = n >= 2 && arg[0] == '"' && arg[n - 1] == '"';
        if (literal)
            arg[n - 1] = 0;
        if ((literal && ec_is_listed(ec_list, arg + 1)) || (!literal && !strcmp(arg, "NULL")))
            continue;
        size_t m = strlen(ec_missing);
        snprintf(ec_missing + m, sizeof ec_missing - m, " %s:%s", file, literal ? arg + 1 : arg);
    }
}

static void ec_visit(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return;
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        for (struct dirent *e; d && (e = readdir(d));) {
            char sub[512];
            if (e->d_name[0] != '.' &&
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
                ec_visit(sub);
        }
        if (d)
            closedir(d);
        return;
    }
    size_t n = strlen(path);
    if (n < 2 || strcmp(path + n - 2, ".c"))
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *text = malloc(1 << 20);
    size_t len = fread(text, 1, (1 << 20) - 1, f);
    text[len] = 0;
    fclose(f);
    ec_scan_calls(text, path, "api_set_error_code", 2);
    ec_scan_calls(text, path, "api_error_body", 1);
    free(text);
}

TEST(server_error_codes_listed_in_api_md)
{
    char *list = ec_listed();
    CHECK_MSG(list && strlen(list) > 40, "src/server/API.md has no \"### Error codes\" table");
    if (!list)
        return;
    ec_list = list;
    ec_missing[0] = 0;
    ec_calls = 0;
    ec_visit("src/server");
    CHECK_MSG(ec_calls > 50, "only %d calls with a code found under src/server", ec_calls);
    CHECK_MSG(!ec_missing[0], "codes not listed in API.md (or not literals):%s", ec_missing);
    for (int status = 100; status < 600; status++)
        CHECK_MSG(ec_is_listed(list, api_status_code(status)), "status %d's code %s unlisted",
                  status, api_status_code(status));
    free(list);
}
