/* A record's whole tree (see record.h): record_parse's variation and comment callbacks
 * over the game interface, every move played on a state of the game. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "record.h"

struct tree_reader {
    const struct game *g;
    struct record_tree *t;
    void *st;    /* the position after node `cur` */
    void *start; /* the record's start */
    int cur;     /* the last node of the line being read; -1: its start */
    int black_first, first_number;
    int begun; /* the start is set up */
    int depth;
    int fresh[RECORD_DEPTH_MAX + 1];  /* no move read yet on the line at each depth */
    int before[RECORD_DEPTH_MAX + 1]; /* the node a variation at each depth replaced */
    Move *moves;                      /* room for the legal moves, or for a path */
};

void record_tree_free(struct record_tree *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->nodes[i].comment);
    free(t->nodes);
    t->nodes = NULL;
    t->n = t->cap = 0;
}

/* The move number in a standard PGN's FEN (its sixth field), else 1. */
static int first_number(const struct game *g, const char *fen)
{
    if (g->record_variant || !fen)
        return 1;
    const char *p = fen;
    for (int field = 1; field < 6; field++) {
        while (*p && !isspace((unsigned char)*p))
            p++;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return 1;
    }
    int n = atoi(p);
    return n > 0 ? n : 1;
}

static int tree_begin(void *ctx, const struct record_header *h, char *err, size_t err_size)
{
    struct tree_reader *r = ctx;
    const struct game *g = r->g;
    const char *variant = record_tag(h, "Variant");
    if (variant && !record_names_game(g, variant) &&
        !(!g->record_variant && !strcasecmp(variant, "standard")))
        return fail(err, err_size, "unsupported variant '%s'", variant);
    const char *fen = record_tag(h, "FEN");
    if (fen) {
        char perr[ERROR_TEXT_MAX];
        if (g->parse_position(r->st, fen, perr, sizeof perr))
            return fail(err, err_size, "bad FEN tag: %s", perr);
    } else {
        g->start(r->st);
    }
    memcpy(r->start, r->st, g->state_size); /* states are flat blocks (game.h) */
    r->black_first = g->side_to_move(r->st) == SIDE_BLACK;
    r->first_number = first_number(g, fen);
    r->fresh[0] = 1;
    r->begun = 1;
    return 0;
}

/* The move `text` names: the game's parse_move, else a move of the position (by the
 * rules of the position alone) with that move text or display text.  0, or -1. */
static int find_move(struct tree_reader *r, const char *text, Move *out, char *err, size_t err_size)
{
    const struct game *g = r->g;
    if (g->parse_move(r->st, text, out, err, err_size) == 0)
        return 0;
    int n = g->gen_moves(r->st, r->moves);
    for (int i = 0; i < n; i++) {
        char shown[MOVE_TEXT_MAX];
        g->move_text(r->st, r->moves[i], shown, sizeof shown);
        int same = !strcmp(shown, text);
        if (!same && g->move_display) {
            g->move_display(r->st, r->moves[i], shown, sizeof shown);
            same = !strcmp(shown, text);
        }
        if (same) {
            *out = r->moves[i];
            return 0;
        }
    }
    return -1;
}

