/* The tournaments' store operations (store_ops.def "Tournaments") on the backend of the
 * run, SQLite or PostgreSQL under tests/pg-run: a tournament made, read and listed; its
 * status moved only from the status named; a join once (then 1), a pause and a return;
 * a pairing only while the tournament runs, both are active and neither is in a game
 * of it still on; eight stores on one database (eight servers) pairing one player at
 * once: exactly one game; a berserk only before the side's first move. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "core/game.h"
#include "store/store.h"

static void tourney(struct store_tournament *t, const char *id, int status, const char *club)
{
    memset(t, 0, sizeof *t);
    snprintf(t->id, sizeof t->id, "%s", id);
    t->kind = TOURNEY_ARENA;
    snprintf(t->name, sizeof t->name, "Arena %s", id);
    snprintf(t->game, sizeof t->game, "chess");
    t->clock_initial_ms = 180000;
    t->clock_increment_ms = 2000;
    t->starts_ms = 1000 + (int64_t)status;
    t->duration_ms = 3600000;
    t->status = status;
    snprintf(t->club_id, sizeof t->club_id, "%s", club);
    snprintf(t->creator_hash, sizeof t->creator_hash, "creator");
    snprintf(t->creator_name, sizeof t->creator_name, "Org");
    t->created_ms = 500;
}

static void entrant(struct store_entrant *e, const char *hash)
{
    memset(e, 0, sizeof *e);
    snprintf(e->token_hash, sizeof e->token_hash, "%s", hash);
    snprintf(e->name, sizeof e->name, "N-%s", hash);
    e->rating = 1500;
}

static void pairing(struct store_game *g, int n, const char *tid, const char *white,
                    const char *black)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%032d", n);
    snprintf(g->game, sizeof g->game, "chess");
    snprintf(g->token_hash, sizeof g->token_hash, "%s", white);
    snprintf(g->white_hash, sizeof g->white_hash, "%s", white);
    snprintf(g->black_hash, sizeof g->black_hash, "%s", black);
    g->people = 1;
    g->clock_initial_ms = 180000;
    g->created_ms = g->updated_ms = 2000 + n;
    snprintf(g->tournament_id, sizeof g->tournament_id, "%s", tid);
}

struct names {
    char ids[8][40];
    int n;
};

static void name_one(void *ctx, const struct store_tournament *t)
{
    struct names *l = ctx;
    if (l->n < 8)
        snprintf(l->ids[l->n++], 40, "%s", t->id);
}

struct games {
    struct store_game g[16];
    int n;
};

static void game_one(void *ctx, const struct store_game *g)
{
    struct games *l = ctx;
    if (l->n < 16)
        l->g[l->n++] = *g;
}

struct entrants {
    struct store_entrant e[8];
    int n;
};

static void entrant_one(void *ctx, const struct store_entrant *e)
{
    struct entrants *l = ctx;
    if (l->n < 8)
        l->e[l->n++] = *e;
}

TEST(store_tournaments_made_listed_joined_paired)
{
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    const char *T1 = "a0000000000000000000000000000001", *T2 = "a0000000000000000000000000000002",
               *CLUB = "c0000000000000000000000000000001";
    struct store_tournament t, got;
    tourney(&t, T1, TOURNEY_UPCOMING, "");
    CHECK_EQ_INT(store_create_tournament(s, &t, err, sizeof err), 0);
    tourney(&t, T2, TOURNEY_UPCOMING, CLUB);
    CHECK_EQ_INT(store_create_tournament(s, &t, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_tournament(s, T1, &got, err, sizeof err), 0);
    CHECK_STR(got.name, "Arena a0000000000000000000000000000001");
    CHECK_EQ_INT((int)got.clock_increment_ms, 2000);
    CHECK_EQ_INT(store_get_tournament(s, "b0000000000000000000000000000000", &got, err, sizeof err),
                 1);
    struct names l = {.n = 0};
    CHECK_EQ_INT(store_list_tournaments(s, -1, NULL, 10, name_one, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 2);
    l.n = 0;
    CHECK_EQ_INT(store_list_tournaments(s, -1, "", 10, name_one, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 1);
    l.n = 0;
    CHECK_EQ_INT(
        store_list_tournaments(s, TOURNEY_UPCOMING, CLUB, 10, name_one, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 1);
    CHECK_STR(l.ids[0], T2);

    /* Joins: once; a pause; back. */
    struct store_entrant a, b, c;
    entrant(&a, "ha");
    entrant(&b, "hb");
    entrant(&c, "hc");
    CHECK_EQ_INT(store_join_tournament(s, T1, &a, 10, err, sizeof err), 0);
    CHECK_EQ_INT(store_join_tournament(s, T1, &a, 11, err, sizeof err), 1);
    CHECK_EQ_INT(store_join_tournament(s, T1, &b, 12, err, sizeof err), 0);
    CHECK_EQ_INT(store_join_tournament(s, T1, &c, 13, err, sizeof err), 0);
    CHECK_MSG(store_set_entrant_state(s, T1, "hc", ENTRANT_PAUSED, 14, err, sizeof err) == 0, "%s",
              err);
    CHECK_EQ_INT(store_set_entrant_state(s, T1, "nobody", ENTRANT_PAUSED, 14, err, sizeof err), 1);
    struct entrants el = {.n = 0};
    CHECK_EQ_INT(store_list_entrants(s, T1, entrant_one, &el, err, sizeof err), 0);
    CHECK_EQ_INT(el.n, 3);
    CHECK_STR(el.e[0].token_hash, "ha");
    CHECK_EQ_INT(el.e[2].state, ENTRANT_PAUSED);

    /* No pairing before it runs; the status moves only from the one named. */
    struct store_game g;
    pairing(&g, 1, T1, "ha", "hb");
    CHECK_EQ_INT(store_pair_tournament_game(s, T1, 0, &g, err, sizeof err), 1);
    CHECK_EQ_INT(
        store_set_tournament_status(s, T1, TOURNEY_RUNNING, TOURNEY_FINISHED, -1, err, sizeof err),
        1);
    CHECK_EQ_INT(
        store_set_tournament_status(s, T1, TOURNEY_UPCOMING, TOURNEY_RUNNING, -1, err, sizeof err),
        0);
    CHECK_EQ_INT(store_pair_tournament_game(s, T1, 0, &g, err, sizeof err), 0);
    /* ha is in a game on: no second; hc is paused: none. */
    struct store_game g2;
    pairing(&g2, 2, T1, "hc", "ha");
    CHECK_EQ_INT(store_pair_tournament_game(s, T1, 0, &g2, err, sizeof err), 1);
    CHECK_EQ_INT(store_join_tournament(s, T1, &c, 15, err, sizeof err), 0); /* back */
    CHECK_EQ_INT(store_pair_tournament_game(s, T1, 0, &g2, err, sizeof err), 1);
    struct games gl = {.n = 0};
    CHECK_EQ_INT(store_tournament_games(s, T1, game_one, &gl, err, sizeof err), 0);
    CHECK_EQ_INT(gl.n, 1);
    CHECK_STR(gl.g[0].tournament_id, T1);
    CHECK_STR(gl.g[0].white_hash, "ha");

    /* Berserk: black's before black's first move (white moved), once; white's no more. */
    const char *first[] = {"e2e4"};
    CHECK_EQ_INT(store_add_people_move(s, g.id, 1, first[0], 0, 0, 3000, 0, err, sizeof err), 0);
    CHECK_EQ_INT(store_berserk(s, T1, g.id, SIDE_WHITE, err, sizeof err), 1);
    CHECK_EQ_INT(store_berserk(s, T1, g.id, SIDE_BLACK, err, sizeof err), 0);
    CHECK_EQ_INT(store_berserk(s, T1, g.id, SIDE_BLACK, err, sizeof err), 1);
    CHECK_EQ_INT(store_berserk(s, T2, g.id, SIDE_BLACK, err, sizeof err), 1);
    struct store_game *row = NULL;
    gl.n = 0;
    CHECK_EQ_INT(store_tournament_games(s, T1, game_one, &gl, err, sizeof err), 0);
    row = &gl.g[0];
    CHECK_EQ_INT(row->berserk, 2);
    CHECK_EQ_INT(row->plies, 1);
    /* The game ends: both are free again; the finished tournament joins nobody. */
    CHECK_EQ_INT(store_end_people_game(s, g.id, RESULT_WHITE_WINS, REASON_RESIGNATION, 4000, err,
                                       sizeof err),
                 0);
    CHECK_EQ_INT(store_pair_tournament_game(s, T1, 0, &g2, err, sizeof err), 0);
    CHECK_EQ_INT(
        store_set_tournament_status(s, T1, TOURNEY_RUNNING, TOURNEY_FINISHED, -1, err, sizeof err),
        0);
    struct store_entrant d;
    entrant(&d, "hd");
    CHECK_EQ_INT(store_join_tournament(s, T1, &d, 20, err, sizeof err), 1);
    store_close(s);
}

