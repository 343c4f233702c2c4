/* The players of a match: random, our engine (levels and limits) and external UCI
 * engines; each move is checked like any other player's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* "position startpos moves ..." or "position fen TEXT moves ..." for an external
 * engine: every move of the game so far, opening plies included. */
static char *position_command(const struct game *g, const struct match_turn *t)
{
    size_t cap = 64 + POSITION_TEXT_MAX + (size_t)t->n * MOVE_TEXT_MAX;
    char *cmd = malloc(cap);
    if (!cmd)
        return NULL;
    size_t used;
    if (t->game->custom_start) {
        used = (size_t)snprintf(cmd, cap, "position fen %s", t->game->start);
        char err[ERROR_TEXT_MAX];
        g->parse_position(t->scratch, t->game->start, err, sizeof err);
    } else {
        used = (size_t)snprintf(cmd, cap, "position startpos");
        g->start(t->scratch);
    }
    if (t->n)
        used += (size_t)snprintf(cmd + used, cap - used, " moves");
    for (int i = 0; i < t->n; i++) {
        char text[MOVE_TEXT_MAX];
        g->move_text(t->scratch, t->line[i], text, sizeof text);
        used += (size_t)snprintf(cmd + used, cap - used, " %s", text);
        g->make_move(t->scratch, t->line[i]);
    }
    return cmd;
}

/* One move of an external engine. */
static enum match_fault uci_move(struct match *m, const struct match_player *p,
                                 struct match_seat *seat, const struct match_turn *t, Move *out,
                                 int *score, int *has_score)
{
    const struct game *g = m->g;
    char err[ERROR_TEXT_MAX];
    if (!seat->started || !seat->uci->alive) {
        if (seat->started)
            match_uci_stop(seat->uci);
        pthread_mutex_lock(&m->lock); /* spawn one at a time: no fd leaks to children */
        int rc = match_uci_start(seat->uci, p->command, p->opt_names, p->opt_values, p->noptions,
                                 err, sizeof err);
        pthread_mutex_unlock(&m->lock);
        seat->started = 1;
        if (rc) {
            fprintf(m->err, "agora: match: %s\n", err);
            return MATCH_FAULT_CRASH;
        }
    }
    char *cmd = position_command(g, t);
    if (!cmd || match_uci_send(seat->uci, cmd) != 0) {
        free(cmd);
        return MATCH_FAULT_CRASH;
    }
    free(cmd);
    char go[256];
    int64_t wait_ms = MATCH_NO_MOVE_MS;
    if (p->tc_ms > 0 || p->inc_ms > 0) {
        snprintf(go, sizeof go, "go wtime %lld btime %lld winc %lld binc %lld",
                 (long long)t->clock[0], (long long)t->clock[1], (long long)p->inc_ms,
                 (long long)p->inc_ms);
        wait_ms = t->clock[g->side_to_move(t->st)] + m->cfg->time_margin_ms + 1000;
    } else if (p->lim.movetime_ms) {
        snprintf(go, sizeof go, "go movetime %lld", (long long)p->lim.movetime_ms);
        wait_ms = p->lim.movetime_ms * 2 + 5000;
    } else if (p->lim.nodes) {
        snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)p->lim.nodes);
    } else if (p->lim.depth) {
        snprintf(go, sizeof go, "go depth %d", p->lim.depth);
    } else {
        snprintf(go, sizeof go, "go movetime 1000");
        wait_ms = 7000;
    }
    if (match_uci_send(seat->uci, go) != 0)
        return MATCH_FAULT_CRASH;
    char reply[512];
    int r = match_uci_bestmove(seat->uci, reply, sizeof reply, wait_ms, score, has_score);
    if (r != 1) {
        match_uci_stop(seat->uci); /* hung or dead: a fresh process next game */
        return r == 0 && (p->tc_ms > 0 || p->inc_ms > 0) ? MATCH_FAULT_TIME : MATCH_FAULT_CRASH;
    }
    char text[MOVE_TEXT_MAX] = "";
    sscanf(reply, "bestmove %63s", text);
    if (g->parse_move(t->st, text, out, err, sizeof err) != 0) {
        fprintf(m->err, "agora: match: %s played '%s': %s\n", p->name, text, err);
        return MATCH_FAULT_ILLEGAL;
    }
    return MATCH_FAULT_NONE;
}

enum match_fault match_player_move(struct match *m, const struct match_player *p,
                                   struct match_seat *seat, const struct match_turn *t, Move *out,
                                   int *score, int *has_score)
{
    const struct game *g = m->g;
    *has_score = 0;
    if (p->kind == MATCH_PLAYER_RANDOM) {
        int k = game_legal_moves(g, t->st, t->buf);
        *out = k ? t->buf[rng_below(t->r, (uint32_t)k)] : 0;
        return *out ? MATCH_FAULT_NONE : MATCH_FAULT_ILLEGAL;
    }
    if (p->kind == MATCH_PLAYER_UCI)
        return uci_move(m, p, seat, t, out, score, has_score);
    struct engine_limits lim = p->lim;
    lim.book = m->cfg->book;
    if (p->tc_ms > 0 || p->inc_ms > 0) {
        lim.time_ms[0] = t->clock[0];
        lim.time_ms[1] = t->clock[1];
        lim.inc_ms[0] = lim.inc_ms[1] = p->inc_ms;
    }
    if (p->level == 0 && !seat->engine)
        seat->engine = engine_new(MATCH_HASH_MB);
    struct engine_result res = {0};
    if (p->level == 0 && seat->engine)
        *out = engine_go(seat->engine, g, t->st, 0, &lim, t->seed, &res);
    else
        *out = engine_think(g, t->st, p->level, &lim, t->seed, &res);
    *score = res.score;
    *has_score = res.depth > 0;
    /* The engine promises legality; the match checks it like any other player's. */
    int k = game_legal_moves(g, t->st, t->buf), legal = 0;
    for (int i = 0; i < k && !legal; i++)
        legal = t->buf[i] == *out;
    return legal ? MATCH_FAULT_NONE : MATCH_FAULT_ILLEGAL;
}
