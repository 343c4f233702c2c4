/* A line's parts that every judge shares (analysis_internal.h): its score, mate and
 * win chance, its pv replayed from move texts, and the clock; used by agora's own
 * searches (position.c, review.c) and the external engine's (external.c). */
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "analysis_internal.h"
#include "engines/engine.h"

int analysis_mate(Score s)
{
    if (s >= ENGINE_WIN_BOUND)
        return (SCORE_WIN - s + 1) / 2;
    if (s <= -ENGINE_WIN_BOUND)
        return -((SCORE_WIN + s + 1) / 2);
    return 0;
}

int64_t analysis_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void analysis_line_pv(const struct game *g, void *st, const char *pv, Move first,
                      struct analysis_line *l)
{
    Move played[ANALYSIS_PV_MAX];
    int n = 0;
    char tok[MOVE_TEXT_MAX], err[ERROR_TEXT_MAX];
    const char *p = pv ? pv : "";
    while (n < ANALYSIS_PV_MAX) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (!len || len >= sizeof tok)
            break;
        memcpy(tok, p, len);
        tok[len] = 0;
        p += len;
        Move m;
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING || g->parse_move(st, tok, &m, err, sizeof err) != 0)
            break;
        if (n == 0 && first && m != first)
            break; /* a line that is not the search's answer: the answer alone */
        g->move_text(st, m, l->pv[n], MOVE_TEXT_MAX);
        game_move_display(g, st, m, l->pv_display[n], MOVE_TEXT_MAX);
        g->make_move(st, m);
        played[n++] = m;
    }
    for (int i = n; i > 0; i--)
        g->unmake_move(st, played[i - 1]);
    if (n == 0 && first) {
        g->move_text(st, first, l->pv[0], MOVE_TEXT_MAX);
        game_move_display(g, st, first, l->pv_display[0], MOVE_TEXT_MAX);
        n = 1;
    }
    l->pv_len = n;
}

void analysis_line_score(const struct engine_profile *prof, Score s, struct analysis_line *l)
{
    l->score = s;
    l->mate = analysis_mate(s);
    l->win = engine_win_chance(prof, s);
}
