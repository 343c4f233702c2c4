/* Egara-guti endgame tables for the tests: small tables made once a process in a
 * temporary folder, position texts of point sets. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/egara/board.h"
#include "tablebase/tablebase.h"
#include "tb_fixture.h"

/* A fresh temporary folder (the caller removes it with remove_dir). */
void tbf_temp_dir(char *path, size_t size)
{
    snprintf(path, size, "/tmp/agora-tb-XXXXXX");
    if (!mkdtemp(path))
        path[0] = 0;
}

void tbf_remove_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    char file[4096];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            remove(file);
        }
    closedir(d);
    rmdir(path);
}

int tbf_generate(const char *dir, int pieces, int threads)
{
    struct tb_generate_options opt = {.pieces = pieces, .dir = dir, .threads = threads};
    char err[512];
    int rc = tb_generate(&opt, err, sizeof err);
    if (rc)
        fprintf(stderr, "tb_generate: %s\n", err);
    return rc;
}

/* The tables of up to `pieces` pieces, made once a process, removed at its end. */
static char table_dirs[5][64];

static void tbf_remove_tables(void)
{
    for (int n = 0; n < 5; n++)
        if (table_dirs[n][0])
            tbf_remove_dir(table_dirs[n]);
}

const char *tbf_tables(int pieces)
{
    char(*dir)[64] = table_dirs;
    if (!dir[pieces][0]) {
        static int registered;
        if (!registered++)
            atexit(tbf_remove_tables);
        tbf_temp_dir(dir[pieces], sizeof dir[pieces]);
        if (tbf_generate(dir[pieces], pieces, 2)) {
            tbf_remove_dir(dir[pieces]);
            return NULL;
        }
    }
    return dir[pieces];
}

/* The position text of point sets (white, black), side and quiet count. */
void tbf_text_of(uint32_t white, uint32_t black, int black_to_move, int quiet, char *buf,
                 size_t size)
{
    static const int first[7] = {18, 15, 12, 11, 8, 5, 0}, len[7] = {5, 3, 3, 1, 3, 3, 5};
    size_t n = 0;
    for (int r = 0; r < 7; r++) {
        int empty = 0;
        for (int k = 0; k < len[r]; k++) {
            int p = first[r] + k;
            char c = white >> p & 1 ? 'W' : black >> p & 1 ? 'B' : 0;
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                buf[n++] = (char)('0' + empty);
            empty = 0;
            buf[n++] = c;
        }
        if (empty)
            buf[n++] = (char)('0' + empty);
        if (r < 6)
            buf[n++] = '/';
    }
    snprintf(buf + n, size - n, " %c %d", black_to_move ? 'b' : 'w', quiet);
}

uint32_t tbf_random_set(struct rng *r, int k, uint32_t taken)
{
    uint32_t set = 0;
    while (k > 0) {
        uint32_t bit = 1u << rng_below(r, EGARA_POINTS);
        if ((set | taken) & bit)
            continue;
        set |= bit;
        k--;
    }
    return set;
}
