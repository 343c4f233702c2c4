/* agora analyse: the engine's judgement of a game or of one position, as JSON lines.
 *
 *   agora analyse GAME [FILE] [--nodes N]
 *       one record (the game's record format; stdin without FILE) reviewed: a line per
 *       ply {"ply", "move", "best", "score_before", "score_after", "mate_before",
 *       "mate_after", "win_before", "win_after", "drop", "class"} (moves as display
 *       texts; scores and win chances the mover's), then {"accuracy": {"white",
 *       "black"}}.  N: nodes per position (default: the engine profile's).
 *   agora analyse GAME --position TEXT [--multipv K] [--nodes N]
 *       the K best lines of one position: {"multipv", "score", "mate", "win", "depth",
 *       "nodes", "pv", "engine"} (side to move's view; pv as display texts), and where
 *       the position is in the endgame tables (Egara-guti; --tablebases DIR, default
 *       tablebases/egara-guti) "tablebase": {"result", "plies", "text": "wins in 17"}.
 *
 *   Both take --engine PATH|none (default: $AGORA_ANALYSIS_ENGINE, else the engine
 *   profile's external engine, Stockfish for chess, when installed) and
 *   --engine-timeout MS (the longest silence of that engine, default 10000).  The
 *   "engine" field names who judged; when the external engine was missing or failed,
 *   agora's own judged and "engine_error" says why (the review's last line carries
 *   both).
 *
 * Progress goes to stderr when it is a terminal.  A bad record or option: one line on
 * stderr and exit status 2. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "cli.h"
#include "core/record.h"
#include "engines/profile.h"
#include "engines/uci_engine.h"
#include "tablebase/tablebase.h"

#define ANALYSE_USAGE                                                                              \
    "usage: agora analyse GAME [FILE] [--nodes N] | agora analyse GAME --position TEXT "           \
    "[--multipv K] [--nodes N]; both [--engine PATH|none] [--engine-timeout MS]"
#define ANALYSE_MAX_NODES 2000000000L

static double rounded(double x, double unit)
{
    return round(x / unit) * unit;
}

static void put_line(struct cli_io *io, json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (s) {
        fputs(s, io->out);
        fputc('\n', io->out);
    }
    free(s);
    json_decref(o);
}

/* Who judged, into o. */
static void engine_out(json_t *o, const struct analysis_engine_report *r, const char *why)
{
    json_object_set_new(o, "engine", json_string(r->name));
    if (r->error[0] || why[0])
        json_object_set_new(o, "engine_error", json_string(r->error[0] ? r->error : why));
}

static int position_lines(struct cli_io *io, const struct game *g, const char *text, int multipv,
                          uint64_t nodes, struct uci_pool *ext, const char *why, const char *tb_dir)
{
    void *st = cli_position(io, g, text);
    if (!st)
        return CLI_BAD_INPUT;
    struct analysis_engine_report report;
    struct analysis_request rq = {
        .multipv = multipv, .nodes = nodes, .external = ext, .report = &report};
    struct analysis_line *lines = malloc(sizeof *lines * ANALYSIS_MAX_LINES);
    int n = lines ? analysis_position(g, st, &rq, NULL, lines) : -1;
    struct cli_tablebase_note tb;
    int in_tables = n >= 0 && cli_tablebase_note(io, g, st, tb_dir, &tb);
    free(st);
    if (n < 0) {
        free(lines);
        return cli_error(io, "analyse: out of memory");
    }
    for (int i = 0; i < n; i++) {
        const struct analysis_line *l = &lines[i];
        json_t *pv = json_array();
        for (int k = 0; k < l->pv_len; k++)
            json_array_append_new(pv, json_string(l->pv_display[k]));
        json_t *o = json_object();
        json_object_set_new(o, "multipv", json_integer(l->multipv));
        json_object_set_new(o, "score", json_integer(l->score));
        json_object_set_new(o, "mate", json_integer(l->mate));
        json_object_set_new(o, "win", json_real(rounded(l->win, 1e-4)));
        json_object_set_new(o, "depth", json_integer(l->depth));
        json_object_set_new(o, "nodes", json_integer((json_int_t)l->nodes));
        json_object_set_new(o, "pv", pv);
        engine_out(o, &report, why);
        if (in_tables)
            json_object_set_new(o, "tablebase",
                                json_pack("{s:s, s:i, s:s}", "result", tb.result, "plies", tb.plies,
                                          "text", tb.text));
        put_line(io, o);
    }
    free(lines);
    return 0;
}

static void on_progress(void *ctx, int done, int total)
{
    struct cli_io *io = ctx;
    fprintf(io->err, "\ranalyse: %d/%d positions", done, total);
    if (done == total)
        fputc('\n', io->err);
    fflush(io->err);
}

