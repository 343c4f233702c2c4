/* Reading, writing and proving again the lines of a puzzle file (puzzle_file.h). */
#include "puzzle_file.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "engines/engine.h"
#include "games/registry.h"

uint64_t puzzle_text_hash(const char *text)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    return h;
}

void puzzle_position_key(const struct game *g, const char *position, char *buf, size_t size)
{
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    int fields = rules ? rules->position_fields : 0, field = 0;
    size_t n = 0;
    const char *p = position;
    while (size > 0) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, " \t");
        if (!len || (fields > 0 && field >= fields))
            break;
        if (n + (field > 0) + len >= size)
            break;
        if (field > 0)
            buf[n++] = ' ';
        memcpy(buf + n, p, len);
        n += len;
        p += len;
        field++;
    }
    if (size > 0)
        buf[n] = 0;
}

uint64_t puzzle_position_hash(const struct game *g, const char *position)
{
    char key[POSITION_TEXT_MAX];
    puzzle_position_key(g, position, key, sizeof key);
    return puzzle_text_hash(key);
}

void puzzle_id(const struct game *g, const char *position, char *buf, size_t size)
{
    snprintf(buf, size, "%s-%012llx", g->name,
             (unsigned long long)(puzzle_position_hash(g, position) & 0xffffffffffffULL));
}

int puzzle_entry_accepts(const struct puzzle_entry *e, int step, const char *move)
{
    if (step < 0 || 2 * step >= e->n)
        return 0;
    if (strcmp(move, e->moves[2 * step]) == 0)
        return 1;
    for (int i = 0; 2 * step == e->n - 1 && i < e->nalt; i++)
        if (strcmp(move, e->alternatives[i]) == 0)
            return 1;
    return 0;
}

int puzzle_entry_has_theme(const struct puzzle_entry *e, const char *theme)
{
    for (int i = 0; i < e->nthemes; i++)
        if (strcmp(e->themes[i], theme) == 0)
            return 1;
    return 0;
}

void puzzle_entry_make(const struct game *g, const void *st0, const struct puzzle_solution *s,
                       struct puzzle_entry *out)
{
    memset(out, 0, sizeof *out);
    out->g = g;
    g->write_position(st0, out->position, sizeof out->position);
    puzzle_id(g, out->position, out->id, sizeof out->id);
    void *st = malloc(g->state_size);
    if (st) {
        memcpy(st, st0, g->state_size);
        for (int i = 0; i < s->n; i++) {
            if (i == s->n - 1)
                for (int k = 0; k < s->nalt; k++)
                    g->move_text(st, s->alt[k], out->alternatives[k], MOVE_TEXT_MAX);
            g->move_text(st, s->line[i], out->moves[i], MOVE_TEXT_MAX);
            g->make_move(st, s->line[i]);
        }
        out->n = s->n;
        out->nalt = s->nalt;
    }
    free(st);
    for (int i = 0; i < s->nthemes; i++)
        snprintf(out->themes[i], PUZZLE_THEME_NAME_MAX, "%s", s->themes[i]);
    out->nthemes = s->nthemes;
    out->rating = s->rating;
    out->by = s->by;
    out->nodes = s->by == PUZZLE_BY_SEARCH ? s->nodes : 0;
}

/* "agora GAME": the engine that judges puzzles, named as `agora uci` names itself. */
static void judge_engine(const struct game *g, char *buf, size_t size)
{
    snprintf(buf, size, "agora %s", g->name);
}

