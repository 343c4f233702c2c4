/* The shipped puzzles in memory (puzzle_set.h). */
#define _GNU_SOURCE
#include "server/puzzles/puzzle_set.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/common/ratelimit.h"

#define PICK_NEAREST 8 /* a puzzle is drawn among this many nearest the rating */
/* A puzzle's first rating is the generator's estimate (puzzle.h): surer than a new
 * player's 350, so one attempt moves it less. */
#define PUZZLE_FIRST_DEVIATION 200.0

static int by_id(const void *a, const void *b)
{
    return strcmp(((const struct puzzle_item *)a)->e.id, ((const struct puzzle_item *)b)->e.id);
}

static bool is_easy(const struct puzzle_entry *e)
{
    const struct puzzle_rules *rules = engine_profile_of(e->g)->puzzles;
    for (int i = 0; rules && rules->easy_themes && rules->easy_themes[i]; i++)
        if (puzzle_entry_has_theme(e, rules->easy_themes[i]))
            return true;
    return false;
}

static int read_file(struct puzzle_set *ps, const struct game *g, const char *path, size_t *cap,
                     char *err, size_t err_size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* a game without puzzles */
    char *line = NULL;
    size_t len = 0;
    int number = 0, rc = 0;
    while (getline(&line, &len, f) > 0) {
        number++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if ((size_t)ps->n == *cap) {
            size_t c = *cap ? *cap * 2 : 1024;
            struct puzzle_item *t = realloc(ps->items, c * sizeof *t);
            if (!t) {
                rc = fail(err, err_size, "out of memory");
                break;
            }
            ps->items = t;
            *cap = c;
        }
        struct puzzle_item *it = &ps->items[ps->n];
        memset(it, 0, sizeof *it);
        char why[ERROR_TEXT_MAX];
        bool unread = puzzle_entry_parse(line, &it->e, why, sizeof why) != 0;
        if (unread || it->e.g != g) { /* a line that does not read says why, first */
            rc = fail(err, err_size, "%s line %d: %s", path, number,
                      unread ? why : "a puzzle of another game");
            break;
        }
        it->solver_moves = (it->e.n + 1) / 2;
        it->easy = is_easy(&it->e);
        it->r = glicko2_initial();
        it->r.rating = it->e.rating;
        it->r.deviation = PUZZLE_FIRST_DEVIATION;
        ps->n++;
    }
    free(line);
    fclose(f);
    return rc;
}

static void stored_rating(void *ctx, const char *id, const struct store_puzzle_rating *r)
{
    struct puzzle_item *it = puzzle_set_find(ctx, id);
    if (!it)
        return; /* a puzzle no longer shipped */
    it->r = (struct glicko2){r->rating, r->deviation, r->volatility};
    it->attempts = r->attempts;
    it->solved = r->solved;
}

int puzzle_set_load(struct puzzle_set *ps, const char *dir, struct store *store, char *err,
                    size_t err_size)
{
    memset(ps, 0, sizeof *ps);
    pthread_mutex_init(&ps->mu, NULL);
    pthread_mutex_init(&ps->attempt_mu, NULL);
    ps->attempts = ratelimit_new(PUZZLE_ATTEMPTS_PER_MINUTE);
    ps->tokens = ratelimit_new(PUZZLE_TOKENS_PER_MINUTE);
    if (!ps->attempts || !ps->tokens)
        return fail(err, err_size, "out of memory");
    size_t cap = 0;
    for (int i = 0; dir && game_registry[i]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.jsonl", dir, game_registry[i]->name);
        if (read_file(ps, game_registry[i], path, &cap, err, err_size) != 0)
            return -1;
    }
    if (ps->n > 1)
        qsort(ps->items, (size_t)ps->n, sizeof *ps->items, by_id);
    for (int i = 1; i < ps->n; i++)
        if (!strcmp(ps->items[i].e.id, ps->items[i - 1].e.id))
            return fail(err, err_size, "puzzle id %s is there twice", ps->items[i].e.id);
    if (store && ps->n > 0)
        return store_puzzle_ratings(store, stored_rating, ps, err, err_size);
    return 0;
}

int puzzle_set_reread(struct puzzle_set *ps, struct store *store, struct puzzle_item *it, char *err,
                      size_t err_size)
{
    struct store_puzzle_rating r;
    int rc = store_puzzle_rating(store, it->e.id, &r, err, err_size);
    if (rc == 1)
        return 0; /* never attempted: the shipped rating stands */
    if (rc != 0)
        return rc;
    pthread_mutex_lock(&ps->mu);
    it->r = (struct glicko2){r.rating, r.deviation, r.volatility};
    it->attempts = r.attempts;
    it->solved = r.solved;
    pthread_mutex_unlock(&ps->mu);
    return 0;
}

void puzzle_set_free(struct puzzle_set *ps)
{
    free(ps->items);
    ratelimit_free(ps->attempts);
    ratelimit_free(ps->tokens);
    pthread_mutex_destroy(&ps->mu);
    pthread_mutex_destroy(&ps->attempt_mu);
    memset(ps, 0, sizeof *ps);
}

struct puzzle_item *puzzle_set_find(struct puzzle_set *ps, const char *id)
{
    if (ps->n == 0)
        return NULL;
    struct puzzle_item key;
    snprintf(key.e.id, sizeof key.e.id, "%s", id);
    return bsearch(&key, ps->items, (size_t)ps->n, sizeof *ps->items, by_id);
}

static bool wanted(const struct puzzle_item *it, const struct game *g, const char *theme, bool easy)
{
    return it->e.g == g && (!theme || puzzle_entry_has_theme(&it->e, theme)) && (!easy || it->easy);
}

struct puzzle_item *puzzle_set_pick(struct puzzle_set *ps, const struct game *g, const char *theme,
                                    bool easy, double rating,
                                    int (*seen)(void *ctx, const char *id), void *ctx,
                                    uint64_t seed)
{
    /* The nearest few, by rating, of those not seen (else of all of them). */
    struct puzzle_item *best[PICK_NEAREST];
    double dist[PICK_NEAREST];
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        pthread_mutex_lock(&ps->mu);
        for (int i = 0; i < ps->n; i++) {
            struct puzzle_item *it = &ps->items[i];
            if (!wanted(it, g, theme, easy) || (pass == 0 && seen && seen(ctx, it->e.id)))
                continue;
            double d = fabs(it->r.rating - rating);
            int k;
            if (n < PICK_NEAREST) {
                k = n++;
            } else if (d < dist[PICK_NEAREST - 1]) {
                k = PICK_NEAREST - 1;
            } else {
                continue;
            }
            for (; k > 0 && dist[k - 1] > d; k--) {
                best[k] = best[k - 1];
                dist[k] = dist[k - 1];
            }
            best[k] = it;
            dist[k] = d;
        }
        pthread_mutex_unlock(&ps->mu);
        if (n > 0)
            return best[seed % (uint64_t)n];
    }
    return NULL;
}
