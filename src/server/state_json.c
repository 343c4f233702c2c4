/* A game as JSON for the browser (the shape is in src/server/API.md), the event
 * stream's events, and the move record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

const char *side_name(int side)
{
    return side == SIDE_BLACK ? "black" : "white";
}

char *json_text(json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return text;
}

static json_t *time_json(int64_t ms)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    char buf[96];
    snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
    return json_string(buf);
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

json_t *status_json(const struct game_status *gs)
{
    json_t *j = json_object();
    json_object_set_new(j, "over", json_boolean(gs->result != RESULT_ONGOING));
    json_object_set_new(j, "result", json_string(result_slug(gs->result)));
    if (gs->result == RESULT_WHITE_WINS || gs->result == RESULT_BLACK_WINS)
        json_object_set_new(j, "winner",
                            json_string(gs->result == RESULT_WHITE_WINS ? "white" : "black"));
    json_object_set_new(j, "reason", json_string(reason_name(gs->reason)));
    json_object_set_new(j, "text", json_string(reason_text(gs->reason)));
    return j;
}

static json_t *cells_json(const char (*cells)[CELL_NAME_MAX], int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(cells[i]));
    return a;
}

static json_t *flags_json(unsigned flags)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {
        {MOVE_FLAG_CAPTURE, "capture"},     {MOVE_FLAG_RETURN, "return"},
        {MOVE_FLAG_CASTLE, "castle"},       {MOVE_FLAG_EN_PASSANT, "en-passant"},
        {MOVE_FLAG_PROMOTION, "promotion"}, {MOVE_FLAG_CHAIN, "chain"},
    };
    json_t *a = json_array();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit)
            json_array_append_new(a, json_string(names[i].name));
    return a;
}

static json_t *legal_json(const struct session *s)
{
    const struct game *g = s->g;
    json_t *a = json_array();
    if (session_over(s))
        return a;
    Move *moves = malloc(sizeof(Move) * (size_t)g->max_moves);
    if (!moves)
        return a;
    int n = g->gen_moves(s->st, moves);
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX], display[MOVE_TEXT_MAX];
        struct move_desc d;
        memset(&d, 0, sizeof d);
        g->move_text(s->st, moves[i], text, sizeof text);
        game_move_display(g, s->st, moves[i], display, sizeof display);
        g->describe_move(s->st, moves[i], &d);
        json_t *m = json_object();
        json_object_set_new(m, "move", json_string(text));
        json_object_set_new(m, "display", json_string(display));
        json_object_set_new(m, "from", json_string(d.from));
        json_object_set_new(m, "to", json_string(d.to));
        json_object_set_new(m, "path", cells_json(d.path, d.path_len));
        json_object_set_new(m, "captured", cells_json(d.captured, d.captured_len));
        json_object_set_new(m, "flags", flags_json(d.flags));
        if (d.promotion) {
            char p[2] = {d.promotion, 0};
            json_object_set_new(m, "promotion", json_string(p));
        }
        if (d.also_from[0]) {
            json_object_set_new(m, "also_from", json_string(d.also_from));
            json_object_set_new(m, "also_to", json_string(d.also_to));
        }
        json_array_append_new(a, m);
    }
    free(moves);
    return a;
}

/* What stands on each cell, in the layout's cell order: the position text's letter
 * ("" when empty); and the cells whose pieces are marked captured (agon). */
static void board_json(const struct session *s, json_t *j)
{
    const struct game *g = s->g;
    const struct board_layout *lay = g->layout ? g->layout() : NULL;
    if (!lay || !g->piece_at)
        return;
    json_t *board = json_array(), *marked = json_array();
    for (int i = 0; i < lay->cells; i++) {
        unsigned marks = 0;
        char piece[2] = {g->piece_at(s->st, i, &marks), 0};
        json_array_append_new(board, json_string(piece));
        if (marks & PIECE_CAPTURED)
            json_array_append_new(marked, json_string(lay->cell[i].name));
    }
    json_object_set_new(j, "board", board);
    json_object_set_new(j, "captured_pieces", marked);
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
        if (c->flags & CELL_DARK)
            json_array_append_new(flags, json_string("dark"));
        if (c->flags & CELL_THRONE)
            json_array_append_new(flags, json_string("throne"));
        if (c->flags & CELL_CENTRE)
            json_array_append_new(flags, json_string("centre"));
        json_array_append_new(cells, json_pack("{sssfsfsiso}", "name", c->name, "x", (double)c->x,
                                               "y", (double)c->y, "ring", c->ring, "flags", flags));
    }
    for (int i = 0; i < lay->edges; i++)
        json_array_append_new(edges, json_pack("[ii]", lay->edge[i][0], lay->edge[i][1]));
    json_object_set_new(j, "cells", cells);
    json_object_set_new(j, "edges", edges);
    return j;
}

