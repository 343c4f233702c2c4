#include "match_openings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"

static int add_text(char ***texts, int *count, const char *text)
{
    char **grown = realloc(*texts, sizeof(char *) * (size_t)(*count + 1));
    if (!grown)
        return -1;
    *texts = grown;
    if (!(grown[*count] = strdup(text)))
        return -1;
    (*count)++;
    return 0;
}

/* The legal move whose display text (SAN) or move text is `token`, ignoring the
 * check and annotation marks a PGN may add. */
static int find_pgn_move(const struct game *g, const void *st, const char *token, Move *out)
{
    char want[MOVE_TEXT_MAX];
    snprintf(want, sizeof want, "%s", token);
    size_t n = strcspn(want, "+#!?");
    want[n] = 0;
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    int k = mv ? game_legal_moves(g, st, mv) : 0, found = 0;
    for (int i = 0; i < k && !found; i++) {
        char text[MOVE_TEXT_MAX];
        game_move_display(g, st, mv[i], text, sizeof text);
        text[strcspn(text, "+#!?")] = 0;
        if (!strcmp(text, want)) {
            *out = mv[i];
            found = 1;
            break;
        }
        g->move_text(st, mv[i], text, sizeof text);
        if (!strcmp(text, want)) {
            *out = mv[i];
            found = 1;
        }
    }
    free(mv);
    return found;
}

static int is_result(const char *w)
{
    return !strcmp(w, "1-0") || !strcmp(w, "0-1") || !strcmp(w, "1/2-1/2") || !strcmp(w, "*");
}

/* Read a PGN: tags and movetext, games separated by their results. */
static int load_pgn(const struct game *g, FILE *f, char ***texts, int *count, char *err,
                    size_t err_size)
{
    void *st = game_state_new(g);
    if (!st)
        return fail(err, err_size, "out of memory");
    g->start(st);
    int in_game = 0, lineno = 0, rc = 0;
    char *line = NULL;
    size_t cap = 0;
    while (!rc && getline(&line, &cap, f) >= 0) {
        lineno++;
        if (line[0] == '[') {
            char fen[POSITION_TEXT_MAX];
            if (sscanf(line, "[FEN \"%255[^\"]\"]", fen) == 1) {
                char perr[ERROR_TEXT_MAX];
                if (g->parse_position(st, fen, perr, sizeof perr))
                    rc = fail(err, err_size, "line %d: bad FEN: %s", lineno, perr);
            }
            in_game = 1;
            continue;
        }
        for (char *save = NULL, *w = strtok_r(line, " \t\r\n", &save); w && !rc;
             w = strtok_r(NULL, " \t\r\n", &save)) {
            if (w[0] == '{' || w[0] == ';')
                break; /* comments: the rest of the line */
            while (isdigit((unsigned char)*w) && !is_result(w))
                w++;
            while (*w == '.')
                w++;
            if (!*w || w[0] == '$')
                continue;
            if (is_result(w)) {
                char text[POSITION_TEXT_MAX];
                g->write_position(st, text, sizeof text);
                if (add_text(texts, count, text))
                    rc = fail(err, err_size, "out of memory");
                g->start(st);
                in_game = 0;
                continue;
            }
            Move m;
            if (!find_pgn_move(g, st, w, &m) || g->ply(st) >= g->max_plies - 1) {
                rc = fail(err, err_size, "line %d: illegal move '%s'", lineno, w);
                break;
            }
            g->make_move(st, m);
            in_game = 1;
        }
    }
    if (!rc && in_game && g->ply(st) > 0) { /* a last game without a result */
        char text[POSITION_TEXT_MAX];
        g->write_position(st, text, sizeof text);
        add_text(texts, count, text);
    }
    free(line);
    free(st);
    return rc;
}

static int load_lines(const struct game *g, FILE *f, char ***texts, int *count, char *err,
                      size_t err_size)
{
    void *st = game_state_new(g);
    if (!st)
        return fail(err, err_size, "out of memory");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = 0;
    while (!rc && (len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && isspace((unsigned char)line[len - 1]))
            line[--len] = 0;
        if (!len || line[0] == '#')
            continue;
        char perr[ERROR_TEXT_MAX], text[POSITION_TEXT_MAX];
        snprintf(text, sizeof text, "%s", line);
        if (g->parse_position(st, text, perr, sizeof perr) != 0) {
            /* EPD: the four position fields, then operations; add the counters. */
            char f1[100], f2[8], f3[8], f4[8];
            if (sscanf(line, "%99s %7s %7s %7s", f1, f2, f3, f4) != 4)
                rc = fail(err, err_size, "line %d: %s", lineno, perr);
            else {
                snprintf(text, sizeof text, "%s %s %s %s 0 1", f1, f2, f3, f4);
                if (g->parse_position(st, text, perr, sizeof perr) != 0)
                    rc = fail(err, err_size, "line %d: %s", lineno, perr);
            }
        }
        if (!rc && add_text(texts, count, text))
            rc = fail(err, err_size, "out of memory");
    }
    free(line);
    free(st);
    return rc;
}

int match_load_openings(const struct game *g, const char *path, char ***texts, int *count,
                        char *err, size_t err_size)
{
    *texts = NULL;
    *count = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, err_size, "cannot read '%s'", path);
    size_t n = strlen(path);
    int pgn = n > 4 && !strcasecmp(path + n - 4, ".pgn");
    int rc = pgn ? load_pgn(g, f, texts, count, err, err_size)
                 : load_lines(g, f, texts, count, err, err_size);
    fclose(f);
    if (!rc && *count == 0)
        rc = fail(err, err_size, "no positions in '%s'", path);
    if (rc) {
        for (int i = 0; i < *count; i++)
            free((*texts)[i]);
        free(*texts);
        *texts = NULL;
        *count = 0;
    }
    return rc;
}
