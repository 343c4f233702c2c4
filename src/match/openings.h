/* Opening files for `agora match`: the start positions its game pairs use. */
#pragma once

#include "core/game.h"

/* Read `path` into position texts of game `g`:
 *   - a .pgn file: records the game's read_record reads (PGN for chess, PGN's shape
 *     for the others: what `agora match --out` writes), each the position its moves
 *     reach from its [FEN] tag or the start;
 *   - anything else: one position text a line (EPD lines, with four fields, get the
 *     move counters "0 1"); '#' starts a comment line.
 * On success *texts holds *count malloc'd strings (free each, then the array); on
 * failure -1 and one line in err. */
int match_load_openings(const struct game *g, const char *path, char ***texts, int *count,
                        char *err, size_t err_size);