json_t *state_json(const struct session *s)
{
    const struct game *g = s->g;
    const struct store_game *row = &s->row;
    struct game_status gs;
    session_status(s, &gs);
    char pos[POSITION_TEXT_MAX];
    g->write_position(s->st, pos, sizeof pos);
    enum side to_move = g->side_to_move(s->st);

    json_t *j = json_object();
    json_object_set_new(j, "id", json_string(row->id));
    json_object_set_new(j, "game", json_string(g->name));
    json_object_set_new(j, "title", json_string(g->title));
    json_object_set_new(j, "level", json_integer(row->level));
    json_object_set_new(j, "human_side", json_string(side_name(row->human_side)));
    json_object_set_new(j, "start_position", row->start[0] ? json_string(row->start) : json_null());
    json_object_set_new(j, "position", json_string(pos));
    json_object_set_new(j, "side_to_move", json_string(side_name((int)to_move)));
    json_object_set_new(j, "ply", json_integer(s->n_moves));
    board_json(s, j);
    json_t *moves = json_array();
    for (int i = 0; i < s->n_moves; i++) {
        json_t *m = json_object();
        json_object_set_new(m, "ply", json_integer(i + 1));
        json_object_set_new(m, "move", json_string(s->moves[i].text));
        json_object_set_new(m, "display", json_string(s->moves[i].display));
        if (s->g->move_display) /* chess: the display text is SAN */
            json_object_set_new(m, "san", json_string(s->moves[i].display));
        json_array_append_new(moves, m);
    }
    json_object_set_new(j, "moves", moves);
    json_object_set_new(
        j, "your_turn",
        json_boolean(gs.result == RESULT_ONGOING && (int)to_move == row->human_side));
    json_object_set_new(j, "thinking", json_boolean(s->job_pending));
    json_object_set_new(j, "legal_moves", legal_json(s));
    json_object_set_new(j, "status", status_json(&gs));
    json_t *claims = json_array();
    if (gs.claims & CLAIM_THREEFOLD)
        json_array_append_new(claims, json_string("threefold"));
    if (gs.claims & CLAIM_FIFTY_MOVES)
        json_array_append_new(claims, json_string("fifty-moves"));
    json_object_set_new(j, "claims", claims);
    json_object_set_new(j, "created", time_json(row->created_ms));
    json_object_set_new(j, "updated", time_json(row->updated_ms));
    return j;
}

json_t *summary_json(const struct store_game *row)
{
    struct game_status gs = {(enum result)row->result, (enum reason)row->reason, 0};
    json_t *j = json_object();
    json_object_set_new(j, "id", json_string(row->id));
    json_object_set_new(j, "game", json_string(row->game));
    json_object_set_new(j, "level", json_integer(row->level));
    json_object_set_new(j, "human_side", json_string(side_name(row->human_side)));
    json_object_set_new(j, "ply", json_integer(row->plies));
    json_object_set_new(j, "status", status_json(&gs));
    json_object_set_new(j, "created", time_json(row->created_ms));
    json_object_set_new(j, "updated", time_json(row->updated_ms));
    return j;
}

