#include "openings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/record.h"

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

/* Read a file of records through the game's own reader: each record's position. */
static int load_records(const struct game *g, FILE *f, char ***texts, int *count, char *err,
                        size_t err_size)
{
    char *text = NULL;
    size_t cap = 0, len = 0;
    for (size_t got = 1; got > 0;) {
        if (len + 4096 + 1 > cap) {
            char *grown = realloc(text, cap = (cap + 4096 + 1) * 2);
            if (!grown) {
                free(text);
                return fail(err, err_size, "out of memory");
            }
            text = grown;
        }
        got = fread(text + len, 1, cap - len - 1, f);
        len += got;
    }
    text[len] = 0;
    void *st = game_state_new(g);
    struct record_header *h = malloc(sizeof *h);
    int rc = st && h ? 0 : fail(err, err_size, "out of memory");
    if (!rc && strlen(text) != len)
        rc = fail(err, err_size, "the file holds a NUL byte");
    const char *p = text;
    for (int number = 1; !rc; number++) {
        char result[16], rerr[ERROR_TEXT_MAX];
        long used = g->read_record(p, st, h, result, sizeof result, rerr, sizeof rerr);
        if (used == 0)
            break;
        if (used < 0) {
            rc = fail(err, err_size, "game %d: %s", number, rerr);
            break;
        }
        p += used;
        char position[POSITION_TEXT_MAX];
        g->write_position(st, position, sizeof position);
        if (add_text(texts, count, position))
            rc = fail(err, err_size, "out of memory");
    }
    free(h);
    free(st);
    free(text);
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
    int rc = pgn ? load_records(g, f, texts, count, err, err_size)
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