static int tree_move(void *ctx, const char *token, int ply, char *err, size_t err_size)
{
    struct tree_reader *r = ctx;
    const struct game *g = r->g;
    struct record_tree *t = r->t;
    char text[MOVE_TEXT_MAX], merr[ERROR_TEXT_MAX] = "";
    snprintf(text, sizeof text, "%s", token);
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '!' || text[len - 1] == '?'))
        text[--len] = 0; /* suffix annotations */
    int half = ply + r->black_first;
    const char *where = r->depth ? " in a variation" : "";
    Move m;
    struct game_status gs; /* a line goes on past the game's end (issue 25): refused */
    g->status(r->st, &gs);
    if (g->ply(r->st) >= g->max_plies)
        snprintf(merr, sizeof merr, "longer than %d plies", g->max_plies);
    else if (gs.result != RESULT_ONGOING)
        snprintf(merr, sizeof merr, "the game is already over (%s)", reason_text(g, gs.reason));
    if (merr[0] || find_move(r, text, &m, merr, sizeof merr) != 0)
        return fail(err, err_size, "move %d%s %s%s: %s", r->first_number + half / 2,
                    half % 2 ? "..." : ".", text, where, merr);
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        struct record_node *nodes = realloc(t->nodes, sizeof *nodes * (size_t)cap);
        if (!nodes)
            return fail(err, err_size, "out of memory");
        t->nodes = nodes;
        t->cap = cap;
    }
    struct record_node *node = &t->nodes[t->n];
    memset(node, 0, sizeof *node);
    node->parent = r->cur;
    node->ply = ply + 1;
    node->move = m;
    g->move_text(r->st, m, node->text, sizeof node->text);
    game_move_display(g, r->st, m, node->display, sizeof node->display);
    g->make_move(r->st, m);
    r->cur = t->n++;
    r->fresh[r->depth] = 0;
    return 0;
}

static int tree_variation_start(void *ctx, int ply, int depth, char *err, size_t err_size)
{
    struct tree_reader *r = ctx;
    (void)ply;
    (void)err;
    (void)err_size;
    /* the variation replaces the line's last move: back to the position before it */
    const struct record_node *last = &r->t->nodes[r->cur];
    r->g->unmake_move(r->st, last->move);
    r->before[depth] = r->cur;
    r->cur = last->parent;
    r->depth = depth;
    r->fresh[depth] = 1;
    return 0;
}

static int tree_variation_end(void *ctx, int ply, int depth, char *err, size_t err_size)
{
    struct tree_reader *r = ctx;
    const struct game *g = r->g;
    (void)err;
    (void)err_size;
    /* back to the line that held it, after the move it replaced: the path replayed */
    r->cur = r->before[depth];
    r->depth = depth - 1;
    int n = 0;
    for (int k = r->cur; k >= 0 && n < ply; k = r->t->nodes[k].parent)
        r->moves[n++] = r->t->nodes[k].move;
    memcpy(r->st, r->start, g->state_size);
    while (n > 0)
        g->make_move(r->st, r->moves[--n]);
    return 0;
}

static int tree_comment(void *ctx, const char *text, size_t len, char *err, size_t err_size)
{
    struct tree_reader *r = ctx;
    if (r->fresh[r->depth] || r->cur < 0)
        return 0; /* before the line's first move: left out */
    struct record_node *node = &r->t->nodes[r->cur];
    size_t had = node->comment ? strlen(node->comment) : 0;
    char *c = realloc(node->comment, had + (had ? 1 : 0) + len + 1);
    if (!c)
        return fail(err, err_size, "out of memory");
    if (had)
        c[had++] = ' ';
    memcpy(c + had, text, len);
    c[had + len] = 0;
    node->comment = c;
    return 0;
}

long record_read_tree(const struct game *g, const char *text, void *st, struct record_tree *t,
                      char *err, size_t err_size)
{
    memset(t, 0, sizeof *t);
    int room = g->max_moves > g->max_plies ? g->max_moves : g->max_plies;
    struct tree_reader r = {.g = g, .t = t, .st = st, .cur = -1};
    r.start = malloc(g->state_size);
    r.moves = malloc(sizeof(Move) * (size_t)room);
    if (!r.start || !r.moves) {
        free(r.start);
        free(r.moves);
        return fail(err, err_size, "out of memory");
    }
    struct record_reader rd = {.begin = tree_begin,
                               .move = tree_move,
                               .ctx = &r,
                               .variation_start = tree_variation_start,
                               .variation_end = tree_variation_end,
                               .comment = tree_comment};
    long used = record_parse(text, &rd, &t->h, t->result, sizeof t->result, err, err_size);
    if (r.begun)
        memcpy(st, r.start, g->state_size);
    free(r.start);
    free(r.moves);
    if (used <= 0)
        record_tree_free(t);
    return used;
}
