/* The routes of clubs (clubs_api.h). */
#include "server/clubs/clubs_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/json_out.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/people_json.h"
#include "server/games/session.h"
#include "server/people/people_api.h"
#include "server/server_state.h"

#define CLUB_MEMBERS_MAX 500
#define CLUB_GAMES_SHOWN 50

static const char *const role_names[] = {"member", "admin", "creator"};

static bool hex_id(const char *id, size_t len)
{
    return strlen(id) == len && strspn(id, "0123456789abcdef") == len;
}

/* A text field: 1..size-1 bytes of UTF-8 (0.. when optional), no control characters but
 * newlines when `lines`.  0, or a 400 set. */
static int text_field(json_t *body, const char *key, char *out, size_t size, bool optional,
                      bool lines, struct api_response *r)
{
    json_t *j = json_object_get(body, key);
    const char *v = json_is_string(j) ? json_string_value(j) : NULL;
    size_t n = v ? json_string_length(j) : 0, k = 0;
    bool bad = (!j && !optional) || (j && !v) || (v && strlen(v) != n) || (!optional && n == 0) ||
               (v && !utf8_valid(v, n));
    /* A text with lines keeps them as "\n" (a browser's textarea sends "\r\n"). */
    const char *what = NULL;
    for (size_t i = 0; !bad && !what && i < n; i++) {
        unsigned char ch = (unsigned char)v[i], next = i + 1 < n ? (unsigned char)v[i + 1] : 0;
        if (lines && ch == '\r' && next == '\n')
            continue;
        if ((ch < 0x20 && !(lines && ch == '\n')) || ch == 0x7f ||
            (ch == 0xc2 && next >= 0x80 && next <= 0x9f)) /* C1: U+0080..U+009F */
            what = lines ? "control characters other than line breaks are not allowed"
                         : "control characters are not allowed";
        else if (k + 1 < size)
            out[k] = (char)ch;
        k++;
    }
    bad |= !what && k >= size;
    if (!bad && !what && !optional && strspn(v, " \t") == n)
        what = "a text of only spaces is not allowed";
    if (bad || what) {
        out[0] = 0;
        if (what)
            api_set_error_code(r, 400, "bad_text", "bad \"%s\": %s", key, what);
        else
            api_set_error_code(r, 400, "bad_text", "bad \"%s\": expected text of %s%zu bytes", key,
                               optional ? "at most " : "1 to ", size - 1);
        return 400;
    }
    out[k] = 0;
    return 0;
}

/* "languages": a list of the site's languages (en, bn, as, fi), at least one. */
static int languages_field(json_t *body, char *out, size_t size, struct api_response *r)
{
    static const char *const known[] = {"en", "bn", "as", "fi"};
    json_t *j = json_object_get(body, "languages"), *v;
    size_t i;
    out[0] = 0;
    bool bad = !json_is_array(j) || json_array_size(j) == 0 || json_array_size(j) > 4;
    json_array_foreach(j, i, v)
    {
        const char *code = json_is_string(v) ? json_string_value(v) : "";
        bool ok = false;
        for (int k = 0; k < 4; k++)
            ok |= !strcmp(code, known[k]);
        if (!ok || strstr(out, code))
            bad = true;
        else
            snprintf(out + strlen(out), size - strlen(out), "%s%s", out[0] ? "," : "", code);
    }
    if (bad) {
        out[0] = 0;
        api_set_error(r, 400,
                      "bad \"languages\": expected a list of \"en\", \"bn\", \"as\", \"fi\"");
        return 400;
    }
    return 0;
}

static int load_club(struct server *srv, const char *id, struct store_club *c,
                     struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int rc = hex_id(id, STORE_ID_LEN) ? store_get_club(srv->store, id, c, err, sizeof err) : 1;
    if (rc == 1)
        api_set_error_code(r, 404, "no_such_club", "no club '%.40s'", id);
    else if (rc != 0)
        api_store_error(r, rc, "%s", err);
    return rc;
}

/* The request's membership of the club: 0 (*m filled), 1 none (no token or not a member),
 * -1 (500 set). */
