/* Probing the tables: the record of a position, its result at any quiet count, and its
 * exact distance (NOTES.md "Probing"). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "format.h"
#include "games/egara/egara.h"
#include "games/egara/positions.h"
#include "probe.h"
#include "tablebase.h"

struct tb_tables {
    char dir[4096];
    pthread_mutex_t lock;
    TbRecord *rec[TB_MAX_SIDE + 1][TB_MAX_SIDE + 1];
    int tried[TB_MAX_SIDE + 1][TB_MAX_SIDE + 1];
    char error[TB_MAX_SIDE + 1][TB_MAX_SIDE + 1][256]; /* why a file could not be read */
    /* the distance search's memory, kept for the next probe (one probe at a time) */
    pthread_mutex_t search_lock;
    struct tb_session *session;
};

int tb_game_has_tables(const struct game *g)
{
    return g == &egara_game;
}

struct tb_tables *tb_open(const char *dir)
{
    struct tb_tables *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    snprintf(t->dir, sizeof t->dir, "%s", dir);
    pthread_mutex_init(&t->lock, NULL);
    pthread_mutex_init(&t->search_lock, NULL);
    return t;
}

void tb_close(struct tb_tables *t)
{
    if (!t)
        return;
    for (int m = 0; m <= TB_MAX_SIDE; m++)
        for (int o = 0; o <= TB_MAX_SIDE; o++)
            free(t->rec[m][o]);
    tb_session_free(t->session);
    pthread_mutex_destroy(&t->lock);
    pthread_mutex_destroy(&t->search_lock);
    free(t);
}

int tb_signature_records(struct tb_tables *t, int m, int o, const TbRecord **out, char *err,
                         size_t err_size)
{
    if (m < 1 || o < 1 || m > TB_MAX_SIDE || o > TB_MAX_SIDE)
        return 1;
    pthread_mutex_lock(&t->lock);
    if (!t->tried[m][o]) {
        char path[4200];
        tb_file_name(t->dir, m, o, path, sizeof path);
        t->tried[m][o] = 1;
        if (tb_file_read(path, m, o, &t->rec[m][o], t->error[m][o], sizeof t->error[m][o]))
            t->tried[m][o] = errno == ENOENT ? 2 : 3;
    }
    int state = t->tried[m][o];
    pthread_mutex_unlock(&t->lock);
    if (state == 2)
        return 1;
    if (state == 3)
        return fail(err, err_size, "%s", t->error[m][o]);
    *out = t->rec[m][o];
    return 0;
}

int tb_record_of(struct tb_tables *t, uint32_t own, uint32_t other, TbRecord *out, char *err,
                 size_t err_size)
{
    const TbRecord *rec;
    int rc = tb_signature_records(t, __builtin_popcount(own), __builtin_popcount(other), &rec, err,
                                  err_size);
    if (rc)
        return rc;
    *out = rec[tb_index(own, other)];
    return 0;
}

/* The distances of a quiet stretch, remembered by (own, other, r): exact, or a lower
 * bound a shallower search proved. */
struct memo_entry {
    uint32_t own, other;
    int8_t r;     /* -1: a free entry */
    int8_t exact; /* plies is the distance; else the distance is more than plies */
    int16_t plies;
};
struct dtm_search {
    struct tb_tables *t;
    struct memo_entry *table;
    uint64_t size, used; /* size a power of two */
    char *err;
    size_t err_size;
};

static uint64_t memo_hash(uint32_t own, uint32_t other, int r)
{
    uint64_t h = ((uint64_t)own << 32 | other) * 0x9e3779b97f4a7c15ULL;
    return (h ^ (h >> 29) ^ (uint64_t)r * 0xbf58476d1ce4e5b9ULL) * 0x94d049bb133111ebULL;
}

static struct memo_entry *memo_slot(struct dtm_search *s, uint32_t own, uint32_t other, int r)
{
    uint64_t i = memo_hash(own, other, r) & (s->size - 1);
    while (s->table[i].r >= 0 &&
           (s->table[i].own != own || s->table[i].other != other || s->table[i].r != r))
        i = (i + 1) & (s->size - 1);
    return &s->table[i];
}

