/* A match: workers that take the next game, play it and count it, the progress line,
 * and the summary. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/profile.h"
#include "internal.h"

void match_config_init(struct match_config *cfg, const struct game *g)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->g = g;
    cfg->games = 10;
    cfg->concurrency = 1;
    cfg->random_plies = engine_profile_of(g)->random_plies;
    cfg->balance = 60;
    cfg->max_plies = 1000;
    cfg->time_margin_ms = 50;
    cfg->seed = 1;
    cfg->sprt_alpha = 0.05;
    cfg->sprt_beta = 0.05;
}

static int on_terminal(const struct match *m)
{
    return m->err == stderr && isatty(STDERR_FILENO);
}

static void progress(struct match *m, int final)
{
    const struct match_config *cfg = m->cfg;
    double elo, err;
    match_elo(&m->score, &elo, &err);
    int n = m->score.wins + m->score.draws + m->score.losses;
    double pct = n ? 100.0 * (m->score.wins + 0.5 * m->score.draws) / n : 0;
    int tty = on_terminal(m);
    FILE *f = final ? m->out : m->err;
    if (!final && cfg->quiet)
        return;
    if (!final && !tty && n % (cfg->games >= 20 ? cfg->games / 10 : 1) != 0 && n != cfg->games)
        return;
    fprintf(f, "%s%s vs %s: games %d/%d  +%d =%d -%d  score %.1f%%  elo ",
            !final && tty ? "\r" : "", cfg->players[0].name, cfg->players[1].name, n, cfg->games,
            m->score.wins, m->score.draws, m->score.losses, pct);
    if (isinf(elo))
        fprintf(f, "%s", elo > 0 ? "+inf" : "-inf");
    else
        fprintf(f, "%+.0f", elo);
    if (isnan(err))
        fprintf(f, " +- ?");
    else if (isinf(err))
        fprintf(f, " +- inf");
    else
        fprintf(f, " +- %.0f", err);
    if (cfg->sprt)
        fprintf(f, "  llr %.2f (pairs %d-%d-%d-%d-%d; games %.2f)", m->llr, m->pairs[0],
                m->pairs[1], m->pairs[2], m->pairs[3], m->pairs[4], m->llr_games);
    fputs(!final && tty ? "   " : "\n", f);
    fflush(f);
}

/* Count a finished game (under the lock). */
static void count_game(struct match *m, int index, const struct match_game *game)
{
    const struct match_config *cfg = m->cfg;
    int half;
    if (game->result == RESULT_DRAW)
        m->score.draws++, half = 1;
    else if ((game->result == RESULT_WHITE_WINS) == game->first_white)
        m->score.wins++, half = 2;
    else
        m->score.losses++, half = 0;
    /* Games 2k and 2k+1 share a start: the pair is counted when both have finished. */
    if (m->half && m->half[index / 2] < 0)
        m->half[index / 2] = (signed char)half;
    else if (m->half)
        m->pairs[m->half[index / 2] + half]++;
    if (game->fault)
        m->faults[game->fault_player][game->fault]++;
    m->adjudicated[game->verdict]++;
    m->finished++;
    if (cfg->records && game->record) {
        fputs(game->record, cfg->records);
        fflush(cfg->records);
    }
    if (cfg->sprt) {
        double lo, hi;
        match_sprt_bounds(cfg->sprt_alpha, cfg->sprt_beta, &lo, &hi);
        m->llr = match_sprt_llr_pairs(m->pairs, cfg->elo0, cfg->elo1);
        m->llr_games = match_sprt_llr(&m->score, cfg->elo0, cfg->elo1);
        if (m->llr >= hi || m->llr <= lo) {
            m->stopped_early = 1;
            m->sprt_verdict = m->llr >= hi ? "H1 accepted" : "H0 accepted";
        }
    }
}

static void *worker(void *arg)
{
    struct match *m = arg;
    struct match_uci *clients = calloc(2, sizeof *clients);
    struct match_seat seats[2] = {{clients, 0, NULL}, {clients ? clients + 1 : NULL, 0, NULL}};
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int index = m->stopped_early || m->next >= m->cfg->games ? -1 : m->next++;
        pthread_mutex_unlock(&m->lock);
        if (index < 0 || !clients)
            break;
        struct match_game game;
        match_play_game(m, index, seats, &game);
        pthread_mutex_lock(&m->lock);
        count_game(m, index, &game);
        progress(m, 0);
        pthread_mutex_unlock(&m->lock);
        free(game.record);
    }
    for (int i = 0; i < 2 && clients; i++)
        if (seats[i].started)
            match_uci_stop(seats[i].uci);
    for (int i = 0; i < 2; i++)
        engine_free(seats[i].engine);
    free(clients);
    return NULL;
}

int match_run(const struct match_config *cfg, FILE *out, FILE *err)
{
    struct match m = {.cfg = cfg, .g = cfg->g, .out = out, .err = err};
    signal(SIGPIPE, SIG_IGN); /* a dead engine is a crash to count, not our death */
    m.half = malloc((size_t)cfg->games / 2 + 1);
    if (m.half)
        memset(m.half, -1, (size_t)cfg->games / 2 + 1);
    pthread_mutex_init(&m.lock, NULL);
    int nthreads = cfg->concurrency < cfg->games ? cfg->concurrency : cfg->games;
    pthread_t *threads = calloc((size_t)nthreads, sizeof *threads);
    int started = 0;
    for (int i = 0; threads && i < nthreads; i++)
        if (pthread_create(&threads[i], NULL, worker, &m) == 0)
            started++;
    if (!started)
        worker(&m);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    if (!cfg->quiet && on_terminal(&m))
        fputc('\n', err);
    progress(&m, 1);
    for (int p = 0; p < 2; p++)
        fprintf(out, "%s: illegal moves %d, crashes %d, time losses %d\n", cfg->players[p].name,
                m.faults[p][MATCH_FAULT_ILLEGAL], m.faults[p][MATCH_FAULT_CRASH],
                m.faults[p][MATCH_FAULT_TIME]);
    if (cfg->adj.resign_moves || cfg->adj.draw_moves)
        fprintf(out, "adjudicated: %d won, %d drawn\n",
                m.adjudicated[MATCH_VERDICT_WHITE_WINS] + m.adjudicated[MATCH_VERDICT_BLACK_WINS],
                m.adjudicated[MATCH_VERDICT_DRAW]);
    if (cfg->sprt)
        fprintf(out,
                "sprt elo0 %g elo1 %g alpha %g beta %g: llr %.2f (pentanomial, %d pairs; "
                "trinomial over games %.2f), %s\n",
                cfg->elo0, cfg->elo1, cfg->sprt_alpha, cfg->sprt_beta, m.llr,
                m.pairs[0] + m.pairs[1] + m.pairs[2] + m.pairs[3] + m.pairs[4], m.llr_games,
                m.sprt_verdict ? m.sprt_verdict : "no decision");
    pthread_mutex_destroy(&m.lock);
    free(m.half);
    return 0;
}
