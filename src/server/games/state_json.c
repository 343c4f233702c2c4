/* A game as JSON for the browser (the shape is in src/server/API.md), the event
 * stream's events, and the move record. */
#include "server/games/state_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/json_out.h"
#include "core/record.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/games/people_json.h"
#include "server/games/session.h"

static const char *side_name(int side)
{
    return side == SIDE_BLACK ? "black" : "white";
}

/* ISO 8601 UTC with milliseconds: "2026-11-30T15:55:33.658Z". */
static void time_out(struct jout *j, const char *key, int64_t ms)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[96];
    snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
    jout_kstr(j, key, buf);
}

static const char *result_slug(enum result r)
{
    switch (r) {
    case RESULT_ONGOING: return "ongoing";
    case RESULT_WHITE_WINS: return "white-wins";
    case RESULT_BLACK_WINS: return "black-wins";
    case RESULT_DRAW: return "draw";
    }
    return "?";
}

static void status_fields(struct jout *j, const struct game *g, const struct game_status *gs)
{
    jout_kbool(j, "over", gs->result != RESULT_ONGOING);
    jout_kstr(j, "result", result_slug(gs->result));
    if (gs->result == RESULT_WHITE_WINS || gs->result == RESULT_BLACK_WINS)
        jout_kstr(j, "winner", gs->result == RESULT_WHITE_WINS ? "white" : "black");
    jout_kstr(j, "reason", reason_name(g, gs->reason));
    jout_kstr(j, "text", reason_text(g, gs->reason));
}

static void status_out(struct jout *j, const struct game *g, const struct game_status *gs)
{
    jout_open(j, '{');
    status_fields(j, g, gs);
    jout_close(j, '}');
}

static void cells_out(struct jout *j, const char *key, const char (*cells)[CELL_NAME_MAX], int n)
{
    jout_key(j, key);
    jout_open(j, '[');
    for (int i = 0; i < n; i++)
        jout_str(j, cells[i]);
    jout_close(j, ']');
}

/* A move's flags by name: core's capture, then the game's own bits in order. */
static void flags_out(struct jout *j, const struct game *g, unsigned flags)
{
    jout_key(j, "flags");
    jout_open(j, '[');
    for (unsigned bit = 1; bit; bit <<= 1) {
        const char *name = !(flags & bit)             ? NULL
                           : bit == MOVE_FLAG_CAPTURE ? "capture"
                                                      : game_word_name(g->move_flag_names, bit);
        if (name)
            jout_str(j, name);
    }
    jout_close(j, ']');
}

static void legal_out(struct jout *j, const struct game *g, const void *st, bool over)
{
    jout_key(j, "legal_moves");
    jout_open(j, '[');
    Move *moves = over ? NULL : malloc(sizeof(Move) * (size_t)g->max_moves);
    int n = moves ? g->gen_moves(st, moves) : 0;
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX], display[MOVE_TEXT_MAX];
        struct move_desc d;
        memset(&d, 0, sizeof d);
        g->move_text(st, moves[i], text, sizeof text);
        game_move_display(g, st, moves[i], display, sizeof display);
        g->describe_move(st, moves[i], &d);
        jout_open(j, '{');
        jout_kstr(j, "move", text);
        jout_kstr(j, "display", display);
        jout_kstr(j, "from", d.from);
        jout_kstr(j, "to", d.to);
        cells_out(j, "path", d.path, d.path_len);
        cells_out(j, "captured", d.captured, d.captured_len);
        flags_out(j, g, d.flags);
        if (d.promotion) {
            char p[2] = {d.promotion, 0};
            jout_kstr(j, "promotion", p);
        }
        if (d.also_from[0]) {
            jout_kstr(j, "also_from", d.also_from);
            jout_kstr(j, "also_to", d.also_to);
        }
        jout_close(j, '}');
    }
    free(moves);
    jout_close(j, ']');
}

/* The letter of the piece on the cell called `name` (0: none, or no layout). */
static char piece_on(const struct game *g, const void *st, const char *name)
{
    const struct board_layout *lay = g->layout ? g->layout() : NULL;
    for (int i = 0; lay && g->piece_at && i < lay->cells; i++)
        if (!strcmp(lay->cell[i].name, name)) {
            unsigned marks = 0;
            return g->piece_at(st, i, &marks);
        }
    return 0;
}

