/* `agora match` and records: openings read from record files through the game's own
 * reader (chess PGN, and the generic records of the other games), and the records a
 * match writes, read back by `agora pgn` and, for chess, by pgn-extract. */
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli_run.h"
#include "core/record.h"
#include "games/registry.h"
#include "harness.h"

/* A temporary file holding `text` (a .pgn when `pgn`); its path in `path`. */
static int temp_file(char *path, size_t size, int pgn, const char *text)
{
    snprintf(path, size, "/tmp/agora-mrec-XXXXXX%s", pgn ? ".pgn" : "");
    int fd = pgn ? mkstemps(path, 4) : mkstemp(path);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *grown = realloc(text, cap *= 2);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
    }
    if (text)
        text[n] = 0;
    fclose(f);
    return text;
}

/* Play `agora match GAME depth:1 random` over the openings file into the records file
 * `out`, without random plies: 0 when it ran. */
static int match_with_openings(const char *game, const char *openings, const char *out, int games)
{
    char count[16];
    snprintf(count, sizeof count, "%d", games);
    char *argv[] = {
        "agora",      "match",          (char *)game, "depth:1",   "random",      "--games",
        count,        "--random-plies", "0",          "--quiet",   "--max-plies", "12",
        "--openings", (char *)openings, "--out",      (char *)out, NULL};
    char *output = NULL;
    int rc = cli_run("", &output, 16, argv);
    free(output);
    return rc;
}

/* The FEN tags of the records in `text`, in order, through the game's reader; the
 * count read (-1 when one does not read). */
static int record_starts(const struct game *g, const char *text, char (*fens)[POSITION_TEXT_MAX],
                         int max)
{
    void *st = game_state_new(g);
    struct record_header *h = malloc(sizeof *h);
    int n = 0;
    for (const char *p = text; st && h && n < max;) {
        char result[16], err[ERROR_TEXT_MAX];
        long used = g->read_record(p, st, h, result, sizeof result, err, sizeof err);
        if (used <= 0) {
            if (used < 0)
                n = -1;
            break;
        }
        const char *fen = record_tag(h, "FEN");
        snprintf(fens[n++], POSITION_TEXT_MAX, "%s", fen ? fen : "");
        p += used;
    }
    free(h);
    free(st);
    return n;
}

TEST(match_records_chess_openings_from_pgn)
{
    const struct game *g = game_find("chess");
    if (!g)
        SKIP("chess is not registered");
    char openings[64], out[64];
    const char *pgn = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) $1 *\n\n"
                      "[Event \"two\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"
                      "\n1. Kd2 Kd7 1/2-1/2\n";
    CHECK(temp_file(openings, sizeof openings, 1, pgn) == 0);
    CHECK(temp_file(out, sizeof out, 0, "") == 0);
    CHECK_EQ_INT(match_with_openings("chess", openings, out, 4), 0);
    char *records = slurp(out);
    char fens[8][POSITION_TEXT_MAX];
    int n = records ? record_starts(g, records, fens, 8) : -1;
    CHECK_EQ_INT(n, 4);
    if (n == 4) {
        /* pairs from each opening's end, colours swapped */
        const char *first = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        CHECK_STR(fens[0], first);
        CHECK_STR(fens[1], first);
        CHECK_STR(fens[2], "8/3k4/8/8/8/8/3KP3/8 w - - 2 2");
        CHECK_STR(fens[3], "8/3k4/8/8/8/8/3KP3/8 w - - 2 2");
    }
    free(records);
    /* a bad move in an openings record is named, and nothing is played */
    unlink(openings);
    CHECK(temp_file(openings, sizeof openings, 1, "1. e4 e5 2. Ke3 *\n") == 0);
    char *argv[] = {"agora", "match", "chess", "random", "random", "--openings", openings, NULL};
    char *output = NULL;
    CHECK_EQ_INT(cli_run("", &output, 7, argv), 2);
    free(output);
    unlink(openings);
    unlink(out);
}

/* A match's records are openings for the next match: Egara-guti's generic records
 * (and Agon's) read through read_record, each game starting where a record ended. */