static int memo_grow(struct dtm_search *s)
{
    struct memo_entry *old = s->table;
    uint64_t old_size = s->size;
    s->size = old_size ? 2 * old_size : 1024;
    s->table = malloc(s->size * sizeof *s->table);
    if (!s->table) {
        s->table = old;
        s->size = old_size;
        return -1;
    }
    for (uint64_t i = 0; i < s->size; i++)
        s->table[i].r = -1;
    for (uint64_t i = 0; i < old_size; i++)
        if (old[i].r >= 0)
            *memo_slot(s, old[i].own, old[i].other, old[i].r) = old[i];
    free(old);
    return 0;
}

static int memo_put(struct dtm_search *s, uint32_t own, uint32_t other, int r, int exact, int plies)
{
    struct memo_entry *e = memo_slot(s, own, other, r);
    if (e->r < 0) {
        if (2 * (s->used + 1) > s->size) {
            if (memo_grow(s))
                return fail(s->err, s->err_size, "out of memory");
            e = memo_slot(s, own, other, r);
        }
        s->used++;
    }
    *e = (struct memo_entry){own, other, (int8_t)r, (int8_t)exact, (int16_t)plies};
    return 0;
}

static enum tb_wdl wdl_at(TbRecord x, uint32_t own, uint32_t other, int r)
{
    if (r == 0)
        return tb_wdl_of(tb_count_value(__builtin_popcount(own), __builtin_popcount(other)));
    return tb_record_wdl(x, r);
}

static int plies_of(TbValue v)
{
    return v > 0 ? TB_WIN - v : v < 0 ? TB_WIN + v : 0;
}

static int record_needed(struct dtm_search *s, uint32_t own, uint32_t other, TbRecord *x)
{
    int rc = tb_record_of(s->t, own, other, x, s->err, s->err_size);
    return rc > 0 ? fail(s->err, s->err_size, "a table the search needs is absent") : rc;
}

/* The plies to the end of a won or lost (own, other) with r plies before the count
 * decides, under best play, if at most `limit`; else limit + 1.  The winner's moves
 * are only those that keep the win; the loser's, all. */
static int dist(struct dtm_search *s, uint32_t own, uint32_t other, int r, int limit, int *out)
{
    if (r == 0) {
        *out = 0;
        return 0;
    }
    TbRecord x = 0;
    if (record_needed(s, own, other, &x))
        return -1;
    if (r == TB_QUIET_LIMIT) {
        int d = plies_of(tb_record_q0(x));
        *out = d <= limit ? d : limit + 1;
        return 0;
    }
    struct memo_entry *e = memo_slot(s, own, other, r);
    if (e->r >= 0 && (e->exact || e->plies >= limit)) {
        *out = e->exact && e->plies <= limit ? e->plies : limit + 1;
        return 0;
    }
    struct egara_child child[EGARA_CHILDREN_MAX];
    int n = egara_children(own, other, child);
    if (n == 0 || child[0].captured) {
        int d = plies_of(tb_record_q0(x)); /* the same at every r >= 1 */
        *out = d <= limit ? d : limit + 1;
        return 0;
    }
    if (limit < 1) { /* a move is still to be made */
        *out = limit + 1;
        return 0;
    }
    enum tb_wdl w = tb_record_wdl(x, r);
    int result = w == TB_WINS ? limit + 1 : 0;
    for (int k = 0; k < n; k++) {
        TbRecord cx = 0;
        if (r > 1 && record_needed(s, child[k].own, child[k].other, &cx))
            return -1;
        int d;
        if (w == TB_WINS) {
            if (wdl_at(cx, child[k].own, child[k].other, r - 1) != TB_LOSES)
                continue;
            if (dist(s, child[k].own, child[k].other, r - 1, result - 2, &d))
                return -1;
            if (d + 1 < result)
                result = d + 1;
        } else {
            if (dist(s, child[k].own, child[k].other, r - 1, limit - 1, &d))
                return -1;
            if (d + 1 > result)
                result = d + 1;
            if (result > limit)
                break;
        }
    }
    if (result > limit) {
        result = limit + 1;
        if (memo_put(s, own, other, r, 0, limit))
            return -1;
    } else if (memo_put(s, own, other, r, 1, result)) {
        return -1;
    }
    *out = result;
    return 0;
}

struct tb_session *tb_session_new(struct tb_tables *t)
{
    struct dtm_search *s = calloc(1, sizeof *s);
    if (s && memo_grow(s)) {
        free(s);
        return NULL;
    }
    if (s)
        s->t = t;
    return (struct tb_session *)s;
}