/* The last move as a legal move is described (from, to, path, captured, flags, ...),
 * told from the position before it, with the side that made it and the letters of
 * the pieces it captured (`taken`, in the order of `captured`): what a page needs to
 * show and say what happened without knowing the rules.  null before any move. */
static void last_move_out(struct jout *j, const struct position_view *v)
{
    const struct game *g = v->g;
    int ply = g->ply(v->st);
    jout_key(j, "last_move");
    void *before = v->n_moves > 0 && ply > 0 ? malloc(g->state_size) : NULL;
    if (!before) {
        jout_null(j);
        return;
    }
    game_state_copy(g, before, v->st); /* not the whole 700 KB of a chess state */
    Move m = g->history_move(before, ply - 1);
    g->unmake_move(before, m);
    struct move_desc d;
    memset(&d, 0, sizeof d);
    g->describe_move(before, m, &d);
    jout_open(j, '{');
    jout_kint(j, "ply", v->n_moves);
    jout_kstr(j, "move", v->moves[v->n_moves - 1].text);
    jout_kstr(j, "display", v->moves[v->n_moves - 1].display);
    jout_kstr(j, "side", side_name((int)g->side_to_move(before)));
    jout_kstr(j, "from", d.from);
    jout_kstr(j, "to", d.to);
    char piece[2] = {piece_on(g, before, d.from), 0};
    jout_kstr(j, "piece", piece);
    cells_out(j, "path", d.path, d.path_len);
    cells_out(j, "captured", d.captured, d.captured_len);
    jout_key(j, "taken");
    jout_open(j, '[');
    for (int i = 0; i < d.captured_len; i++) {
        char taken[2] = {piece_on(g, before, d.captured[i]), 0};
        jout_str(j, taken);
    }
    jout_close(j, ']');
    flags_out(j, g, d.flags);
    if (d.promotion) {
        char p[2] = {d.promotion, 0};
        jout_kstr(j, "promotion", p);
    }
    if (d.also_from[0]) {
        jout_kstr(j, "also_from", d.also_from);
        jout_kstr(j, "also_to", d.also_to);
    }
    jout_close(j, '}');
    free(before);
}

/* What stands on each cell, in the layout's cell order: the position text's letter
 * ("" when empty); and the cells whose pieces are marked captured (agon). */
static void board_out(struct jout *j, const struct game *g, const void *st)
{
    const struct board_layout *lay = g->layout ? g->layout() : NULL;
    if (!lay || !g->piece_at)
        return;
    unsigned *marks = calloc((size_t)lay->cells + 1, sizeof *marks);
    jout_key(j, "board");
    jout_open(j, '[');
    for (int i = 0; i < lay->cells; i++) {
        unsigned m = 0;
        char piece[2] = {g->piece_at(st, i, &m), 0};
        jout_str(j, piece);
        if (marks)
            marks[i] = m;
    }
    jout_close(j, ']');
    jout_key(j, "captured_pieces");
    jout_open(j, '[');
    for (int i = 0; marks && i < lay->cells; i++)
        if (marks[i] & PIECE_CAPTURED)
            jout_str(j, lay->cell[i].name);
    jout_close(j, ']');
    free(marks);
}

json_t *layout_json(const struct game *g)
{
    const struct board_layout *lay = g->layout ? g->layout() : NULL;
    if (!lay)
        return json_null();
    static const char *const shapes[] = {"square", "hex", "graph"};
    json_t *j = json_object(), *cells = json_array(), *edges = json_array();
    json_object_set_new(j, "shape",
                        json_string((unsigned)lay->shape < 3 ? shapes[lay->shape] : "?"));
    for (int i = 0; i < lay->cells; i++) {
        const struct board_cell *c = &lay->cell[i];
        json_t *flags = json_array();
        for (unsigned bit = 1; bit; bit <<= 1) {
            const char *name = c->flags & bit ? game_word_name(lay->flag_names, bit) : NULL;
            if (name)
                json_array_append_new(flags, json_string(name));
        }
        json_array_append_new(cells, json_pack("{sssfsfsiso}", "name", c->name, "x", (double)c->x,
                                               "y", (double)c->y, "ring", c->ring, "flags", flags));
    }
    for (int i = 0; i < lay->edges; i++)
        json_array_append_new(edges, json_pack("[ii]", lay->edge[i][0], lay->edge[i][1]));
    json_object_set_new(j, "cells", cells);
    json_object_set_new(j, "edges", edges);
    return j;
}

/* The fields a game's state and a bare position share (API.md): from the start
 * position to the claims, written into an open object. */
