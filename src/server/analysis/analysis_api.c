/* The analysis board's routes: a bare position's state, a stream of engine lines, and
 * (below) the reviews of games.  No token: nothing here changes a game. */
#include "server/analysis/analysis_api.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_json.h"
#include "core/error.h"
#include "core/json_out.h"
#include "core/record.h"
#include "games/registry.h"
#include "server/analysis/analysis_db.h"
#include "server/analysis/analysis_jobs.h"
#include "server/analysis/review_db.h"
#include "server/analysis/review_jobs.h"
#include "server/common/api_util.h"
#include "server/common/token.h"
#include "server/games/cache.h"
#include "server/games/db_jobs.h"
#include "server/games/session.h"
#include "server/games/state_json.h"
#include "server/openings/openings_api.h"
#include "server/server_state.h"
#include "store/store.h"

#define ANALYSIS_MS_DEFAULT 10000

/* A position the body names: its game, start and moves played from it. */
struct body_position {
    const struct game *g;
    void *st;
    char start[POSITION_TEXT_MAX];
    struct move_rec *moves;
    int n_moves;
    char *tree; /* a record's whole tree as JSON text (read_record_position), or NULL */
};

static void body_position_free(struct body_position *p)
{
    free(p->st);
    free(p->moves);
    free(p->tree);
    memset(p, 0, sizeof *p);
}

static void game_list(char *list, size_t size)
{
    list[0] = 0;
    for (int i = 0; game_registry[i]; i++) {
        strncat(list, i ? ", " : "", size - strlen(list) - 1);
        strncat(list, game_registry[i]->name, size - strlen(list) - 1);
    }
}

/* "game", "position", "moves" of the body: 0, or -1 after a 400. */
static int read_position(json_t *body, struct body_position *p, struct api_response *r)
{
    memset(p, 0, sizeof *p);
    json_t *jg = json_object_get(body, "game"), *jp = json_object_get(body, "position");
    json_t *jm = json_object_get(body, "moves");
    const struct game *g = json_is_string(jg) ? game_find(json_string_value(jg)) : NULL;
    char err[ERROR_TEXT_MAX];
    if (!g) {
        char list[200];
        game_list(list, sizeof list);
        api_set_error(r, 400, "%s \"game\": expected one of %s", jg ? "unknown" : "missing", list);
        return -1;
    }
    if (jp && !json_is_null(jp) &&
        (!json_is_string(jp) || json_string_length(jp) >= sizeof p->start ||
         strlen(json_string_value(jp)) != json_string_length(jp))) {
        api_set_error(r, 400, "bad \"position\": expected position text of at most %zu characters",
                      sizeof p->start - 1);
        return -1;
    }
    if (jm && !json_is_null(jm) && !json_is_array(jm)) {
        api_set_error(r, 400, "bad \"moves\": expected an array of move texts");
        return -1;
    }
    size_t n = json_is_array(jm) ? json_array_size(jm) : 0;
    if (n >= (size_t)g->max_plies) {
        api_set_error(r, 400, "bad \"moves\": at most %d moves", g->max_plies - 1);
        return -1;
    }
    p->g = g;
    p->st = game_state_new(g);
    p->moves = calloc(n + 1, sizeof *p->moves);
    if (!p->st || !p->moves) {
        body_position_free(p);
        api_set_error(r, 500, "out of memory");
        return -1;
    }
    if (json_is_string(jp))
        snprintf(p->start, sizeof p->start, "%s", json_string_value(jp));
    if (!p->start[0]) {
        g->start(p->st);
    } else if (g->parse_position(p->st, p->start, err, sizeof err) != 0) {
        api_set_error(r, 400, "bad \"position\" for %s: %s", g->name, err);
        body_position_free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *m = json_array_get(jm, i);
        const char *text = json_string_value(m);
        Move mv;
        struct game_status gs;
        g->status(p->st, &gs);
        int bad = 0;
        if (!json_is_string(m) || json_string_length(m) >= MOVE_TEXT_MAX ||
            strlen(text) != json_string_length(m)) {
            snprintf(err, sizeof err, "expected a move text of at most %d characters",
                     MOVE_TEXT_MAX - 1);
            bad = 1;
        } else if (gs.result != RESULT_ONGOING) {
            snprintf(err, sizeof err, "the game is already over (%s)", reason_text(g, gs.reason));
            bad = 1;
        } else if (g->parse_move(p->st, text, &mv, err, sizeof err) != 0) {
            bad = 1;
        }
        if (bad) {
            api_set_error_code(r, 400, "illegal_move", "move %zu '%.40s': %s", i + 1,
                               json_is_string(m) ? text : "?", err);
            body_position_free(p);
            return -1;
        }
        struct move_rec *rec = &p->moves[p->n_moves++];
        g->move_text(p->st, mv, rec->text, sizeof rec->text);
        game_move_display(g, p->st, mv, rec->display, sizeof rec->display);
        g->make_move(p->st, mv);
    }
    return 0;
}

