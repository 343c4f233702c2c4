/* Puzzles proven by a game's endgame tables (puzzle_internal.h): where the tables hold
 * the position, the judge needs no search.  The rule is the search's judge's
 * (data/puzzles/README.md): at each of the solver's steps exactly one move wins by the
 * tables (a slower win is a win too), except that at the last step other moves that
 * end the game with the solver's win at once are accepted as alternatives; the defence
 * is the tables' longest; the line goes on until the game ends in the solver's favour,
 * or is too long for a puzzle. */
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
        /* The solver's winning moves by the tables: those that end the game with its win
         * at once, and those that win later (a slower win is a win too). */
        Move now[PUZZLE_ALT_MAX + 1], best = 0;
        int nnow = 0, later = 0, fastest = -1;
        for (int i = 0; i < n; i++) {
            int cw, cp;
            g->make_move(st, mv[i]);
            int known = verdict(prof, st, &cw, &cp);
            struct game_status gs;
            g->status(st, &gs);
            g->unmake_move(st, mv[i]);
            if (gs.result != RESULT_ONGOING) {
                if (gs.result != RESULT_DRAW && nnow <= PUZZLE_ALT_MAX)
                    now[nnow] = mv[i]; /* the mover ends it: its win */
                nnow += gs.result != RESULT_DRAW;
                continue;
            }
            if (!known) {
                *why = PUZZLE_UNCLEAR; /* outside the tables */
                return 1;
            }
            if (cw < 0) {
                later++;
                if (fastest < 0 || (cp >= 0 && cp < fastest)) {
                    fastest = cp;
                    best = mv[i];
                }
            }
        }
        /* Exactly one winning move; at the last step other moves that win at once are
         * its alternatives (as the search's judge accepts them), a slower win never. */
        if (nnow > 0) {
            if (later > 0 || nnow > PUZZLE_ALT_MAX + 1) {
                *why = PUZZLE_NOT_UNIQUE;
                return 1;
            }
            best = now[0];
            out->nalt = nnow - 1;
            for (int i = 1; i < nnow; i++)
                out->alt[i - 1] = now[i];
        } else if (later != 1) {
            *why = later ? PUZZLE_NOT_UNIQUE : PUZZLE_NO_WIN;
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
