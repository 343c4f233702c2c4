/* One game of a match: its start (an opening, then random plies), the moves of the
 * players under their clocks, adjudication, and the game's record. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/record.h"
#include "internal.h"

/* Random plies can throw a piece away; a start where a quick search already sees
 * one side far ahead is decided by the opening, not the players, so it is drawn
 * again (after many tries any start will do).  --balance 0 turns this off. */
#define MATCH_BALANCE_NODES 5000
/* Monotonic seconds: what a move's time is measured by. */
static double match_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int balanced(const struct match *m, void *st, int attempt)
{
    const struct match_config *cfg = m->cfg;
    if (cfg->balance <= 0 || cfg->random_plies == 0 || attempt >= 500)
        return 1;
    struct engine_limits lim = {.nodes = MATCH_BALANCE_NODES, .algo = ENGINE_ALGO_ALPHABETA};
    struct engine_result r;
    engine_think(m->g, st, 0, &lim, 1, &r);
    return r.score <= cfg->balance && r.score >= -cfg->balance;
}

/* The start of pair `pair`: an opening line, then N seeded random plies that do not
 * end the game and leave it balanced.  The plies made are appended to `line`. */
static int make_start(const struct match *m, void *st, int pair, Move *line, Move *buf, char *err,
                      size_t err_size)
{
    const struct game *g = m->g;
    const struct match_config *cfg = m->cfg;
    for (int attempt = 0; attempt < 1000; attempt++) {
        if (cfg->nopenings) {
            const char *text = cfg->openings[pair % cfg->nopenings];
            if (g->parse_position(st, text, err, err_size))
                return -1;
        } else {
            g->start(st);
        }
        struct rng r;
        rng_seed(&r, cfg->seed * 1000003u + (uint64_t)pair * 7919u + (uint64_t)attempt);
        int n = 0, ok = 1;
        for (; n < cfg->random_plies; n++) {
            int k = game_legal_moves(g, st, buf);
            if (k == 0) {
                ok = 0;
                break;
            }
            line[n] = buf[rng_below(&r, (uint32_t)k)];
            g->make_move(st, line[n]);
        }
        if (ok && game_legal_moves(g, st, buf) > 0 && balanced(m, st, attempt))
            return n;
        while (n > 0)
            g->unmake_move(st, line[--n]);
    }
    return -1;
}

static const char *const fault_names[4] = {"", "illegal move", "crash", "time forfeit"};

/* The record of game `index` held by `st`, through the game's write_record: agora's
 * Event and Site, the round, the players, how it ended, the plies. */
static char *game_record(const struct match *m, int index, const void *st,
                         const struct match_game *game)
{
    const struct match_player *players = m->cfg->players;
    struct record_header *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    char text[RECORD_TAG_VALUE_MAX];
    h->ntags = 0;
    record_set_tag(h, "Event", "agora match");
    record_set_tag(h, "Site", "agora");
    snprintf(text, sizeof text, "%d", index + 1);
    record_set_tag(h, "Round", text);
    record_set_tag(h, "White", players[game->first_white ? 0 : 1].name);
    record_set_tag(h, "Black", players[game->first_white ? 1 : 0].name);
    snprintf(text, sizeof text, "%d", game->plies);
    record_set_tag(h, "PlyCount", text);
    if (game->fault)
        snprintf(text, sizeof text, "%s by %s", fault_names[game->fault],
                 players[game->fault_player].name);
    else
        snprintf(text, sizeof text, "%s", reason_name(m->g, game->reason));
    record_set_tag(h, "Termination", text);
    struct game_status end = {game->result, game->reason, 0};
    char *buf = NULL;
    for (size_t size = 4096; size <= (64u << 20); size *= 2) {
        char *grown = realloc(buf, size);
        if (!grown)
            break;
        buf = grown;
        if (m->g->write_record(st, h, &end, buf, size) >= 0) {
            free(h);
            return buf;
        }
    }
    free(buf);
    free(h);
    return NULL;
}