/* A JSON string of `text`, valid UTF-8 or not (bytes that are not become '?'). */
static json_t *text_json(const char *text)
{
    json_t *j = json_string(text);
    if (j)
        return j;
    char *copy = strdup(text);
    for (char *c = copy; c && *c; c++)
        if ((unsigned char)*c >= 0x80)
            *c = '?';
    j = copy ? json_string(copy) : NULL;
    free(copy);
    return j ? j : json_string("");
}

/* The line of the tree that begins at node `k`, as an array of {"move", "display",
 * "comment", "variations"}: node k and the first child of each node after it.  A node
 * that is its parent's first child carries the parent's other children as its
 * variations (the alternatives to it), each a line of its own. */
static json_t *tree_line(const struct record_tree *t, const int *first, const int *next, int k)
{
    json_t *line = json_array();
    for (; k >= 0; k = first[k]) {
        const struct record_node *n = &t->nodes[k];
        json_t *vars = json_array();
        int parent = n->parent < 0 ? t->n : n->parent;
        if (first[parent] == k)
            for (int v = next[k]; v >= 0; v = next[v])
                json_array_append_new(vars, tree_line(t, first, next, v));
        json_array_append_new(line, json_pack("{sssssoso}", "move", n->text, "display", n->display,
                                              "comment", text_json(n->comment ? n->comment : ""),
                                              "variations", vars));
    }
    return line;
}

/* The tree's main line with its variations as JSON text (malloc'ed), or NULL. */
static char *tree_text(const struct record_tree *t)
{
    /* first[i]: node i's first child, next[i]: its next sibling (-1: none); the start
     * is index t->n */
    int *first = malloc(sizeof(int) * ((size_t)t->n + 1)),
        *next = malloc(sizeof(int) * ((size_t)t->n + 1));
    int *last = malloc(sizeof(int) * ((size_t)t->n + 1));
    char *text = NULL;
    if (first && next && last) {
        for (int i = 0; i <= t->n; i++)
            first[i] = next[i] = last[i] = -1;
        for (int i = 0; i < t->n; i++) {
            int parent = t->nodes[i].parent < 0 ? t->n : t->nodes[i].parent;
            if (last[parent] < 0)
                first[parent] = i;
            else
                next[last[parent]] = i;
            last[parent] = i;
        }
        text = json_text(tree_line(t, first, next, first[t->n]));
    }
    free(first);
    free(next);
    free(last);
    return text;
}

/* The record's tree (record_read_tree) as JSON text into p->tree: 0, or -1 after a 400
 * naming the bad move (or a 500). */
static int read_record_tree(const struct game *g, const char *text, struct body_position *p,
                            struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    void *st = game_state_new(g);
    struct record_tree *t = calloc(1, sizeof *t);
    long used = st && t ? record_read_tree(g, text, st, t, err, sizeof err) : -2;
    if (used > 0 && !(p->tree = tree_text(t)))
        used = -2;
    if (t)
        record_tree_free(t);
    free(t);
    free(st);
    if (used > 0)
        return 0;
    if (used == -1)
        api_set_error(r, 400, "bad \"record\" for %s: %s", g->name, err);
    else if (used == 0)
        api_set_error(r, 400, "bad \"record\": it holds no game");
    else
        api_set_error(r, 500, "out of memory");
    return -1;
}

