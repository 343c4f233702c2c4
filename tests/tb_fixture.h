/* Egara-guti endgame tables for the tests (tb_fixture.c). */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

/* A fresh temporary folder (path[0] 0 when none could be made); remove_dir removes it. */
void tbf_temp_dir(char *path, size_t size);
void tbf_remove_dir(const char *path);
/* Make the tables of up to `pieces` pieces in dir: 0, or -1 (said on stderr). */
int tbf_generate(const char *dir, int pieces, int threads);
/* The tables of up to `pieces` (2..4) pieces, made once a process, removed at its end;
 * NULL when they could not be made. */
const char *tbf_tables(int pieces);
/* The position text of point sets (white, black), side and quiet count. */
void tbf_text_of(uint32_t white, uint32_t black, int black_to_move, int quiet, char *buf,
                 size_t size);
/* k random points not in `taken`. */
uint32_t tbf_random_set(struct rng *r, int k, uint32_t taken);