void tb_session_free(struct tb_session *session)
{
    struct dtm_search *s = (struct dtm_search *)session;
    if (s)
        free(s->table);
    free(s);
}

/* The memory a session may keep: past it the remembered distances are forgotten. */
#define SESSION_MAX_ENTRIES (1u << 24)

int tb_session_value(struct tb_session *session, uint32_t own, uint32_t other, int r, TbValue *out,
                     char *err, size_t err_size)
{
    struct dtm_search *s = (struct dtm_search *)session;
    s->err = err;
    s->err_size = err_size;
    TbRecord x;
    int rc = tb_record_of(s->t, own, other, &x, err, err_size);
    if (rc)
        return rc > 0 ? fail(err, err_size, "the position's table is absent") : -1;
    enum tb_wdl w = r == 0 ? wdl_at(x, own, other, 0) : tb_record_wdl(x, r);
    if (w == TB_DRAW) {
        *out = 0;
        return 0;
    }
    if (s->used > SESSION_MAX_ENTRIES) {
        for (uint64_t i = 0; i < s->size; i++)
            s->table[i].r = -1;
        s->used = 0;
    }
    /* iterative deepening: short wins are found without looking at long lines */
    int d = 0;
    for (int limit = 8;; limit = limit * 2 < TB_MAX_PLIES ? limit * 2 : TB_MAX_PLIES) {
        rc = dist(s, own, other, r, limit, &d);
        if (rc || d <= limit || limit == TB_MAX_PLIES)
            break;
    }
    if (rc)
        return -1;
    *out = (TbValue)(w == TB_WINS ? TB_WIN - d : d - TB_WIN);
    return 0;
}

int tb_exact_value(struct tb_tables *t, uint32_t own, uint32_t other, int r, TbValue *out,
                   char *err, size_t err_size)
{
    struct tb_session *s = tb_session_new(t);
    if (!s)
        return fail(err, err_size, "out of memory");
    int rc = tb_session_value(s, own, other, r, out, err, err_size);
    tb_session_free(s);
    return rc;
}

static void answer_of(TbValue v, struct tb_answer *out)
{
    out->outcome = v > 0 ? TB_OUTCOME_WIN : v < 0 ? TB_OUTCOME_LOSS : TB_OUTCOME_DRAW;
    out->plies = v > 0 ? TB_WIN - v : v < 0 ? TB_WIN + v : 0;
}

int tb_probe_sets(struct tb_tables *t, uint32_t own, uint32_t other, int quiet, int exact_plies,
                  struct tb_answer *out, char *err, size_t err_size)
{
    int m = __builtin_popcount(own), o = __builtin_popcount(other);
    if (!m || !o) { /* the game is over: the side without pieces has lost */
        answer_of(m ? TB_WIN : -TB_WIN, out);
        return 0;
    }
    int r = quiet >= TB_QUIET_LIMIT ? 0 : TB_QUIET_LIMIT - (quiet < 0 ? 0 : quiet);
    if (r == 0) {
        answer_of(tb_count_value(m, o), out);
        return 0;
    }
    TbRecord x;
    int rc = tb_record_of(t, own, other, &x, err, err_size);
    if (rc)
        return rc;
    if (r == TB_QUIET_LIMIT) {
        answer_of(tb_record_q0(x), out);
        return 0;
    }
    if (!exact_plies) {
        enum tb_wdl w = tb_record_wdl(x, r);
        answer_of(w == TB_WINS ? TB_WIN : w == TB_LOSES ? -TB_WIN : 0, out);
        out->plies = w == TB_DRAW ? 0 : -1;
        return 0;
    }
    TbValue v;
    pthread_mutex_lock(&t->search_lock);
    if (!t->session)
        t->session = tb_session_new(t);
    rc = t->session ? tb_session_value(t->session, own, other, r, &v, err, err_size)
                    : fail(err, err_size, "out of memory");
    pthread_mutex_unlock(&t->search_lock);
    if (rc)
        return -1;
    answer_of(v, out);
    return 0;
}

int tb_probe(struct tb_tables *t, const struct game *g, const void *st, int exact_plies,
             struct tb_answer *out, char *err, size_t err_size)
{
    if (!tb_game_has_tables(g))
        return fail(err, err_size, "no tables for %s", g->name);
    uint32_t own, other;
    int quiet;
    egara_position_sets(st, &own, &other, &quiet);
    return tb_probe_sets(t, own, other, quiet, exact_plies, out, err, err_size);
}