/* The start's text when it is not the game's own start, else "". */
static void start_text(const struct game *g, const void *start, char *out, size_t size)
{
    char pos[POSITION_TEXT_MAX], std[POSITION_TEXT_MAX] = "";
    g->write_position(start, pos, sizeof pos);
    void *st = game_state_new(g);
    if (st) {
        g->start(st);
        g->write_position(st, std, sizeof std);
        free(st);
    }
    snprintf(out, size, "%s", strcmp(pos, std) ? pos : "");
}

/* The body's "record", read by its game's own record reader (the game "game" names,
 * or the one the record's Variant tag names): the state after its main line, with *g
 * and *text set, or NULL after a 400 (or 500) naming the problem. */
static void *read_body_record(json_t *body, const struct game **g, const char **text,
                              struct api_response *r)
{
    json_t *jg = json_object_get(body, "game"), *jr = json_object_get(body, "record");
    if (!json_is_string(jr) || strlen(json_string_value(jr)) != json_string_length(jr)) {
        api_set_error(r, 400, "missing \"record\": expected the record's text (PGN)");
        return NULL;
    }
    *text = json_string_value(jr);
    *g = jg && !json_is_null(jg) ? (json_is_string(jg) ? game_find(json_string_value(jg)) : NULL)
                                 : game_of_record(*text);
    if (!*g) {
        char list[200];
        game_list(list, sizeof list);
        api_set_error(r, 400, "unknown \"game\": expected one of %s", list);
        return NULL;
    }
    char err[ERROR_TEXT_MAX], result[32];
    void *st = game_state_new(*g);
    struct record_header *h = malloc(sizeof *h);
    long used =
        st && h ? (*g)->read_record(*text, st, h, result, sizeof result, err, sizeof err) : -2;
    free(h);
    if (used > 0)
        return st;
    free(st);
    if (used == 0)
        api_set_error(r, 400, "bad \"record\": it holds no game");
    else if (used == -1)
        api_set_error(r, 400, "bad \"record\" for %s: %s", (*g)->name, err);
    else
        api_set_error(r, 500, "out of memory");
    return NULL;
}

/* "record" in place of "position" and "moves": the record's start and main line, and
 * its whole tree.  0, or -1 after a 400 naming the bad move or token. */
static int read_record_position(json_t *body, struct body_position *p, struct api_response *r)
{
    memset(p, 0, sizeof *p);
    const struct game *g;
    const char *text;
    void *read = read_body_record(body, &g, &text, r);
    if (!read)
        return -1;
    int n = g->ply(read);
    p->g = g;
    p->st = game_state_new(g);
    p->moves = calloc((size_t)n + 1, sizeof *p->moves);
    Move *line = malloc(sizeof(Move) * ((size_t)n + 1));
    if (!p->st || !p->moves || !line) {
        api_set_error(r, 500, "out of memory");
        free(read);
        free(line);
        body_position_free(p);
        return -1;
    }
    /* The start: the state read, every move taken back (states are flat blocks). */
    for (int i = 0; i < n; i++)
        line[i] = g->history_move(read, i);
    memcpy(p->st, read, g->state_size);
    for (int i = n - 1; i >= 0; i--)
        g->unmake_move(p->st, line[i]);
    start_text(g, p->st, p->start, sizeof p->start);
    for (int i = 0; i < n; i++) {
        struct move_rec *rec = &p->moves[p->n_moves++];
        g->move_text(p->st, line[i], rec->text, sizeof rec->text);
        game_move_display(g, p->st, line[i], rec->display, sizeof rec->display);
        g->make_move(p->st, line[i]);
    }
    free(read);
    free(line);
    if (read_record_tree(g, text, p, r) != 0) {
        body_position_free(p);
        return -1;
    }
    return 0;
}

/* The record's tree, between a position's moves and its legal moves. */
/* The fields a bare position may add before its legal moves: a record's tree, and
 * with "book": true the opening book's moves and the opening's name. */
struct position_extras {
    struct server *srv;
    const struct body_position *p;
    bool book;
};