static int review(struct cli_io *io, const struct game *g, const char *path, uint64_t nodes,
                  struct uci_pool *ext, const char *why)
{
    FILE *f = path ? fopen(path, "r") : io->in;
    if (!f)
        return cli_error(io, "analyse: cannot open '%s'", path);
    char *text = cli_read_all(f, NULL);
    if (path)
        fclose(f);
    void *st = game_state_new(g);
    struct record_header *h = malloc(sizeof *h);
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_plies);
    struct analysis_ply *plies = malloc(sizeof *plies * (size_t)g->max_plies);
    int status = 0;
    char result[16], err[ERROR_TEXT_MAX];
    if (!text || !st || !h || !moves || !plies) {
        status = cli_error(io, "analyse: out of memory");
        goto done;
    }
    long used = g->read_record(text, st, h, result, sizeof result, err, sizeof err);
    if (used < 0) {
        status = cli_error(io, "analyse: %s", err);
        goto done;
    }
    if (used == 0) {
        status = cli_error(io, "analyse: no %s record in the input", g->name);
        goto done;
    }
    int n = g->ply(st);
    for (int i = 0; i < n; i++)
        moves[i] = g->history_move(st, i);
    for (int i = n; i > 0; i--)
        g->unmake_move(st, moves[i - 1]);
    struct analysis_engine_report report;
    struct analysis_review_request rq = {.nodes = nodes, .external = ext, .report = &report};
    if (isatty(fileno(io->err))) {
        rq.on_progress = on_progress;
        rq.ctx = io;
    }
    struct analysis_summary sum;
    int got = analysis_review(g, st, moves, n, &rq, plies, &sum, err, sizeof err);
    if (got < 0) {
        status = cli_error(io, "analyse: %s", err);
        goto done;
    }
    for (int k = 0; k < got; k++) {
        const struct analysis_ply *p = &plies[k];
        json_t *o = json_object();
        json_object_set_new(o, "ply", json_integer(p->ply));
        json_object_set_new(o, "move", json_string(p->move_display));
        json_object_set_new(o, "best", json_string(p->best_display));
        json_object_set_new(o, "score_before", json_integer(p->score_before));
        json_object_set_new(o, "score_after", json_integer(p->score_after));
        json_object_set_new(o, "mate_before", json_integer(p->mate_before));
        json_object_set_new(o, "mate_after", json_integer(p->mate_after));
        json_object_set_new(o, "win_before", json_real(rounded(p->win_before, 1e-4)));
        json_object_set_new(o, "win_after", json_real(rounded(p->win_after, 1e-4)));
        json_object_set_new(o, "drop", json_real(rounded(p->drop, 0.1)));
        json_object_set_new(o, "class", json_string(analysis_class_name(p->cls)));
        put_line(io, o);
    }
    json_t *acc = json_object();
    json_object_set_new(acc, "white", json_real(rounded(sum.accuracy[SIDE_WHITE], 0.1)));
    json_object_set_new(acc, "black", json_real(rounded(sum.accuracy[SIDE_BLACK], 0.1)));
    json_t *o = json_object();
    json_object_set_new(o, "accuracy", acc);
    engine_out(o, &report, why);
    put_line(io, o);
done:
    free(plies);
    free(moves);
    free(h);
    free(st);
    free(text);
    return status;
}

/* The external engine of g's profile (or `path`; "none": none), or NULL: agora's own
 * judges, and *why says why when one was wanted. */
static struct uci_pool *external_engine(const struct game *g, const char *path, long timeout_ms,
                                        char *why, size_t why_size)
{
    why[0] = 0;
    if (!path)
        path = getenv("AGORA_ANALYSIS_ENGINE");
    if (!path || !path[0])
        path = engine_profile_of(g)->analysis_engine;
    if (!path || !strcmp(path, "none"))
        return NULL;
    struct uci_engine_config cfg = {.path = path, .size = 1, .nice = -1, .timeout_ms = timeout_ms};
    return uci_pool_new(&cfg, why, why_size);
}

int cmd_analyse(int argc, char **argv, struct cli_io *io)
{
    if (argc < 1)
        return cli_error(io, ANALYSE_USAGE);
    const struct game *g = cli_game(io, argv[0]);
    if (!g)
        return CLI_BAD_INPUT;
    const char *file = NULL, *position = NULL, *tb_dir = TB_DEFAULT_DIR;
    const char *engine = NULL;
    long nodes = 0, multipv = 0, timeout_ms = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--nodes") && has_value) {
            if (cli_int(io, "--nodes", argv[++i], 1, ANALYSE_MAX_NODES, &nodes) != 0)
                return CLI_BAD_INPUT;
        } else if (!strcmp(a, "--multipv") && has_value) {
            if (cli_int(io, "--multipv", argv[++i], 1, ANALYSIS_MAX_LINES, &multipv) != 0)
                return CLI_BAD_INPUT;
        } else if (!strcmp(a, "--engine") && has_value) {
            engine = argv[++i];
        } else if (!strcmp(a, "--engine-timeout") && has_value) {
            if (cli_int(io, "--engine-timeout", argv[++i], 1, 3600000, &timeout_ms) != 0)
                return CLI_BAD_INPUT;
        } else if (!strcmp(a, "--position") && has_value) {
            position = argv[++i];
        } else if (!strcmp(a, "--tablebases") && has_value) {
            tb_dir = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_error(io, "analyse: unknown option '%s' (%s)", a, ANALYSE_USAGE);
        } else if (!file) {
            file = a;
        } else {
            return cli_error(io, "analyse: one record file at most (%s)", ANALYSE_USAGE);
        }
    }
    if (position && file)
        return cli_error(io, "analyse: a FILE or --position, not both");
    if (multipv && !position)
        return cli_error(io, "analyse: --multipv needs --position");
    char why[ERROR_TEXT_MAX];
    struct uci_pool *ext = external_engine(g, engine, timeout_ms, why, sizeof why);
    if (why[0])
        fprintf(io->err, "analyse: %s; agora's own engine judges\n", why);
    int status = position ? position_lines(io, g, position, multipv ? (int)multipv : 1,
                                           (uint64_t)nodes, ext, why, tb_dir)
                          : review(io, g, file, (uint64_t)nodes, ext, why);
    uci_pool_free(ext);
    return status;
}
