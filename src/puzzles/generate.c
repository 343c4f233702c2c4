/* The puzzle generator (generate.h). */
#define _GNU_SOURCE
#include "generate.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "core/record.h"
#include "core/rng.h"
#include "engines/engine.h"

#define GEN_HASH_MB 1
#define GEN_OPENING_PLIES 6 /* random plies before the levels play */
#define GEN_MAX_PLIES 300
#define GEN_LEVEL_LOW 1
#define GEN_LEVEL_HIGH 4
#define GEN_PER_GAME 4     /* puzzles of one game at most: variety over many games */
#define GEN_BLUNDERS_MAX 3 /* --blunders: positions judged after one position at most */

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double puzzle_gen_rate(const struct puzzle_gen *pg)
{
    double s = cpu_seconds() - pg->cpu_start;
    return s > 0 ? (double)pg->proven * 60.0 / s : 0;
}

/* ---- The set of positions written ---------------------------------------------- */

static int seen_grow(struct puzzle_gen *pg)
{
    size_t size = pg->seen_size ? pg->seen_size * 2 : 4096;
    uint64_t *t = calloc(size, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < pg->seen_size; i++) {
        uint64_t h = pg->seen[i];
        if (!h)
            continue;
        size_t k = h & (size - 1);
        while (t[k])
            k = (k + 1) & (size - 1);
        t[k] = h;
    }
    free(pg->seen);
    pg->seen = t;
    pg->seen_size = size;
    return 0;
}

/* 1 when the hash was there; 0 after adding it (or -1 without memory). */
static int seen_add(struct puzzle_gen *pg, uint64_t h, int add)
{
    h = h ? h : 1;
    if ((pg->seen_count + 1) * 2 > pg->seen_size && seen_grow(pg) != 0)
        return -1;
    size_t k = h & (pg->seen_size - 1);
    while (pg->seen[k]) {
        if (pg->seen[k] == h)
            return 1;
        k = (k + 1) & (pg->seen_size - 1);
    }
    if (add) {
        pg->seen[k] = h;
        pg->seen_count++;
    }
    return 0;
}

static int read_back(struct puzzle_gen *pg, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        struct puzzle_entry e;
        char err[ERROR_TEXT_MAX];
        if (puzzle_entry_parse(line, &e, err, sizeof err) == 0 && e.g == pg->g &&
            seen_add(pg, puzzle_position_hash(pg->g, e.position), 1) == 0)
            pg->total++;
    }
    free(line);
    fclose(f);
    return 0;
}

int puzzle_gen_open(struct puzzle_gen *pg, const struct game *g, const char *path, char *err,
                    size_t err_size)
{
    const struct puzzle_rules *rules = engine_profile_of(g)->puzzles;
    memset(pg, 0, sizeof *pg);
    if (!rules)
        return fail(err, err_size, "%s has no puzzle rules", g->name);
    pg->g = g;
    pg->find_nodes = rules->find_nodes;
    pg->prove_nodes = rules->prove_nodes;
    pg->engine = engine_new(GEN_HASH_MB);
    if (!pg->engine || seen_grow(pg) != 0)
        return fail(err, err_size, "out of memory");
    if (path) {
        read_back(pg, path);
        pg->out = fopen(path, "a");
        if (!pg->out)
            return fail(err, err_size, "cannot write %s", path);
        pg->out_path = path;
    } else {
        pg->out = stdout;
    }
    pg->cpu_start = cpu_seconds();
    return 0;
}

void puzzle_gen_close(struct puzzle_gen *pg)
{
    if (pg->out && pg->out != stdout)
        fclose(pg->out);
    engine_free(pg->engine);
    free(pg->seen);
    free(pg->scratch);
    memset(pg, 0, sizeof *pg);
}

/* A glance before the find budget: a search of an eighth of it that sees no gain of
 * half a decisive score (and no proven win), or a position won already (the static
 * score decisive) where it sees no proven win, is left alone.  Most positions
 * of a game are such; the glance changes nothing that `check` proves. */
static int worth_a_look(struct puzzle_gen *pg, void *st)
{
    const struct puzzle_rules *rules = engine_profile_of(pg->g)->puzzles;
    engine_clear(pg->engine);
    struct engine_limits lim = {0};
    lim.nodes = pg->find_nodes / 8 + 1;
    lim.contempt = -1;
    lim.threads = 1;
    struct engine_result r;
    if (!engine_go(pg->engine, pg->g, st, 0, &lim, 0, &r))
        return 0;
    if (r.score <= -SCORE_INFINITE || r.score >= SCORE_INFINITE)
        return 1;
    if (r.score >= ENGINE_WIN_BOUND)
        return 1;
    if (pg->proven_only)
        return 0;
    /* Won already: only a proven win could make a puzzle of it, and the glance saw none. */
    return r.score >= rules->win / 2 && search_evaluate(pg->g, st) < rules->win;
}