char *puzzle_entry_json(const struct puzzle_entry *e)
{
    json_t *o = json_object(), *mv = json_array(), *th = json_array();
    json_object_set_new(o, "id", json_string(e->id));
    json_object_set_new(o, "game", json_string(e->g->name));
    json_object_set_new(o, "position", json_string(e->position));
    for (int i = 0; i < e->n; i++)
        json_array_append_new(mv, json_string(e->moves[i]));
    json_object_set_new(o, "moves", mv);
    if (e->nalt > 0) {
        json_t *alt = json_array();
        for (int i = 0; i < e->nalt; i++)
            json_array_append_new(alt, json_string(e->alternatives[i]));
        json_object_set_new(o, "alternatives", alt);
    }
    for (int i = 0; i < e->nthemes; i++)
        json_array_append_new(th, json_string(e->themes[i]));
    json_object_set_new(o, "themes", th);
    json_object_set_new(o, "rating", json_integer(e->rating));
    if (e->by != PUZZLE_BY_ANY) {
        char engine[64];
        judge_engine(e->g, engine, sizeof engine);
        json_t *j = json_object();
        json_object_set_new(j, "engine", json_string(engine));
        json_object_set_new(j, "by", json_string(puzzle_judge_name(e->by)));
        if (e->by == PUZZLE_BY_SEARCH)
            json_object_set_new(j, "nodes", json_integer((json_int_t)e->nodes));
        json_object_set_new(o, "judge", j);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

static int copy_string(json_t *o, const char *key, char *buf, size_t size, char *err,
                       size_t err_size)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        return fail(err, err_size, "\"%s\" is missing or not a string", key);
    if (strlen(s) >= size)
        return fail(err, err_size, "\"%s\" is too long", key);
    strcpy(buf, s);
    return 0;
}

/* "alternatives" (optional): legal moves at the last step `st`, each other than the
 * solution's last move `last` and each once. */
static int parse_alternatives(json_t *o, const void *st, Move last, struct puzzle_entry *out,
                              char *err, size_t err_size)
{
    json_t *alt = json_object_get(o, "alternatives");
    if (!alt)
        return 0;
    size_t n = json_array_size(alt);
    if (!json_is_array(alt) || n < 1 || n > PUZZLE_ALT_MAX)
        return fail(err, err_size, "\"alternatives\" must be an array of 1..%d moves",
                    PUZZLE_ALT_MAX);
    const struct game *g = out->g;
    Move seen[PUZZLE_ALT_MAX];
    for (size_t i = 0; i < n; i++) {
        const char *t = json_string_value(json_array_get(alt, i));
        char why[ERROR_TEXT_MAX] = "not a string";
        Move m;
        if (!t || strlen(t) >= MOVE_TEXT_MAX || g->parse_move(st, t, &m, why, sizeof why) != 0)
            return fail(err, err_size, "alternative %zu is not legal: %s", i + 1, why);
        for (size_t k = 0; k < i; k++)
            if (seen[k] == m)
                return fail(err, err_size, "alternative %zu is there twice", i + 1);
        if (m == last)
            return fail(err, err_size, "alternative %zu is the solution's own move", i + 1);
        seen[i] = m;
        strcpy(out->alternatives[i], t);
    }
    out->nalt = (int)n;
    return 0;
}

static int parse_moves(json_t *o, struct puzzle_entry *out, char *err, size_t err_size)
{
    json_t *mv = json_object_get(o, "moves");
    size_t n = json_array_size(mv);
    if (!json_is_array(mv) || n < 1 || n > PUZZLE_LINE_MAX || n % 2 == 0)
        return fail(err, err_size, "\"moves\" must be an odd number (1..%d) of moves",
                    PUZZLE_LINE_MAX),
               -1;
    const struct game *g = out->g;
    void *st = game_state_new(g);
    if (!st)
        return fail(err, err_size, "out of memory");
    int rc = g->parse_position(st, out->position, err, err_size);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *t = json_string_value(json_array_get(mv, i));
        Move m;
        char why[ERROR_TEXT_MAX];
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING)
            snprintf(why, sizeof why, "the game is over");
        if (!t || strlen(t) >= MOVE_TEXT_MAX || gs.result != RESULT_ONGOING ||
            g->parse_move(st, t, &m, why, sizeof why) != 0) {
            fail(err, err_size, "move %zu is not legal: %s", i + 1, t ? why : "not a string");
            rc = -1;
            break;
        }
        if (i == n - 1 && parse_alternatives(o, st, m, out, err, err_size) != 0) {
            rc = -1;
            break;
        }
        strcpy(out->moves[i], t);
        g->make_move(st, m);
    }
    out->n = (int)n;
    free(st);
    return rc;
}

/* "judge" (optional): {"engine": "agora GAME", "by": "search", "nodes": N > 0} or
 * {"engine": "agora GAME", "by": "tables"}. */
static int parse_judge(json_t *o, struct puzzle_entry *out, char *err, size_t err_size)
{
    json_t *j = json_object_get(o, "judge");
    if (!j)
        return 0;
    const char *engine = json_string_value(json_object_get(j, "engine"));
    const char *by = json_string_value(json_object_get(j, "by"));
    json_t *nodes = json_object_get(j, "nodes");
    char own[64];
    judge_engine(out->g, own, sizeof own);
    if (!json_is_object(j) || !engine || !by)
        return fail(err, err_size, "\"judge\" must be {\"engine\", \"by\", \"nodes\"}");
    if (strcmp(engine, own) != 0)
        return fail(err, err_size, "\"judge\" names the engine \"%s\", not \"%s\"", engine, own);
    if (!strcmp(by, "tables") && !nodes) {
        out->by = PUZZLE_BY_TABLES;
        return 0;
    }
    if (strcmp(by, "search") != 0)
        return fail(err, err_size,
                    "\"judge\" \"by\" must be \"search\" (with \"nodes\") or \"tables\"");
    if (!json_is_integer(nodes) || json_integer_value(nodes) < 1)
        return fail(err, err_size, "\"judge\" by the search needs \"nodes\", a positive integer");
    out->by = PUZZLE_BY_SEARCH;
    out->nodes = (uint64_t)json_integer_value(nodes);
    return 0;
}

