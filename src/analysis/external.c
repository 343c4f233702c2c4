/* The external engine's judgement in agora's terms (analysis.h): its moves through the
 * game's own parser (rules live in src/games), its centipawns and mates as agora's
 * scores, its lines as analysis lines.  A move the game does not allow there is the
 * engine's garbage, an error like any other failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_internal.h"
#include "core/error.h"
#include "engines/engine.h"
#include "engines/uci_engine.h"

void analysis_own_engine_name(const struct game *g, char *buf, size_t size)
{
    snprintf(buf, size, "agora %s", g->name);
}

/* An engine's score as agora's (side to move's view): a mate in n moves is a win n*2-1
 * plies away, mated in n a loss n*2 plies away (analysis_mate reads them back as n and
 * -n); centipawns stay below the proven results. */
static Score external_score(const struct uci_engine_line *u)
{
    int most = ENGINE_MAX_PLY / 2;
    if (u->is_mate && u->mate > 0)
        return (Score)(SCORE_WIN - (2 * (u->mate < most ? u->mate : most) - 1));
    if (u->is_mate) {
        int n = -u->mate;
        n = n < 1 ? 1 : n > most ? most : n; /* "mate 0": mated now; not asked of a finished game */
        return (Score)(-(SCORE_WIN - 2 * n));
    }
    int cap = ENGINE_WIN_BOUND - 1;
    return (Score)(u->cp > cap ? cap : u->cp < -cap ? -cap : u->cp);
}

/* The streaming of one external analysis. */
struct relay {
    const struct game *g;
    void *view;
    void (*on_lines)(void *ctx, const struct analysis_line *lines, int n);
    void *ctx;
    struct analysis_line lines[ANALYSIS_MAX_LINES];
    int garbage; /* a line whose first move is no move of the position */
    char bad[UCI_ENGINE_PV_MAX];
};

/* Lines of the engine into out[]: 0, or -1 (a line's first move is not legal). */
static int convert(struct relay *r, const struct uci_engine_line *u, int n,
                   struct analysis_line *out)
{
    const struct engine_profile *prof = engine_profile_of(r->g);
    for (int i = 0; i < n; i++) {
        struct analysis_line *l = &out[i];
        memset(l, 0, sizeof *l);
        l->multipv = i + 1;
        l->depth = u[i].depth;
        l->seldepth = u[i].seldepth ? u[i].seldepth : u[i].depth;
        analysis_line_score(prof, external_score(&u[i]), l);
        l->nodes = u[i].nodes;
        l->time_ms = u[i].time_ms;
        analysis_line_pv(r->g, r->view, u[i].pv, 0, l);
        if (l->pv_len == 0) {
            snprintf(r->bad, sizeof r->bad, "%s", u[i].pv);
            return -1;
        }
    }
    return 0;
}

static void relay_lines(void *ctx, const struct uci_engine_line *u, int n)
{
    struct relay *r = ctx;
    if (r->garbage || convert(r, u, n, r->lines) != 0) {
        r->garbage = 1;
        return;
    }
    if (r->on_lines)
        r->on_lines(r->ctx, r->lines, n);
}

int analysis_external(const struct game *g, void *st, void *view, struct uci_pool *pool,
                      const struct analysis_external_go *go, struct analysis_line *out, Move *best,
                      char *err, size_t err_size)
{
    char fen[POSITION_TEXT_MAX], bestmove[MOVE_TEXT_MAX], e[ERROR_TEXT_MAX];
    Move *legal = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct uci_engine_line *u = malloc(sizeof *u * UCI_ENGINE_LINES_MAX);
    struct relay *r = malloc(sizeof *r);
    int n = -1;
    *best = 0;
    if (!legal || !u || !r) {
        fail(err, err_size, "out of memory");
        goto done;
    }
    memset(r, 0, sizeof *r);
    r->g = g;
    r->view = view;
    r->on_lines = go->on_lines;
    r->ctx = go->ctx;
    int nroot = game_legal_moves(g, st, legal);
    int lines = go->lines < 1                      ? 1
                : go->lines > UCI_ENGINE_LINES_MAX ? UCI_ENGINE_LINES_MAX
                                                   : go->lines;
    g->write_position(st, fen, sizeof fen);
    struct uci_engine_go ugo = {
        .position = fen,
        .multipv = lines,
        .expect = nroot < lines ? (nroot > 0 ? nroot : 1) : lines,
        .nodes = go->nodes,
        .movetime_ms = go->movetime_ms,
        .new_game = go->new_game,
        .stop = go->stop,
        .on_lines = relay_lines,
        .ctx = r,
    };
    n = uci_pool_go(pool, &ugo, u, bestmove, sizeof bestmove, e, sizeof e);
    if (n < 0) {
        fail(err, err_size, "%s", e);
        goto done;
    }
    int stopped = go->stop && atomic_load(go->stop);
    if (r->garbage || convert(r, u, n, out) != 0) {
        n = fail(err, err_size, "%s answered a move that is not legal here: '%.40s'",
                 uci_pool_name(pool), r->bad);
        goto done;
    }
    if (bestmove[0] && g->parse_move(st, bestmove, best, e, sizeof e) != 0) {
        n = fail(err, err_size, "%s answered a best move that is not legal here: '%s'",
                 uci_pool_name(pool), bestmove);
        goto done;
    }
    if (n == 0 && !stopped)
        n = fail(err, err_size, "%s answered no line with a score", uci_pool_name(pool));
done:
    free(legal);
    free(u);
    free(r);
    return n;
}