static void position_fields(struct jout *j, const struct position_view *v)
{
    const struct game *g = v->g;
    char pos[POSITION_TEXT_MAX];
    g->write_position(v->st, pos, sizeof pos);
    jout_key(j, "start_position");
    if (v->start && v->start[0])
        jout_str(j, v->start);
    else
        jout_null(j);
    jout_kstr(j, "position", pos);
    jout_kstr(j, "side_to_move", side_name((int)g->side_to_move(v->st)));
    jout_kint(j, "ply", v->n_moves);
    board_out(j, g, v->st);
    jout_key(j, "moves");
    jout_open(j, '[');
    for (int i = 0; i < v->n_moves; i++) {
        jout_open(j, '{');
        jout_kint(j, "ply", i + 1);
        jout_kstr(j, "move", v->moves[i].text);
        jout_kstr(j, "display", v->moves[i].display);
        if (g->move_display) /* a game with its own display text (SAN) */
            jout_kstr(j, "san", v->moves[i].display);
        jout_close(j, '}');
    }
    jout_close(j, ']');
    last_move_out(j, v);
    if (v->before_legal)
        v->before_legal(j, v->ctx);
    legal_out(j, g, v->st, v->status.result != RESULT_ONGOING);
    jout_key(j, "status");
    status_out(j, g, &v->status);
    jout_key(j, "claims");
    jout_open(j, '[');
    for (unsigned bit = 1; bit; bit <<= 1) {
        const char *name = v->status.claims & bit ? game_word_name(g->claim_names, bit) : NULL;
        if (name)
            jout_str(j, name);
    }
    jout_close(j, ']');
}

char *position_text(const struct position_view *v)
{
    struct jout j;
    jout_init(&j, 4096 + (size_t)v->n_moves * 64);
    jout_open(&j, '{');
    jout_kstr(&j, "game", v->g->name);
    jout_kstr(&j, "title", v->g->title);
    position_fields(&j, v);
    jout_close(&j, '}');
    return jout_finish(&j);
}

struct turn {
    const struct session *s;
    int viewer; /* the side whose turn "your_turn" asks about; -1 none */
};

/* A game's fields between its moves and its legal moves. */
static void turn_out(struct jout *j, void *ctx)
{
    const struct turn *t = ctx;
    const struct session *s = t->s;
    struct game_status gs;
    session_status(s, &gs);
    jout_kbool(j, "your_turn",
               gs.result == RESULT_ONGOING && (int)s->g->side_to_move(s->st) == t->viewer);
    jout_kbool(j, "thinking", s->job_pending);
}

char *state_text(const struct session *s, const char *token, const char *draw)
{
    return state_text_as(s, s->row.human_side, token, draw);
}

char *state_text_as(const struct session *s, int viewer, const char *token, const char *draw)
{
    const struct store_game *row = &s->row;
    struct turn turn = {s, viewer};
    struct position_view v = {
        .g = s->g,
        .st = s->st,
        .start = row->start,
        .moves = s->moves,
        .n_moves = s->n_moves,
        .before_legal = turn_out,
        .ctx = &turn,
    };
    session_status(s, &v.status);
    struct jout j;
    jout_init(&j, 4096 + (size_t)s->n_moves * 64);
    jout_open(&j, '{');
    jout_kstr(&j, "id", row->id);
    jout_kstr(&j, "game", s->g->name);
    jout_kstr(&j, "title", s->g->title);
    jout_kint(&j, "level", row->level);
    /* Between people: the viewer's side (white for a spectator), as the page draws it. */
    jout_kstr(&j, "human_side",
              side_name(row->people ? (viewer < 0 ? SIDE_WHITE : viewer) : row->human_side));
    position_fields(&j, &v);
    if (row->people)
        people_state_out(&j, s, viewer, server_now_ms());
    time_out(&j, "created", row->created_ms);
    time_out(&j, "updated", row->updated_ms);
    jout_kint(&j, "takebacks", row->takebacks);
    if (token)
        jout_kstr(&j, "token", token);
    if (draw)
        jout_kstr(&j, "draw", draw);
    jout_close(&j, '}');
    return jout_finish(&j);
}