int puzzle_entry_parse(const char *line, struct puzzle_entry *out, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *o = json_loads(line, 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return fail(err, err_size, "not a JSON object: %s", je.text);
    }
    char game[32];
    int rc = -1;
    if (copy_string(o, "id", out->id, sizeof out->id, err, err_size) ||
        copy_string(o, "game", game, sizeof game, err, err_size) ||
        copy_string(o, "position", out->position, sizeof out->position, err, err_size))
        goto done;
    out->g = game_find(game);
    if (!out->g) {
        fail(err, err_size, "unknown game \"%s\"", game);
        goto done;
    }
    if (parse_moves(o, out, err, err_size))
        goto done;
    json_t *th = json_object_get(o, "themes");
    if (!json_is_array(th) || json_array_size(th) > PUZZLE_THEMES_MAX) {
        fail(err, err_size, "\"themes\" must be an array of at most %d names", PUZZLE_THEMES_MAX);
        goto done;
    }
    for (size_t i = 0; i < json_array_size(th); i++) {
        const char *t = json_string_value(json_array_get(th, i));
        if (!t || strlen(t) >= PUZZLE_THEME_NAME_MAX) {
            fail(err, err_size, "theme %zu is not a short string", i + 1);
            goto done;
        }
        strcpy(out->themes[out->nthemes++], t);
    }
    json_t *r = json_object_get(o, "rating");
    if (!json_is_integer(r)) {
        fail(err, err_size, "\"rating\" is missing or not an integer");
        goto done;
    }
    out->rating = (int)json_integer_value(r);
    if (parse_judge(o, out, err, err_size))
        goto done;
    rc = 0;
done:
    json_decref(o);
    return rc;
}

int puzzle_entry_check(const struct puzzle_entry *e, uint64_t nodes, struct engine *eng, char *why,
                       size_t why_size)
{
    const struct game *g = e->g;
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    if (!nodes && e->by == PUZZLE_BY_SEARCH)
        nodes = e->nodes;
    if (!nodes && rules)
        nodes = rules->prove_nodes;
    void *st = game_state_new(g);
    if (!st)
        return fail(why, why_size, "out of memory");
    int rc = -1;
    struct puzzle_solution s;
    if (g->parse_position(st, e->position, why, why_size) != 0)
        goto done;
    /* By the judge that proved it: the search never asks the tables then (they would
     * prove another line, the longest defence), the tables must hold it. */
    enum puzzle_reject r = puzzle_solve_by(g, st, nodes, eng, e->by, &s);
    if (r == PUZZLE_NO_TABLES) {
        fail(why, why_size,
             "proven by the endgame tables, which do not hold it here "
             "(agora tablebase generate %s)",
             g->name);
        goto done;
    }
    if (r != PUZZLE_OK) {
        fail(why, why_size, "no puzzle at %llu nodes: %s", (unsigned long long)nodes,
             puzzle_reject_name(r));
        goto done;
    }
    struct puzzle_entry again;
    puzzle_entry_make(g, st, &s, &again);
    for (int i = 0; i < e->n || i < again.n; i++)
        if (i >= e->n || i >= again.n || strcmp(e->moves[i], again.moves[i]) != 0) {
            fail(why, why_size, "the solution differs at move %d: %s, proven %s", i + 1,
                 i < e->n ? e->moves[i] : "(end)", i < again.n ? again.moves[i] : "(end)");
            goto done;
        }
    /* The alternatives, as a set. */
    for (int i = 0; i < e->nalt || i < again.nalt; i++) {
        const char *a = i < again.nalt ? again.alternatives[i] : NULL;
        if (a && !puzzle_entry_accepts(e, (e->n - 1) / 2, a)) {
            fail(why, why_size, "the last move %s wins at once too: not among the alternatives", a);
            goto done;
        }
        if (i < e->nalt && !puzzle_entry_accepts(&again, (again.n - 1) / 2, e->alternatives[i])) {
            fail(why, why_size, "the alternative %s does not win at once", e->alternatives[i]);
            goto done;
        }
    }
    for (int i = 0; i < e->nthemes || i < again.nthemes; i++)
        if (i >= e->nthemes || i >= again.nthemes || strcmp(e->themes[i], again.themes[i]) != 0) {
            fail(why, why_size, "the themes differ at %d: %s, found %s", i + 1,
                 i < e->nthemes ? e->themes[i] : "(end)",
                 i < again.nthemes ? again.themes[i] : "(end)");
            goto done;
        }
    if (strcmp(e->id, again.id) != 0) {
        fail(why, why_size, "the id of this position is %s", again.id);
        goto done;
    }
    if (rules && (nodes == rules->prove_nodes || e->by == PUZZLE_BY_TABLES) &&
        e->rating != again.rating) {
        fail(why, why_size, "the first rating is %d, not %d", again.rating, e->rating);
        goto done;
    }
    rc = 0;
done:
    free(st);
    return rc;
}
