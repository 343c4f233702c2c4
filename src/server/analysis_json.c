/* An analysis's lines as the stream's events (API.md, "Analysis"). */
#include "analysis_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

/* A number with four decimals (a win chance). */
static void fixed_out(struct jout *j, const char *key, double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.4f", v);
    jout_key(j, key);
    jout_raw(j, text);
}

static void moves_out(struct jout *j, const char *key, const char (*moves)[MOVE_TEXT_MAX], int n)
{
    jout_key(j, key);
    jout_open(j, '[');
    for (int i = 0; i < n; i++)
        jout_str(j, moves[i]);
    jout_close(j, ']');
}

char *analysis_event_text(const struct analysis_line *lines, int n, bool done)
{
    struct jout j;
    jout_init(&j, 1024);
    jout_open(&j, '{');
    jout_key(&j, "lines");
    jout_open(&j, '[');
    for (int i = 0; i < n; i++) {
        const struct analysis_line *l = &lines[i];
        jout_open(&j, '{');
        jout_kint(&j, "multipv", l->multipv);
        jout_kint(&j, "depth", l->depth);
        jout_kint(&j, "seldepth", l->seldepth);
        jout_kint(&j, "score", l->score);
        jout_key(&j, "mate");
        if (l->mate)
            jout_int(&j, l->mate);
        else
            jout_null(&j);
        fixed_out(&j, "win", l->win);
        jout_kint(&j, "nodes", (long long)l->nodes);
        jout_kint(&j, "time_ms", (long long)l->time_ms);
        moves_out(&j, "pv", l->pv, l->pv_len);
        moves_out(&j, "pv_display", l->pv_display, l->pv_len);
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    char *data = jout_finish(&j);
    if (!data)
        return NULL;
    size_t size = strlen(data) + 32;
    char *text = malloc(size);
    if (text)
        snprintf(text, size, "event: %s\ndata: %s\n\n", done ? "done" : "line", data);
    free(data);
    return text;
}
