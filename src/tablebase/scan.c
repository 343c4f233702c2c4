/* Scanning played games against the tables (tablebase.h, tb_scan): which games passed
 * through a position the tables call won, and which of the draws were such games. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/record.h"
#include "tablebase.h"

/* The first position of the main line of t (replayed from st) that the tables call won
 * for the side to move: its ply into *ply and its answer into *ans; 0 when there is
 * none, -1 with err at a bad file. */
static int first_won(struct tb_tables *tables, const struct game *g, void *st,
                     const struct record_tree *t, int *ply, struct tb_answer *ans, char *text,
                     size_t text_size, char *err, size_t err_size)
{
    int node = -1, at = 0;
    for (;;) {
        struct tb_answer a;
        int rc = tb_probe(tables, g, st, 0, &a, err, err_size);
        if (rc < 0)
            return -1;
        if (rc == 0 && a.outcome == TB_OUTCOME_WIN) {
            /* the exact distance only for the position reported */
            if (tb_probe(tables, g, st, 1, ans, err, err_size) < 0)
                return -1;
            *ply = at;
            g->write_position(st, text, text_size);
            return 1;
        }
        int next = -1;
        for (int i = node + 1; i < t->n; i++)
            if (t->nodes[i].parent == node) {
                next = i;
                break;
            }
        if (next < 0)
            return 0;
        g->make_move(st, t->nodes[next].move);
        node = next;
        at++;
    }
}

/* err prefixed with the game's number: -1. */
static int with_game(char *err, size_t err_size, int game)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", err);
    return fail(err, err_size, "game %d: %s", game, why);
}

int tb_scan(struct tb_tables *tables, const struct game *g, const char *records,
            const struct tb_scan_options *opt, struct tb_scan_totals *out, char *err,
            size_t err_size)
{
    memset(out, 0, sizeof *out);
    void *st = malloc(g->state_size);
    struct record_tree t = {0};
    int rc = 0;
    if (!st)
        return fail(err, err_size, "out of memory");
    for (const char *p = records;;) {
        record_tree_free(&t);
        long used = record_read_tree(g, p, st, &t, err, err_size);
        if (used < 0) {
            rc = with_game(err, err_size, out->games + 1);
            break;
        }
        if (used == 0)
            break;
        p += used;
        out->games++;
        const char *term = record_tag(&t.h, "Termination");
        int quiet_draw = !strcmp(t.result, "1/2-1/2") && term && !strcmp(term, "quiet-limit");
        out->quiet_draws += quiet_draw;
        int ply;
        struct tb_answer ans;
        char text[POSITION_TEXT_MAX];
        int won = first_won(tables, g, st, &t, &ply, &ans, text, sizeof text, err, err_size);
        if (won < 0) {
            rc = with_game(err, err_size, out->games);
            break;
        }
        out->won_positions += won;
        out->quiet_draws_won += won && quiet_draw;
        if (opt->report)
            fprintf(opt->report, "game %d: %s%s%s", out->games, t.result[0] ? t.result : "*",
                    term ? " " : "", term ? term : "");
        if (opt->report && won)
            fprintf(opt->report, ": won for the side to move at ply %d, win in %d: %s\n", ply,
                    ans.plies, text);
        else if (opt->report)
            fprintf(opt->report, ": no won position the tables hold\n");
        if (won && quiet_draw && opt->positions)
            fprintf(opt->positions, "%s\n", text);
    }
    record_tree_free(&t);
    free(st);
    return rc;
}
