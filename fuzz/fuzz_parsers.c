/* libFuzzer target: arbitrary bytes into every registered game's position, move and
 * record parsers.  A parse that succeeds must leave a state that passes the game's own
 * consistency check and writes a text that parses back to the same key. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "games/registry.h"
#include "swiss/swiss.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole input as a TRF file: what reads writes a TRF that reads back to the same
 * results, and pairs (or says it cannot) without crashing. */
static void fuzz_trf(const uint8_t *data, size_t size)
{
    char err[256];
    struct swiss_tournament *t = swiss_trf_read((const char *)data, size, err, sizeof err);
    if (!t)
        return;
    char *written = swiss_trf_write(t, data[0] & 1 ? SWISS_TRF_X : SWISS_TRF_2026);
    if (!written)
        abort();
    struct swiss_tournament *back = swiss_trf_read(written, strlen(written), err, sizeof err);
    if (!back || back->n_players != t->n_players || back->rounds_played != t->rounds_played)
        abort();
    for (int id = 1; id <= t->n_players; id++)
        if (swiss_score(back, id, t->rounds_played) != swiss_score(t, id, t->rounds_played))
            abort();
    struct swiss_pair *pairs = malloc(((size_t)t->n_players / 2 + 2) * sizeof *pairs);
    int n = 0;
    if (pairs && t->rounds_played < t->rounds_total &&
        swiss_pair_next(t, pairs, &n, err, sizeof err) == SWISS_OK) {
        /* every player paired once at most, never against one already met */
        for (int i = 0; i < n; i++)
            if (pairs[i].white < 1 || pairs[i].white > t->n_players || pairs[i].black < 0 ||
                pairs[i].black > t->n_players || pairs[i].white == pairs[i].black)
                abort();
    }
    free(pairs);
    swiss_free(back);
    free(written);
    swiss_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    games_init();
    if (size < 1)
        return 0;
    fuzz_trf(data, size);
    /* Byte 0 picks the game; the rest up to a newline is a position, the remainder a move. */
    int count = 0;
    while (game_registry[count])
        count++;
    const struct game *g = game_registry[data[0] % count];
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    /* The whole remainder is also a record: what reads passes the check and writes a
     * record that reads back to the same position. */
    void *rec = game_state_new(g);
    struct record_header *h = malloc(sizeof *h);
    char result[16], rerr[ERROR_TEXT_MAX];
    if (g->read_record(text, rec, h, result, sizeof result, rerr, sizeof rerr) > 0) {
        char check_err[ERROR_TEXT_MAX];
        if (g->check(rec, check_err, sizeof check_err) != 0)
            abort();
        size_t cap = 1 << 16;
        char *written = malloc(cap);
        if (g->write_record(rec, h, NULL, written, cap) > 0) {
            void *back = game_state_new(g);
            if (g->read_record(written, back, h, result, sizeof result, rerr, sizeof rerr) <= 0 ||
                g->key(back) != g->key(rec) || g->ply(back) != g->ply(rec))
                abort();
            free(back);
        }
        free(written);
    }
    /* The whole tree (variations, comments): its nodes follow their parents a ply on,
     * and where the game's reader reads the record too, the tree's main line is its. */
    struct record_tree *tree = malloc(sizeof *tree);
    void *start = game_state_new(g);
    if (record_read_tree(g, text, start, tree, rerr, sizeof rerr) > 0) {
        for (int i = 0; i < tree->n; i++) {
            int p = tree->nodes[i].parent;
            if (p >= i || tree->nodes[i].ply != (p < 0 ? 1 : tree->nodes[p].ply + 1))
                abort();
        }
        int read = g->read_record(text, rec, h, result, sizeof result, rerr, sizeof rerr) > 0;
        int plies = 0;
        for (int k = -1;;) { /* the main line: each node's first child */
            int next = -1;
            for (int i = k + 1; i < tree->n && next < 0; i++)
                if (tree->nodes[i].parent == k)
                    next = i;
            if (next < 0)
                break;
            if (read &&
                (plies >= g->ply(rec) || tree->nodes[next].move != g->history_move(rec, plies)))
                abort();
            plies++;
            k = next;
        }
        if (read && plies != g->ply(rec))
            abort();
        record_tree_free(tree);
    }
    free(start);
    free(tree);
    free(h);
    free(rec);
    char *move_text = strchr(text, '\n');
    if (move_text)
        *move_text++ = 0;
    void *st = game_state_new(g);
    char err[ERROR_TEXT_MAX];
    if (g->parse_position(st, text, err, sizeof err) != 0)
        g->start(st);
    if (g->check(st, err, sizeof err) != 0)
        abort();
    char written[POSITION_TEXT_MAX];
    g->write_position(st, written, sizeof written);
    void *again = game_state_new(g);
    if (g->parse_position(again, written, err, sizeof err) != 0 || g->key(again) != g->key(st))
        abort();
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = g->gen_moves(st, moves);
    for (int i = 0; i < n; i++) {
        char mt[MOVE_TEXT_MAX];
        g->move_text(st, moves[i], mt, sizeof mt);
    }
    if (move_text) {
        Move m;
        Key before = g->key(st);
        if (g->parse_move(st, move_text, &m, err, sizeof err) == 0) {
            g->make_move(st, m);
            if (g->check(st, err, sizeof err) != 0)
                abort();
            g->unmake_move(st, m);
        }
        if (g->key(st) != before)
            abort();
    }
    free(moves);
    free(again);
    free(st);
    free(text);
    return 0;
}
