/* Generic invariants, run for every registered game (OpenSpiel's RandomSimTest idea):
 * seeded random games in which, after every move, the history holds it, unmake
 * restores the observable state and the hash, the consistency check passes, the
 * position text round-trips, move texts are unique and parse back to the same move,
 * and the move list is empty exactly when the game is over. */
#include <stdlib.h>
#include <string.h>

#include "core/perft.h"
#include "core/playout.h"
#include "games/registry.h"
#include "harness.h"

/* Everything a caller can observe of a state. */
struct snapshot {
    char position[POSITION_TEXT_MAX];
    Key key;
    int ply;
    enum side side;
    struct game_status status;
    int nmoves;
    Score eval;
};

static void take_snapshot(const struct game *g, const void *st, Move *moves, struct snapshot *s)
{
    memset(s, 0, sizeof *s);
    g->write_position(st, s->position, sizeof s->position);
    s->key = g->key(st);
    s->ply = g->ply(st);
    s->side = g->side_to_move(st);
    g->status(st, &s->status);
    s->nmoves = g->gen_moves(st, moves);
    s->eval = g->evaluate(st);
}

static int same_snapshot(const struct snapshot *a, const struct snapshot *b)
{
    return !strcmp(a->position, b->position) && a->key == b->key && a->ply == b->ply &&
           a->side == b->side && a->status.result == b->status.result &&
           a->status.reason == b->status.reason && a->status.claims == b->status.claims &&
           a->nmoves == b->nmoves && a->eval == b->eval;
}

/* The checks at one position of a random game; returns the number of failures. */
static void check_position(struct test_ctx *t__, const struct game *g, void *st, Move *moves,
                           Move *scratch, void *other)
{
    char err[ERROR_TEXT_MAX], text[POSITION_TEXT_MAX];
    CHECK_MSG(g->check(st, err, sizeof err) == 0, "%s: check failed: %s", g->name, err);

    /* Position text round-trips, and the parsed key equals the incremental key. */
    g->write_position(st, text, sizeof text);
    if (g->parse_position(other, text, err, sizeof err) != 0) {
        CHECK_MSG(0, "%s: own text '%s' does not parse: %s", g->name, text, err);
    } else {
        char again[POSITION_TEXT_MAX];
        g->write_position(other, again, sizeof again);
        CHECK_STR(again, text);
        CHECK_MSG(g->key(other) == g->key(st), "%s: key of parsed '%s' differs", g->name, text);
    }

    /* The move list is empty exactly when the game is over. */
    struct game_status status;
    g->status(st, &status);
    int n = game_legal_moves(g, st, moves);
    CHECK_MSG((n == 0) == (status.result != RESULT_ONGOING), "%s: %d moves but status %s at %s",
              g->name, n, result_name(status.result), text);
    CHECK_MSG(status.result == RESULT_ONGOING || status.reason != REASON_NONE,
              "%s: game over without a reason at %s", g->name, text);
    CHECK_MSG(strcmp(reason_name(g, status.reason), "?") != 0, "%s: reason %d has no name at %s",
              g->name, status.reason, text);
    for (unsigned bit = 1; bit; bit <<= 1)
        CHECK_MSG(!(status.claims & bit) || game_word_name(g->claim_names, bit),
                  "%s: claim bit %u has no name at %s", g->name, bit, text);

    /* Move texts are unique and parse back to the same move; make/unmake is exact. */
    struct snapshot before, after;
    take_snapshot(g, st, scratch, &before);
    char(*texts)[MOVE_TEXT_MAX] = malloc(MOVE_TEXT_MAX * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        g->move_text(st, moves[i], texts[i], MOVE_TEXT_MAX);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(texts[i], texts[j]) != 0, "%s: two moves '%s' at %s", g->name,
                      texts[i], text);
        Move parsed = 0;
        CHECK_MSG(g->parse_move(st, texts[i], &parsed, err, sizeof err) == 0 && parsed == moves[i],
                  "%s: '%s' does not parse back at %s (%s)", g->name, texts[i], text, err);
        struct move_desc desc;
        g->describe_move(st, moves[i], &desc);
        CHECK_MSG(desc.from[0] && desc.to[0], "%s: '%s' has no from/to", g->name, texts[i]);
        g->make_move(st, moves[i]);
        CHECK_MSG(g->check(st, err, sizeof err) == 0, "%s: check after %s at %s: %s", g->name,
                  texts[i], text, err);
        CHECK_MSG(g->ply(st) == before.ply + 1, "%s: ply after %s", g->name, texts[i]);
        CHECK_MSG(g->history_move(st, before.ply) == moves[i], "%s: history after %s", g->name,
                  texts[i]);
        g->unmake_move(st, moves[i]);
        take_snapshot(g, st, scratch, &after);
        CHECK_MSG(same_snapshot(&before, &after), "%s: unmake %s does not restore %s", g->name,
                  texts[i], text);
    }
    free(texts);
}

/* The ply cap of one random game; the checks are O(moves^2) a ply. */
#define INVARIANT_PLIES 400

