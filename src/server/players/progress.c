/* A player's progress kept by the server (progress.h).  The merge is checked in full
 * before anything changes: a copy with one bad part changes nothing.  Two browsers
 * posting at once both count: the store writes a version only over the one it was
 * merged with (store.h put_progress), and a writer who lost reads again and merges
 * again. */
#include "server/players/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/session.h"
#include "server/people/people_api.h"
#include "server/server_state.h"

#define KEY_MAX 200          /* bytes of a star's, a best's or a card's key */
#define STARS_MAX 5000       /* keys of stars */
#define BESTS_MAX 500        /* keys of best scores */
#define LINES_MAX 500        /* lines of the repertoire */
#define LINE_MOVES_MAX 200   /* moves of a line */
#define MOVE_MAX 24          /* bytes of a move's text */
#define CARDS_MAX 20000      /* cards of the repertoire */
#define STORED_MAX (1 << 20) /* bytes of the merged copy */
#define WRITE_TRIES 4        /* merges again after losing to another writer */

/* ---- checking a browser's copy ---- */

static int bad(char *err, size_t err_size, const char *what)
{
    return fail(err, err_size, "bad progress: %s", what);
}

/* An object of counts 0..max under short keys, at most `most` of them. */
static int check_counts(json_t *o, long long max, size_t most, const char *what, char *err,
                        size_t err_size)
{
    if (!o)
        return 0;
    if (!json_is_object(o) || json_object_size(o) > most)
        return bad(err, err_size, what);
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
    {
        if (strlen(k) > KEY_MAX || !json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > max)
            return bad(err, err_size, what);
    }
    return 0;
}

static int check_line(json_t *line)
{
    json_t *side = json_object_get(line, "side"), *moves = json_object_get(line, "moves");
    if (!json_is_object(line) || !json_is_string(side) || !json_is_array(moves) ||
        json_array_size(moves) > LINE_MOVES_MAX)
        return -1;
    if (strcmp(json_string_value(side), "white") && strcmp(json_string_value(side), "black"))
        return -1;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m)
    {
        if (!json_is_string(m) || json_string_length(m) == 0 || json_string_length(m) > MOVE_MAX)
            return -1;
    }
    return 0;
}

static int check_card(json_t *c)
{
    const char *fields[] = {"reps", "interval", "ef", "due"};
    if (!json_is_object(c))
        return -1;
    for (int i = 0; i < 4; i++)
        if (!json_is_number(json_object_get(c, fields[i])))
            return -1;
    return 0;
}

static int check_repertoire(json_t *r, char *err, size_t err_size)
{
    if (!r)
        return 0;
    json_t *lines = json_object_get(r, "lines"), *cards = json_object_get(r, "cards");
    json_t *changed = json_object_get(r, "changed");
    if (!json_is_object(r) || (lines && !json_is_array(lines)) ||
        (cards && !json_is_object(cards)) ||
        (changed && (!json_is_number(changed) || json_number_value(changed) < 0)))
        return bad(err, err_size, "the repertoire is {lines, cards, changed}");
    if (json_array_size(lines) > LINES_MAX || json_object_size(cards) > CARDS_MAX)
        return bad(err, err_size, "the repertoire is over its limits");
    size_t i;
    json_t *v;
    json_array_foreach(lines, i, v)
    {
        if (check_line(v) != 0)
            return bad(err, err_size, "a line is {side, moves}");
    }
    const char *k;
    json_object_foreach(cards, k, v)
    {
        if (strlen(k) > KEY_MAX || check_card(v) != 0)
            return bad(err, err_size, "a card is {reps, interval, ef, due}");
    }
    return 0;
}

/* ---- merging ---- */

static void merge_counts(json_t *into, const char *key, json_t *incoming)
{
    if (!incoming)
        return;
    json_t *mine = json_object_get(into, key);
    if (!json_is_object(mine)) {
        mine = json_object();
        json_object_set_new(into, key, mine);
    }
    const char *k;
    json_t *v;
    json_object_foreach(incoming, k, v)
    {
        json_t *have = json_object_get(mine, k);
        if (!json_is_integer(have) || json_integer_value(have) < json_integer_value(v))
            json_object_set(mine, k, v);
    }
}

static bool same_line(json_t *a, json_t *b)
{
    return json_equal(json_object_get(a, "side"), json_object_get(b, "side")) &&
           json_equal(json_object_get(a, "moves"), json_object_get(b, "moves"));
}

static void merge_repertoire(json_t *into, json_t *incoming)
{
    if (!incoming)
        return;
    json_t *mine = json_object_get(into, "repertoire");
    if (!json_is_object(mine)) {
        mine = json_object();
        json_object_set_new(into, "repertoire", mine);
    }
    json_t *lines = json_object_get(mine, "lines");
    if (!json_is_array(lines)) {
        lines = json_array();
        json_object_set_new(mine, "lines", lines);
    }
    /* The lines as last changed (a removal too); both when neither says when. */
    double kept = json_number_value(json_object_get(mine, "changed"));
    double sent = json_number_value(json_object_get(incoming, "changed"));
    json_t *their = json_object_get(incoming, "lines");
    if (sent > kept && their) {
        json_array_clear(lines);
        json_array_extend(lines, their);
        json_object_set(mine, "changed", json_object_get(incoming, "changed"));
    } else if (sent == kept) {
        size_t i, j;
        json_t *line, *have;
        json_array_foreach(their, i, line)
        {
            bool found = false;
            json_array_foreach(lines, j, have)
            {
                found = found || same_line(have, line);
            }
            if (!found)
                json_array_append(lines, line);
        }
    }
    json_t *cards = json_object_get(mine, "cards");
    if (!json_is_object(cards)) {
        cards = json_object();
        json_object_set_new(mine, "cards", cards);
    }
    const char *k;
    json_t *card;
    json_object_foreach(json_object_get(incoming, "cards"), k, card)
    {
        json_t *old = json_object_get(cards, k);
        if (!old || json_number_value(json_object_get(old, "due")) <
                        json_number_value(json_object_get(card, "due")))
            json_object_set(cards, k, card);
    }
}