TEST(match_records_generic_openings)
{
    static const char *const games[] = {"egara-guti", "agon"};
    for (int gi = 0; gi < 2; gi++) {
        const struct game *g = game_find(games[gi]);
        char first[64], second[64];
        CHECK(temp_file(first, sizeof first, 1, "") == 0);
        CHECK(temp_file(second, sizeof second, 0, "") == 0);
        /* the first match from the start: two games (one pair) */
        char *argv[] = {"agora", "match",   (char *)games[gi], "depth:1", "random", "--games",
                        "2",     "--quiet", "--max-plies",     "9",       "--out",  first,
                        NULL};
        char *output = NULL;
        CHECK_EQ_INT(cli_run("", &output, 12, argv), 0);
        free(output);
        char *records = slurp(first);
        CHECK(records && strstr(records, g->record_variant));
        /* where each record ended */
        char ends[2][POSITION_TEXT_MAX];
        void *st = game_state_new(g);
        struct record_header *h = malloc(sizeof *h);
        const char *p = records ? records : "";
        for (int i = 0; i < 2; i++) {
            char result[16], err[ERROR_TEXT_MAX];
            long used = g->read_record(p, st, h, result, sizeof result, err, sizeof err);
            CHECK_MSG(used > 0, "%s: record %d: %s", g->name, i + 1, err);
            g->write_position(st, ends[i], sizeof ends[i]);
            p += used > 0 ? used : 0;
        }
        CHECK_EQ_INT(match_with_openings(games[gi], first, second, 4), 0);
        char *again = slurp(second);
        char fens[8][POSITION_TEXT_MAX];
        int n = again ? record_starts(g, again, fens, 8) : -1;
        CHECK_EQ_INT(n, 4);
        for (int i = 0; i < n && i < 4; i++)
            CHECK_STR(fens[i], ends[i / 2]);
        free(again);
        free(h);
        free(st);
        free(records);
        unlink(first);
        unlink(second);
    }
}

/* Run `agora pgn FILE`: its exit code, stdout in *out. */
static int pgn_command(const char *path, char **out)
{
    char *argv[] = {"agora", "pgn", (char *)path, NULL};
    return cli_run("", out, 3, argv);
}

/* Every game's match records read back through `agora pgn`, unchanged. */
TEST(match_records_read_by_agora_pgn)
{
    for (int gi = 0; game_registry[gi]; gi++) {
        const struct game *g = game_registry[gi];
        char out[64];
        CHECK(temp_file(out, sizeof out, 0, "") == 0);
        char *argv[] = {"agora", "match",   (char *)g->name, "depth:1", "random", "--games",
                        "2",     "--quiet", "--out",         out,       NULL};
        char *output = NULL;
        CHECK_EQ_INT(cli_run("", &output, 10, argv), 0);
        free(output);
        char *records = slurp(out), *written = NULL;
        CHECK_MSG(pgn_command(out, &written) == 0, "%s: agora pgn refuses the records", g->name);
        CHECK_MSG(records && written && !strcmp(records, written),
                  "%s: agora pgn changes the records", g->name);
        free(written);
        free(records);
        unlink(out);
    }
}

/* pgn-extract (Debian package pgn-extract) reads a chess match's records without a
 * warning. */
TEST(match_records_accepted_by_pgn_extract)
{
    const char *tool = "/usr/games/pgn-extract";
    if (access(tool, X_OK) != 0)
        SKIP("pgn-extract is not installed (scripts/setup installs it)");
    if (!game_find("chess"))
        SKIP("chess is not registered");
    char dir[] = "/tmp/agora-mrec-XXXXXX";
    if (!mkdtemp(dir))
        SKIP("no temporary directory");
    char path[128], log[128], out[128], cmd[512];
    snprintf(path, sizeof path, "%s/games.pgn", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    snprintf(out, sizeof out, "%s/out.pgn", dir);
    /* random plies, a ply cap and a fault-free finish in every way a match ends */
    char *argv[] = {"agora",          "match", "chess",       "depth:1", "random",
                    "--games",        "6",     "--max-plies", "60",      "--quiet",
                    "--random-plies", "3",     "--out",       path,      NULL};
    char *output = NULL;
    CHECK_EQ_INT(cli_run("", &output, 14, argv), 0);
    free(output);
    snprintf(cmd, sizeof cmd, "%s -s -o %s %s > %s 2>&1", tool, out, path, log);
    CHECK(system(cmd) == 0);
    FILE *f = fopen(log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        CHECK_MSG(0, "pgn-extract says: %s", line);
    if (f)
        fclose(f);
    char *text = slurp(out);
    int count = 0;
    for (const char *p = text; p && (p = strstr(p, "[Event ")); p++)
        count++;
    CHECK_EQ_INT(count, 6);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}
