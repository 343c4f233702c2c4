/* Proof-number search (proof.h).  The tree: OR nodes where the prover moves (proven
 * when one child is), AND nodes where the other side moves (proven when every child
 * is).  Each node keeps its proof number (how many leaves must still be proven to
 * prove it) and disproof number; the search walks from the root to the most-proving
 * leaf (an OR node's child of least proof number, an AND node's of least disproof
 * number), expands it, and brings the numbers back up.  A leaf is proven when the
 * game's status says the prover has won, disproved when the game is over otherwise or
 * when the depth limit is reached. */
#include <stdlib.h>
#include <string.h>

#include "proof.h"

#define PN_INF UINT32_MAX
/* The longest proof looked for (plies). */
#define PROOF_MAX_PLIES 63

struct pnode {
    Move move;
    uint32_t parent, child, sibling; /* indexes; 0: none (the root is 0 and no child) */
    uint32_t pn, dn;
    uint16_t depth;
    uint8_t expanded;
};

struct pns {
    const struct game *g;
    void *st;
    enum side prover;
    int limit;
    struct pnode *n;
    uint64_t used, cap;
    Move *moves;
};

static uint32_t sat_add(uint32_t a, uint32_t b)
{
    return a > PN_INF - b ? PN_INF : a + b;
}

/* The numbers of a node that is not expanded, from the game's status there. */
static void leaf_numbers(struct pns *p, struct pnode *x)
{
    struct game_status gs;
    p->g->status(p->st, &gs);
    enum result win = p->prover == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    if (gs.result == win) {
        x->pn = 0, x->dn = PN_INF;
    } else if (gs.result != RESULT_ONGOING || x->depth >= p->limit) {
        x->pn = PN_INF, x->dn = 0;
    } else {
        x->pn = 1, x->dn = 1;
    }
}

static int or_node(const struct pns *p, const struct pnode *x)
{
    (void)p;
    return x->depth % 2 == 0; /* the prover moves at even depths */
}

static void update(struct pns *p, struct pnode *x)
{
    uint32_t pn = or_node(p, x) ? PN_INF : 0, dn = or_node(p, x) ? 0 : PN_INF;
    for (uint32_t c = x->child; c; c = p->n[c].sibling) {
        const struct pnode *y = &p->n[c];
        if (or_node(p, x)) {
            pn = y->pn < pn ? y->pn : pn;
            dn = sat_add(dn, y->dn);
        } else {
            pn = sat_add(pn, y->pn);
            dn = y->dn < dn ? y->dn : dn;
        }
    }
    x->pn = pn, x->dn = dn;
}

/* Expand the leaf x (the state is at x): 0, or -1 when the tree is full. */
static int expand(struct pns *p, uint32_t xi)
{
    int n = p->g->gen_moves(p->st, p->moves);
    if (p->used + (uint64_t)n > p->cap)
        return -1;
    uint32_t prev = 0;
    for (int i = 0; i < n; i++) {
        uint32_t ci = (uint32_t)p->used++;
        struct pnode *c = &p->n[ci];
        *c = (struct pnode){
            .move = p->moves[i], .parent = xi, .depth = (uint16_t)(p->n[xi].depth + 1)};
        p->g->make_move(p->st, c->move);
        leaf_numbers(p, c);
        p->g->unmake_move(p->st, c->move);
        if (prev)
            p->n[prev].sibling = ci;
        else
            p->n[xi].child = ci;
        prev = ci;
    }
    p->n[xi].expanded = 1;
    update(p, &p->n[xi]);
    return 0;
}

/* One proof-number search with the depth limit p->limit: 1 proven, 0 not, -1 full. */
static int search(struct pns *p)
{
    p->used = 1;
    p->n[0] = (struct pnode){0};
    leaf_numbers(p, &p->n[0]);
    Move path[PROOF_MAX_PLIES + 1];
    while (p->n[0].pn && p->n[0].dn) {
        /* down to the most-proving leaf */
        uint32_t xi = 0;
        int len = 0;
        while (p->n[xi].expanded) {
            const struct pnode *x = &p->n[xi];
            uint32_t best = 0;
            for (uint32_t c = x->child; c; c = p->n[c].sibling)
                if (!best ||
                    (or_node(p, x) ? p->n[c].pn < p->n[best].pn : p->n[c].dn < p->n[best].dn))
                    best = c;
            xi = best;
            path[len++] = p->n[xi].move;
            p->g->make_move(p->st, p->n[xi].move);
        }
        int rc = expand(p, xi);
        while (len > 0)
            p->g->unmake_move(p->st, path[--len]);
        if (rc)
            return -1;
        /* and the numbers back up */
        for (uint32_t up = p->n[xi].parent; xi; xi = up, up = p->n[xi].parent)
            update(p, &p->n[up]);
    }
    return p->n[0].pn == 0;
}

int proof_search(const struct game *g, void *st, int max_plies, uint64_t max_nodes,
                 struct proof_result *out)
{
    memset(out, 0, sizeof *out);
    if (max_plies > PROOF_MAX_PLIES)
        max_plies = PROOF_MAX_PLIES;
    struct pns p = {.g = g, .st = st, .prover = g->side_to_move(st), .cap = max_nodes};
    p.n = malloc(sizeof *p.n * (size_t)(max_nodes ? max_nodes : 1));
    p.moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    if (!p.n || !p.moves || max_nodes < 1) {
        free(p.n);
        free(p.moves);
        return max_nodes < 1 ? 0 : -1;
    }
    for (p.limit = 1; p.limit <= max_plies; p.limit += 2) {
        int rc = search(&p);
        out->nodes += p.used;
        if (rc < 0)
            break; /* the tree is full: no proof within the budget */
        if (rc == 1) {
            out->proven = 1;
            out->plies = p.limit;
            for (uint32_t c = p.n[0].child; c; c = p.n[c].sibling)
                if (p.n[c].pn == 0) {
                    out->first = p.n[c].move;
                    break;
                }
            break;
        }
    }
    free(p.n);
    free(p.moves);
    return 0;
}
