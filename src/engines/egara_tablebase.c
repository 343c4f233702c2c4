/* Egara-guti's endgame tables behind its engine profile (profile.h tablebase_moves):
 * the tables of TB_DEFAULT_DIR, or of $AGORA_TABLEBASES, opened on first use; a
 * position they do not hold (too many pieces, no files) is left to the search. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "egara_tablebase.h"
#include "games/egara/egara.h"
#include "profile.h"
#include "tablebase/tablebase.h"

static struct tb_tables *tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static void open_tables(void)
{
    const char *dir = getenv("AGORA_TABLEBASES");
    pthread_mutex_lock(&tables_lock);
    if (!tables)
        tables = tb_open(dir && *dir ? dir : TB_DEFAULT_DIR);
    pthread_mutex_unlock(&tables_lock);
}

void egara_tablebase_dir(const char *dir)
{
    pthread_once(&tables_once, open_tables);
    pthread_mutex_lock(&tables_lock);
    tb_close(tables);
    tables = dir ? tb_open(dir) : NULL;
    pthread_mutex_unlock(&tables_lock);
}

static int probe_moves(const void *st, Move *out, int max, Score *score);

int egara_tablebase_moves(const void *st, Move *out, int max, Score *score)
{
    pthread_once(&tables_once, open_tables);
    pthread_mutex_lock(&tables_lock);
    int moves = tables ? probe_moves(st, out, max, score) : 0;
    pthread_mutex_unlock(&tables_lock);
    return moves;
}

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
    Score best = -SCORE_INFINITE;
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
        Score s = child.outcome == TB_OUTCOME_LOSS ? 1 : child.outcome == TB_OUTCOME_WIN ? -1 : 0;
        if (s > best) {
            best = s;
            kept = 0;
        }
        if (s == best && kept < max)
            out[kept++] = moves[i];
    }
    free(work);
    if (!kept)
        return 0;
    /* The distance is one read at quiet count 0; elsewhere the result is exact and the
     * distance not known: just inside the proven scores. */
    Score sure = root.plies >= 0 ? SCORE_WIN - root.plies : ENGINE_WIN_BOUND - 1;
    *score = root.outcome == TB_OUTCOME_WIN ? sure : root.outcome == TB_OUTCOME_LOSS ? -sure : 0;
    return kept;
}
