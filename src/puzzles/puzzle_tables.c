/* Puzzles proven by a game's endgame tables (puzzle_internal.h): where the tables hold
 * the position, the judge needs no search.  Step k: among the solver's moves, exactly
 * one gives the fastest win by the tables (every other move loses the win, or wins at
 * least a move later); the defence is the tables' longest; the line goes on until the
 * game ends in the solver's favour, or is too long for a puzzle. */
#include <stdlib.h>

#include "engines/profile.h"
#include "puzzle_internal.h"

/* The tables' value of st for the side to move: 1 with *wdl and *plies (-1 when the
 * distance is not known), 0 outside the tables. */
static int verdict(const struct engine_profile *prof, const void *st, int *wdl, int *plies)
{
    return prof->tablebase_verdict && prof->tablebase_verdict(st, wdl, plies);
}

int puzzle_solve_by_tables(const struct game *g, void *st, Move *mv, struct puzzle_solution *out,
                           enum puzzle_reject *why)
{
    const struct engine_profile *prof = engine_profile_of(g);
    const struct puzzle_rules *rules = prof->puzzles;
    int wdl, plies;
    if (!verdict(prof, st, &wdl, &plies))
        return 0;
    *why = PUZZLE_NO_WIN;
    if (wdl <= 0 || plies < 0)
        return 1;
    out->depth_needed = plies;
    for (int step = 0; step < rules->max_steps; step++) {
        int n = game_legal_moves(g, st, mv);
        /* the solver: the fastest win, and every move that wins as fast or a ply later */
        int dist[256];
        Move best = 0;
        int fastest = -1, rivals = 0;
        for (int i = 0; i < n && i < 256; i++) {
            int cw, cp;
            g->make_move(st, mv[i]);
            int known = verdict(prof, st, &cw, &cp);
            struct game_status gs;
            g->status(st, &gs);
            g->unmake_move(st, mv[i]);
            if (gs.result != RESULT_ONGOING) {
                dist[i] = gs.result != RESULT_DRAW ? 0 : -1; /* the mover ends it: its win */
                continue;
            }
            if (!known || (cw < 0 && cp < 0)) {
                *why = PUZZLE_UNCLEAR; /* outside the tables, or a win of unknown distance */
                return 1;
            }
            dist[i] = cw < 0 ? cp : -1;
        }
        for (int i = 0; i < n && i < 256; i++)
            if (dist[i] >= 0 && (fastest < 0 || dist[i] < fastest)) {
                fastest = dist[i];
                best = mv[i];
            }
        for (int i = 0; i < n && i < 256; i++)
            rivals += mv[i] != best && dist[i] >= 0 && dist[i] <= fastest + 1;
        if (!best) {
            *why = PUZZLE_NO_WIN;
            return 1;
        }
        if (rivals) {
            *why = PUZZLE_NOT_UNIQUE;
            return 1;
        }
        out->line[out->n++] = best;
        g->make_move(st, best);
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING) {
            out->proven = 1;
            *why = PUZZLE_OK;
            return 1;
        }
        if (out->n + 2 > PUZZLE_LINE_MAX)
            break;
        /* the defence: the longest */
        n = game_legal_moves(g, st, mv);
        Move reply = 0;
        int longest = -1;
        for (int i = 0; i < n; i++) {
            int cw, cp;
            g->make_move(st, mv[i]);
            if (verdict(prof, st, &cw, &cp) && cw > 0 && cp > longest) {
                longest = cp;
                reply = mv[i];
            }
            g->unmake_move(st, mv[i]);
        }
        if (!reply)
            break;
        out->line[out->n++] = reply;
        g->make_move(st, reply);
    }
    *why = PUZZLE_UNCLEAR; /* too long for a puzzle */
    return 1;
}