size_t event_move_text(const struct session *s, int k, char *buf, size_t size)
{
    struct game_status gs;
    session_status(s, &gs);
    /* The side that made move k: the side to move now, counted back. */
    int now = (int)s->g->side_to_move(s->st);
    int mover = (s->n_moves - k) % 2 == 0 ? 1 - now : now;
    json_t *j = json_object();
    json_object_set_new(j, "ply", json_integer(k));
    json_object_set_new(j, "move", json_string(s->moves[k - 1].text));
    json_object_set_new(j, "display", json_string(s->moves[k - 1].display));
    if (s->g->move_display)
        json_object_set_new(j, "san", json_string(s->moves[k - 1].display));
    json_object_set_new(j, "side", json_string(side_name(mover)));
    json_object_set_new(j, "last", json_boolean(k == s->n_stored));
    json_object_set_new(j, "status", status_json(&gs));
    char *data = json_text(j);
    int n = snprintf(buf, size, "id: %d\nevent: move\ndata: %s\n\n", k, data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

size_t event_end_text(const struct session *s, char *buf, size_t size)
{
    struct game_status gs;
    session_status(s, &gs);
    char *data = json_text(status_json(&gs));
    int n = snprintf(buf, size, "event: end\ndata: %s\n\n", data ? data : "{}");
    free(data);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

char *record_text(const struct session *s)
{
    /* A game with a record format of its own (chess: PGN) writes it; the others get
     * PGN's shape (tags, then numbered moves and the result) with their own move texts. */
    struct game_status gs;
    session_status(s, &gs);
    const char *result = gs.result == RESULT_WHITE_WINS   ? "1-0"
                         : gs.result == RESULT_BLACK_WINS ? "0-1"
                         : gs.result == RESULT_DRAW       ? "1/2-1/2"
                                                          : "*";
    time_t t = (time_t)(s->row.created_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    size_t cap = 1024 + (size_t)s->n_moves * (MOVE_TEXT_MAX + 8) + sizeof s->row.start;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    if (s->g->write_record) {
        /* The game's own format (PGN for chess), from the state's whole history. */
        char date[16];
        snprintf(date, sizeof date, "%04d.%02d.%02d", (tm.tm_year + 1900) % 10000,
                 (tm.tm_mon + 1) % 100, tm.tm_mday % 100);
        const char *white = s->row.human_side == SIDE_WHITE ? "Player" : "agora";
        const char *black = s->row.human_side == SIDE_BLACK ? "Player" : "agora";
        if (s->g->write_record(s->st, &gs, white, black, date, out, cap) >= 0)
            return out;
        free(out);
        return NULL;
    }
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__)
    PUT("[Event \"agora: %s\"]\n[Site \"agora\"]\n", s->g->title);
    PUT("[Date \"%04d.%02d.%02d\"]\n[Round \"-\"]\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    PUT("[White \"%s\"]\n", s->row.human_side == SIDE_WHITE ? "Player" : "agora");
    PUT("[Black \"%s\"]\n", s->row.human_side == SIDE_BLACK ? "Player" : "agora");
    PUT("[Result \"%s\"]\n", result);
    PUT("[Variant \"%s\"]\n", s->g->name);
    if (s->row.start[0])
        PUT("[SetUp \"1\"]\n[FEN \"%s\"]\n", s->row.start);
    if (gs.result != RESULT_ONGOING)
        PUT("[Termination \"%s\"]\n", reason_text(gs.reason));
    PUT("\n");
    /* Number moves from the side that began: a start with Black to move opens "1...". */
    void *st = game_state_new(s->g);
    int black_first = 0;
    if (st) {
        if (!s->row.start[0] || s->g->parse_position(st, s->row.start, NULL, 0) != 0)
            s->g->start(st);
        black_first = s->g->side_to_move(st) == SIDE_BLACK;
        free(st);
    }
    size_t line = 0;
    for (int i = 0; i < s->n_moves; i++) {
        int half = i + black_first;
        char piece[MOVE_TEXT_MAX + 16];
        if (half % 2 == 0)
            snprintf(piece, sizeof piece, "%d. %s", half / 2 + 1, s->moves[i].display);
        else if (i == 0)
            snprintf(piece, sizeof piece, "%d... %s", half / 2 + 1, s->moves[i].display);
        else
            snprintf(piece, sizeof piece, "%s", s->moves[i].display);
        size_t len = strlen(piece);
        if (line && line + len + 1 > 79) {
            PUT("\n");
            line = 0;
        } else if (line) {
            PUT(" ");
            line++;
        }
        PUT("%s", piece);
        line += len;
    }
    PUT("%s%s\n", line ? " " : "", result);
#undef PUT
    return out;
}