/* Is the solution of a theme the run asks for? */
static int wanted(const struct puzzle_gen *pg, const struct puzzle_solution *s)
{
    if (!pg->themes)
        return 1;
    for (int i = 0; i < s->nthemes; i++)
        for (int k = 0; pg->themes[k]; k++)
            if (strcmp(s->themes[i], pg->themes[k]) == 0)
                return 1;
    return 0;
}

/* Judge the position as its text says (no history before it), as `check` will. */
static int judge_text(struct puzzle_gen *pg, const char *text, int *plies);

int puzzle_gen_position(struct puzzle_gen *pg, const void *game_st, int *plies)
{
    char text[POSITION_TEXT_MAX];
    pg->g->write_position(game_st, text, sizeof text);
    return judge_text(pg, text, plies);
}

static int judge_text(struct puzzle_gen *pg, const char *text, int *plies)
{
    const struct game *g = pg->g;
    uint64_t h = puzzle_position_hash(g, text); /* one position, one puzzle */
    if (seen_add(pg, h, 0) != 0)
        return 0;
    /* The position itself, its counters at their start (the halfmove clock, a quiet
     * count): one position is one puzzle, and its solution owes nothing to them. */
    char key[POSITION_TEXT_MAX], err[ERROR_TEXT_MAX];
    puzzle_position_key(g, text, key, sizeof key);
    if (!pg->scratch)
        pg->scratch = game_state_new(g);
    void *st = pg->scratch;
    if (!st || g->parse_position(st, key, err, sizeof err) != 0)
        return 0;
    pg->positions++;
    double t0 = cpu_seconds();
    int look = worth_a_look(pg, st);
    double t1 = cpu_seconds();
    pg->cpu_glance += t1 - t0;
    if (!look) {
        pg->rejected[PUZZLE_NO_WIN]++;
        return 0;
    }
    struct puzzle_solution s;
    enum puzzle_reject why = puzzle_solve(g, st, pg->find_nodes, pg->engine, &s);
    double t2 = cpu_seconds();
    pg->cpu_find += t2 - t1;
    if (why != PUZZLE_OK) {
        pg->rejected[why]++;
        return 0;
    }
    if (!wanted(pg, &s)) {
        pg->rejected[PUZZLE_OK]++; /* a puzzle, of a theme not asked for */
        return 0;
    }
    pg->found++;
    why = puzzle_solve(g, st, pg->prove_nodes, pg->engine, &s);
    pg->cpu_prove += cpu_seconds() - t2;
    if (why != PUZZLE_OK || !wanted(pg, &s))
        return 0;
    struct puzzle_entry e;
    puzzle_entry_make(g, st, &s, &e);
    char *line = puzzle_entry_json(&e);
    if (!line)
        return 0;
    fprintf(pg->out, "%s\n", line);
    fflush(pg->out);
    free(line);
    seen_add(pg, h, 1);
    pg->proven++;
    pg->total++;
    *plies = s.n;
    return 1;
}

/* ---- Sources --------------------------------------------------------------------- */

static void progress(struct puzzle_gen *pg, int game, int last)
{
    if (pg->log)
        fprintf(pg->log,
                "game %d/%d  positions %ld  found %ld  proven %ld  in file %ld  %.1f per "
                "core-minute\n",
                game + 1, last, pg->positions, pg->found, pg->proven, pg->total,
                puzzle_gen_rate(pg));
    if (!pg->out_path)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s.progress", pg->out_path);
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "next_game %d\nin_file %ld\nproven_this_run %ld\nper_core_minute %.2f\n", game + 1,
            pg->total, pg->proven, puzzle_gen_rate(pg));
    fclose(f);
}

static int resume_at(const struct puzzle_gen *pg)
{
    if (!pg->out_path)
        return 0;
    char path[1024];
    snprintf(path, sizeof path, "%s.progress", pg->out_path);
    FILE *f = fopen(path, "r");
    int next = 0;
    if (f) {
        if (fscanf(f, "next_game %d", &next) != 1)
            next = 0;
        fclose(f);
    }
    return next;
}

static int done(const struct puzzle_gen *pg)
{
    return pg->target > 0 && pg->total >= pg->target;
}

/* Can the side to move win at once (a move after which the game's own status says it
 * won)?  `mv` is room for the legal moves. */
static int wins_at_once(const struct game *g, void *st, Move *mv)
{
    struct game_status gs;
    g->status(st, &gs);
    if (gs.result != RESULT_ONGOING)
        return 0;
    enum result mine = g->side_to_move(st) == SIDE_WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    int n = game_legal_moves(g, st, mv), won = 0;
    for (int i = 0; i < n && !won; i++) {
        g->make_move(st, mv[i]);
        g->status(st, &gs);
        won = gs.result == mine;
        g->unmake_move(st, mv[i]);
    }
    return won;
}