int progress_merge(json_t *into, json_t *incoming, char *err, size_t err_size)
{
    if (!json_is_object(incoming))
        return bad(err, err_size, "send an object {stars, coords, repertoire}");
    json_t *stars = json_object_get(incoming, "stars"),
           *bests = json_object_get(incoming, "coords");
    json_t *rep = json_object_get(incoming, "repertoire");
    if (check_counts(stars, 3, STARS_MAX, "stars are {key: 0..3}", err, err_size) != 0 ||
        check_counts(bests, 1000000, BESTS_MAX, "best scores are {key: a count}", err, err_size) !=
            0 ||
        check_repertoire(rep, err, err_size) != 0)
        return -1;
    merge_counts(into, "stars", stars);
    merge_counts(into, "coords", bests);
    merge_repertoire(into, rep);
    return 0;
}

/* ---- the routes ---- */

/* The stored copy (a new empty one when none) and its version: 0, or the store's
 * answer set in r. */
static int load(struct server *srv, const char *hash, json_t **out, int64_t *version,
                struct api_response *r)
{
    char err[ERROR_TEXT_MAX], *body = NULL;
    int rc = store_get_progress(srv->store, hash, &body, version, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    *out = rc == 0 ? json_loads(body, 0, NULL) : NULL;
    free(body);
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = json_object();
        if (rc == 1)
            *version = 0;
    }
    return 0;
}

static void reply(json_t *copy, const char *token, struct api_response *r)
{
    json_t *out = json_pack("{s:O?,s:O?,s:O?}", "stars", json_object_get(copy, "stars"), "coords",
                            json_object_get(copy, "coords"), "repertoire",
                            json_object_get(copy, "repertoire"));
    if (!out) {
        api_set_error(r, 500, "out of memory");
        return;
    }
    if (!json_object_get(out, "stars") || json_is_null(json_object_get(out, "stars")))
        json_object_set_new(out, "stars", json_object());
    if (!json_object_get(out, "coords") || json_is_null(json_object_get(out, "coords")))
        json_object_set_new(out, "coords", json_object());
    if (json_is_null(json_object_get(out, "repertoire")))
        json_object_del(out, "repertoire");
    if (token)
        json_object_set_new(out, "token", json_string(token));
    api_set_json(r, 200, out);
}

void players_progress_get(struct server *srv, const struct api_request *req,
                          const struct route_args *a, struct api_response *r)
{
    (void)a;
    char hash[STORE_HASH_LEN + 1];
    if (api_bearer_hash(srv, req, hash) != 0) {
        api_set_error_code(r, 403, "no_token", "missing or malformed token");
        return;
    }
    json_t *copy;
    int64_t version;
    if (load(srv, hash, &copy, &version, r) != 0)
        return;
    reply(copy, NULL, r);
    json_decref(copy);
}

void players_progress_post(struct server *srv, const struct api_request *req,
                           const struct route_args *a, struct api_response *r)
{
    (void)a;
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX];
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    /* Checked once against an empty copy before the token is looked at: a bad copy
     * makes no token and changes nothing. */
    json_t *trial = json_object();
    int bad_copy = progress_merge(trial, body, err, sizeof err);
    json_decref(trial);
    if (bad_copy != 0) {
        json_decref(body);
        api_set_error_code(r, 400, "bad_progress", "%s", err);
        return;
    }
    if (people_visitor_token(srv, req, token, hash, name, sizeof name, r) != 0) {
        json_decref(body);
        return;
    }
    const char *old = api_bearer(req);
    bool fresh = !old || strcmp(old, token) != 0;
    for (int attempt = 0; attempt < WRITE_TRIES; attempt++) {
        json_t *copy;
        int64_t version;
        if (load(srv, hash, &copy, &version, r) != 0)
            break;
        progress_merge(copy, body, err, sizeof err);
        char *text = json_dumps(copy, JSON_COMPACT);
        int rc = 0;
        if (!text) {
            api_set_error(r, 500, "out of memory");
        } else if (strlen(text) > STORED_MAX) {
            api_set_error_code(r, 413, "too_large", "the progress would be over %d bytes",
                               STORED_MAX);
        } else {
            rc = store_put_progress(srv->store, hash, text, version, server_now_ms(), err,
                                    sizeof err);
            if (rc < 0)
                api_store_error(r, rc, "%s", err);
            else if (rc == 0)
                reply(copy, fresh ? token : NULL, r);
        }
        free(text);
        json_decref(copy);
        if (rc != 1)
            break;
        if (attempt == WRITE_TRIES - 1)
            api_set_error(r, 503, "the progress is being written by another browser: try again");
    }
    json_decref(body);
}