static int caller(struct server *srv, const struct api_request *req, const char *club_id,
                  struct store_member *m, struct api_response *r)
{
    char hash[STORE_HASH_LEN + 1];
    if (api_bearer_hash(srv, req, hash) != 0)
        return 1;
    int rc = people_club_member(srv, club_id, hash, m);
    if (rc < 0)
        api_store_error(r, rc, "the club's members could not be read");
    return rc;
}

static int new_member(struct store_member *m, const char *hash, const char *name, int role)
{
    memset(m, 0, sizeof m[0]);
    char id[17];
    if (token_random_hex(id, 8) != 0)
        return -1;
    snprintf(m->id, sizeof m->id, "%s", id);
    snprintf(m->token_hash, sizeof m->token_hash, "%s", hash);
    snprintf(m->name, sizeof m->name, "%s", name);
    m->role = role;
    m->joined_ms = server_now_ms();
    return 0;
}

/* ---- the club as JSON ---- */

struct members {
    struct store_member *m;
    int n;
};

static void member_one(void *ctx, const struct store_member *m)
{
    struct members *l = ctx;
    if (l->n < CLUB_MEMBERS_MAX)
        l->m[l->n++] = *m;
}

static const char *name_of(const struct members *l, const char *hash)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->m[i].token_hash, hash))
            return l->m[i].name;
    return NULL;
}

/* The results between members, each pair once: wins of each and draws. */
struct pair {
    char a[STORE_HASH_LEN + 1], b[STORE_HASH_LEN + 1];
    int a_wins, draws, b_wins;
};
struct results {
    struct pair *p;
    int n, cap;
};

static void result_one(void *ctx, const char *white, const char *black, int result, int count)
{
    struct results *r = ctx;
    bool swap = strcmp(white, black) > 0;
    const char *a = swap ? black : white, *b = swap ? white : black;
    struct pair *p = NULL;
    for (int i = 0; i < r->n && !p; i++)
        if (!strcmp(r->p[i].a, a) && !strcmp(r->p[i].b, b))
            p = &r->p[i];
    if (!p) {
        if (r->n == r->cap) {
            int cap = r->cap ? 2 * r->cap : 16;
            struct pair *q = realloc(r->p, sizeof *q * (size_t)cap);
            if (!q)
                return;
            r->p = q;
            r->cap = cap;
        }
        p = &r->p[r->n++];
        memset(p, 0, sizeof *p);
        snprintf(p->a, sizeof p->a, "%s", a);
        snprintf(p->b, sizeof p->b, "%s", b);
    }
    bool white_won = result == RESULT_WHITE_WINS, black_won = result == RESULT_BLACK_WINS;
    if (!white_won && !black_won)
        p->draws += count;
    else if (white_won != swap) /* the first of the pair won */
        p->a_wins += count;
    else
        p->b_wins += count;
}

static void game_one(void *ctx, const struct store_game *row)
{
    struct jout *j = ctx;
    static const char *const results[] = {"ongoing", "white-wins", "black-wins", "draw"};
    jout_open(j, '{');
    jout_kstr(j, "id", row->id);
    jout_kstr(j, "game", row->game);
    jout_kstr(j, "white", row->white_name);
    jout_kstr(j, "black", row->black_name);
    jout_kstr(j, "result", row->result >= 0 && row->result <= 3 ? results[row->result] : "?");
    jout_kint(j, "ply", row->plies);
    jout_kint(j, "created", row->created_ms);
    jout_close(j, '}');
}

static void challenge_one(void *ctx, const struct store_challenge *c)
{
    challenge_out(ctx, c, server_now_ms());
}