/* The blunders the game did not play (--blunders): the positions after those of the
 * legal moves mv[0..n) of `st` that let the other side win at once, judged as puzzles
 * when there are at most GEN_BLUNDERS_MAX of them (more: a standing threat, whose
 * positions would be one puzzle many times over).  The puzzles written. */
static int judge_blunders(struct puzzle_gen *pg, void *st, const Move *mv, int n, Move *room)
{
    const struct game *g = pg->g;
    Move lets[GEN_BLUNDERS_MAX];
    int k = 0;
    double t0 = cpu_seconds();
    for (int i = 0; i < n && k <= GEN_BLUNDERS_MAX; i++) {
        g->make_move(st, mv[i]);
        if (wins_at_once(g, st, room)) {
            if (k < GEN_BLUNDERS_MAX)
                lets[k] = mv[i];
            k++;
        }
        g->unmake_move(st, mv[i]);
    }
    pg->cpu_glance += cpu_seconds() - t0;
    int written = 0;
    for (int i = 0; i < k && k <= GEN_BLUNDERS_MAX; i++) {
        int plies = 0;
        g->make_move(st, lets[i]);
        written += puzzle_gen_position(pg, st, &plies);
        g->unmake_move(st, lets[i]);
    }
    return written;
}

static void play_game(struct puzzle_gen *pg, void *st, Move *mv, Move *room, uint64_t seed)
{
    const struct game *g = pg->g;
    struct rng r;
    rng_seed(&r, seed);
    int level[2] = {GEN_LEVEL_LOW + (int)rng_below(&r, GEN_LEVEL_HIGH - GEN_LEVEL_LOW + 1),
                    GEN_LEVEL_LOW + (int)rng_below(&r, GEN_LEVEL_HIGH - GEN_LEVEL_LOW + 1)};
    g->start(st);
    int skip_until = 0, found = 0;
    for (int ply = 0; ply < GEN_MAX_PLIES && found < GEN_PER_GAME && !done(pg); ply++) {
        int n = game_legal_moves(g, st, mv);
        if (n == 0)
            break;
        Move m;
        if (ply < GEN_OPENING_PLIES) {
            m = mv[rng_below(&r, (uint32_t)n)];
        } else {
            int plies = 0;
            if (ply >= skip_until && puzzle_gen_position(pg, st, &plies)) {
                skip_until = ply + plies + 1; /* the rest of that line is the same puzzle */
                found++;
            }
            if (pg->blunders && found < GEN_PER_GAME)
                found += judge_blunders(pg, st, mv, n, room);
            struct engine_result res;
            double t0 = cpu_seconds();
            m = engine_think(g, st, level[g->side_to_move(st)], NULL, seed + (uint64_t)ply, &res);
            pg->cpu_play += cpu_seconds() - t0;
            if (!m)
                break;
        }
        g->make_move(st, m);
    }
}

int puzzle_gen_selfplay(struct puzzle_gen *pg, int count, uint64_t seed)
{
    const struct game *g = pg->g;
    void *st = game_state_new(g);
    Move *mv = malloc(sizeof(Move) * (size_t)g->max_moves);
    Move *room = malloc(sizeof(Move) * (size_t)g->max_moves);
    if (!st || !mv || !room) {
        free(st);
        free(mv);
        free(room);
        return -1;
    }
    for (int i = resume_at(pg); i < count && !done(pg); i++) {
        play_game(pg, st, mv, room, seed * 1000003ULL + (uint64_t)i);
        progress(pg, i, count);
    }
    free(st);
    free(mv);
    free(room);
    return 0;
}

int puzzle_gen_records(struct puzzle_gen *pg, const char *text, char *err, size_t err_size)
{
    const struct game *g = pg->g;
    void *st = game_state_new(g);
    Move *line = malloc(sizeof(Move) * (size_t)g->max_plies);
    struct record_header *h = malloc(sizeof *h);
    if (!st || !line || !h) {
        free(st);
        free(line);
        free(h);
        return fail(err, err_size, "out of memory");
    }
    int rc = 0, game = 0;
    for (;;) {
        char result[16];
        long used = g->read_record(text, st, h, result, sizeof result, err, err_size);
        if (used <= 0) {
            rc = used < 0 ? -1 : 0;
            break;
        }
        text += used;
        int n = g->ply(st);
        for (int i = 0; i < n; i++)
            line[i] = g->history_move(st, i);
        for (int i = n; i > 0; i--)
            g->unmake_move(st, line[i - 1]);
        int skip_until = 0;
        for (int i = 0; i <= n && !done(pg); i++) {
            int plies = 0;
            if (i >= skip_until && puzzle_gen_position(pg, st, &plies))
                skip_until = i + plies + 1;
            if (i < n)
                g->make_move(st, line[i]);
        }
        progress(pg, game++, 0);
    }
    free(st);
    free(line);
    free(h);
    return rc;
}
