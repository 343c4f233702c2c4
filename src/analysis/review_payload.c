/* A review's job payload written and read (review_payload.h). */
#include "analysis/review_payload.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/payload_fields.h"
#include "core/error.h"
#include "core/json_out.h"

char *review_payload_text(const char *id, const struct game *g, const void *start,
                          const char *start_text, const Move *moves, int n, uint64_t nodes)
{
    void *walk = malloc(g->state_size);
    if (!walk)
        return NULL;
    memcpy(walk, start, g->state_size);
    struct jout j;
    jout_init(&j, 256 + (size_t)n * 16);
    jout_open(&j, '{');
    jout_kstr(&j, "id", id);
    jout_kstr(&j, "game", g->name);
    jout_kstr(&j, "start", start_text ? start_text : "");
    jout_key(&j, "moves");
    jout_open(&j, '[');
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX];
        g->move_text(walk, moves[i], text, sizeof text);
        jout_str(&j, text);
        g->make_move(walk, moves[i]);
    }
    jout_close(&j, ']');
    jout_kint(&j, "nodes", (long long)nodes);
    jout_close(&j, '}');
    free(walk);
    return jout_finish(&j);
}

int review_payload_read(const char *text, struct review_payload *p, char *err, size_t err_size)
{
    memset(p, 0, sizeof *p);
    json_error_t jerr;
    json_t *o = json_loads(text ? text : "", 0, &jerr);
    int rc = 0;
    if (!json_is_object(o))
        rc = fail(err, err_size, "the review's payload is not a JSON object (%s)", jerr.text);
    else if (payload_text(o, "review", "id", p->id, sizeof p->id, err, err_size) != 0 ||
             payload_text(o, "review", "game", p->game, sizeof p->game, err, err_size) != 0 ||
             payload_text(o, "review", "start", p->start, sizeof p->start, err, err_size) != 0 ||
             payload_moves(o, "review", &p->moves, &p->n, err, err_size) != 0)
        rc = -1;
    else if (!json_is_integer(json_object_get(o, "nodes")) ||
             json_integer_value(json_object_get(o, "nodes")) < 0)
        rc = fail(err, err_size, "the review's payload has no \"nodes\"");
    else
        p->nodes = (uint64_t)json_integer_value(json_object_get(o, "nodes"));
    json_decref(o);
    if (rc != 0)
        review_payload_free(p);
    return rc;
}

void review_payload_free(struct review_payload *p)
{
    free(p->moves);
    p->moves = NULL;
    p->n = 0;
}

int review_payload_replay(const struct game *g, const struct review_payload *p, void **start,
                          Move **moves, char *err, size_t err_size)
{
    *start = game_state_new(g);
    void *walk = game_state_new(g);
    *moves = malloc(sizeof **moves * (size_t)(p->n + 1));
    int rc = 0;
    if (!*start || !walk || !*moves)
        rc = fail(err, err_size, "out of memory");
    else if (!p->start[0])
        g->start(*start);
    else if (g->parse_position(*start, p->start, err, err_size) != 0)
        rc = -1;
    if (rc == 0)
        memcpy(walk, *start, g->state_size);
    for (int i = 0; rc == 0 && i < p->n; i++) {
        char why[ERROR_TEXT_MAX];
        if (g->parse_move(walk, p->moves[i], &(*moves)[i], why, sizeof why) != 0)
            rc = fail(err, err_size, "move %d '%s' does not play: %s", i + 1, p->moves[i], why);
        else
            g->make_move(walk, (*moves)[i]);
    }
    free(walk);
    if (rc != 0) {
        free(*start);
        free(*moves);
        *start = NULL;
        *moves = NULL;
    }
    return rc;
}
