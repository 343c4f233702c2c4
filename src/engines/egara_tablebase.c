/* Egara-guti's endgame tables behind its engine profile (profile.h tablebase_moves and
 * tablebase_oracle): the tables of TB_DEFAULT_DIR, or of $AGORA_TABLEBASES, opened on
 * first use; a position they do not hold (too many pieces, no files) is left to the
 * search. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "egara_tablebase.h"
#include "games/egara/egara.h"
#include "profile.h"
#include "tablebase/tablebase.h"

/* The positions the root's distance searches may visit together (a few ms; beyond it
 * the search among the moves that keep the result decides, by the tables' estimates). */
#define ROOT_DISTANCE_BUDGET 200000

static struct tb_tables *tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_rwlock_t tables_lock = PTHREAD_RWLOCK_INITIALIZER;

static void open_tables(void)
{
    const char *dir = getenv("AGORA_TABLEBASES");
    pthread_rwlock_wrlock(&tables_lock);
    if (!tables)
        tables = tb_open(dir && *dir ? dir : TB_DEFAULT_DIR);
    pthread_rwlock_unlock(&tables_lock);
}

void egara_tablebase_dir(const char *dir)
{
    pthread_once(&tables_once, open_tables);
    pthread_rwlock_wrlock(&tables_lock);
    tb_close(tables);
    tables = dir ? tb_open(dir) : NULL;
    pthread_rwlock_unlock(&tables_lock);
}

static int probe_moves(const void *st, Move *out, int max, Score *score);

int egara_tablebase_moves(const void *st, Move *out, int max, Score *score)
{
    pthread_once(&tables_once, open_tables);
    pthread_rwlock_rdlock(&tables_lock);
    int moves = tables ? probe_moves(st, out, max, score) : 0;
    pthread_rwlock_unlock(&tables_lock);
    return moves;
}

static int wdl_of(enum tb_outcome o)
{
    return o == TB_OUTCOME_WIN ? 1 : o == TB_OUTCOME_LOSS ? -1 : 0;
}

/* search_oracle.probe: the result at the position's quiet count (one record read), the
 * distance exact where the quiet count is 0, else the tables' estimate. */
static int oracle_probe(void *ctx, const void *st, int *wdl, int *plies, int *exact)
{
    (void)ctx;
    struct tb_answer a;
    char err[256];
    pthread_rwlock_rdlock(&tables_lock);
    int rc = tables ? tb_probe(tables, &egara_game, st, 0, &a, err, sizeof err) : 1;
    pthread_rwlock_unlock(&tables_lock);
    if (rc != 0)
        return 0;
    *wdl = wdl_of(a.outcome);
    *exact = a.plies >= 0;
    *plies = a.plies >= 0 ? a.plies : a.estimate;
    return 1;
}

static const struct search_oracle oracle = {.probe = oracle_probe};

const struct search_oracle *egara_tablebase_oracle(void)
{
    pthread_once(&tables_once, open_tables);
    /* only where tables were found: the smallest file (one piece each) reads */
    struct tb_answer a;
    char err[256];
    pthread_rwlock_rdlock(&tables_lock);
    int present = tables && tb_probe_sets(tables, 1u, 2u, 0, 0, &a, err, sizeof err) == 0;
    pthread_rwlock_unlock(&tables_lock);
    return present ? &oracle : NULL;
}

/* The positions the analysis board's distance search may visit (about a second). */
#define VERDICT_DISTANCE_BUDGET 4000000

int egara_tablebase_verdict(const void *st, int *wdl, int *plies)
{
    pthread_once(&tables_once, open_tables);
    struct tb_answer a;
    char err[256];
    pthread_rwlock_rdlock(&tables_lock);
    int rc = tables ? tb_probe_within(tables, &egara_game, st, VERDICT_DISTANCE_BUDGET, &a, err,
                                      sizeof err)
                    : 1;
    pthread_rwlock_unlock(&tables_lock);
    if (rc != 0 && rc != TB_OVER_BUDGET)
        return 0;
    *wdl = wdl_of(a.outcome);
    *plies = a.plies;
    return 1;
}

/* The moves that keep the best result; among them, where the distance searches finish
 * within the budget, only those of the best distance (the winner's soonest end, the
 * loser's latest).  *score: the root's value, exact where the distances are. */
static int probe_moves(const void *st, Move *out, int max, Score *score)
{
    const struct game *g = &egara_game;
    struct tb_answer root;
    char err[512];
    if (tb_probe(tables, g, st, 0, &root, err, sizeof err) != 0)
        return 0;
    void *work = game_state_new(g);
    if (!work)
        return 0;
    memcpy(work, st, g->state_size);
    Move moves[256];
    int dist[256];
    int best = -2;
    int n = g->gen_moves(work, moves), kept = 0;
    for (int i = 0; i < n; i++) {
        struct tb_answer child;
        g->make_move(work, moves[i]);
        /* the result alone: cheap at every quiet count */
        int rc = tb_probe(tables, g, work, 0, &child, err, sizeof err);
        g->unmake_move(work, moves[i]);
        if (rc != 0) {
            kept = 0;
            break;
        }
        int s = -wdl_of(child.outcome);
        if (s > best) {
            best = s;
            kept = 0;
        }
        if (s == best && kept < max && kept < 256)
            out[kept++] = moves[i];
    }
    /* The distances of the moves kept, while the budget lasts. */
    int known = kept > 0 && best != 0;
    int64_t budget = ROOT_DISTANCE_BUDGET;
    for (int i = 0; i < kept && known; i++) {
        struct tb_answer child;
        g->make_move(work, out[i]);
        int rc = tb_probe_within(tables, g, work, budget, &child, err, sizeof err);
        g->unmake_move(work, out[i]);
        known = rc == 0;
        dist[i] = child.plies;
        budget /= 2; /* each answer also fills the session's memory for the next */
    }
    free(work);
    if (!kept)
        return 0;
    int plies = root.plies, exact = root.plies >= 0;
    if (known) {
        /* the winner's child is lost: its soonest end; the loser's child won: its latest */
        int pick = dist[0];
        for (int i = 1; i < kept; i++)
            if (best > 0 ? dist[i] < pick : dist[i] > pick)
                pick = dist[i];
        int k = 0;
        for (int i = 0; i < kept; i++)
            if (dist[i] == pick)
                out[k++] = out[i];
        kept = k;
        plies = pick + 1;
        exact = 1;
    }
    *score = search_oracle_score(wdl_of(root.outcome), exact ? plies : root.estimate, exact, 0);
    return kept;
}
