/* Records through the game interface (core/record.h): every game's write_record and
 * read_record round-trip random games, the generic reader of Agon and Egara-guti
 * reads PGN's decorations and names a bad move, record_game picks a record's game by
 * its Variant tag, and `agora pgn` reads and writes the records of every game. */
#include <stdlib.h>

#include "cli/cli.h"
#include "core/record.h"
#include "core/rng.h"
#include "games/registry.h"
#include "harness.h"

#define RECORD_SIZE (1 << 20)

/* A seeded random game of `g` on `st`: `setup` random plies define its start position
 * (0: the game's start), then up to `plies` random moves. */
static void random_record_game(const struct game *g, void *st, uint64_t seed, int setup, int plies)
{
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    struct rng r;
    rng_seed(&r, seed);
    g->start(st);
    for (int round = setup ? 0 : 1; round < 2 && moves; round++) {
        int cap = round == 0 ? setup : plies;
        for (int i = 0; i < cap && g->ply(st) < g->max_plies - 1; i++) {
            int n = game_legal_moves(g, st, moves);
            if (n == 0)
                break;
            g->make_move(st, moves[rng_below(&r, (uint32_t)n)]);
        }
        if (round == 0) { /* a new game from the position reached */
            char text[POSITION_TEXT_MAX], err[ERROR_TEXT_MAX];
            g->write_position(st, text, sizeof text);
            if (g->parse_position(st, text, err, sizeof err) != 0)
                g->start(st);
        }
    }
    free(moves);
}

TEST(records_round_trip_every_game)
{
    char *text = malloc(RECORD_SIZE);
    struct record_header *h = malloc(sizeof *h), *got = malloc(sizeof *got);
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g), *back = game_state_new(g);
        h->ntags = 0;
        record_set_tag(h, "Event", "records \"round\" trip");
        record_set_tag(h, "White", "Random, A.");
        record_set_tag(h, "Annotator", "agora");
        for (int game = 0; game < 24; game++) {
            random_record_game(g, st, 77 + (uint64_t)game, game % 3 == 1 ? 1 + game : 0,
                               game % 4 ? 600 : 30);
            int len = g->write_record(st, h, NULL, text, RECORD_SIZE);
            CHECK_MSG(len > 0, "%s: game %d does not fit", g->name, game);
            CHECK_MSG(game_of_record(text) == g, "%s: record_game picks another game", g->name);
            char result[16], err[ERROR_TEXT_MAX] = "";
            long used = g->read_record(text, back, got, result, sizeof result, err, sizeof err);
            /* the whole record, less the blank line after it */
            int whole =
                used > 0 && used <= len && strspn(text + used, "\n") == (size_t)(len - used);
            CHECK_MSG(whole, "%s: game %d does not read back (%ld of %d): %s", g->name, game, used,
                      len, err);
            if (!whole)
                continue;
            char a[POSITION_TEXT_MAX], b[POSITION_TEXT_MAX];
            g->write_position(st, a, sizeof a);
            g->write_position(back, b, sizeof b);
            CHECK_STR(b, a);
            CHECK_EQ_INT(g->ply(back), g->ply(st));
            CHECK(g->key(back) == g->key(st));
            for (int i = 0; i < g->ply(st) && i < g->ply(back); i++)
                if (g->history_move(back, i) != g->history_move(st, i)) {
                    CHECK_MSG(0, "%s: game %d: move %d differs", g->name, game, i);
                    break;
                }
            struct game_status s;
            g->status(st, &s);
            CHECK_STR(result, record_result_token(s.result));
            CHECK_STR(record_tag(got, "Result"), result);
            CHECK_STR(record_tag(got, "Event"), "records \"round\" trip");
            CHECK_STR(record_tag(got, "Date"), "????.??.??");
            CHECK_STR(record_tag(got, "Termination"),
                      s.result == RESULT_ONGOING ? "unterminated" : "normal");
            if (g->record_variant)
                CHECK_STR(record_tag(got, "Variant"), g->record_variant);
            else
                CHECK(record_tag(got, "Variant") == NULL);
            CHECK_EQ_INT(record_tag(got, "FEN") != NULL, game % 3 == 1);
            /* written again, the record is the same text */
            char *again = malloc(RECORD_SIZE);
            CHECK(again && g->write_record(back, got, NULL, again, RECORD_SIZE) == len);
            CHECK(again && !strcmp(again, text));
            free(again);
        }
        /* too small a buffer is reported */
        CHECK(g->write_record(st, h, NULL, text, 40) == -1);
        free(st);
        free(back);
    }
    free(got);
    free(h);
    free(text);
}

