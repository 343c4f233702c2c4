/* A fake UCI engine for the tests of the external analysis engine: a small shell
 * script written into a temporary folder, one script per behaviour.
 *
 *   works          greets as "Fake 1.0"; every `go` gives two iterations (a bound, a
 *                  currmove and a string line among them), for the start position:
 *                  line 1 cp 25 "e2e4 c7c5", line 2 (MultiPV 2) mate -2 "d2d4 d7d5"
 *   crash          exits by SIGKILL at every `go`
 *   crash_once     exits at its first `go` ever (a marker file), then works
 *   hang           falls silent at `go` (sleeps a minute)
 *   hang_start     falls silent at `uci`
 *   garbage_move   answers `go` with a move that is no move ("z9z9")
 *   garbage_score  answers `go` with "score banana"
 *   garbage_start  answers `uci` with endless lines that are not UCI
 *   nice           works, named "Fake at nice N" by its nice value (its second id
 *                  name, which wins over the first, "Fake 1.0") */
#pragma once

#include <stddef.h>

/* The script's path for `mode` (written on first use), or NULL when it cannot be. */
const char *fake_uci_path(const char *mode, char *buf, size_t size);
/* Remove the scripts and their folder. */
void fake_uci_cleanup(void);
