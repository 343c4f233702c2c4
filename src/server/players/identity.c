/* POST /api/me/merge (identity.h): each old token the browser holds is proof that its
 * games and puzzles are this visitor's; the store moves them under the player's token,
 * one token a transaction (store_merge_token), and nothing of a token the server does
 * not know. */
#include "server/players/identity.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/people/people_api.h"
#include "server/server_state.h"
#include "store/store.h"

#define MERGE_TOKENS_MAX 200

void players_merge(struct server *srv, const struct api_request *req, const struct route_args *a,
                   struct api_response *r)
{
    (void)a;
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    json_t *list = json_object_get(body, "tokens");
    size_t n = json_is_array(list) ? json_array_size(list) : 0;
    bool bad = !json_is_array(list) || n > MERGE_TOKENS_MAX;
    for (size_t i = 0; !bad && i < n; i++) {
        json_t *t = json_array_get(list, i);
        bad = !json_is_string(t) || !token_well_formed(json_string_value(t));
    }
    if (bad) {
        json_decref(body);
        api_set_error(r, 400,
                      "bad \"tokens\": expected a list of at most %d tokens (32 hex digits each)",
                      MERGE_TOKENS_MAX);
        return;
    }
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX];
    if (people_visitor_token(srv, req, token, hash, name, sizeof name, r) != 0) {
        json_decref(body);
        return;
    }
    const char *sent = api_bearer(req);
    bool fresh = !sent || strcmp(sent, token) != 0;
    int games = 0, puzzles = 0, merged = 0;
    for (size_t i = 0; i < n; i++) {
        char old[STORE_HASH_LEN + 1];
        token_hash(json_string_value(json_array_get(list, i)), old);
        int g = 0, p = 0;
        int rc = store_merge_token(srv->store, hash, old, &g, &p, err, sizeof err);
        if (rc != 0) { /* the ones before are merged: the browser sends them all again */
            json_decref(body);
            api_store_error(r, rc, "%s", err);
            return;
        }
        if (g > 0) /* the games in memory answer to the player's token from now on */
            cache_retoken(srv, old, hash);
        games += g;
        puzzles += p;
        merged += g + p > 0;
    }
    json_decref(body);
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    if (fresh)
        jout_kstr(&j, "token", token);
    jout_kint(&j, "games", games);
    jout_kint(&j, "puzzles", puzzles);
    jout_kint(&j, "merged", merged);
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}