void summary_out(struct jout *j, const struct store_game *row)
{
    struct game_status gs = {(enum result)row->result, row->reason, 0};
    jout_open(j, '{');
    jout_kstr(j, "id", row->id);
    jout_kstr(j, "game", row->game);
    jout_kint(j, "level", row->level);
    jout_kstr(j, "human_side", side_name(row->human_side));
    jout_kint(j, "ply", row->plies);
    jout_kint(j, "takebacks", row->takebacks);
    jout_key(j, "status");
    status_out(j, game_find(row->game), &gs);
    time_out(j, "created", row->created_ms);
    time_out(j, "updated", row->updated_ms);
    jout_close(j, '}');
}

size_t event_move_text(const struct session *s, int k, char *buf, size_t size)
{
    struct game_status gs;
    session_status(s, &gs);
    /* The side that made move k: the side to move now, counted back. */
    int now = (int)s->g->side_to_move(s->st);
    int mover = (s->n_moves - k) % 2 == 0 ? 1 - now : now;
    struct jout j;
    jout_init(&j, 512);
    jout_open(&j, '{');
    jout_kint(&j, "ply", k);
    jout_kstr(&j, "move", s->moves[k - 1].text);
    jout_kstr(&j, "display", s->moves[k - 1].display);
    if (s->g->move_display)
        jout_kstr(&j, "san", s->moves[k - 1].display);
    jout_kstr(&j, "side", side_name(mover));
    jout_kbool(&j, "last", k == s->n_stored);
    jout_key(&j, "status");
    status_out(&j, s->g, &gs);
    if (s->row.people)
        people_clock_out(&j, s, server_now_ms());
    jout_close(&j, '}');
    char *data = jout_finish(&j);
    int n = snprintf(buf, size, "id: %d\nevent: move\ndata: %s\n\n", k, data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

size_t event_end_text(const struct session *s, char *buf, size_t size)
{
    struct game_status gs;
    session_status(s, &gs);
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    status_fields(&j, s->g, &gs);
    if (s->row.people) /* the final clocks: every event of a game between people has them */
        people_clock_out(&j, s, server_now_ms());
    jout_close(&j, '}');
    char *data = jout_finish(&j);
    int n = snprintf(buf, size, "event: end\ndata: %s\n\n", data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

size_t event_takeback_text(const struct session *s, char *buf, size_t size)
{
    struct jout j;
    jout_init(&j, 256);
    jout_open(&j, '{');
    jout_kint(&j, "ply", s->n_stored);
    jout_kint(&j, "takebacks", s->row.takebacks);
    if (s->row.people)
        people_clock_out(&j, s, server_now_ms());
    jout_close(&j, '}');
    char *data = jout_finish(&j);
    int n = snprintf(buf, size, "id: %d\nevent: takeback\ndata: %s\n\n", s->n_stored,
                     data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

char *record_text(const struct session *s)
{
    /* The game's record (PGN for chess, PGN's shape for the others), from the state's
     * whole history. */
    struct game_status gs;
    session_status(s, &gs);
    time_t t = (time_t)(s->row.created_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    size_t cap = 1024 + (size_t)s->n_moves * (MOVE_TEXT_MAX + 8) + sizeof s->row.start;
    char *out = malloc(cap);
    struct record_header *h = malloc(sizeof *h);
    if (!out || !h) {
        free(out);
        free(h);
        return NULL;
    }
    char event[128], date[16];
    snprintf(event, sizeof event, "agora: %s", s->g->title);
    snprintf(date, sizeof date, "%04d.%02d.%02d", (tm.tm_year + 1900) % 10000,
             (tm.tm_mon + 1) % 100, tm.tm_mday % 100);
    h->ntags = 0;
    record_set_tag(h, "Event", event);
    record_set_tag(h, "Site", "agora");
    record_set_tag(h, "Date", date);
    record_set_tag(h, "Round", "-");
    if (s->row.people) {
        record_set_tag(h, "White", s->row.white_name);
        record_set_tag(h, "Black", s->row.black_name);
    } else {
        record_set_tag(h, "White", s->row.human_side == SIDE_WHITE ? "Player" : "agora");
        record_set_tag(h, "Black", s->row.human_side == SIDE_BLACK ? "Player" : "agora");
    }
    char takebacks[16];
    snprintf(takebacks, sizeof takebacks, "%d", s->row.takebacks);
    if (s->row.takebacks > 0) /* the player took moves back against the computer */
        record_set_tag(h, "Takebacks", takebacks);
    int len = s->g->write_record(s->st, h, &gs, out, cap);
    free(h);
    if (len >= 0)
        return out;
    free(out);
    return NULL;
}
