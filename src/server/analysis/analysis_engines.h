/* The external analysis engines of the server (analysis_engines.c): for each game
 * whose engine profile names one (Stockfish for chess), a bounded pool of its
 * processes, started with the server and shared by the analyses and the reviews.  A
 * game without one, or whose engine is missing or fails at start, is judged by
 * agora's own engine; why is kept to be said in the answers. */
#pragma once

#include <stddef.h>

#include "core/game.h"

struct server;
struct uci_pool;

/* Start the pools (cfg.analysis_engine: a path for every game whose profile names an
 * engine, "none" for none, NULL for each profile's own).  A missing or broken engine
 * is no error: agora's own judges that game.  Says on stderr what judges each game. */
void analysis_engines_start(struct server *srv);
/* After the analysis and review threads have stopped. */
void analysis_engines_stop(struct server *srv);
/* The pool for g, or NULL; *why (may be NULL) then the reason, "" when none was
 * wanted. */
struct uci_pool *analysis_engine_of(struct server *srv, const struct game *g, const char **why);
