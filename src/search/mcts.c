/* Monte-Carlo tree search over the game interface: UCT selection, one expansion of
 * all children at a time, random playouts (cut off after a while and judged by the
 * static evaluation), and an MCTS-Solver that proves wins and losses up the tree
 * (Winands, Bjornsson and Saito 2008), so a forced win found in the tree is played
 * and a proven loss avoided.  One iteration counts as one node for the limits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "search.h"

/* Exploration constant of UCB1 (rewards in [0, 1]). */
#define MCTS_EXPLORE 0.9
/* A playout longer than this is judged by the evaluation. */
#define MCTS_PLAYOUT_PLIES 200
/* The tree stops growing here: 4M nodes of 32 bytes, 128 MB a search. */
#define MCTS_MAX_NODES (4u << 20)
/* How an evaluation becomes a win probability: eval / scale on a logistic. */
#define MCTS_EVAL_SCALE 150.0
/* Progress reports (info lines) every this many iterations. */
#define MCTS_REPORT_EVERY 50000

/* Proven values are the side to move's at the node: +1 a win, -1 a loss, 0 a draw;
 * MCTS_UNPROVEN otherwise. */
#define MCTS_UNPROVEN 2

/* A node is the position after `move`.  `reward` sums the playout results for the
 * player who made `move` (the parent's side to move), so the parent reads its
 * children's rewards directly. */
struct mnode {
    Move move;
    uint32_t first_child; /* index of the first of nchildren consecutive nodes */
    uint32_t visits;
    double reward;
    uint16_t nchildren;
    int8_t proven;
    uint8_t expanded;
    uint8_t plies; /* once proven: plies to the end with best play (capped) */
};

struct mcts {
    const struct game *g;
    void *st;
    struct search_ctl *ctl;
    struct rng rng;
    struct mnode *nodes;
    uint32_t count, cap;
    Move *moves;     /* one move list */
    Move *path;      /* moves made from the root in one iteration */
    uint32_t *trail; /* the nodes on that path */
    int max_depth;
    const Move *only; /* the root's moves to search (nonly > 0) */
    int nonly;
};

/* Room for `n` more nodes; 0 when the tree is full. */
static int reserve(struct mcts *m, uint32_t n)
{
    if (m->count + n <= m->cap)
        return 1;
    if (m->count + n > MCTS_MAX_NODES)
        return 0;
    uint32_t cap = m->cap ? m->cap : 4096;
    while (cap < m->count + n)
        cap *= 2;
    if (cap > MCTS_MAX_NODES)
        cap = MCTS_MAX_NODES;
    struct mnode *grown = realloc(m->nodes, sizeof(struct mnode) * cap);
    if (!grown)
        return 0;
    m->nodes = grown;
    m->cap = cap;
    return 1;
}

static void expand(struct mcts *m, uint32_t at)
{
    int n = m->g->gen_moves(m->st, m->moves);
    if (at == 0)
        n = search_restrict_root(m->moves, n, m->only, m->nonly);
    if (n <= 0 || n > UINT16_MAX || !reserve(m, (uint32_t)n))
        return;
    struct mnode *node = &m->nodes[at];
    node->first_child = m->count;
    node->nchildren = (uint16_t)n;
    node->expanded = 1;
    /* Shuffle, so ties among unvisited children do not always favour the first. */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&m->rng, (uint32_t)i + 1);
        Move t = m->moves[i];
        m->moves[i] = m->moves[j];
        m->moves[j] = t;
    }
    for (int i = 0; i < n; i++)
        m->nodes[m->count + (uint32_t)i] =
            (struct mnode){.move = m->moves[i], .proven = MCTS_UNPROVEN};
    m->count += (uint32_t)n;
}

static uint32_t select_child(struct mcts *m, uint32_t at)
{
    const struct mnode *node = &m->nodes[at];
    double log_n = log((double)(node->visits + 1));
    uint32_t best = node->first_child;
    double best_v = -1e300;
    for (uint32_t c = node->first_child; c < node->first_child + node->nchildren; c++) {
        const struct mnode *ch = &m->nodes[c];
        double v;
        if (ch->proven == -1)
            return c; /* the opponent loses there: nothing else to look at */
        if (ch->proven == 1)
            v = -1e200; /* a proven loss for us: only when all else is too */
        else if (ch->visits == 0)
            v = 1e100;
        else if (ch->proven == 0)
            v = 0.5 + MCTS_EXPLORE * sqrt(log_n / ch->visits);
        else
            v = ch->reward / ch->visits + MCTS_EXPLORE * sqrt(log_n / ch->visits);
        if (v > best_v) {
            best_v = v;
            best = c;
        }
    }
    return best;
}