static void reply_club(struct server *srv, const struct store_club *c,
                       const struct store_member *me, int status, const char *token,
                       struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    struct members l = {calloc(CLUB_MEMBERS_MAX, sizeof(struct store_member)), 0};
    struct results res = {NULL, 0, 0};
    struct jout j;
    jout_init(&j, 8192);
    int rc = -1;
    if (!l.m || (rc = store_list_members(srv->store, c->id, member_one, &l, err, sizeof err)) ||
        (rc = store_club_results(srv->store, c->id, result_one, &res, err, sizeof err))) {
        free(res.p);
        free(jout_finish(&j));
        api_store_error(r, rc, "%s", l.m ? err : "out of memory");
        free(l.m);
        return;
    }
    jout_open(&j, '{');
    jout_kstr(&j, "id", c->id);
    jout_kstr(&j, "name", c->name);
    jout_kstr(&j, "description", c->description);
    jout_key(&j, "languages");
    jout_open(&j, '[');
    for (const char *p = c->languages; *p; p += p[2] ? 3 : 2) {
        char code[3] = {p[0], p[1], 0};
        jout_str(&j, code);
        if (!p[2])
            break;
    }
    jout_close(&j, ']');
    jout_kbool(&j, "public", c->is_public != 0);
    char url[80];
    snprintf(url, sizeof url, "/#/club/%s", c->id);
    jout_kstr(&j, "url", url);
    jout_key(&j, "you");
    if (me) {
        jout_open(&j, '{');
        jout_kstr(&j, "id", me->id);
        jout_kstr(&j, "role", role_names[me->role % 3]);
        jout_close(&j, '}');
    } else {
        jout_null(&j);
    }
    /* The invite code: members may pass the link on. */
    if (me) {
        jout_kstr(&j, "invite", c->invite);
        char link[120];
        snprintf(link, sizeof link, "/#/club/%s?invite=%s", c->id, c->invite);
        jout_kstr(&j, "invite_url", link);
    }
    jout_key(&j, "members");
    jout_open(&j, '[');
    for (int i = 0; i < l.n; i++) {
        jout_open(&j, '{');
        jout_kstr(&j, "id", l.m[i].id);
        jout_kstr(&j, "name", l.m[i].name);
        jout_kstr(&j, "role", role_names[l.m[i].role % 3]);
        struct store_player p; /* their page (API.md "Players"), unless they hide */
        if (store_player_by_hash(srv->store, l.m[i].token_hash, &p, err, sizeof err) == 0 &&
            !p.hidden)
            jout_kstr(&j, "player", p.id);
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_key(&j, "results");
    jout_open(&j, '[');
    for (int i = 0; i < res.n; i++) {
        const char *a = name_of(&l, res.p[i].a), *b = name_of(&l, res.p[i].b);
        if (!a || !b)
            continue; /* a member who left */
        jout_open(&j, '{');
        jout_kstr(&j, "a", a);
        jout_kstr(&j, "b", b);
        jout_kint(&j, "a_wins", res.p[i].a_wins);
        jout_kint(&j, "draws", res.p[i].draws);
        jout_kint(&j, "b_wins", res.p[i].b_wins);
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_key(&j, "challenges");
    jout_open(&j, '[');
    rc = store_club_challenges(srv->store, c->id, server_now_ms(), challenge_one, &j, err,
                               sizeof err);
    jout_close(&j, ']');
    jout_key(&j, "games");
    jout_open(&j, '[');
    if (rc == 0)
        rc = store_club_games(srv->store, c->id, CLUB_GAMES_SHOWN, game_one, &j, err, sizeof err);
    jout_close(&j, ']');
    if (token)
        jout_kstr(&j, "token", token);
    jout_close(&j, '}');
    free(l.m);
    free(res.p);
    char *text = jout_finish(&j);
    if (rc != 0) {
        free(text);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, status, text);
}

/* ---- the routes ---- */

/* "public": a boolean, absent for false (or, with `required`, a 400).  0, or 400. */
static int public_field_of(json_t *body, int *out, bool required, struct api_response *r)
{
    json_t *jp = json_object_get(body, "public");
    if ((!jp && required) || (jp && !json_is_boolean(jp))) {
        api_set_error(r, 400, "bad \"public\": expected true or false");
        return 400;
    }
    *out = jp && json_is_true(jp);
    return 0;
}

static int public_field(json_t *body, int *out, struct api_response *r)
{
    return public_field_of(body, out, false, r);
}

static void handle_create(struct server *srv, const struct api_request *req, struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    struct store_club c;
    memset(&c, 0, sizeof c);
    char token[TOKEN_HEX_LEN + 1], name[STORE_PLAYER_NAME_MAX], err[ERROR_TEXT_MAX];
    int bad = text_field(body, "club", c.name, sizeof c.name, false, false, r);
    if (!bad)
        bad = text_field(body, "description", c.description, sizeof c.description, true, true, r);
    if (!bad)
        bad = languages_field(body, c.languages, sizeof c.languages, r);
    if (!bad)
        bad = public_field(body, &c.is_public, r);
    if (!bad)
        bad = people_visitor_token(srv, req, token, c.creator_hash, name, sizeof name, r);
    if (!bad)
        bad = people_body_name(body, name, sizeof name, true, r);
    json_decref(body);
    if (bad)
        return;
    struct store_member m;
    if (token_random_hex(c.id, STORE_ID_LEN / 2) != 0 ||
        token_random_hex(c.invite, STORE_ID_LEN / 2) != 0 ||
        new_member(&m, c.creator_hash, name, CLUB_CREATOR) != 0) {
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    c.created_ms = server_now_ms();
    int rc = store_put_player(srv->store, c.creator_hash, name, c.created_ms, err, sizeof err);
    if (rc == 0)
        rc = store_create_club(srv->store, &c, &m, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    reply_club(srv, &c, &m, 201, token, r);
}

static void handle_join(struct server *srv, const struct api_request *req,
                        const struct store_club *c, struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    char token[TOKEN_HEX_LEN + 1], hash[STORE_HASH_LEN + 1], name[STORE_PLAYER_NAME_MAX];
    char err[ERROR_TEXT_MAX], code[STORE_ID_LEN + 1];
    code[0] = 0;
    int bad = people_visitor_token(srv, req, token, hash, name, sizeof name, r);
    /* A public club is joined without an invite; a code sent is checked all the same. */
    bool need_code = !c->is_public || json_object_get(body, "invite");
    if (!bad && need_code)
        bad = text_field(body, "invite", code, sizeof code, false, false, r);
    if (!bad)
        bad = people_body_name(body, name, sizeof name, true, r);
    json_decref(body);
    if (bad)
        return;
    if (need_code && (!token_equal(code, c->invite) || strlen(code) != strlen(c->invite))) {
        api_set_error_code(r, 403, "wrong_invite", "wrong invite code for this club");
        return;
    }
    struct store_member m;
    int rc, known = people_club_member(srv, c->id, hash, &m);
    if (known < 0 || (known > 0 && new_member(&m, hash, name, CLUB_MEMBER) != 0)) {
        api_store_error(r, known, "the club's members could not be read");
        return;
    }
    snprintf(m.name, sizeof m.name, "%s", name);
    if ((rc = store_put_player(srv->store, hash, name, server_now_ms(), err, sizeof err)) != 0 ||
        (rc = store_join_club(srv->store, c->id, &m, err, sizeof err)) != 0) {
        if (rc == 1)
            api_set_error_code(r, 403, "club_barred", "you are barred from this club");
        else
            api_store_error(r, rc, "%s", err);
        return;
    }
    reply_club(srv, c, &m, 200, token, r);
}

/* The role of the club's member `member_id`, or -1 when there is none. */
static int member_role(struct server *srv, const char *club_id, const char *member_id)
{
    char err[ERROR_TEXT_MAX];
    struct members l = {calloc(CLUB_MEMBERS_MAX, sizeof(struct store_member)), 0};
    int role = -1;
    if (l.m && store_list_members(srv->store, club_id, member_one, &l, err, sizeof err) == 0)
        for (int i = 0; i < l.n; i++)
            if (!strcmp(l.m[i].id, member_id))
                role = l.m[i].role;
    free(l.m);
    return role;
}

/* Leave (oneself), remove (an admin: another member), admin (the creator: a role). */
static void handle_member_op(struct server *srv, const struct api_request *req,
                             const struct store_club *c, const char *target, const char *op,
                             struct api_response *r)
{
    struct store_member me;
    char err[ERROR_TEXT_MAX];
    int rc = caller(srv, req, c->id, &me, r);
    if (rc < 0)
        return;
    if (rc > 0) {
        api_set_error_code(r, 403, "club_members_only", "only the club's members may do this");
        return;
    }
    json_t *body = api_body_object(req, true, r);
    if (!body)
        return;
    int role = -1;
    if (!strcmp(op, "leave")) {
        target = me.id;
        if (me.role == CLUB_CREATOR) {
            json_decref(body);
            api_set_error_code(r, 409, "creator_cannot_leave", "the creator cannot leave the club");
            return;
        }
    } else if (!strcmp(op, "remove") || !strcmp(op, "bar")) {
        if (me.role < CLUB_ADMIN) {
            json_decref(body);
            api_set_error_code(r, 403, "club_admins_only",
                               "only the club's admins may remove members");
            return;
        }
    } else {
        json_t *ja = json_object_get(body, "admin");
        if (me.role != CLUB_CREATOR) {
            json_decref(body);
            api_set_error_code(r, 403, "club_creator_only", "only the club's creator names admins");
            return;
        }
        if (!json_is_boolean(ja)) {
            json_decref(body);
            api_set_error(r, 400, "bad \"admin\": expected true or false");
            return;
        }
        role = json_is_true(ja) ? CLUB_ADMIN : CLUB_MEMBER;
    }
    json_decref(body);
    if (!hex_id(target, 16)) { /* as a well-formed id that names nobody (API.md) */
        api_set_error_code(r, 409, "no_such_member", "no such member");
        return;
    }
    struct store_club after = *c;
    if (!strcmp(op, "remove") || !strcmp(op, "bar")) {
        /* Only the creator removes admins; the club's invite code changes, so the member
         * removed needs a new invite (issue 25). */
        int target_role = member_role(srv, c->id, target);
        if (target_role == CLUB_ADMIN && me.role != CLUB_CREATOR) {
            api_set_error_code(r, 403, "club_creator_only",
                               "only the club's creator removes admins");
            return;
        }
        if (token_random_hex(after.invite, STORE_ID_LEN / 2) != 0) {
            api_set_error(r, 500, "no randomness from the kernel");
            return;
        }
        int most = me.role == CLUB_CREATOR ? CLUB_ADMIN : CLUB_MEMBER;
        rc = !strcmp(op, "bar") ? store_bar_member(srv->store, c->id, target, most, after.invite,
                                                   server_now_ms(), err, sizeof err)
                                : store_remove_member(srv->store, c->id, target, most, after.invite,
                                                      err, sizeof err);
    } else {
        rc = store_set_member(srv->store, c->id, target, role, err, sizeof err);
    }
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    if (rc > 0) {
        api_set_error_code(r, 409, "no_such_member",
                           "no such member (the creator cannot be removed)");
        return;
    }
    bool gone = !strcmp(op, "leave");
    reply_club(srv, &after, gone ? NULL : &me, 200, NULL, r);
}

void clubs_create(struct server *srv, const struct api_request *req, const struct route_args *a,
                  struct api_response *r)
{
    (void)a;
    handle_create(srv, req, r);
}

/* The club named by the path's {id} into *c; -1 with a 404 set. */
static int path_club(struct server *srv, const struct route_args *a, struct store_club *c,
                     struct api_response *r)
{
    return load_club(srv, a->param[0], c, r);
}

void clubs_get(struct server *srv, const struct api_request *req, const struct route_args *a,
               struct api_response *r)
{
    struct store_club c;
    struct store_member me;
    if (path_club(srv, a, &c, r) != 0)
        return;
    int rc = caller(srv, req, c.id, &me, r);
    if (rc >= 0)
        reply_club(srv, &c, rc == 0 ? &me : NULL, 200, NULL, r);
}

void clubs_join(struct server *srv, const struct api_request *req, const struct route_args *a,
                struct api_response *r)
{
    struct store_club c;
    if (path_club(srv, a, &c, r) == 0)
        handle_join(srv, req, &c, r);
}

void clubs_leave(struct server *srv, const struct api_request *req, const struct route_args *a,
                 struct api_response *r)
{
    struct store_club c;
    if (path_club(srv, a, &c, r) == 0)
        handle_member_op(srv, req, &c, "", "leave", r);
}

void clubs_challenge(struct server *srv, const struct api_request *req, const struct route_args *a,
                     struct api_response *r)
{
    struct store_club c;
    struct store_member me;
    if (path_club(srv, a, &c, r) != 0)
        return;
    int rc = caller(srv, req, c.id, &me, r);
    if (rc > 0)
        api_set_error_code(r, 403, "club_members_only",
                           "only the club's members challenge in its lobby");
    else if (rc == 0)
        people_create_challenge(srv, req, false, c.id, r);
}

/* members/{member}/remove and members/{member}/admin: a member id is 16 hex digits, so
 * one of 32 bytes or more names no path. */
static void member_op(struct server *srv, const struct api_request *req, const struct route_args *a,
                      const char *op, struct api_response *r)
{
    struct store_club c;
    if (strlen(a->param[1]) >= 32) {
        api_set_error(r, 404, "no such API path '%.100s'", a->path);
        return;
    }
    if (path_club(srv, a, &c, r) == 0)
        handle_member_op(srv, req, &c, a->param[1], op, r);
}

void clubs_member_remove(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    member_op(srv, req, a, "remove", r);
}

void clubs_member_admin(struct server *srv, const struct api_request *req,
                        const struct route_args *a, struct api_response *r)
{
    member_op(srv, req, a, "admin", r);
}

void clubs_member_bar(struct server *srv, const struct api_request *req, const struct route_args *a,
                      struct api_response *r)
{
    member_op(srv, req, a, "bar", r);
}

/* POST /api/clubs/{id}/public {"public": bool}: an admin lists the club or not. */
void clubs_set_public(struct server *srv, const struct api_request *req, const struct route_args *a,
                      struct api_response *r)
{
    struct store_club c;
    struct store_member me;
    char err[ERROR_TEXT_MAX];
    if (path_club(srv, a, &c, r) != 0)
        return;
    int rc = caller(srv, req, c.id, &me, r);
    if (rc < 0)
        return;
    if (rc > 0) {
        api_set_error_code(r, 403, "club_members_only", "only the club's members may do this");
        return;
    }
    if (me.role < CLUB_ADMIN) {
        api_set_error_code(r, 403, "club_admins_only",
                           "only the club's admins make it public or not");
        return;
    }
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    int bad = public_field_of(body, &c.is_public, true, r);
    json_decref(body);
    if (bad)
        return;
    rc = store_set_club_public(srv->store, c.id, c.is_public, err, sizeof err);
    if (rc != 0) {
        api_store_error(r, rc, "%s", err);
        return;
    }
    reply_club(srv, &c, &me, 200, NULL, r);
}

/* GET /api/clubs?name=&lang=: the public clubs found. */
#define CLUBS_FOUND_MAX 50

static void found_one(void *ctx, const struct store_club *c, int members)
{
    struct jout *j = ctx;
    jout_open(j, '{');
    jout_kstr(j, "id", c->id);
    jout_kstr(j, "name", c->name);
    jout_kstr(j, "description", c->description);
    jout_key(j, "languages");
    jout_open(j, '[');
    for (const char *p = c->languages; p[0] && p[1]; p += p[2] ? 3 : 2) {
        char code[3] = {p[0], p[1], 0};
        jout_str(j, code);
        if (!p[2])
            break;
    }
    jout_close(j, ']');
    jout_kint(j, "members", members);
    jout_close(j, '}');
}

void clubs_find(struct server *srv, const struct api_request *req, const struct route_args *a,
                struct api_response *r)
{
    (void)a;
    char text[STORE_CLUB_NAME_MAX] = "", lang[8] = "", err[ERROR_TEXT_MAX];
    int hn = api_query_text(req->url, "name", text, sizeof text);
    int hl = api_query_text(req->url, "lang", lang, sizeof lang);
    static const char *const known[] = {"en", "bn", "as", "fi"};
    bool lang_ok = hl <= 0;
    for (size_t i = 0; hl > 0 && i < sizeof known / sizeof known[0]; i++)
        lang_ok |= !strcmp(lang, known[i]);
    if (hn < 0 || hl < 0 || !lang_ok) {
        api_set_error_code(r, 400, "bad_query", "bad '%s' in the query: %s",
                           hn < 0 ? "name" : "lang",
                           hn < 0 ? "at most 80 bytes of text" : "one of en, bn, as, fi");
        return;
    }
    struct jout j;
    jout_init(&j, 4096);
    jout_open(&j, '{');
    jout_key(&j, "clubs");
    jout_open(&j, '[');
    int rc =
        store_find_clubs(srv->store, text, lang, CLUBS_FOUND_MAX, found_one, &j, err, sizeof err);
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *out = jout_finish(&j);
    if (rc != 0) {
        free(out);
        api_store_error(r, rc, "%s", err);
        return;
    }
    api_set_text(r, 200, out);
}
