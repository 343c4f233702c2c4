/* The open seeks of each creator, by key (a client address, a token's hash), in a fixed
 * table (bounded memory: a key that does not fit evicts the least recently seen one), so
 * that one client cannot fill the lobby (src/server/API.md "The lobby").  It only
 * remembers: whether a remembered seek is still open is the store's to say (the caller
 * forgets those that are not), and a reservation is taken under the table's mutex, so
 * two seeks at once from one client cannot both take its last place.  Per server, like
 * the other limits per client. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define SEEK_CAPS_MAX 16 /* seeks remembered per key at most (a cap above is this) */
#define SEEK_CAPS_ID 33  /* a seek's id and its NUL */

struct seek_caps;
struct seek_caps *seek_caps_new(void);
void seek_caps_free(struct seek_caps *sc);
/* The seeks remembered under `key` that have not expired by now_ms (ids, at most
 * SEEK_CAPS_MAX): their count. */
int seek_caps_list(struct seek_caps *sc, const char *key, int64_t now_ms, char ids[][SEEK_CAPS_ID]);
/* The seek `id` is no longer open: forget it under `key`. */
void seek_caps_forget(struct seek_caps *sc, const char *key, const char *id);
/* Remember the new seek `id` (open until expires_ms) under each of the n (at most 4)
 * keys, only if each has fewer than its cap of unexpired seeks (a cap of 0: no cap, the
 * key is not remembered; above SEEK_CAPS_MAX: SEEK_CAPS_MAX): true; else false, nothing
 * remembered, and *full the index of the first key at its cap. */
bool seek_caps_take(struct seek_caps *sc, int n, const char *const *keys, const int *caps,
                    const char *id, int64_t expires_ms, int64_t now_ms, int *full);