static void extras_out(struct jout *j, void *ctx)
{
    const struct position_extras *x = ctx;
    if (x->p->tree) {
        jout_key(j, "tree");
        jout_raw(j, x->p->tree);
    }
    if (x->book)
        openings_book_out(x->srv, x->p->g, x->p->start, x->p->moves, x->p->n_moves, x->p->st, j);
}

static void handle_position(struct server *srv, const struct api_request *req,
                            struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    struct body_position p;
    int rc = json_object_get(body, "record") ? read_record_position(body, &p, r)
                                             : read_position(body, &p, r);
    struct position_extras x = {
        .srv = srv, .p = &p, .book = json_is_true(json_object_get(body, "book"))};
    json_decref(body);
    if (rc != 0)
        return;
    struct position_view v = {.g = p.g,
                              .st = p.st,
                              .start = p.start,
                              .moves = p.moves,
                              .n_moves = p.n_moves,
                              .before_legal = p.tree || x.book ? extras_out : NULL,
                              .ctx = &x};
    p.g->status(p.st, &v.status);
    api_set_text(r, 200, position_text(&v));
    body_position_free(&p);
}

static void handle_analysis(struct server *srv, const struct api_request *req,
                            struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    json_t *jmpv = json_object_get(body, "multipv"), *jn = json_object_get(body, "nodes");
    long long multipv = 1, nodes = 0;
    if (jmpv && !json_is_null(jmpv) &&
        (!json_is_integer(jmpv) || (multipv = json_integer_value(jmpv)) < 1 ||
         multipv > ANALYSIS_MAX_LINES)) {
        api_set_error(r, 400, "bad \"multipv\": expected a whole number from 1 to %d",
                      ANALYSIS_MAX_LINES);
        json_decref(body);
        return;
    }
    if (jn && !json_is_null(jn) && (!json_is_integer(jn) || (nodes = json_integer_value(jn)) < 1)) {
        api_set_error(r, 400, "bad \"nodes\": expected a positive whole number");
        json_decref(body);
        return;
    }
    struct body_position p;
    int rc = read_position(body, &p, r);
    json_decref(body);
    if (rc != 0)
        return;
    uint64_t def, cap;
    analysis_budget(srv, p.g, (int)multipv, &def, &cap);
    struct analysis_job *j = analysis_job_new(srv, p.g, p.st); /* takes the state */
    if (!j) {
        free(p.moves);
        api_set_error(r, 500, "out of memory");
        return;
    }
    j->multipv = (int)multipv;
    j->nodes = nodes > 0 ? ((uint64_t)nodes < cap ? (uint64_t)nodes : cap) : def;
    j->time_ms = srv->cfg.analysis_ms > 0 ? srv->cfg.analysis_ms : ANALYSIS_MS_DEFAULT;
    snprintf(j->client, sizeof j->client, "%s", req->client ? req->client : "?");
    char err[ERROR_TEXT_MAX];
    int store_rc = 0;
    int code = db_jobs_on(srv)
                   ? analysis_db_submit(j, p.start, p.moves, p.n_moves, &store_rc, err, sizeof err)
                   : analysis_submit(j, err, sizeof err);
    free(p.moves);
    if (code < 0) {
        analysis_job_put(j);
        api_store_error(r, store_rc, "%s", err);
        return;
    }
    if (code) {
        analysis_job_put(j);
        if (code == 429)
            api_set_error_code(r, code, "too_many_analyses", "%s", err);
        else
            api_set_error(r, code, "%s", err);
        return;
    }
    r->kind = API_ANALYSIS;
    r->status = 200;
    r->job = j;
}

/* ---- reviews ---- */

static char *format_review(const struct review_job *j)
{
    const char *why = j->report.error[0] ? j->report.error : j->engine_why;
    return review_done_text(j->id, j->g, j->start_text, j->plies, j->n_reviewed, &j->sum,
                            j->report.name, why);
}

static void running_reply(struct api_response *r, int status, struct review_job *j)
{
    api_set_text(r, status,
                 review_progress_text(j->id, j->g, "running", atomic_load(&j->done),
                                      atomic_load(&j->total)));
    review_job_put(j);
}