void match_play_game(struct match *m, int index, struct match_seat seats[2],
                     struct match_game *game)
{
    const struct game *g = m->g;
    const struct match_config *cfg = m->cfg;
    void *st = game_state_new(g), *scratch = game_state_new(g);
    int cap = g->max_plies;
    Move *line = malloc(sizeof(Move) * (size_t)cap);
    Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
    memset(game, 0, sizeof *game);
    game->first_white = index % 2 == 0;
    for (int i = 0; i < 2; i++)
        if (seats[i].engine)
            engine_clear(seats[i].engine);
    char err[ERROR_TEXT_MAX] = "";
    int n = st && scratch && line && buf ? make_start(m, st, index / 2, line, buf, err, sizeof err)
                                         : -1;
    if (n < 0) {
        fprintf(m->err, "agora: match: game %d: no start position %s\n", index + 1, err);
        game->result = RESULT_DRAW;
        game->reason = REASON_ADJUDICATION;
        goto done;
    }
    /* The record starts where the opening line starts; the random plies are part
     * of the game's moves. */
    for (int i = n - 1; i >= 0; i--)
        g->unmake_move(st, line[i]);
    g->write_position(st, game->start, sizeof game->start);
    int start_black = g->side_to_move(st) == SIDE_BLACK;
    g->start(scratch);
    char start_text[POSITION_TEXT_MAX];
    g->write_position(scratch, start_text, sizeof start_text);
    game->custom_start = strcmp(start_text, game->start) != 0;
    for (int i = 0; i < n; i++)
        g->make_move(st, line[i]);
    int64_t clock[2] = {0, 0};
    int white_player = game->first_white ? 0 : 1;
    for (int side = 0; side < 2; side++)
        clock[side] = cfg->players[side == SIDE_WHITE ? white_player : !white_player].tc_ms;
    struct rng r;
    rng_seed(&r, cfg->seed ^ (0x5eedULL * (uint64_t)(index + 1)));
    struct match_adjudicator adj = {{0, 0}, {0, 0}, 0};
    for (;;) {
        struct game_status gs;
        g->status(st, &gs);
        if (gs.result != RESULT_ONGOING) {
            game->result = gs.result;
            game->reason = gs.reason;
            break;
        }
        if (n >= cfg->max_plies || n >= cap - 1 || g->ply(st) >= g->max_plies - 1) {
            game->result = RESULT_DRAW;
            game->reason = REASON_ADJUDICATION;
            break;
        }
        enum side side = g->side_to_move(st);
        int who = side == SIDE_WHITE ? white_player : !white_player;
        const struct match_player *p = &cfg->players[who];
        double t0 = match_seconds();
        Move mv = 0;
        int score = 0, has_score = 0;
        struct match_turn turn = {
            game, st,  scratch,
            line, n,   clock,
            &r,   buf, cfg->seed * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)index << 20) ^ (uint64_t)n,
        };
        enum match_fault f = match_player_move(m, p, &seats[who], &turn, &mv, &score, &has_score);
        int64_t used = (int64_t)((match_seconds() - t0) * 1000);
        if (f == MATCH_FAULT_NONE && (p->tc_ms > 0 || p->inc_ms > 0)) {
            clock[side] -= used;
            if (clock[side] < -cfg->time_margin_ms)
                f = MATCH_FAULT_TIME;
            if (clock[side] < 0)
                clock[side] = 0;
            clock[side] += p->inc_ms;
        }
        if (f != MATCH_FAULT_NONE) {
            game->fault = f;
            game->fault_player = who;
            game->result = side == SIDE_WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            game->reason = f == MATCH_FAULT_TIME ? REASON_TIME : REASON_ADJUDICATION;
            break;
        }
        int move_number = (g->ply(st) + start_black) / 2 + 1;
        g->make_move(st, mv);
        line[n++] = mv;
        enum match_verdict v = match_adjudicate(&adj, &cfg->adj, side == SIDE_WHITE ? 0 : 1,
                                                has_score, score, move_number);
        if (v != MATCH_VERDICT_NONE) {
            g->status(st, &gs);
            if (gs.result != RESULT_ONGOING)
                continue; /* the rules have the last word */
            game->verdict = v;
            game->result = v == MATCH_VERDICT_DRAW         ? RESULT_DRAW
                           : v == MATCH_VERDICT_WHITE_WINS ? RESULT_WHITE_WINS
                                                           : RESULT_BLACK_WINS;
            game->reason = REASON_ADJUDICATION;
            break;
        }
    }
    game->plies = n;
    if (cfg->records && !(game->record = game_record(m, index, st, game)))
        fprintf(m->err, "agora: match: game %d: no room for its record\n", index + 1);
done:
    free(buf);
    free(line);
    free(scratch);
    free(st);
}