/* The generic reader: PGN's decorations, a start with Black to move, and errors. */
TEST(records_generic_reader)
{
    const struct game *egara = game_find("egara-guti"), *agon = game_find("agon");
    void *st = game_state_new(egara), *ag = game_state_new(agon);
    struct record_header *h = malloc(sizeof *h);
    char result[16], err[ERROR_TEXT_MAX], pos[POSITION_TEXT_MAX];
    const char *text = "% escape\n[Event \"x\"]\n[Variant \"Egara-Guti\"]\n\n"
                       "1.c3-d4 {a comment} e5xc3 $1 (1... e5xc3 2. d2xd4) ; to the end\n"
                       "2. b2xd4!? *\n\n"
                       "[Variant \"egara\"]\n[FEN \"5/B2/3/1/W2/1W1/WWW1W b 4\"]\n1... b6-b7 1-0\n";
    long used = egara->read_record(text, st, h, result, sizeof result, err, sizeof err);
    CHECK_MSG(used > 0, "%s", err);
    CHECK_STR(result, "*");
    egara->write_position(st, pos, sizeof pos);
    CHECK_STR(pos, "BBBBB/BBB/BB1/W/1WW/1WW/WWWWW b 0");
    text += used;
    used = egara->read_record(text, st, h, result, sizeof result, err, sizeof err);
    CHECK_MSG(used > 0, "%s", err);
    CHECK_STR(result, "1-0");
    CHECK_EQ_INT(egara->ply(st), 1);
    CHECK_EQ_INT(egara->read_record(text + used, st, h, result, sizeof result, err, sizeof err), 0);

    /* A bad move names itself with its number; the state is the position before it. */
    CHECK(egara->read_record("1. c3-d4 e5xc3 2. b2xd4 d5-d4 3. a1-a2 *", st, h, result,
                             sizeof result, err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 2... d5-d4") != NULL, "%s", err);
    egara->write_position(st, pos, sizeof pos);
    CHECK_STR(pos, "BBBBB/BBB/BB1/W/1WW/1WW/WWWWW b 0");
    CHECK(agon->read_record("[Variant \"agon\"]\n1. k1-k2 b7@l6 *", ag, h, result, sizeof result,
                            err, sizeof err) < 0);
    CHECK_MSG(strstr(err, "move 1... b7@l6") != NULL, "%s", err);
    CHECK_EQ_INT(agon->ply(ag), 1);
    CHECK(agon->read_record("[Variant \"egara-guti\"]\n1. c3-d4 *", ag, h, result, sizeof result,
                            err, sizeof err) < 0);
    CHECK(strstr(err, "unsupported variant 'egara-guti'") != NULL);
    CHECK(agon->read_record("[FEN \"nonsense\"]\n*", ag, h, result, sizeof result, err,
                            sizeof err) < 0);
    CHECK(strstr(err, "bad FEN tag") != NULL);
    CHECK(agon->read_record("[Event x]", ag, h, result, sizeof result, err, sizeof err) < 0);
    CHECK(agon->read_record("1. k1-k2 ) *", ag, h, result, sizeof result, err, sizeof err) < 0);
    free(h);
    free(ag);
    free(st);
}

TEST(records_game_by_variant)
{
    CHECK(game_of_record("[Variant \"agon\"]\n*") == game_find("agon"));
    CHECK(game_of_record("\n[Event \"x\"]\n[Variant \"Egara-guti\"]\n*") == game_find("egara"));
    CHECK(game_of_record("[Variant \"egara\"]\n*") == game_find("egara"));
    const struct game *standard = game_find("chess");
    if (!standard)
        SKIP("chess is not registered");
    CHECK(game_of_record("[Event \"x\"]\n1. e4 *") == standard);
    CHECK(game_of_record("") == standard);
    CHECK(game_of_record("[Variant \"Chess960\"]\n*") == standard); /* which says it cannot */
}

/* `agora pgn` reads each record by its game and writes it back as it was. */
TEST(records_cli_pgn_every_game)
{
    size_t cap = 1 << 18, used = 0;
    char *input = malloc(cap), *text = malloc(RECORD_SIZE);
    struct record_header h = {0};
    record_set_tag(&h, "Event", "agora pgn");
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        void *st = game_state_new(g);
        for (int game = 0; game < 3; game++) {
            random_record_game(g, st, 5 + (uint64_t)game, game == 2 ? 3 : 0, 60);
            int len = g->write_record(st, &h, NULL, text, RECORD_SIZE);
            CHECK(len > 0 && used + (size_t)len < cap);
            if (len > 0 && used + (size_t)len < cap) {
                memcpy(input + used, text, (size_t)len + 1);
                used += (size_t)len;
            }
        }
        free(st);
    }
    /* one bad record among them: reported, the others still written */
    const char *bad = "[Event \"bad\"]\n[Variant \"agon\"]\n\n1. k1-k3 *\n\n";
    size_t whole = used;
    snprintf(input + used, cap - used, "%s", bad);
    char *outbuf = NULL, *errbuf = NULL;
    size_t outlen = 0, errlen = 0;
    struct cli_io io = {fmemopen(input, strlen(input), "r"), open_memstream(&outbuf, &outlen),
                        open_memstream(&errbuf, &errlen)};
    char *argv[] = {"agora", "pgn", NULL};
    CHECK_EQ_INT(cli_main(2, argv, &io), 2);
    fflush(io.out);
    fflush(io.err);
    CHECK_EQ_INT(outlen, whole);
    CHECK(outbuf && !strncmp(outbuf, input, whole));
    int games = 0;
    for (int gi = 0; game_registry[gi]; gi++)
        games += 3;
    char want[64];
    snprintf(want, sizeof want, "pgn: game %d: move 1. k1-k3", games + 1);
    CHECK_MSG(errbuf && strstr(errbuf, want), "stderr: %s", errbuf ? errbuf : "");
    fclose(io.in);
    fclose(io.out);
    fclose(io.err);
    free(outbuf);
    free(errbuf);
    free(text);
    free(input);
}