/* The stored review `id`: 1 (r holds it, 200), 0 none (or, `plies` >= 0, one of another
 * number of plies: the game went on since), -1 (a 500 set). */
static int stored_review(struct server *srv, const char *id, int plies, struct api_response *r)
{
    char *body = NULL, err[ERROR_TEXT_MAX];
    int rc = store_get_review(srv->store, id, &body, err, sizeof err);
    if (rc < 0) {
        api_store_error(r, rc, "%s", err);
        return -1;
    }
    if (rc == 1)
        return 0;
    if (plies >= 0) {
        json_t *j = json_loads(body, 0, NULL);
        bool same = j && (int)json_array_size(json_object_get(j, "plies")) == plies;
        json_decref(j);
        if (!same) {
            free(body);
            return 0;
        }
    }
    api_set_text(r, 200, body);
    return 1;
}

static bool hex_id(const char *id)
{
    return strlen(id) == STORE_ID_LEN && strspn(id, "0123456789abcdef") == STORE_ID_LEN;
}

/* Queue `j` (or find the running one) and answer 202 with its progress. */
static void submit_review(struct review_job *j, const struct api_request *req,
                          struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int code;
    j->format = format_review;
    snprintf(j->client, sizeof j->client, "%s", req->client ? req->client : "?");
    struct review_job *got = review_submit(j, &code, err, sizeof err);
    if (!got) {
        if (code == 429)
            api_set_error_code(r, code, "too_many_reviews", "%s", err);
        else
            api_set_error(r, code, "%s", err);
        return;
    }
    running_reply(r, 202, got);
}

/* ---- reviews as jobs for the workers (review_db.h) ---- */

/* A review job `id` running answered (`status` with its progress; `g` NULL: its
 * game read from the job): 1, or 0 when there is none. */
static int db_running(struct server *srv, const char *id, const struct game *g, int status,
                      struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int done = 0, total = 0;
    const struct game *named = NULL;
    int rc = review_db_running(srv, id, &done, &total, g ? NULL : &named, err, sizeof err);
    if (rc == 1)
        return 0;
    if (rc != 0)
        api_store_error(r, rc, "%s", err);
    else if (!g && !named)
        api_set_error(r, 500, "review '%.40s' names no game known here", id);
    else
        api_set_text(r, status, review_progress_text(id, g ? g : named, "running", done, total));
    return 1;
}

/* Queue `j` as a job for the workers and answer 202 with its progress. */
static void db_submit(struct server *srv, struct review_job *j, const struct api_request *req,
                      struct api_response *r)
{
    char err[ERROR_TEXT_MAX];
    int code = 0;
    snprintf(j->client, sizeof j->client, "%s", req->client ? req->client : "?");
    int rc = review_db_submit(srv, j, &code, err, sizeof err);
    if (rc == 0)
        api_set_text(r, 202, review_progress_text(j->id, j->g, "running", 0, j->n + 1));
    else if (code == 429)
        api_set_error_code(r, code, "too_many_reviews", "%s", err);
    else if (code)
        api_set_error(r, code, "%s", err);
    else
        api_store_error(r, rc, "%s", err);
    review_job_put(j);
}

/* GET or POST /api/games/{id}/review on a server whose reviews are jobs: the running
 * one, the stored one (of `plies`), none (GET) or a new job (POST: `copy` the game's
 * state, taken over). */
static void db_game_review(struct server *srv, const struct api_request *req, const char *id,
                           const struct game *g, int plies, void *copy, bool post,
                           struct api_response *r)
{
    if (db_running(srv, id, g, post ? 202 : 200, r) || stored_review(srv, id, plies, r) != 0) {
        free(copy);
        return;
    }
    if (!post) {
        api_set_text(r, 200, review_progress_text(id, g, "none", 0, plies + 1));
        return;
    }
    struct review_job *j = copy ? review_job_new(srv, g, copy, id) : NULL;
    if (!j) {
        api_set_error(r, 500, "out of memory");
        return;
    }
    start_text(g, j->start, j->start_text, sizeof j->start_text);
    db_submit(srv, j, req, r);
}