/* The result of a finished game, for the side to move: 1, 0.5 or 0. */
static double result_reward(enum result r, enum side to_move)
{
    if (r == RESULT_DRAW)
        return 0.5;
    return (r == RESULT_WHITE_WINS) == (to_move == SIDE_WHITE) ? 1.0 : 0.0;
}

/* A random game from here, taken back afterwards; the reward is the side to move's. */
static double playout(struct mcts *m)
{
    const struct game *g = m->g;
    enum side us = g->side_to_move(m->st);
    int plies = 0, room = g->max_plies - g->ply(m->st) - 1;
    if (room > MCTS_PLAYOUT_PLIES)
        room = MCTS_PLAYOUT_PLIES;
    double reward = -1;
    while (plies < room) {
        struct game_status gs;
        g->status(m->st, &gs);
        if (gs.result != RESULT_ONGOING) {
            reward = result_reward(gs.result, us);
            break;
        }
        int n = g->gen_moves(m->st, m->moves);
        if (n <= 0)
            break;
        Move mv = m->moves[rng_below(&m->rng, (uint32_t)n)];
        g->make_move(m->st, mv);
        m->path[plies++] = mv;
    }
    if (reward < 0) {
        struct game_status gs;
        g->status(m->st, &gs);
        if (gs.result != RESULT_ONGOING) {
            reward = result_reward(gs.result, us);
        } else {
            double e = search_evaluate(g, m->st);
            if (g->side_to_move(m->st) != us)
                e = -e;
            reward = 1.0 / (1.0 + exp(-e / MCTS_EVAL_SCALE));
        }
    }
    while (plies > 0)
        g->unmake_move(m->st, m->path[--plies]);
    return reward;
}

/* The solver's step at `at` after a child changed: a child lost for its mover's
 * opponent proves a win; all children proven give the best of them. */
static void prove(struct mcts *m, uint32_t at)
{
    struct mnode *node = &m->nodes[at];
    if (!node->expanded || node->proven != MCTS_UNPROVEN)
        return;
    int all = 1, best = -2, win_plies = 256, best_plies = 0;
    for (uint32_t c = node->first_child; c < node->first_child + node->nchildren; c++) {
        const struct mnode *ch = &m->nodes[c];
        int p = ch->proven;
        if (p == -1 && ch->plies < win_plies)
            win_plies = ch->plies; /* the quickest win */
        if (p == MCTS_UNPROVEN) {
            all = 0;
        } else if (-p > best || (-p == best && best == -1 && ch->plies > best_plies)) {
            best = -p; /* a loss resisted longest */
            best_plies = ch->plies;
        }
    }
    if (win_plies < 256) {
        node->proven = 1;
        node->plies = (uint8_t)(win_plies < 254 ? win_plies + 1 : 255);
    } else if (all) {
        node->proven = (int8_t)best;
        node->plies = (uint8_t)(best_plies < 254 ? best_plies + 1 : 255);
    }
}

static void iterate(struct mcts *m)
{
    const struct game *g = m->g;
    uint32_t at = 0;
    int depth = 0;
    m->trail[0] = 0;
    /* Step 1. Selection down to a leaf, making the moves on the state. */
    while (m->nodes[at].expanded && m->nodes[at].proven == MCTS_UNPROVEN &&
           depth < ENGINE_MAX_PLY - 1) {
        uint32_t c = select_child(m, at);
        g->make_move(m->st, m->nodes[c].move);
        m->path[depth++] = m->nodes[c].move;
        m->trail[depth] = at = c;
    }
    if (depth > m->max_depth)
        m->max_depth = depth;

    /* Step 2. The leaf's value: proven, terminal, or expanded and played out. */
    double reward;
    struct mnode *leaf = &m->nodes[at];
    if (leaf->proven != MCTS_UNPROVEN) {
        reward = (leaf->proven + 1) / 2.0;
    } else {
        struct game_status gs;
        g->status(m->st, &gs);
        if (gs.result != RESULT_ONGOING) {
            reward = result_reward(gs.result, g->side_to_move(m->st));
            leaf->proven = (int8_t)(reward == 1.0 ? 1 : reward == 0.0 ? -1 : 0);
        } else {
            if (g->ply(m->st) < g->max_plies - 1)
                expand(m, at);
            /* The playout moves go after the tree moves in `path`. */
            Move *saved = m->path;
            m->path = saved + depth;
            reward = playout(m);
            m->path = saved;
        }
    }

    /* Step 3. Back up: each node's reward is its mover's, one side then the other. */
    for (int d = depth; d >= 0; d--) {
        struct mnode *node = &m->nodes[m->trail[d]];
        node->visits++;
        node->reward += 1.0 - reward; /* the mover is the other side */
        reward = 1.0 - reward;
        if (d < depth)
            prove(m, m->trail[d]);
        if (d > 0)
            g->unmake_move(m->st, m->path[d - 1]);
    }
}

