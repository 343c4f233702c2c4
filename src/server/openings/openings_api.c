#include "server/openings/openings_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/json_out.h"
#include "engines/book_names.h"
#include "engines/profile.h"
#include "games/registry.h"
#include "server/common/api_util.h"
#include "server/games/session.h"
#include "server/server_state.h"

void openings_init(struct server *srv)
{
    pthread_mutex_init(&srv->names_mu, NULL);
    srv->names_inited = true;
}

void openings_free(struct server *srv)
{
    for (int i = 0; i < SERVER_NAMED_GAMES; i++)
        book_names_free(srv->names[i]);
    if (srv->names_inited)
        pthread_mutex_destroy(&srv->names_mu);
}

/* The game's names, read from its profile's file on first use (NULL: none). */
static const struct book_names *names_of(struct server *srv, const struct game *g)
{
    int i = 0;
    while (game_registry[i] && game_registry[i] != g)
        i++;
    if (!game_registry[i] || i >= SERVER_NAMED_GAMES)
        return NULL;
    pthread_mutex_lock(&srv->names_mu);
    if (!srv->names_tried[i]) {
        srv->names_tried[i] = true;
        const char *path = engine_book_names_default(engine_profile_of(g));
        char err[ERROR_TEXT_MAX];
        if (path && access(path, R_OK) == 0 &&
            book_names_load(g, path, &srv->names[i], err, sizeof err))
            fprintf(stderr, "agora: opening names of %s: %s\n", g->name, err);
    }
    const struct book_names *n = srv->names[i];
    pthread_mutex_unlock(&srv->names_mu);
    return n;
}

static void name_out(struct jout *j, const struct book_name *b, int ply)
{
    jout_open(j, '{');
    jout_kstr(j, "code", b->code);
    jout_kstr(j, "name", b->name);
    jout_kint(j, "ply", ply);
    jout_close(j, '}');
}

/* The last named position from the start through the moves (replayed on a copy). */
static void last_name_out(const struct book_names *names, const struct game *g, const char *start,
                          const struct move_rec *moves, int n_moves, struct jout *j)
{
    void *st = names ? game_state_new(g) : NULL;
    char err[ERROR_TEXT_MAX];
    const struct book_name *found = NULL;
    int at = 0;
    if (st && (!start || !start[0] ? (g->start(st), 0)
                                   : g->parse_position(st, start, err, sizeof err)) == 0) {
        for (int i = 0;; i++) {
            const struct book_name *b = book_names_find(names, g->key(st));
            if (b) {
                found = b;
                at = i;
            }
            Move m;
            if (i == n_moves || g->parse_move(st, moves[i].text, &m, err, sizeof err) != 0)
                break;
            g->make_move(st, m);
        }
    }
    free(st);
    if (found)
        name_out(j, found, at);
    else
        jout_null(j);
}

void openings_book_out(struct server *srv, const struct game *g, const char *start,
                       const struct move_rec *moves, int n_moves, const void *st, struct jout *j)
{
    jout_key(j, "book");
    jout_open(j, '{');
    jout_key(j, "moves");
    jout_open(j, '[');
    Move *found = calloc((size_t)g->max_moves, sizeof *found);
    unsigned *weight = calloc((size_t)g->max_moves, sizeof *weight);
    char err[ERROR_TEXT_MAX];
    int n = found && weight ? engine_book_moves(srv->cfg.book, g, st, found, weight, g->max_moves,
                                                err, sizeof err)
                            : 0;
    for (int i = 0; i < n; i++) {
        char text[MOVE_TEXT_MAX], display[MOVE_TEXT_MAX];
        g->move_text(st, found[i], text, sizeof text);
        game_move_display(g, st, found[i], display, sizeof display);
        jout_open(j, '{');
        jout_kstr(j, "move", text);
        jout_kstr(j, "display", display);
        jout_kint(j, "weight", weight[i]);
        jout_close(j, '}');
    }
    free(found);
    free(weight);
    jout_close(j, ']');
    jout_key(j, "name");
    last_name_out(names_of(srv, g), g, start, moves, n_moves, j);
    jout_close(j, '}');
}

static void handle_names(struct server *srv, const struct game *g, struct api_response *r)
{
    const struct book_names *names = names_of(srv, g);
    if (!names) {
        api_set_error(r, 404, "%s has no opening names on this server", g->name);
        return;
    }
    struct jout j;
    jout_init(&j, 1 << 20);
    jout_open(&j, '{');
    jout_kstr(&j, "game", g->name);
    jout_kint(&j, "count", book_names_count(names));
    jout_key(&j, "names");
    jout_open(&j, '[');
    for (int i = 0; i < book_names_count(names); i++) {
        const struct book_name *b = book_names_at(names, i);
        jout_open(&j, '{');
        jout_kstr(&j, "code", b->code);
        jout_kstr(&j, "name", b->name);
        jout_kint(&j, "plies", b->plies);
        jout_kstr(&j, "position", b->position);
        jout_kstr(&j, "record", b->record);
        jout_close(&j, '}');
    }
    jout_close(&j, ']');
    jout_close(&j, '}');
    api_set_text(r, 200, jout_finish(&j));
}

void openings_names(struct server *srv, const struct api_request *req, const struct route_args *a,
                    struct api_response *r)
{
    (void)req;
    const struct game *g = game_find(a->param[0]);
    if (!g)
        api_set_error(r, 404, "unknown game '%.40s'", a->param[0]);
    else
        handle_names(srv, g, r);
}
