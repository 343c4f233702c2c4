/* An analysis's job payload written and read (analysis_payload.h). */
#include "analysis/analysis_payload.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/payload_fields.h"
#include "core/error.h"
#include "core/json_out.h"

/* The grace after the time cap: a lease (the workers' 30 s by default) and a run. */
#define ANALYSIS_PAYLOAD_GRACE_MS 30000

char *analysis_payload_text(const struct analysis_payload *p)
{
    struct jout j;
    jout_init(&j, 256 + (size_t)p->n * 16);
    jout_open(&j, '{');
    jout_kstr(&j, "game", p->game);
    jout_kstr(&j, "start", p->start);
    jout_key(&j, "moves");
    jout_open(&j, '[');
    for (int i = 0; i < p->n; i++)
        jout_str(&j, p->moves[i]);
    jout_close(&j, ']');
    jout_kint(&j, "multipv", p->multipv);
    jout_kint(&j, "nodes", (long long)p->nodes);
    jout_kint(&j, "time_ms", (long long)p->time_ms);
    jout_close(&j, '}');
    return jout_finish(&j);
}

/* The whole number `key` of `o`, within lo..hi: 0, or -1 with err. */
static int int_field(json_t *o, const char *key, long long lo, long long hi, long long *out,
                     char *err, size_t err_size)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return fail(err, err_size, "the analysis's payload has no \"%s\" within %lld..%lld", key,
                    lo, hi);
    *out = json_integer_value(v);
    return 0;
}

int analysis_payload_read(const char *text, struct analysis_payload *p, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    json_error_t jerr;
    json_t *o = json_loads(text ? text : "", 0, &jerr);
    long long multipv = 0, nodes = 0, time_ms = 0;
    int rc = 0;
    if (!json_is_object(o))
        rc = fail(err, err_size, "the analysis's payload is not a JSON object (%s)", jerr.text);
    else if (payload_text(o, "analysis", "game", p->game, sizeof p->game, err, err_size) != 0 ||
             payload_text(o, "analysis", "start", p->start, sizeof p->start, err, err_size) != 0 ||
             payload_moves(o, "analysis", &p->moves, &p->n, err, err_size) != 0 ||
             int_field(o, "multipv", 1, ANALYSIS_MAX_LINES, &multipv, err, err_size) != 0 ||
             int_field(o, "nodes", 1, INT64_MAX, &nodes, err, err_size) != 0 ||
             int_field(o, "time_ms", 1, 24LL * 3600 * 1000, &time_ms, err, err_size) != 0)
        rc = -1;
    json_decref(o);
    p->multipv = (int)multipv;
    p->nodes = (uint64_t)nodes;
    p->time_ms = time_ms;
    if (rc != 0)
        analysis_payload_free(p);
    return rc;
}

void analysis_payload_free(struct analysis_payload *p)
{
    free(p->moves);
    p->moves = NULL;
    p->n = 0;
}

void *analysis_payload_position(const struct game *g, const struct analysis_payload *p, char *err,
                                size_t err_size)
{
    void *st = game_state_new(g);
    if (!st) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    if (!p->start[0]) {
        g->start(st);
    } else if (g->parse_position(st, p->start, err, err_size) != 0) {
        free(st);
        return NULL;
    }
    for (int i = 0; i < p->n; i++) {
        char why[ERROR_TEXT_MAX];
        Move m;
        if (g->parse_move(st, p->moves[i], &m, why, sizeof why) != 0) {
            fail(err, err_size, "move %d '%.40s': %s", i + 1, p->moves[i], why);
            free(st);
            return NULL;
        }
        g->make_move(st, m);
    }
    return st;
}

int64_t analysis_payload_expires_ms(int64_t created_ms, int64_t time_ms)
{
    return created_ms + 3 * time_ms + ANALYSIS_PAYLOAD_GRACE_MS;
}
