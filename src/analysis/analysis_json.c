/* An analysis's lines as the stream's events (API.md, "Analysis"). */
#include "analysis/analysis_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_out.h"

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

/* Who judged, and why not the external engine (when `why` is not ""). */
static void engine_out(struct jout *j, const char *engine, const char *why)
{
    jout_kstr(j, "engine", engine);
    if (why && why[0])
        jout_kstr(j, "engine_error", why);
}

char *analysis_event_text(const struct analysis_line *lines, int n, bool done, const char *engine,
                          const char *why, const struct analysis_tablebase *tb,
                          const struct analysis_proof *proof)
{
    struct jout j;
    jout_init(&j, 1024);
    jout_open(&j, '{');
    engine_out(&j, engine, why);
    if (tb) {
        jout_key(&j, "tablebase");
        jout_open(&j, '{');
        jout_kstr(&j, "result", tb->result);
        jout_key(&j, "plies");
        if (tb->plies >= 0)
            jout_int(&j, tb->plies);
        else
            jout_null(&j);
        jout_kstr(&j, "text", tb->text);
        jout_close(&j, '}');
    }
    if (proof) {
        jout_key(&j, "proof");
        jout_open(&j, '{');
        jout_kstr(&j, "word", proof->word);
        jout_kint(&j, "plies", proof->plies);
        jout_kstr(&j, "text", proof->text);
        jout_close(&j, '}');
    }
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

static const char *side_word(int side)
{
    return side == SIDE_BLACK ? "black" : "white";
}

static void mate_out(struct jout *j, const char *key, int mate)
{
    jout_key(j, key);
    if (mate)
        jout_int(j, mate);
    else
        jout_null(j);
}

static void review_head(struct jout *j, const char *id, const struct game *g, const char *status)
{
    jout_open(j, '{');
    jout_kstr(j, "id", id);
    jout_kstr(j, "game", g->name);
    jout_kstr(j, "status", status);
}

char *review_progress_text(const char *id, const struct game *g, const char *status, int done,
                           int total)
{
    struct jout j;
    jout_init(&j, 256);
    review_head(&j, id, g, status);
    jout_kint(&j, "done", done);
    jout_kint(&j, "total", total);
    jout_close(&j, '}');
    return jout_finish(&j);
}

char *review_done_text(const char *id, const struct game *g, const char *start,
                       const struct analysis_ply *plies, int n, const struct analysis_summary *sum,
                       const char *engine, const char *why)
{
    struct jout j;
    jout_init(&j, 1024 + (size_t)n * 400);
    review_head(&j, id, g, "done");
    jout_kint(&j, "done", n + 1);
    jout_kint(&j, "total", n + 1);
    jout_key(&j, "start_position");
    if (start && start[0])
        jout_str(&j, start);
    else
        jout_null(&j);
    engine_out(&j, engine, why);
    jout_key(&j, "plies");
    jout_open(&j, '[');
    for (int i = 0; i < n; i++) {
        const struct analysis_ply *p = &plies[i];
        jout_open(&j, '{');
        jout_kint(&j, "ply", p->ply);
        jout_kstr(&j, "side", side_word((int)p->mover));
        jout_kstr(&j, "move", p->move);
        jout_kstr(&j, "display", p->move_display);
        jout_kstr(&j, "best", p->best);
        jout_kstr(&j, "best_display", p->best_display);
        jout_kint(&j, "score_before", p->score_before);
        jout_kint(&j, "score_after", p->score_after);
        mate_out(&j, "mate_before", p->mate_before);
        mate_out(&j, "mate_after", p->mate_after);
        fixed_out(&j, "win_before", p->win_before);
        fixed_out(&j, "win_after", p->win_after);
        fixed_out(&j, "drop", p->drop);
        jout_kstr(&j, "class", analysis_class_name(p->cls));
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_key(&j, "accuracy");
    jout_open(&j, '{');
    for (int s = 0; s < 2; s++) {
        char text[32];
        snprintf(text, sizeof text, "%.1f", sum ? sum->accuracy[s] : 0.0);
        jout_key(&j, side_word(s));
        jout_raw(&j, text);
    }
    jout_close(&j, '}');
    jout_key(&j, "counts");
    jout_open(&j, '{');
    for (int s = 0; s < 2; s++) {
        jout_key(&j, side_word(s));
        jout_open(&j, '{');
        for (int c = 0; c < ANALYSIS_CLASSES; c++)
            jout_kint(&j, analysis_class_name((enum analysis_class)c), sum ? sum->count[s][c] : 0);
        jout_close(&j, '}');
    }
    jout_close(&j, '}');
    jout_key(&j, "thresholds");
    jout_open(&j, '{');
    jout_kint(&j, "inaccuracy", (int)ANALYSIS_INACCURACY_DROP);
    jout_kint(&j, "mistake", (int)ANALYSIS_MISTAKE_DROP);
    jout_kint(&j, "blunder", (int)ANALYSIS_BLUNDER_DROP);
    jout_close(&j, '}');
    jout_close(&j, '}');
    return jout_finish(&j);
}