static void handle_game_review(struct server *srv, const struct api_request *req, const char *id,
                               struct api_response *r)
{
    bool post = !strcmp(req->method, "POST"); /* the table sent GET, HEAD or POST */
    if (!hex_id(id)) {
        api_set_error_code(r, 404, "no_such_game", "no game '%.40s'", id);
        return;
    }
    struct session *s;
    char err[ERROR_TEXT_MAX];
    int code = cache_get(srv, id, &s, err, sizeof err);
    if (code) {
        api_set_error(r, code, "%s", err);
        return;
    }
    const struct game *g = s->g;
    pthread_mutex_lock(&s->mu);
    int plies = s->n_moves;
    void *copy = post ? malloc(g->state_size) : NULL;
    if (copy)
        memcpy(copy, s->st, g->state_size);
    pthread_mutex_unlock(&s->mu);
    cache_put(s);
    if (review_db_on(srv)) {
        db_game_review(srv, req, id, g, plies, copy, post, r);
        return;
    }
    /* The running one first: a review is stored before it stops running. */
    struct review_job *j = review_find(srv, id);
    if (j) {
        free(copy);
        running_reply(r, post ? 202 : 200, j);
        return;
    }
    if (stored_review(srv, id, plies, r) != 0) {
        free(copy);
        return;
    }
    if (!post) {
        api_set_text(r, 200, review_progress_text(id, g, "none", 0, plies + 1));
        return;
    }
    if (!copy || !(j = review_job_new(srv, g, copy, id))) {
        api_set_error(r, 500, "out of memory");
        return;
    }
    start_text(g, j->start, j->start_text, sizeof j->start_text);
    submit_review(j, req, r);
}

/* POST /api/reviews {"game", "record"}: an imported record, read by its game. */
static void handle_import(struct server *srv, const struct api_request *req, struct api_response *r)
{
    json_t *body = api_body_object(req, false, r);
    if (!body)
        return;
    const struct game *g;
    const char *text;
    void *st = read_body_record(body, &g, &text, r);
    json_decref(body);
    if (!st)
        return;
    char id[STORE_ID_LEN + 1];
    if (token_random_hex(id, STORE_ID_LEN / 2) != 0) {
        free(st);
        api_set_error(r, 500, "no randomness from the kernel");
        return;
    }
    struct review_job *j = review_job_new(srv, g, st, id);
    if (!j) {
        api_set_error(r, 500, "out of memory");
        return;
    }
    start_text(g, j->start, j->start_text, sizeof j->start_text);
    if (review_db_on(srv))
        db_submit(srv, j, req, r);
    else
        submit_review(j, req, r);
}

static void handle_review(struct server *srv, const struct api_request *req, const char *id,
                          struct api_response *r)
{
    (void)req;
    if (hex_id(id) && review_db_on(srv) && db_running(srv, id, NULL, 200, r))
        return;
    struct review_job *j = hex_id(id) ? review_find(srv, id) : NULL;
    if (j) {
        running_reply(r, 200, j);
        return;
    }
    if (!hex_id(id) || stored_review(srv, id, -1, r) == 0)
        api_set_error_code(r, 404, "no_such_review", "no review '%.40s'", id);
}

void analysis_api_position(struct server *srv, const struct api_request *req,
                           const struct route_args *a, struct api_response *r)
{
    (void)a;
    handle_position(srv, req, r);
}

void analysis_api_start(struct server *srv, const struct api_request *req,
                        const struct route_args *a, struct api_response *r)
{
    (void)a;
    handle_analysis(srv, req, r);
}

void analysis_api_import(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    (void)a;
    handle_import(srv, req, r);
}

void analysis_api_review(struct server *srv, const struct api_request *req,
                         const struct route_args *a, struct api_response *r)
{
    handle_review(srv, req, a->param[0], r);
}

void analysis_api_game_review(struct server *srv, const struct api_request *req,
                              const struct route_args *a, struct api_response *r)
{
    handle_game_review(srv, req, a->param[0], r);
}
