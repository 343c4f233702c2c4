/* The API's one route table: every endpoint is one row (method, path pattern, handler,
 * what it needs), and one matcher takes the parameters out of the path.  A path no row
 * matches is 404; a path some row matches, with another method, is 405 with the
 * methods that would do in `Allow`.  API.md lists the same endpoints (a test reads both
 * and fails when they differ).  Before the table: the query's ?token= refused, the
 * cross-site check, the body's size, and the static files (any path outside /api/). */
#include "server/routes.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/analysis/analysis_api.h"
#include "server/clubs/clubs_api.h"
#include "server/common/api_util.h"
#include "server/games/games_api.h"
#include "server/openings/openings_api.h"
#include "server/people/people_api.h"
#include "server/players/devices_api.h"
#include "server/players/identity.h"
#include "server/players/notices_api.h"
#include "server/players/passkeys_api.h"
#include "server/players/players_api.h"
#include "server/players/progress.h"
#include "server/puzzles/puzzles_api.h"
#include "server/tournaments/tournaments_api.h"

#define GET "GET"
#define POST "POST"

static const struct route table[] = {
    /* Games against the computer, and every game's own address (games/games_api.c;
     * a game between people goes on in games/people_game_api.c). */
    {GET, "/api/catalog", games_catalog, ROUTE_NEEDS_NOTHING},
    {POST, "/api/games", games_create, ROUTE_BODY},
    {GET, "/api/games", games_list, ROUTE_TOKEN},
    {GET, "/api/games/{id}", games_state, ROUTE_TOKEN_OPTIONAL},
    {POST, "/api/games/{id}/moves", games_moves, ROUTE_TOKEN | ROUTE_BODY},
    {POST, "/api/games/{id}/resign", games_resign, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/draw", games_draw, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/claim", games_claim, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/takeback", games_takeback, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/abort", games_abort, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/rematch", games_rematch, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/games/{id}/claim-win", games_claim_win, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {GET, "/api/games/{id}/events", games_events, ROUTE_TOKEN_OPTIONAL},
    {GET, "/api/games/{id}/record", games_record, ROUTE_NEEDS_NOTHING},
    /* People: challenges, the lobby's seeks, names (people/people_api.c). */
    {POST, "/api/challenges", people_challenge_create, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {GET, "/api/challenges/{id}", people_challenge_get, ROUTE_NEEDS_NOTHING},
    {GET, "/api/challenges/{id}/events", people_challenge_events, ROUTE_NEEDS_NOTHING},
    {POST, "/api/challenges/{id}/accept", people_challenge_accept,
     ROUTE_TOKEN_OPTIONAL | ROUTE_BODY_OPTIONAL},
    {POST, "/api/challenges/{id}/cancel", people_challenge_cancel,
     ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/seeks", people_seek_create, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {GET, "/api/seeks", people_seeks_list, ROUTE_NEEDS_NOTHING},
    {GET, "/api/seeks/{id}", people_challenge_get, ROUTE_NEEDS_NOTHING},
    {GET, "/api/seeks/{id}/events", people_challenge_events, ROUTE_NEEDS_NOTHING},
    {POST, "/api/seeks/{id}/accept", people_challenge_accept,
     ROUTE_TOKEN_OPTIONAL | ROUTE_BODY_OPTIONAL},
    {POST, "/api/seeks/{id}/cancel", people_challenge_cancel, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {GET, "/api/me", people_me_get, ROUTE_TOKEN},
    {POST, "/api/me", people_me_post, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    /* Players: pages, archives, leaderboards (players/players_api.c). */
    {GET, "/api/players", players_search, ROUTE_NEEDS_NOTHING},
    {GET, "/api/players/{id}", players_get, ROUTE_TOKEN_OPTIONAL},
    {GET, "/api/players/{id}/games", players_games, ROUTE_TOKEN_OPTIONAL},
    {GET, "/api/players/{id}/games/export", players_export, ROUTE_TOKEN_OPTIONAL},
    {GET, "/api/leaderboards/{game}/{class}", players_leaderboard, ROUTE_NEEDS_NOTHING},
    {GET, "/api/me/progress", players_progress_get, ROUTE_TOKEN},
    {POST, "/api/me/progress", players_progress_post, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {POST, "/api/me/merge", players_merge, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {GET, "/api/me/notifications", players_notices, ROUTE_TOKEN},
    {POST, "/api/me/notifications/read", players_notices_read, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {GET, "/api/me/events", players_notice_events, ROUTE_TOKEN},
    {POST, "/api/me/link", players_link, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/me/link/revoke", players_link_revoke, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/signin", players_signin, ROUTE_BODY},
    {GET, "/api/me/devices", players_devices, ROUTE_TOKEN},
    {POST, "/api/me/devices/{id}/revoke", players_device_revoke, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/me/passkeys/options", players_passkey_options, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/me/passkeys", players_passkey_add, ROUTE_TOKEN | ROUTE_BODY},
    {GET, "/api/me/passkeys", players_passkeys, ROUTE_TOKEN},
    {POST, "/api/me/passkeys/revoke", players_passkey_revoke, ROUTE_TOKEN | ROUTE_BODY},
    {POST, "/api/signin/passkey/options", players_signin_options, ROUTE_BODY_OPTIONAL},
    {POST, "/api/signin/passkey", players_signin_passkey, ROUTE_BODY},
    /* Clubs (clubs/clubs_api.c). */
    {POST, "/api/clubs", clubs_create, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {GET, "/api/clubs", clubs_find, ROUTE_NEEDS_NOTHING},
    {POST, "/api/clubs/{id}/public", clubs_set_public, ROUTE_TOKEN | ROUTE_BODY},
    {GET, "/api/clubs/{id}", clubs_get, ROUTE_TOKEN_OPTIONAL},
    {POST, "/api/clubs/{id}/join", clubs_join, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {POST, "/api/clubs/{id}/leave", clubs_leave, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/clubs/{id}/challenges", clubs_challenge, ROUTE_TOKEN | ROUTE_BODY},
    {POST, "/api/clubs/{id}/members/{member}/remove", clubs_member_remove,
     ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/clubs/{id}/members/{member}/admin", clubs_member_admin, ROUTE_TOKEN | ROUTE_BODY},
    {POST, "/api/clubs/{id}/members/{member}/bar", clubs_member_bar,
     ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    /* Tournaments (tournaments/tournaments_api.c). */
    {POST, "/api/tournaments", tournaments_create, ROUTE_TOKEN_OPTIONAL | ROUTE_BODY},
    {GET, "/api/tournaments", tournaments_list, ROUTE_NEEDS_NOTHING},
    {GET, "/api/tournaments/{id}", tournaments_get, ROUTE_TOKEN_OPTIONAL},
    {GET, "/api/tournaments/{id}/events", tournaments_events, ROUTE_NEEDS_NOTHING},
    {GET, "/api/tournaments/{id}/trf", tournaments_trf, ROUTE_NEEDS_NOTHING},
    {POST, "/api/tournaments/{id}/join", tournaments_join,
     ROUTE_TOKEN_OPTIONAL | ROUTE_BODY_OPTIONAL},
    {POST, "/api/tournaments/{id}/pause", tournaments_pause, ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/tournaments/{id}/withdraw", tournaments_withdraw,
     ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    {POST, "/api/tournaments/{id}/games/{game}/berserk", tournaments_berserk,
     ROUTE_TOKEN | ROUTE_BODY_OPTIONAL},
    /* The analysis board and reviews (analysis/analysis_api.c). */
    {POST, "/api/positions", analysis_api_position, ROUTE_BODY},
    {POST, "/api/analysis", analysis_api_start, ROUTE_BODY},
    {GET, "/api/games/{id}/review", analysis_api_game_review, ROUTE_NEEDS_NOTHING},
    {POST, "/api/games/{id}/review", analysis_api_game_review, ROUTE_BODY_OPTIONAL},
    {POST, "/api/reviews", analysis_api_import, ROUTE_BODY},
    {GET, "/api/reviews/{id}", analysis_api_review, ROUTE_NEEDS_NOTHING},
    /* Openings (openings/openings_api.c). */
    {GET, "/api/openings/{game}", openings_names, ROUTE_NEEDS_NOTHING},
    /* Puzzles (puzzles/puzzles_api.c). */
    {GET, "/api/puzzles", puzzles_list, ROUTE_NEEDS_NOTHING},
    {GET, "/api/puzzles/next", puzzles_next, ROUTE_TOKEN_OPTIONAL},
    {POST, "/api/puzzles/{id}/attempts", puzzles_attempt, ROUTE_TOKEN | ROUTE_BODY},
};

const struct route *routes_table(size_t *n)
{
    *n = sizeof table / sizeof table[0];
    return table;
}

int routes_match(const char *pattern, const char *path, struct route_args *a)
{
    a->path = path;
    a->n = 0;
    const char *p = pattern, *s = path;
    while (*p) {
        if (*p == '{') {
            const char *close = strchr(p, '}');
            size_t len = strcspn(s, "/");
            if (!close || len == 0 || len >= ROUTE_PARAM_MAX || a->n == ROUTE_PARAMS_MAX)
                return 0;
            memcpy(a->param[a->n], s, len);
            a->param[a->n++][len] = 0;
            p = close + 1;
            s += len;
        } else if (*p++ != *s++) {
            return 0;
        }
    }
    return *s == 0;
}

static bool method_fits(const char *want, const char *method)
{
    return !strcmp(want, method) || (!strcmp(want, GET) && !strcmp(method, "HEAD"));
}

/* The row for the request (NULL: 404 or 405 set in r). */
static const struct route *find_route(const struct api_request *req, const char *path,
                                      struct route_args *a, struct api_response *r)
{
    char allow[64] = "";
    struct route_args tried;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!routes_match(table[i].pattern, path, &tried))
            continue;
        if (method_fits(table[i].method, req->method)) {
            *a = tried;
            return &table[i];
        }
        if (!strstr(allow, table[i].method)) {
            size_t n = strlen(allow);
            snprintf(allow + n, sizeof allow - n, "%s%s", n ? ", " : "", table[i].method);
            if (!strcmp(table[i].method, GET)) {
                n = strlen(allow);
                snprintf(allow + n, sizeof allow - n, ", HEAD");
            }
        }
    }
    if (!allow[0]) {
        api_set_error(r, 404, "no such API path '%.100s'", path);
        return NULL;
    }
    api_set_error(r, 405, "use %s here", allow);
    snprintf(r->allow, sizeof r->allow, "%s", allow);
    return NULL;
}

/* A page of another site may make the visitor's browser send a POST here (a form, or a
 * fetch with a "simple" content type).  Browsers name the page's site in Origin on every
 * such request, so a state-changing request is refused when its Origin is not this
 * server's own (scheme://Host), and, without Origin, when its body is declared as
 * anything but JSON (what a form sends).  curl and other clients without Origin that send
 * JSON, or no Content-Type at all, go through.  0 when allowed; otherwise a 403 is set. */
static int cross_site_check(const struct api_request *req, struct api_response *r)
{
    if (!strcmp(req->method, "GET") || !strcmp(req->method, "HEAD"))
        return 0;
    if (req->origin) {
        const char *o = req->origin, *h = req->host;
        if (!strncasecmp(o, "http://", 7))
            o += 7;
        else if (!strncasecmp(o, "https://", 8))
            o += 8;
        else
            o = NULL;
        if (!o || !h || !*h || strcasecmp(o, h) != 0) {
            api_set_error_code(r, 403, "cross_site",
                               "cross-site request refused: the Origin '%.100s' is not this "
                               "server's own",
                               req->origin);
            return -1;
        }
        return 0;
    }
    if (req->content_type) {
        const char *t = req->content_type;
        while (*t == ' ' || *t == '\t')
            t++;
        size_t n = strcspn(t, "; \t");
        if (n != 16 || strncasecmp(t, "application/json", 16) != 0) {
            api_set_error_code(r, 403, "cross_site",
                               "a %s without an Origin header must send "
                               "'Content-Type: application/json' (got '%.60s')",
                               req->method, req->content_type);
            return -1;
        }
    }
    return 0;
}

void api_handle(struct server *srv, const struct api_request *req, struct api_response *r)
{
    memset(r, 0, sizeof *r);
    r->kind = API_DONE;
    /* Split off the query; only ?last= (streams) is read.  A ?token= is refused: the
     * token travels only in the Authorization header (URLs end up in logs and history). */
    char path[512];
    const char *q = strchr(req->url, '?');
    size_t plen = q ? (size_t)(q - req->url) : strlen(req->url);
    if (plen >= sizeof path) {
        api_set_error(r, 404, "no such path");
        return;
    }
    memcpy(path, req->url, plen);
    path[plen] = 0;
    for (const char *p = q; p && *p; p = strchr(p + 1, '&')) {
        if (!strncmp(p + 1, "token=", 6)) {
            api_set_error_code(r, 400, "token_in_url",
                               "the token goes in the 'Authorization: Bearer <token>' header, "
                               "not in the URL (?token= is refused)");
            return;
        }
    }
    if (cross_site_check(req, r) != 0)
        return;
    if (req->body_too_large) {
        api_set_error(r, 413, "the body is over %d bytes", SERVER_BODY_MAX);
        return;
    }
    if (strncmp(path, "/api/", 5) != 0 && strcmp(path, "/api") != 0) {
        if (strcmp(req->method, "GET") && strcmp(req->method, "HEAD")) {
            api_set_error(r, 405, "use GET for files");
            snprintf(r->allow, sizeof r->allow, "GET, HEAD");
            return;
        }
        r->kind = API_STATIC;
        snprintf(r->path, sizeof r->path, "%s", path);
        return;
    }
    struct route_args args;
    const struct route *rt = find_route(req, path, &args, r);
    if (rt)
        rt->handler(srv, req, &args, r);
}