struct pairer {
    struct store *s;
    const char *tid;
    int n;
    int rc;
    char err[256];
};

static void *pair_one(void *arg)
{
    struct pairer *p = arg;
    struct store_game g;
    char black[8];
    snprintf(black, sizeof black, "o%d", p->n);
    pairing(&g, 100 + p->n, p->tid, "star", black);
    p->rc = store_pair_tournament_game(p->s, p->tid, 0, &g, p->err, sizeof p->err);
    return NULL;
}

TEST(store_tournaments_one_player_paired_once_by_concurrent_servers)
{
    enum { SERVERS = 8 };
    char err[256] = "", dir[256] = "", file[300];
    const char *url = fx_store_url();
    CHECK(url != NULL);
    if (!url)
        return;
    if (!strcmp(url, ":memory:")) { /* SQLite: a file the stores share */
        test_tmpdir(dir, sizeof dir);
        snprintf(file, sizeof file, "%s/pairs.db", dir);
        url = file;
    }
    struct store *s[SERVERS];
    for (int i = 0; i < SERVERS; i++) {
        s[i] = store_open(url, NULL, err, sizeof err);
        CHECK_MSG(s[i] != NULL, "%s", err);
        if (!s[i])
            return;
    }
    const char *T = "a0000000000000000000000000000009";
    struct store_tournament t;
    tourney(&t, T, TOURNEY_RUNNING, "");
    CHECK_EQ_INT(store_create_tournament(s[0], &t, err, sizeof err), 0);
    struct store_entrant e;
    entrant(&e, "star");
    CHECK_EQ_INT(store_join_tournament(s[0], T, &e, 1, err, sizeof err), 0);
    for (int i = 0; i < SERVERS; i++) {
        char h[8];
        snprintf(h, sizeof h, "o%d", i);
        entrant(&e, h);
        CHECK_EQ_INT(store_join_tournament(s[0], T, &e, 2, err, sizeof err), 0);
    }
    struct pairer p[SERVERS];
    pthread_t th[SERVERS];
    for (int i = 0; i < SERVERS; i++) {
        p[i] = (struct pairer){.s = s[i], .tid = T, .n = i, .rc = -9};
        pthread_create(&th[i], NULL, pair_one, &p[i]);
    }
    int made = 0;
    for (int i = 0; i < SERVERS; i++) {
        pthread_join(th[i], NULL);
        CHECK_MSG(p[i].rc == 0 || p[i].rc == 1, "server %d: %d %s", i, p[i].rc, p[i].err);
        made += p[i].rc == 0;
    }
    CHECK_EQ_INT(made, 1);
    struct games gl = {.n = 0};
    CHECK_EQ_INT(store_tournament_games(s[0], T, game_one, &gl, err, sizeof err), 0);
    CHECK_EQ_INT(gl.n, 1);
    for (int i = 0; i < SERVERS; i++)
        store_close(s[i]);
    if (dir[0])
        test_rmdir(dir);
}
