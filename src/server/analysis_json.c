/* An analysis's lines as the stream's events (API.md, "Analysis"). */
#include "analysis_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

double analysis_win_chance(const struct game *g, Score score)
{
    (void)g; /* the same curve for every game until the profiles give theirs */
    if (score >= ENGINE_WIN_BOUND)
        return 1.0;
    if (score <= -ENGINE_WIN_BOUND)
        return 0.0;
    return 1.0 / (1.0 + pow(10.0, -(double)score / 400.0));
}

int analysis_mate_moves(Score score)
{
    if (score >= ENGINE_WIN_BOUND)
        return (SCORE_WIN - score + 1) / 2;
    if (score <= -ENGINE_WIN_BOUND)
        return -((SCORE_WIN + score + 1) / 2);
    return 0;
}

/* The pv's move texts and their display texts, replayed on a copy of the root. */
static void pv_out(struct jout *j, const struct game *g, const void *root, const char *pv)
{
    void *st = malloc(g->state_size);
    if (st)
        memcpy(st, root, g->state_size);
    char texts[ENGINE_PV_TEXT_MAX];
    snprintf(texts, sizeof texts, "%s", pv);
    jout_key(j, "pv");
    jout_open(j, '[');
    for (char *save = NULL, *t = strtok_r(texts, " ", &save); t; t = strtok_r(NULL, " ", &save))
        jout_str(j, t);
    jout_close(j, ']');
    snprintf(texts, sizeof texts, "%s", pv);
    jout_key(j, "pv_display");
    jout_open(j, '[');
    char err[128];
    for (char *save = NULL, *t = strtok_r(texts, " ", &save); t && st;
         t = strtok_r(NULL, " ", &save)) {
        Move m;
        if (g->parse_move(st, t, &m, err, sizeof err) != 0)
            break;
        char display[MOVE_TEXT_MAX];
        game_move_display(g, st, m, display, sizeof display);
        jout_str(j, display);
        g->make_move(st, m);
    }
    jout_close(j, ']');
    free(st);
}

char *analysis_event_text(const struct game *g, const void *root, const struct engine_info *lines,
                          int n, bool done)
{
    struct jout j;
    jout_init(&j, 1024);
    jout_open(&j, '{');
    jout_key(&j, "lines");
    jout_open(&j, '[');
    for (int i = 0; i < n; i++) {
        const struct engine_info *l = &lines[i];
        int mate = analysis_mate_moves(l->score);
        jout_open(&j, '{');
        jout_kint(&j, "multipv", i + 1);
        jout_kint(&j, "depth", l->depth);
        jout_kint(&j, "seldepth", l->seldepth);
        jout_kint(&j, "score", l->score);
        jout_key(&j, "mate");
        if (mate)
            jout_int(&j, mate);
        else
            jout_null(&j);
        char win[32];
        snprintf(win, sizeof win, "%.4f", analysis_win_chance(g, l->score));
        jout_key(&j, "win");
        jout_raw(&j, win);
        jout_kint(&j, "nodes", (long long)l->nodes);
        jout_kint(&j, "time_ms", (long long)l->time_ms);
        pv_out(&j, g, root, l->pv);
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