static void random_games(struct test_ctx *t__, int games, uint64_t seed)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g), *other = game_state_new(g);
        Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
        Move *scratch = malloc(sizeof(Move) * (size_t)g->max_moves);
        int cap = g->max_plies < INVARIANT_PLIES ? g->max_plies : INVARIANT_PLIES;
        Move *line = malloc(sizeof(Move) * (size_t)cap);
        struct rng r;
        rng_seed(&r, seed);
        int failures_before = t__->failures;
        for (int game = 0; game < games && t__->failures == failures_before; game++) {
            g->start(st);
            int plies = 0;
            for (; plies < cap && t__->failures == failures_before; plies++) {
                check_position(t__, g, st, moves, scratch, other);
                int n = game_legal_moves(g, st, moves);
                if (n == 0)
                    break;
                line[plies] = moves[rng_below(&r, (uint32_t)n)];
                g->make_move(st, line[plies]);
            }
            /* Unmaking the whole game returns to the start position. */
            playout_undo(g, st, line, plies);
            void *start = game_state_new(g);
            g->start(start);
            char a[POSITION_TEXT_MAX], b[POSITION_TEXT_MAX];
            g->write_position(st, a, sizeof a);
            g->write_position(start, b, sizeof b);
            CHECK_STR(a, b);
            CHECK_MSG(g->key(st) == g->key(start) && g->ply(st) == 0, "%s: undo to start", g->name);
            free(start);
        }
        free(line);
        free(scratch);
        free(moves);
        free(other);
        free(st);
    }
}

/* A few hundred games per game under the sanitizers ... */
TEST(invariants_random_games)
{
    random_games(TEST_CTX, 300, 20261130);
}

/* ... and thousands more in the optimised build. */
TEST_HEAVY(invariants_thousands_of_random_games)
{
    random_games(TEST_CTX, 3000, 1842);
}

/* game_state_copy copies only the used part of a state, yet the copy is the same game:
 * its position, key, ply and legal moves, and unmaking every move of it (which reads
 * the copied history) comes back to the start.  The copy lands on a buffer filled
 * with garbage, so nothing it needs may come from the part left out. */
TEST(invariants_state_copy_is_the_same_game)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        CHECK_MSG(g->history_entry > 0 && g->history_offset + g->history_size <= g->state_size,
                  "%s: no history layout: every copy is the whole state", g->name);
        void *st = game_state_new(g), *copy = malloc(g->state_size);
        Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
        Move *other = malloc(sizeof(Move) * (size_t)g->max_moves);
        Move line[120];
        struct rng r;
        rng_seed(&r, 2612);
        for (int game = 0; game < 20; game++) {
            g->start(st);
            int plies = 0;
            while (plies < 120) {
                int n = game_legal_moves(g, st, moves);
                if (n == 0)
                    break;
                line[plies] = moves[rng_below(&r, (uint32_t)n)];
                g->make_move(st, line[plies++]);
            }
            memset(copy, 0xA5, g->state_size);
            game_state_copy(g, copy, st);
            char a[POSITION_TEXT_MAX], b[POSITION_TEXT_MAX];
            g->write_position(st, a, sizeof a);
            g->write_position(copy, b, sizeof b);
            CHECK_STR(a, b);
            CHECK(g->key(copy) == g->key(st));
            CHECK_EQ_INT(g->ply(copy), plies);
            CHECK_EQ_INT(game_legal_moves(g, copy, other), game_legal_moves(g, st, moves));
            struct game_status sa, sb;
            g->status(st, &sa);
            g->status(copy, &sb);
            CHECK(sa.result == sb.result && sa.reason == sb.reason && sa.claims == sb.claims);
            CHECK_MSG(g->check(copy, b, sizeof b) == 0, "%s: %s", g->name, b);
            for (int i = 0; i < plies; i++)
                CHECK(g->history_move(copy, i) == line[i]);
            playout_undo(g, copy, line, plies);
            g->start(st);
            g->write_position(st, a, sizeof a);
            g->write_position(copy, b, sizeof b);
            CHECK_STR(a, b);
            CHECK(g->key(copy) == g->key(st));
        }
        free(other);
        free(moves);
        free(copy);
        free(st);
    }
}

/* Playouts are reproducible: the same seed gives the same plies. */
TEST(invariants_seeded_playouts_repeat)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        Move *buf = malloc(sizeof(Move) * (size_t)g->max_moves);
        int cap = g->max_plies < 500 ? g->max_plies : 500;
        Move *line = malloc(sizeof(Move) * (size_t)cap);
        uint64_t totals[2] = {0, 0};
        for (int run = 0; run < 2; run++) {
            struct rng r;
            rng_seed(&r, 7);
            g->start(st);
            for (int i = 0; i < 20; i++) {
                int n = playout(g, st, &r, cap, line, buf);
                totals[run] = totals[run] * 31 + (uint64_t)n + g->key(st);
                playout_undo(g, st, line, n);
            }
        }
        CHECK_EQ_U64(totals[0], totals[1]);
        free(line);
        free(buf);
        free(st);
    }
}