static uint32_t best_child(const struct mcts *m)
{
    const struct mnode *root = &m->nodes[0];
    uint32_t best = root->first_child;
    double best_v = -1e300;
    for (uint32_t c = root->first_child; c < root->first_child + root->nchildren; c++) {
        const struct mnode *ch = &m->nodes[c];
        double v = (double)ch->visits + (ch->visits ? ch->reward / ch->visits : 0);
        if (ch->proven == -1)
            v = 1e200 - ch->plies; /* a proven win: the quickest */
        else if (ch->proven == 1)
            v = -1e200 + ch->plies; /* a proven loss: the longest */
        if (v > best_v) {
            best_v = v;
            best = c;
        }
    }
    return best;
}

static Score child_score(const struct mnode *ch)
{
    /* Proven: a win or loss at the child's distance plus the move to it. */
    int plies = ch->plies + 1 < ENGINE_MAX_PLY ? ch->plies + 1 : ENGINE_MAX_PLY;
    if (ch->proven == -1)
        return SCORE_WIN - plies;
    if (ch->proven == 1)
        return -(SCORE_WIN - plies);
    if (ch->proven == 0)
        return 0;
    double p = ch->visits ? ch->reward / ch->visits : 0.5;
    if (p < 0.001)
        p = 0.001;
    if (p > 0.999)
        p = 0.999;
    return (Score)lround(MCTS_EVAL_SCALE * log(p / (1 - p)));
}

static void report(struct mcts *m, const struct search_params *p, uint32_t c)
{
    if (!p->on_info || !m->nodes[0].nchildren)
        return;
    struct engine_info info = {
        .depth = m->max_depth,
        .seldepth = m->max_depth,
        .score = child_score(&m->nodes[c]),
        .nodes = m->ctl->nodes,
        .time_ms = timeman_elapsed_ms(m->ctl),
    };
    m->g->move_text(m->st, m->nodes[c].move, info.pv, sizeof info.pv);
    p->on_info(p->info_ctx, &info);
}

Move mcts_search(const struct game *g, void *st, const struct search_params *p,
                 struct search_ctl *ctl, struct engine_result *out)
{
    struct mcts m = {
        .g = g, .st = st, .ctl = ctl, .only = p->searchmoves, .nonly = p->nsearchmoves};
    memset(out, 0, sizeof *out);
    rng_seed(&m.rng, p->seed ^ g->key(st));
    m.moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    m.path = malloc(sizeof(Move) * (ENGINE_MAX_PLY + MCTS_PLAYOUT_PLIES + 1));
    m.trail = malloc(sizeof(uint32_t) * (ENGINE_MAX_PLY + 1));
    Move best = 0;
    int n = m.moves ? game_legal_moves(g, st, m.moves) : 0;
    n = search_restrict_root(m.moves, n, m.only, m.nonly);
    if (n > 0)
        best = m.moves[0];
    if (n > 0 && m.path && m.trail && reserve(&m, 1)) {
        m.nodes[0] = (struct mnode){.proven = MCTS_UNPROVEN};
        m.count = 1;
        expand(&m, 0);
    }
    if (m.count > 1) {
        /* A soft deadline is all MCTS needs: each iteration is short. */
        int64_t deadline = ctl->soft_ms;
        while (!search_poll(ctl)) {
            if (!p->infinite && m.nodes[0].proven != MCTS_UNPROVEN)
                break;
            if (n == 1 && !p->infinite && ctl->soft_ms != TIMEMAN_NONE)
                break;
            iterate(&m);
            ctl->nodes++;
            if (deadline != TIMEMAN_NONE && (ctl->nodes & 15) == 0 && !p->infinite &&
                timeman_elapsed_ms(ctl) >= deadline)
                break;
            if (ctl->nodes % MCTS_REPORT_EVERY == 0)
                report(&m, p, best_child(&m));
        }
        uint32_t c = best_child(&m);
        report(&m, p, c);
        best = m.nodes[c].move;
        out->score = child_score(&m.nodes[c]);
        out->depth = m.max_depth;
    }
    out->best = best;
    out->nodes = ctl->nodes;
    out->time_ms = timeman_elapsed_ms(ctl);
    free(m.nodes);
    free(m.moves);
    free(m.path);
    free(m.trail);
    return best;
}
