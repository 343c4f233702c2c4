/* Opening names (src/engines/book_names.c): a small names file written into a temp dir,
 * read by the game's own record reader: names by the position's key (a transposition
 * finds its name), the first of two lines reaching one position names it, a bad move
 * refuses the file with the record's number; and Debian's eco.pgn when installed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/book_names.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "harness.h"

#define SYSTEM_NAMES "/usr/share/pgn-extract/eco.pgn"

static const struct game *chess(void)
{
    return game_find("chess");
}

static int write_names(char *path, size_t size, const char *text)
{
    snprintf(path, size, "/tmp/agora-names-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return 0;
}

/* The key of the position after `moves` (UCI texts, space-separated). */
static Key key_after(const char *moves)
{
    const struct game *g = chess();
    void *st = game_state_new(g);
    g->start(st);
    char buf[256], err[ERROR_TEXT_MAX];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *m = strtok(buf, " "); m; m = strtok(NULL, " ")) {
        Move mv;
        if (g->parse_move(st, m, &mv, err, sizeof err) != 0)
            break;
        g->make_move(st, mv);
    }
    Key k = g->key(st);
    free(st);
    return k;
}

TEST(book_names_by_key_first_line_wins)
{
    char path[64];
    CHECK(write_names(path, sizeof path,
                      "{ a comment first }\n[ECO \"C50\"]\n[Opening \"Italian\"]\n\n1. e4 e5 2. "
                      "Nf3 Nc6 3. Bc4 *\n\n[ECO \"C50\"]\n[Opening \"Italian again\"]\n\n1. e4 "
                      "Nc6 2. Nf3 e5 3. Bc4 *\n\n[ECO \"B20\"]\n[Opening \"Sicilian\"]\n"
                      "[Variation \"main\"]\n\n1. e4 c5 *\n") == 0);
    struct book_names *n = NULL;
    char err[ERROR_TEXT_MAX];
    CHECK_MSG(book_names_load(chess(), path, &n, err, sizeof err) == 0, "%s", err);
    unlink(path);
    if (!n)
        return;
    CHECK_EQ_INT(book_names_count(n), 3);
    const struct book_name *b = book_names_find(n, key_after("e2e4 b8c6 g1f3 e7e5 f1c4"));
    CHECK(b != NULL);
    if (b) {
        CHECK_STR(b->name, "Italian"); /* the transposed line names the same position */
        CHECK_STR(b->code, "C50");
        CHECK_EQ_INT(b->plies, 5);
    }
    b = book_names_find(n, key_after("e2e4 c7c5"));
    CHECK(b && !strcmp(b->name, "Sicilian: main"));
    CHECK(b && !strchr(b->record, '\n'));
    CHECK(book_names_find(n, key_after("d2d4")) == NULL);
    CHECK(book_names_game(n) == chess());
    book_names_free(n);
}

TEST(book_names_bad_files)
{
    char path[64], err[ERROR_TEXT_MAX];
    struct book_names *n = NULL;
    CHECK(book_names_load(chess(), "/nonexistent/names.pgn", &n, err, sizeof err) == -1 && !n);
    CHECK(strstr(err, "cannot open") != NULL);
    CHECK(write_names(path, sizeof path,
                      "[Opening \"fine\"]\n\n1. e4 *\n\n[Opening \"bad\"]\n\n1. e5 *\n") == 0);
    CHECK(book_names_load(chess(), path, &n, err, sizeof err) == -1 && !n);
    CHECK_MSG(strstr(err, "record 2") != NULL, "%s", err);
    unlink(path);
}

TEST(book_names_system_file)
{
    const char *path = engine_book_names_default(engine_profile_of(chess()));
    CHECK(path && !strcmp(path, SYSTEM_NAMES));
    if (access(SYSTEM_NAMES, R_OK) != 0)
        return; /* pgn-extract not installed: scripts/setup installs it */
    struct book_names *n = NULL;
    char err[ERROR_TEXT_MAX];
    CHECK_MSG(book_names_load(chess(), SYSTEM_NAMES, &n, err, sizeof err) == 0, "%s", err);
    CHECK(book_names_count(n) > 1000);
    const struct book_name *b = book_names_find(n, key_after("e2e4 e7e5 g1f3 b8c6 f1b5"));
    CHECK(b && !strcmp(b->code, "C60"));
    CHECK(engine_book_names_default(engine_profile_of(game_find("agon"))) == NULL);
    book_names_free(n);
}