/* A game's own fast perft, where it has one, agrees with the generic one. */
TEST(invariants_fast_perft_matches_generic)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        if (!g->perft)
            continue;
        void *st = game_state_new(g);
        g->start(st);
        for (int d = 1; d <= 3; d++)
            CHECK_EQ_U64(g->perft(st, d), perft_generic(g, st, d));
        free(st);
    }
}

/* The layout names each cell once, and piece_at agrees with the position text's
 * piece count. */
TEST(invariants_layout)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        CHECK_MSG(g->layout && g->piece_at, "%s has no layout", g->name);
        if (!g->layout || !g->piece_at)
            continue;
        const struct board_layout *l = g->layout();
        CHECK(l->cells > 0);
        for (int i = 0; i < l->cells; i++)
            for (int j = 0; j < i; j++)
                CHECK_MSG(strcmp(l->cell[i].name, l->cell[j].name) != 0, "%s: cell %s twice",
                          g->name, l->cell[i].name);
        for (int e = 0; e < l->edges; e++)
            CHECK(l->edge[e][0] >= 0 && l->edge[e][0] < l->cells && l->edge[e][1] >= 0 &&
                  l->edge[e][1] < l->cells);
        void *st = game_state_new(g);
        g->start(st);
        char text[POSITION_TEXT_MAX];
        g->write_position(st, text, sizeof text);
        int letters = 0, pieces = 0;
        for (const char *c = text; *c && *c != ' '; c++)
            letters += (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z');
        for (int i = 0; i < l->cells; i++)
            pieces += g->piece_at(st, i, NULL) != 0;
        CHECK_EQ_INT(pieces, letters);
        free(st);
    }
}

/* Every game rejects empty and junk position text with a message, state untouched. */
TEST(invariants_bad_position_text)
{
    static const char *const junk[] = {"", " ", "x", "/////", "\x01\x02", "w", "1 w 0 0 0"};
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        g->start(st);
        Key k = g->key(st);
        for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
            char err[ERROR_TEXT_MAX] = "";
            CHECK_MSG(g->parse_position(st, junk[i], err, sizeof err) != 0, "%s accepted '%s'",
                      g->name, junk[i]);
            CHECK_MSG(err[0] != 0, "%s: no message for '%s'", g->name, junk[i]);
            CHECK(g->key(st) == k);
        }
        free(st);
    }
}

/* A game's own words (end reasons, move flags, claims, cell kinds) have distinct
 * names and codes, take no core reason's number or name, and flags are single bits
 * (move flags other than core's capture bit). */
static void check_words(struct test_ctx *t__, const struct game *g, const struct game_word *w,
                        const char *what, int bits)
{
    for (int i = 0; w && w[i].name; i++) {
        CHECK_MSG(w[i].name[0] != 0, "%s: an empty %s name", g->name, what);
        for (int j = 0; j < i; j++)
            CHECK_MSG(w[i].code != w[j].code && strcmp(w[i].name, w[j].name),
                      "%s: two %s words '%s' and '%s' share a code or name", g->name, what,
                      w[i].name, w[j].name);
        if (bits)
            CHECK_MSG(w[i].code && !(w[i].code & (w[i].code - 1)), "%s: %s '%s' is not one bit",
                      g->name, what, w[i].name);
    }
}

TEST(invariants_game_words)
{
    for (int i = 0; game_registry[i]; i++) {
        const struct game *g = game_registry[i];
        check_words(TEST_CTX, g, g->reasons, "reason", 0);
        check_words(TEST_CTX, g, g->move_flag_names, "move flag", 1);
        check_words(TEST_CTX, g, g->claim_names, "claim", 1);
        check_words(TEST_CTX, g, g->layout()->flag_names, "cell flag", 1);
        for (int k = 0; g->reasons && g->reasons[k].name; k++) {
            /* core's words answer for the game only where the game has none */
            CHECK_MSG(!strcmp(reason_name(NULL, (int)g->reasons[k].code), "?"),
                      "%s: reason '%s' takes core's number %u", g->name, g->reasons[k].name,
                      g->reasons[k].code);
            CHECK_MSG(g->reasons[k].code != REASON_NONE, "%s: a reason numbered 0", g->name);
        }
        CHECK_MSG(!game_word_code(g->move_flag_names, "capture") &&
                      !game_word_name(g->move_flag_names, MOVE_FLAG_CAPTURE),
                  "%s: core's capture flag named again", g->name);
        CHECK_MSG(!game_word_code(g->reasons, "resignation") && !game_word_code(g->reasons, "none"),
                  "%s: a core reason named again", g->name);
    }
    /* The names the API has always given (stored games read back the same). */
    const struct game *chess = game_find("chess"), *egara = game_find("egara");
    CHECK_STR(reason_name(chess, 1), "checkmate");
    CHECK_STR(reason_name(chess, REASON_RESIGNATION), "resignation");
    CHECK_STR(reason_name(egara, 9), "quiet-limit");
    CHECK_STR(reason_name(egara, 1), "?");
    CHECK_STR(reason_text(egara, REASON_BLOCKED), "the side to move has no legal move");
}
