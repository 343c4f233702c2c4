/* Every operation of the store's list (store_ops.def) on the backend the run is on:
 * SQLite, or PostgreSQL under tests/pg-run (fx_store_url: a fresh schema each test).
 * The promises the server builds on: 1 for nothing there, a ply stored once, a
 * challenge taken once (also by concurrent takers), a game rated once, refusals that
 * change nothing, and the schema: made on an empty database, a newer one refused. */
#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/migrations.h"
#include "store/store.h"

static struct store *open_fresh(struct test_ctx *t__)
{
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "store_open: %s", err);
    return s;
}

static void game_row(struct store_game *g, int n, const char *token, int64_t created)
{
    memset(g, 0, sizeof *g);
    snprintf(g->id, sizeof g->id, "%032d", n);
    snprintf(g->game, sizeof g->game, "egara-guti");
    snprintf(g->token_hash, sizeof g->token_hash, "%s", token);
    g->level = 3;
    g->human_side = 1;
    g->seed = 0xfedcba9876543210ull; /* above INT64_MAX: kept as its 64 bits */
    g->created_ms = g->updated_ms = created;
}

struct ids {
    int n;
    char id[8][STORE_ID_LEN + 1];
};

static void collect_game(void *ctx, const struct store_game *row)
{
    struct ids *l = ctx;
    if (l->n < 8)
        snprintf(l->id[l->n++], sizeof l->id[0], "%s", row->id);
}

static void collect_id(void *ctx, const char *id)
{
    struct ids *l = ctx;
    if (l->n < 8)
        snprintf(l->id[l->n++], sizeof l->id[0], "%s", id);
}

TEST(store_ops_games)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_game a, b, back;
    game_row(&a, 1, "tok", 1000);
    game_row(&b, 2, "tok", 2000);
    CHECK_EQ_INT(store_create_game(s, &a, err, sizeof err), 0);
    CHECK_EQ_INT(store_create_game(s, &b, err, sizeof err), 0);
    CHECK(store_create_game(s, &a, err, sizeof err) < 0); /* the same id twice */
    const char *two[] = {"d3-d4", "d5xd3"}, *one[] = {"c3-d4"};
    CHECK_EQ_INT(store_add_moves(s, a.id, 1, 2, two, 0, 0, 1500, err, sizeof err), 0);
    /* A batch holding a ply stored already stores none of it; an unknown game none. */
    CHECK(store_add_moves(s, a.id, 2, 2, two, 0, 0, 1600, err, sizeof err) < 0);
    CHECK(store_add_moves(s, "ffff", 1, 1, one, 0, 0, 1600, err, sizeof err) < 0);
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = -1;
    CHECK_EQ_INT(store_load_game(s, a.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 2);
    CHECK(n == 2 && !strcmp(moves[0], "d3-d4") && !strcmp(moves[1], "d5xd3"));
    CHECK_EQ_INT(back.plies, 2);
    CHECK_EQ_INT(back.updated_ms, 1500);
    CHECK_EQ_INT(back.level, 3);
    CHECK(back.seed == 0xfedcba9876543210ull);
    CHECK_STR(back.game, "egara-guti");
    free(moves);
    CHECK_EQ_INT(store_load_game(s, "nope", &back, &moves, &n, err, sizeof err), 1);
    CHECK(moves == NULL && n == 0);
    /* A takeback: plies after 1 go, the count grows. */
    CHECK_EQ_INT(store_take_back(s, a.id, 1, 1700, err, sizeof err), 0);
    CHECK_EQ_INT(store_load_game(s, a.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(back.takebacks, 1);
    free(moves);
    /* The last move with the end, in one transaction. */
    CHECK_EQ_INT(store_add_moves(s, a.id, 2, 1, one, 2, 5, 1800, err, sizeof err), 0);
    CHECK_EQ_INT(store_load_game(s, a.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK(back.result == 2 && back.reason == 5 && back.plies == 2 && back.updated_ms == 1800);
    free(moves);
    /* No takeback after the end; an end without a move. */
    CHECK(store_take_back(s, a.id, 0, 1900, err, sizeof err) < 0);
    CHECK_EQ_INT(store_set_result(s, b.id, 3, 4, 2500, err, sizeof err), 0);
    CHECK(store_set_result(s, "nope", 3, 4, 2500, err, sizeof err) < 0);
    /* The visitor's games, newest first, at most the limit. */
    struct ids l = {0};
    CHECK_EQ_INT(store_list_games(s, "tok", 10, collect_game, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 2);
    CHECK(l.n == 2 && !strcmp(l.id[0], b.id) && !strcmp(l.id[1], a.id));
    l.n = 0;
    CHECK_EQ_INT(store_list_games(s, "tok", 1, collect_game, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 1);
    /* Reviews: put, replace, get; 1 for none. */
    char *body = NULL;
    CHECK_EQ_INT(store_put_review(s, a.id, "egara", "{\"v\":1}", 10, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_review(s, a.id, "egara", "{\"v\":2}", 11, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_review(s, a.id, &body, err, sizeof err), 0);
    CHECK_STR(body, "{\"v\":2}");
    free(body);
    CHECK_EQ_INT(store_get_review(s, "none", &body, err, sizeof err), 1);
    /* Players' names. */
    char name[STORE_PLAYER_NAME_MAX] = "";
    CHECK_EQ_INT(store_get_player(s, "h1", name, sizeof name, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_player(s, "h1", "Ann", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_player(s, "h1", "Änne 😀", 2, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_player(s, "h1", name, sizeof name, err, sizeof err), 0);
    CHECK_STR(name, "Änne 😀");
    store_close(s);
}

static void challenge(struct store_challenge *c, int n, const char *creator, int lobby,
                      int64_t created)
{
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "c%031d", n);
    snprintf(c->game, sizeof c->game, "chess");
    snprintf(c->creator_hash, sizeof c->creator_hash, "%s", creator);
    snprintf(c->creator_name, sizeof c->creator_name, "N%d", n);
    c->clock_initial_ms = 300000;
    c->clock_increment_ms = 2000;
    c->side = 2;
    c->rated = 1;
    c->lobby = lobby;
    c->created_ms = created;
    c->expires_ms = created + 100000;
}

static void people_game(struct store_game *g, int n, const char *white, const char *black)
{
    game_row(g, n, white, 5000);
    snprintf(g->game, sizeof g->game, "chess");
    g->people = 1;
    g->rated = 1;
    snprintf(g->white_hash, sizeof g->white_hash, "%s", white);
    snprintf(g->black_hash, sizeof g->black_hash, "%s", black);
    snprintf(g->white_name, sizeof g->white_name, "W");
    snprintf(g->black_name, sizeof g->black_name, "B");
    g->white_rating = 1500;
    g->black_rating = 1500;
}

static void collect_challenge(void *ctx, const struct store_challenge *c)
{
    struct ids *l = ctx;
    if (l->n < 8)
        snprintf(l->id[l->n++], sizeof l->id[0], "%s", c->id);
}

TEST(store_ops_people)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_challenge c, back;
    challenge(&c, 1, "alice", 0, 1000);
    CHECK_EQ_INT(store_put_challenge(s, &c, err, sizeof err), 0);
    CHECK_EQ_INT(store_get_challenge(s, c.id, &back, err, sizeof err), 0);
    CHECK_STR(back.creator_name, "N1");
    CHECK_EQ_INT(back.clock_increment_ms, 2000);
    CHECK_EQ_INT(back.expires_ms, 101000);
    CHECK_EQ_INT(store_get_challenge(s, "none", &back, err, sizeof err), 1);
    struct store_game g;
    people_game(&g, 10, "alice", "bob");
    /* Not by its creator, not once expired; then once only. */
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "alice", &g, 2000, err, sizeof err), 1);
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "bob", &g, 200000, err, sizeof err), 1);
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "bob", &g, 2000, err, sizeof err), 0);
    struct store_game g2;
    people_game(&g2, 11, "alice", "carol");
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "carol", &g2, 2001, err, sizeof err), 1);
    CHECK_EQ_INT(store_get_challenge(s, c.id, &back, err, sizeof err), 0);
    CHECK_EQ_INT(back.status, CHALLENGE_ACCEPTED);
    CHECK_STR(back.game_id, g.id);
    /* Cancel: only the creator's open challenge. */
    struct store_challenge d;
    challenge(&d, 2, "alice", 1, 1100);
    CHECK_EQ_INT(store_put_challenge(s, &d, err, sizeof err), 0);
    CHECK_EQ_INT(store_cancel_challenge(s, d.id, "bob", 1200, err, sizeof err), 1);
    CHECK_EQ_INT(store_cancel_challenge(s, c.id, "alice", 1200, err, sizeof err), 1);
    CHECK_EQ_INT(store_cancel_challenge(s, d.id, "alice", 1200, err, sizeof err), 0);
    /* Seeks: the creators in turn, newest first. */
    struct store_challenge k;
    challenge(&k, 3, "alice", 1, 3000);
    store_put_challenge(s, &k, err, sizeof err);
    challenge(&k, 4, "alice", 1, 3100);
    store_put_challenge(s, &k, err, sizeof err);
    challenge(&k, 5, "dave", 1, 2000);
    store_put_challenge(s, &k, err, sizeof err);
    struct ids l = {0};
    CHECK_EQ_INT(store_list_seeks(s, 3200, 10, collect_challenge, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 3);
    if (l.n == 3) {
        CHECK_STR(l.id[0], "c0000000000000000000000000000004");
        CHECK_STR(l.id[1], "c0000000000000000000000000000005");
        CHECK_STR(l.id[2], "c0000000000000000000000000000003");
    }
    /* Moves of a people game: each ply once, the receipt times, the deadline. */
    CHECK_EQ_INT(store_add_people_move(s, g.id, 1, "e2e4", 0, 0, 6000, 9000, err, sizeof err), 0);
    CHECK(store_add_people_move(s, g.id, 1, "d2d4", 0, 0, 6001, 9001, err, sizeof err) < 0);
    CHECK_EQ_INT(store_add_people_move(s, g.id, 2, "e7e5", 0, 0, 7000, 8000, err, sizeof err), 0);
    int64_t *times = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_move_times(s, g.id, &times, &n, err, sizeof err), 0);
    CHECK(n == 2 && times[0] == 6000 && times[1] == 7000);
    free(times);
    int64_t when = 0;
    CHECK_EQ_INT(store_next_deadline(s, &when, err, sizeof err), 0);
    CHECK_EQ_INT(when, 8000);
    l.n = 0;
    CHECK_EQ_INT(store_due_games(s, 7999, collect_id, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 0);
    CHECK_EQ_INT(store_due_games(s, 8000, collect_id, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], g.id));
    /* Offers. */
    CHECK_EQ_INT(store_set_offers(s, g.id, 1, 2, 0, "", 7100, err, sizeof err), 0);
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    struct store_game row;
    CHECK_EQ_INT(store_load_game(s, g.id, &row, &moves, &n, err, sizeof err), 0);
    free(moves);
    CHECK(row.draw_offer == 1 && row.takeback_offer == 2 && row.people == 1);
    CHECK(row.plies_max == 2 && row.deadline_ms == 8000);
    CHECK(store_set_offers(s, "nope", 1, 0, 0, "", 7100, err, sizeof err) < 0);
    /* The end once; then no move. */
    CHECK_EQ_INT(store_end_people_game(s, g.id, 1, 3, 7500, err, sizeof err), 0);
    CHECK_EQ_INT(store_end_people_game(s, g.id, 2, 3, 7600, err, sizeof err), 1);
    CHECK(store_add_people_move(s, g.id, 3, "g1f3", 0, 0, 7700, 0, err, sizeof err) < 0);
    CHECK_EQ_INT(store_next_deadline(s, &when, err, sizeof err), 1);
    store_close(s);
}

static const char *klass(const struct store_game *row)
{
    return row->reason == 18 ? NULL : "blitz";
}

static void update(const struct store_game *row, const struct store_rating *w,
                   const struct store_rating *b, struct store_rating *w2, struct store_rating *b2)
{
    (void)row;
    *w2 = *w;
    *b2 = *b;
    w2->rating = (w->games ? w->rating : 1500) + 10.25;
    b2->rating = (b->games ? b->rating : 1500) - 10.25;
    w2->deviation = b2->deviation = 0.1234567890123;
    w2->volatility = b2->volatility = 0.06;
    w2->games++;
    b2->games++;
}

TEST(store_ops_ratings)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_rater rater = {klass, update};
    struct store_challenge c;
    challenge(&c, 1, "alice", 0, 1000);
    store_put_challenge(s, &c, err, sizeof err);
    struct store_game g;
    people_game(&g, 20, "alice", "bob");
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "bob", &g, 1500, err, sizeof err), 0);
    int count = -1;
    CHECK_EQ_INT(store_count_rated_pair(s, "bob", "alice", 0, &count, err, sizeof err), 0);
    CHECK_EQ_INT(count, 1); /* on */
    struct store_rating r;
    CHECK_EQ_INT(store_get_rating(s, "alice", "chess", "blitz", &r, err, sizeof err), 1);
    int wa = 0, ba = 0;
    CHECK_EQ_INT(store_rate_game(s, g.id, &rater, 9000, &wa, &ba, err, sizeof err), 1); /* on */
    CHECK_EQ_INT(store_end_people_game(s, g.id, 1, 3, 8000, err, sizeof err), 0);
    struct ids l = {0};
    CHECK_EQ_INT(store_unrated_games(s, collect_id, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], g.id));
    CHECK_EQ_INT(store_rate_game(s, g.id, &rater, 9000, &wa, &ba, err, sizeof err), 0);
    CHECK(wa == 1510 && ba == 1490);
    CHECK_EQ_INT(store_rate_game(s, g.id, &rater, 9000, &wa, &ba, err, sizeof err), 1); /* once */
    CHECK_EQ_INT(store_get_rating(s, "alice", "chess", "blitz", &r, err, sizeof err), 0);
    CHECK(r.rating == 1510.25 && r.games == 1 && r.deviation == 0.1234567890123);
    l.n = 0;
    CHECK_EQ_INT(store_unrated_games(s, collect_id, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 0);
    CHECK_EQ_INT(store_count_rated_pair(s, "alice", "bob", 0, &count, err, sizeof err), 0);
    CHECK_EQ_INT(count, 1); /* rated */
    CHECK_EQ_INT(store_count_rated_pair(s, "alice", "bob", 1000000, &count, err, sizeof err), 0);
    CHECK_EQ_INT(count, 0);
    store_close(s);
}

/* ---- players: ids, hiding, search, clubs, progress ---- */

struct lines {
    int n;
    char s[8][64];
};

static void collect_player(void *ctx, const struct store_player *p)
{
    struct lines *l = ctx;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%.40s", p->name);
}

static void collect_club(void *ctx, const char *club_id, const char *name, int role)
{
    struct lines *l = ctx;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%.8s:%.16s:%d", club_id, name, role);
}

static bool hex16(const char *id)
{
    if (strlen(id) != STORE_PLAYER_ID_LEN)
        return false;
    for (const char *c = id; *c; c++)
        if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
            return false;
    return true;
}

TEST(store_ops_players)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_player p, q;
    CHECK_EQ_INT(store_player_by_hash(s, "ann", &p, err, sizeof err), 1);
    CHECK_EQ_INT(store_set_player_hidden(s, "ann", 1, 10, err, sizeof err), 1); /* no player */
    CHECK_EQ_INT(store_put_player(s, "ann", "Ann", 100, err, sizeof err), 0);
    CHECK_EQ_INT(store_player_by_hash(s, "ann", &p, err, sizeof err), 0);
    CHECK(hex16(p.id));
    CHECK_EQ_INT((int)p.created_ms, 100);
    /* A new name keeps the id. */
    CHECK_EQ_INT(store_put_player(s, "ann", "Annie", 200, err, sizeof err), 0);
    CHECK_EQ_INT(store_player_by_id(s, p.id, &q, err, sizeof err), 0);
    CHECK_STR(q.id, p.id);
    CHECK_STR(q.token_hash, "ann");
    CHECK_STR(q.name, "Annie");
    CHECK_EQ_INT(q.hidden, 0);
    CHECK_EQ_INT(store_player_by_id(s, "0000000000000000", &q, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_player(s, "bob", "bOB", 300, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_player(s, "eve", "ÄNNE", 300, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_player(s, "zed", "Ann B", 300, err, sizeof err), 0);
    CHECK_EQ_INT(store_player_by_hash(s, "bob", &q, err, sizeof err), 0);
    CHECK(hex16(q.id) && strcmp(q.id, p.id) != 0);
    /* Search: ASCII letters in any case (not Ä's), by name, byte by byte. */
    struct lines l = {0};
    CHECK_EQ_INT(store_find_players(s, "AN", 10, collect_player, &l, err, sizeof err), 0);
    CHECK(l.n == 2 && !strcmp(l.s[0], "Ann B") && !strcmp(l.s[1], "Annie"));
    l.n = 0;
    CHECK_EQ_INT(store_find_players(s, "ä", 10, collect_player, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 0);
    l.n = 0;
    CHECK_EQ_INT(store_find_players(s, "", 3, collect_player, &l, err, sizeof err), 0);
    CHECK(l.n == 3 && !strcmp(l.s[0], "Ann B") && !strcmp(l.s[1], "Annie") &&
          !strcmp(l.s[2], "bOB"));
    /* Hidden: in no search. */
    CHECK_EQ_INT(store_set_player_hidden(s, "ann", 1, 400, err, sizeof err), 0);
    CHECK_EQ_INT(store_player_by_hash(s, "ann", &q, err, sizeof err), 0);
    CHECK_EQ_INT(q.hidden, 1);
    l.n = 0;
    CHECK_EQ_INT(store_find_players(s, "ann", 10, collect_player, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.s[0], "Ann B"));
    CHECK_EQ_INT(store_set_player_hidden(s, "ann", 0, 500, err, sizeof err), 0);
    l.n = 0;
    CHECK_EQ_INT(store_find_players(s, "ann", 10, collect_player, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 2);
    /* Clubs: by name. */
    const char *names[] = {"b-club", "a-club"};
    for (int i = 0; i < 2; i++) {
        struct store_club club = {.created_ms = 100};
        snprintf(club.id, sizeof club.id, "k%031d", i + 1);
        snprintf(club.name, sizeof club.name, "%s", names[i]);
        snprintf(club.invite, sizeof club.invite, "inv%d", i);
        snprintf(club.creator_hash, sizeof club.creator_hash, i ? "bob" : "ann");
        struct store_member m = {.role = CLUB_CREATOR, .joined_ms = 100};
        snprintf(m.id, sizeof m.id, "m%d", i);
        snprintf(m.token_hash, sizeof m.token_hash, "%s", club.creator_hash);
        snprintf(m.name, sizeof m.name, "X");
        CHECK_EQ_INT(store_create_club(s, &club, &m, err, sizeof err), 0);
    }
    struct store_member j = {.role = CLUB_MEMBER, .joined_ms = 50};
    snprintf(j.id, sizeof j.id, "m9");
    snprintf(j.token_hash, sizeof j.token_hash, "ann");
    snprintf(j.name, sizeof j.name, "Ann");
    CHECK_EQ_INT(store_join_club(s, "k0000000000000000000000000000002", &j, err, sizeof err), 0);
    l.n = 0;
    CHECK_EQ_INT(store_player_clubs(s, "ann", collect_club, &l, err, sizeof err), 0);
    CHECK(l.n == 2 && !strcmp(l.s[0], "k0000000:a-club:0") && !strcmp(l.s[1], "k0000000:b-club:2"));
    l.n = 0;
    CHECK_EQ_INT(store_player_clubs(s, "nobody", collect_club, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 0);
    /* Progress: versions one a write; of two writers of one version, one wins. */
    char *body = NULL;
    int64_t version = -1;
    CHECK_EQ_INT(store_get_progress(s, "ann", &body, &version, err, sizeof err), 1);
    CHECK(body == NULL && version == 0);
    CHECK_EQ_INT(store_put_progress(s, "ann", "{\"a\":1}", 0, 10, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_progress(s, "ann", "{\"a\":2}", 0, 11, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_progress(s, "ann", "{\"a\":3}", 1, 12, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_progress(s, "ann", "{\"a\":4}", 1, 13, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_progress(s, "ann", "{\"a\":5}", 7, 14, err, sizeof err), 1);
    CHECK_EQ_INT(store_get_progress(s, "ann", &body, &version, err, sizeof err), 0);
    CHECK(body && !strcmp(body, "{\"a\":3}") && version == 2);
    free(body);
    store_close(s);
}

static void collect_point(void *ctx, const char *game, const char *klass_, const char *game_id,
                          double rating, double deviation, int64_t at_ms)
{
    struct lines *l = ctx;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%s %s %.2s %.2f %.3f %lld", game, klass_,
                 game_id + 30, rating, deviation, (long long)at_ms);
}

static void collect_rating(void *ctx, const char *game, const char *klass_,
                           const struct store_rating *r, int64_t updated_ms)
{
    struct lines *l = ctx;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%s %s %.2f %d %lld", game, klass_, r->rating,
                 r->games, (long long)updated_ms);
}

static void collect_leader(void *ctx, const struct store_player *p, const struct store_rating *r,
                           int64_t updated_ms)
{
    struct lines *l = ctx;
    (void)updated_ms;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%.40s %.2f %d", p->name, r->rating, r->games);
}

/* A rated people game of `white` and `black`, won by white, rated at `at`. */
static void rated_win(struct test_ctx *t__, struct store *s, int n, const char *white,
                      const char *black, int64_t at)
{
    char err[256];
    struct store_rater rater = {klass, update};
    struct store_challenge c;
    challenge(&c, n, white, 0, 1000);
    CHECK_EQ_INT(store_put_challenge(s, &c, err, sizeof err), 0);
    struct store_game g;
    people_game(&g, n, white, black);
    CHECK_EQ_INT(store_accept_challenge(s, c.id, black, &g, 1500, err, sizeof err), 0);
    CHECK_EQ_INT(store_end_people_game(s, g.id, 1, 3, at - 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_rate_game(s, g.id, &rater, at, NULL, NULL, err, sizeof err), 0);
}

TEST(store_ops_rating_history_and_leaderboard)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    CHECK_EQ_INT(store_put_player(s, "alice", "Alice", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_player(s, "bob", "Bob", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_put_player(s, "carol", "Carol", 1, err, sizeof err), 0);
    rated_win(TEST_CTX, s, 31, "alice", "bob", 9000);
    rated_win(TEST_CTX, s, 32, "alice", "carol", 9100);
    rated_win(TEST_CTX, s, 33, "carol", "bob", 9200);
    /* A point a rated game, the newest `limit`, oldest first. */
    struct lines l = {0};
    CHECK_EQ_INT(store_rating_history(s, "alice", 10, collect_point, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 2);
    CHECK_STR(l.s[0], "chess blitz 31 1510.25 0.123 9000");
    CHECK_STR(l.s[1], "chess blitz 32 1520.50 0.123 9100");
    l.n = 0;
    CHECK_EQ_INT(store_rating_history(s, "bob", 1, collect_point, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.s[0], "chess blitz 33 1479.50 0.123 9200"));
    l.n = 0;
    CHECK_EQ_INT(store_rating_history(s, "nobody", 10, collect_point, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 0);
    l.n = 0;
    CHECK_EQ_INT(store_player_ratings(s, "alice", collect_rating, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.s[0], "chess blitz 1520.50 2 9100"));
    /* The leaderboard: best first, under the rule; a hidden player is not on it. */
    struct store_board_rule rule = {.min_games = 1, .max_deviation = 1, .since_ms = 0, .limit = 10};
    l.n = 0;
    CHECK_EQ_INT(store_leaderboard(s, "chess", "blitz", &rule, collect_leader, &l, err, sizeof err),
                 0);
    CHECK(l.n == 3 && !strcmp(l.s[0], "Alice 1520.50 2") && !strcmp(l.s[1], "Carol 1500.00 2") &&
          !strcmp(l.s[2], "Bob 1479.50 2"));
    rule.min_games = 3;
    l.n = 0;
    CHECK_EQ_INT(store_leaderboard(s, "chess", "blitz", &rule, collect_leader, &l, err, sizeof err),
                 0);
    CHECK_EQ_INT(l.n, 0);
    rule = (struct store_board_rule){
        .min_games = 1, .max_deviation = 1, .since_ms = 9150, .limit = 10};
    l.n = 0;
    CHECK_EQ_INT(store_leaderboard(s, "chess", "blitz", &rule, collect_leader, &l, err, sizeof err),
                 0);
    CHECK(l.n == 2 && !strcmp(l.s[0], "Carol 1500.00 2") && !strcmp(l.s[1], "Bob 1479.50 2"));
    CHECK_EQ_INT(store_set_player_hidden(s, "carol", 1, 10, err, sizeof err), 0);
    rule.since_ms = 0;
    rule.limit = 1;
    l.n = 0;
    CHECK_EQ_INT(store_leaderboard(s, "chess", "blitz", &rule, collect_leader, &l, err, sizeof err),
                 0);
    CHECK(l.n == 1 && !strcmp(l.s[0], "Alice 1520.50 2"));
    rule.max_deviation = 0.1;
    l.n = 0;
    CHECK_EQ_INT(store_leaderboard(s, "chess", "blitz", &rule, collect_leader, &l, err, sizeof err),
                 0);
    CHECK_EQ_INT(l.n, 0);
    store_close(s);
}

static void collect_level(void *ctx, const char *game, int level, int wins, int draws, int losses)
{
    struct lines *l = ctx;
    if (l->n < 8)
        snprintf(l->s[l->n++], sizeof l->s[0], "%s %d %d/%d/%d", game, level, wins, draws, losses);
}

TEST(store_ops_archive_and_computer_results)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    /* Against the computer (human_side 1): a win, a draw, a loss, an abort, one on. */
    int results[] = {2, 3, 1, 1, 0}, reasons[] = {3, 3, 3, 18, 0};
    for (int i = 0; i < 5; i++) {
        struct store_game g;
        game_row(&g, 41 + i, "ann", 1000 + i);
        CHECK_EQ_INT(store_create_game(s, &g, err, sizeof err), 0);
        if (results[i])
            CHECK_EQ_INT(store_set_result(s, g.id, results[i], reasons[i], 2000, err, sizeof err),
                         0);
    }
    struct store_game chess;
    game_row(&chess, 46, "ann", 1100);
    snprintf(chess.game, sizeof chess.game, "chess");
    chess.level = 5;
    CHECK_EQ_INT(store_create_game(s, &chess, err, sizeof err), 0);
    CHECK_EQ_INT(store_set_result(s, chess.id, 2, 3, 2000, err, sizeof err), 0);
    /* Between people: ann lost as black to bob (resign), drew with carol as white. */
    struct store_challenge c;
    struct store_game p1, p2;
    challenge(&c, 47, "bob", 0, 1000);
    CHECK_EQ_INT(store_put_challenge(s, &c, err, sizeof err), 0);
    people_game(&p1, 47, "bob", "ann");
    p1.created_ms = 1200;
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "ann", &p1, 1200, err, sizeof err), 0);
    CHECK_EQ_INT(store_end_people_game(s, p1.id, 1, 3, 1300, err, sizeof err), 0);
    challenge(&c, 48, "ann", 0, 1000);
    CHECK_EQ_INT(store_put_challenge(s, &c, err, sizeof err), 0);
    people_game(&p2, 48, "ann", "carol");
    p2.created_ms = 1300;
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "carol", &p2, 1300, err, sizeof err), 0);
    CHECK_EQ_INT(store_end_people_game(s, p2.id, 3, 3, 1400, err, sizeof err), 0);
    struct lines r = {0};
    CHECK_EQ_INT(store_computer_results(s, "ann", collect_level, &r, err, sizeof err), 0);
    CHECK(r.n == 2 && !strcmp(r.s[0], "chess 5 1/0/0") && !strcmp(r.s[1], "egara-guti 3 1/1/1"));
    struct ids l = {0};
    /* The archive: newest first, filtered, paged. */
    struct store_archive q = {.token_hash = "ann", .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 8);
    CHECK(!strcmp(l.id[0], p2.id) && !strcmp(l.id[1], p1.id) && !strcmp(l.id[2], chess.id));
    q.offset = 7;
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0] + 30, "41"));
    q = (struct store_archive){
        .token_hash = "ann", .computer = 1, .game = "egara-guti", .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 5);
    q.outcome = OUTCOME_WIN;
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0] + 30, "41"));
    q.outcome = OUTCOME_ONGOING;
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0] + 30, "45"));
    q = (struct store_archive){.token_hash = "ann", .outcome = OUTCOME_LOSS, .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 3 && !strcmp(l.id[0], p1.id)); /* to bob, and two to the computer */
    q = (struct store_archive){.token_hash = "ann", .opponent_hash = "carol", .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], p2.id));
    q = (struct store_archive){.token_hash = "ann", .from_ms = 1001, .to_ms = 1200, .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK_EQ_INT(l.n, 5); /* 1001..1004 and 1100 */
    q = (struct store_archive){.token_hash = "bob", .limit = 8};
    l.n = 0;
    CHECK_EQ_INT(store_archive_games(s, &q, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], p1.id));
    store_close(s);
}

static void collect_member(void *ctx, const struct store_member *m)
{
    struct ids *l = ctx;
    if (l->n < 8)
        snprintf(l->id[l->n++], sizeof l->id[0], "%s:%d", m->id, m->role);
}

static void count_results(void *ctx, const char *white, const char *black, int result, int n)
{
    (void)white;
    (void)black;
    (void)result;
    *(int *)ctx += n;
}

TEST(store_ops_clubs)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_club club = {.created_ms = 100};
    snprintf(club.id, sizeof club.id, "k%031d", 1);
    snprintf(club.name, sizeof club.name, "Club's \"name\"");
    snprintf(club.description, sizeof club.description, "desc");
    snprintf(club.languages, sizeof club.languages, "en,fi");
    snprintf(club.invite, sizeof club.invite, "inv1");
    snprintf(club.creator_hash, sizeof club.creator_hash, "alice");
    struct store_member m = {.role = CLUB_CREATOR, .joined_ms = 100};
    snprintf(m.id, sizeof m.id, "m1");
    snprintf(m.token_hash, sizeof m.token_hash, "alice");
    snprintf(m.name, sizeof m.name, "Alice");
    CHECK_EQ_INT(store_create_club(s, &club, &m, err, sizeof err), 0);
    struct store_club back;
    CHECK_EQ_INT(store_get_club(s, club.id, &back, err, sizeof err), 0);
    CHECK_STR(back.name, "Club's \"name\"");
    CHECK_STR(back.invite, "inv1");
    CHECK_EQ_INT(store_get_club(s, "none", &back, err, sizeof err), 1);
    struct store_member j = {.role = CLUB_MEMBER, .joined_ms = 50};
    snprintf(j.id, sizeof j.id, "m2");
    snprintf(j.token_hash, sizeof j.token_hash, "bob");
    snprintf(j.name, sizeof j.name, "Bob");
    CHECK_EQ_INT(store_join_club(s, club.id, &j, err, sizeof err), 0);
    snprintf(j.name, sizeof j.name, "Bobby"); /* joining again renames */
    CHECK_EQ_INT(store_join_club(s, club.id, &j, err, sizeof err), 0);
    struct ids l = {0};
    CHECK_EQ_INT(store_list_members(s, club.id, collect_member, &l, err, sizeof err), 0);
    CHECK(l.n == 2 && !strcmp(l.id[0], "m1:2") && !strcmp(l.id[1], "m2:0"));
    CHECK_EQ_INT(store_set_member(s, club.id, "m2", CLUB_ADMIN, err, sizeof err), 0);
    CHECK_EQ_INT(store_set_member(s, club.id, "m1", CLUB_MEMBER, err, sizeof err), 1);
    CHECK_EQ_INT(store_set_member(s, club.id, "m9", CLUB_MEMBER, err, sizeof err), 1);
    /* An admin is not removed by whoever may remove members only. */
    CHECK_EQ_INT(store_remove_member(s, club.id, "m2", CLUB_MEMBER, "inv2", err, sizeof err), 1);
    CHECK_EQ_INT(store_get_club(s, club.id, &back, err, sizeof err), 0);
    CHECK_STR(back.invite, "inv1");
    CHECK_EQ_INT(store_remove_member(s, club.id, "m2", CLUB_ADMIN, "inv2", err, sizeof err), 0);
    CHECK_EQ_INT(store_get_club(s, club.id, &back, err, sizeof err), 0);
    CHECK_STR(back.invite, "inv2");
    CHECK_EQ_INT(store_join_club(s, club.id, &j, err, sizeof err), 0);
    CHECK_EQ_INT(store_set_member(s, club.id, "m2", -1, err, sizeof err), 0);
    /* A club's challenge, its game and results. */
    struct store_challenge c;
    challenge(&c, 7, "alice", 0, 1000);
    snprintf(c.club_id, sizeof c.club_id, "%s", club.id);
    CHECK_EQ_INT(store_put_challenge(s, &c, err, sizeof err), 0);
    l.n = 0;
    CHECK_EQ_INT(store_club_challenges(s, club.id, 1500, collect_challenge, &l, err, sizeof err),
                 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], c.id));
    struct store_game g;
    people_game(&g, 30, "alice", "bob");
    snprintf(g.club_id, sizeof g.club_id, "%s", club.id);
    CHECK_EQ_INT(store_accept_challenge(s, c.id, "bob", &g, 1500, err, sizeof err), 0);
    CHECK_EQ_INT(store_end_people_game(s, g.id, 1, 3, 2000, err, sizeof err), 0);
    l.n = 0;
    CHECK_EQ_INT(store_club_games(s, club.id, 10, collect_game, &l, err, sizeof err), 0);
    CHECK(l.n == 1 && !strcmp(l.id[0], g.id));
    int results = 0;
    CHECK_EQ_INT(store_club_results(s, club.id, count_results, &results, err, sizeof err), 0);
    CHECK_EQ_INT(results, 1);
    store_close(s);
}

static void count_puzzle(void *ctx, const char *id, const struct store_puzzle_rating *r)
{
    (void)id;
    if (r->attempts == 1)
        ++*(int *)ctx;
}

static void count_id(void *ctx, const char *id)
{
    (void)id;
    ++*(int *)ctx;
}

TEST(store_ops_puzzles)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_puzzle_rating r;
    CHECK_EQ_INT(store_puzzle_player(s, "p1", "chess", &r, err, sizeof err), 1);
    /* A token never issued is refused; an issued one is served. */
    CHECK_EQ_INT(store_puzzle_serve(s, "p1", "z1", 0, 100, err, sizeof err), 1);
    CHECK_EQ_INT(store_puzzle_serve(s, "p1", "z1", 1, 100, err, sizeof err), 0);
    CHECK_EQ_INT(store_puzzle_serve(s, "p1", "z1", 0, 150, err, sizeof err), 0);
    int64_t served = 0;
    CHECK_EQ_INT(store_puzzle_served(s, "p1", "z1", &served, err, sizeof err), 0);
    CHECK_EQ_INT(served, 150);
    CHECK_EQ_INT(store_puzzle_served(s, "p1", "z2", &served, err, sizeof err), 1);
    struct store_puzzle_attempt a = {
        .game = "chess", .puzzle_id = "z1", .solved = 1, .now_ms = 200};
    snprintf(a.token_hash, sizeof a.token_hash, "p1");
    a.player = (struct store_puzzle_rating){1520.5, 200, 0.06, 1, 1, 1};
    a.puzzle = (struct store_puzzle_rating){1480.5, 150, 0.06, 1, 1, 0};
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    a.player.rating = 1;
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 1); /* once */
    CHECK_EQ_INT(store_puzzle_player(s, "p1", "chess", &r, err, sizeof err), 0);
    CHECK(r.rating == 1520.5 && r.attempts == 1 && r.solved == 1 && r.streak == 1);
    /* One puzzle's rating alone (a conflict's re-read); none for one never attempted. */
    CHECK_EQ_INT(store_puzzle_rating(s, "z1", &r, err, sizeof err), 0);
    CHECK(r.rating == 1480.5 && r.deviation == 150 && r.attempts == 1 && r.solved == 1);
    CHECK_EQ_INT(store_puzzle_rating(s, "z2", &r, err, sizeof err), 1);
    int n = 0;
    CHECK_EQ_INT(store_puzzle_ratings(s, count_puzzle, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    n = 0;
    CHECK_EQ_INT(store_puzzle_attempted(s, "p1", "chess", count_id, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 1);
    store_close(s);
}

/* ---- taken once, by concurrent takers ---- */

struct taker {
    struct store *s;
    const char *challenge;
    int n, rc;
    char err[256];
};

static void *take(void *arg)
{
    struct taker *t = arg;
    struct store_game g;
    char who[16];
    snprintf(who, sizeof who, "taker%d", t->n);
    people_game(&g, 100 + t->n, "alice", who);
    t->rc = store_accept_challenge(t->s, t->challenge, who, &g, 1500, t->err, sizeof t->err);
    return NULL;
}

TEST(store_ops_challenge_taken_once_by_concurrent_takers)
{
    /* Eight threads, each with a store of its own on one database (eight servers):
     * exactly one takes each challenge. */
    enum { TAKERS = 8, ROUNDS = 5 };
    char err[256], dir[256] = "", file[300];
    const char *url = fx_store_url();
    CHECK(url != NULL);
    if (!url)
        return;
    if (!strcmp(url, ":memory:")) { /* SQLite: a file the stores share */
        test_tmpdir(dir, sizeof dir);
        snprintf(file, sizeof file, "%s/taken.db", dir);
        url = file;
    }
    struct store *stores[TAKERS];
    for (int i = 0; i < TAKERS; i++) {
        stores[i] = store_open(url, NULL, err, sizeof err);
        CHECK_MSG(stores[i] != NULL, "%s", err);
        if (!stores[i])
            return;
    }
    for (int round = 0; round < ROUNDS; round++) {
        struct store_challenge c;
        challenge(&c, round, "alice", 1, 1000);
        CHECK_EQ_INT(store_put_challenge(stores[0], &c, err, sizeof err), 0);
        struct taker t[TAKERS];
        pthread_t th[TAKERS];
        for (int i = 0; i < TAKERS; i++) {
            t[i] = (struct taker){.s = stores[i], .challenge = c.id, .n = round * TAKERS + i};
            pthread_create(&th[i], NULL, take, &t[i]);
        }
        int won = 0;
        for (int i = 0; i < TAKERS; i++) {
            pthread_join(th[i], NULL);
            CHECK_MSG(t[i].rc == 0 || t[i].rc == 1, "taker %d: %d %s", i, t[i].rc, t[i].err);
            won += t[i].rc == 0;
        }
        CHECK_EQ_INT(won, 1);
    }
    for (int i = 0; i < TAKERS; i++)
        store_close(stores[i]);
    if (dir[0])
        test_rmdir(dir);
}

/* ---- the schema ---- */

/* Mark the database at url as made by a newer agora: 0, or -1. */
static int bump_version(const char *url, const char *file)
{
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT INTO schema_version (version, applied_ms) VALUES (%d, 1)",
             store_migrations_count + 1);
    if (file) {
        sqlite3 *db = NULL;
        int rc = sqlite3_open(file, &db) == SQLITE_OK &&
                         sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK
                     ? 0
                     : -1;
        sqlite3_close(db);
        return rc;
    }
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQexec(c, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -1;
    PQclear(r);
    PQfinish(c);
    return rc;
}

/* The version recorded in the database at url (file: SQLite's), or -1. */
static int recorded_version(const char *url, const char *file)
{
    /* The last version, when every one before it is recorded too; else -1. */
    const char *sql = "SELECT CASE WHEN count(*) = max(version) THEN max(version) ELSE -1 END FROM "
                      "schema_version";
    int v = -1;
    if (file) {
        sqlite3 *db = NULL;
        sqlite3_stmt *st = NULL;
        if (sqlite3_open(file, &db) == SQLITE_OK &&
            sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
        return v;
    }
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        v = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(c);
    return v;
}

TEST(store_schema_made_on_an_empty_database_and_a_newer_one_refused)
{
    char dir[256] = "", file[300] = "", err[256] = "";
    const char *url;
    if (fx_on_postgres()) {
        url = fx_store_url();
    } else {
        test_tmpdir(dir, sizeof dir);
        snprintf(file, sizeof file, "%s/schema.db", dir);
        url = file;
    }
    CHECK(url != NULL);
    if (!url)
        return;
    const char *f = file[0] ? file : NULL;
    struct store *s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    store_close(s);
    CHECK_EQ_INT(recorded_version(url, f), store_migrations_count);
    /* Opened again: nothing to do, the same version. */
    s = store_open(url, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    store_close(s);
    CHECK_EQ_INT(recorded_version(url, f), store_migrations_count);
    /* A newer agora's database: refused, saying so; and a server does not start. */
    CHECK_EQ_INT(bump_version(url, f), 0);
    err[0] = 0;
    s = store_open(url, NULL, err, sizeof err);
    CHECK(s == NULL);
    store_close(s);
    CHECK_MSG(strstr(err, "newer") != NULL, "%s", err);
    struct server_config cfg;
    fx_config(&cfg);
    cfg.db_path = url;
    err[0] = 0;
    struct server *srv = server_start(&cfg, err, sizeof err);
    CHECK(srv == NULL);
    server_stop(srv);
    CHECK_MSG(strstr(err, "newer") != NULL, "%s", err);
    if (dir[0])
        test_rmdir(dir);
}

static int user_version(const char *file)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int v = -1;
    if (sqlite3_open(file, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

TEST(store_sqlite_database_of_before_the_version_table_is_adopted)
{
    /* A database made before schema_version (its version in PRAGMA user_version: 6
     * was the last) opens with its data, recorded as version 7, then migrated on. */
    char dir[256], file[300], err[256] = "";
    test_tmpdir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/old.db", dir);
    sqlite3 *db = NULL;
    CHECK_EQ_INT(sqlite3_open(file, &db), SQLITE_OK);
    for (int v = 0; v < 7; v++)
        CHECK_EQ_INT(sqlite3_exec(db, store_migrations[v].sqlite, NULL, NULL, NULL), SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(db,
                              "PRAGMA user_version = 6; INSERT INTO players VALUES"
                              " ('h', 'Old', 1, 1)",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    struct store *s = store_open(file, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (s) {
        char name[64] = "";
        CHECK_EQ_INT(store_get_player(s, "h", name, sizeof name, err, sizeof err), 0);
        CHECK_STR(name, "Old");
        struct store_player p;
        CHECK_EQ_INT(store_player_by_hash(s, "h", &p, err, sizeof err), 0);
        CHECK_EQ_INT((int)strlen(p.id), STORE_PLAYER_ID_LEN);
        store_close(s);
    }
    CHECK_EQ_INT(recorded_version(file, file), store_migrations_count);
    CHECK_EQ_INT(user_version(file), store_migrations_count - 1);
    test_rmdir(dir);
}

TEST(store_sqlite_database_of_mains_players_is_adopted_and_gets_the_events)
{
    /* main's agora before the shared list numbered the players' migration 7 (its
     * PRAGMA user_version 7) and had no events: such a database is versions 1..7 and 9
     * here, so the events (8) and the later ones are applied to it, the players kept.
     * Its user_version then says 8 or more, which an agora of main refuses (it knows no
     * events). */
    char dir[256], file[300], err[256] = "";
    test_tmpdir(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/main7.db", dir);
    sqlite3 *db = NULL;
    CHECK_EQ_INT(sqlite3_open(file, &db), SQLITE_OK);
    CHECK_EQ_INT(store_migrations[8].version, 9);
    for (int v = 0; v < 7; v++)
        CHECK_EQ_INT(sqlite3_exec(db, store_migrations[v].sqlite, NULL, NULL, NULL), SQLITE_OK);
    CHECK_EQ_INT(
        sqlite3_exec(db, "INSERT INTO players VALUES ('h', 'Old', 1, 1);", NULL, NULL, NULL),
        SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(db, store_migrations[8].sqlite, NULL, NULL, NULL), SQLITE_OK);
    CHECK_EQ_INT(sqlite3_exec(db,
                              "UPDATE players SET id = '00112233aabbccdd';"
                              "INSERT INTO progress VALUES ('h', '{}', 3, 1);"
                              "PRAGMA user_version = 7;",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    struct store *s = store_open(file, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (s) {
        struct store_player p;
        CHECK_EQ_INT(store_player_by_hash(s, "h", &p, err, sizeof err), 0);
        CHECK_STR(p.id, "00112233aabbccdd");
        CHECK_STR(p.name, "Old");
        char *body = NULL;
        int64_t version = 0;
        CHECK_EQ_INT(store_get_progress(s, "h", &body, &version, err, sizeof err), 0);
        CHECK_EQ_INT((int)version, 3);
        free(body);
        int64_t seq = 0;
        CHECK_MSG(store_put_event(s, "g", "move", "{}", 5, &seq, err, sizeof err) == 0, "%s", err);
        CHECK_EQ_INT((int)seq, 1);
        store_close(s);
    }
    CHECK_EQ_INT(recorded_version(file, file), store_migrations_count);
    CHECK_EQ_INT(user_version(file), store_migrations_count - 1);
    /* A user_version no agora of before the shared list made: refused. */
    CHECK_EQ_INT(sqlite3_open(file, &db), SQLITE_OK);
    CHECK_EQ_INT(
        sqlite3_exec(db, "DROP TABLE schema_version; PRAGMA user_version = 8;", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    err[0] = 0;
    s = store_open(file, NULL, err, sizeof err);
    CHECK(s == NULL);
    store_close(s);
    CHECK_MSG(strstr(err, "user_version 8") != NULL, "%s", err);
    test_rmdir(dir);
}

/* End every other session of the test database (as a restart of PostgreSQL does to
 * the store's connections): 0, or -1. */
static int end_sessions(const char *url)
{
    PGconn *c = PQconnectdb(url);
    PGresult *r = PQexec(c, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND pid <> pg_backend_pid()");
    int rc = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? 0 : -1;
    PQclear(r);
    PQfinish(c);
    return rc;
}

TEST(store_postgres_comes_back_after_its_sessions_end)
{
    /* Every pooled connection broken under the store: each operation after it still
     * succeeds (a read or an uncommitted write runs again on a new connection), and
     * a write is done once. */
    if (!fx_on_postgres())
        SKIP("PostgreSQL only (tests/pg-run)");
    char err[256] = "";
    const char *url = fx_store_url();
    struct store_options opt = {.pool = 3};
    struct store *s = url ? store_open(url, &opt, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    struct store_game g;
    game_row(&g, 1, "tok", 1000);
    CHECK_EQ_INT(store_create_game(s, &g, err, sizeof err), 0);
    for (int round = 0; round < 2; round++) {
        CHECK_EQ_INT(end_sessions(url), 0);
        /* More calls than connections: every connection meets its break. */
        for (int i = 0; i < 4; i++) {
            char name[32], back[32] = "";
            snprintf(name, sizeof name, "N%d", round * 4 + i);
            CHECK_MSG(store_put_player(s, "h", name, i, err, sizeof err) == 0, "%s", err);
            CHECK_MSG(store_get_player(s, "h", back, sizeof back, err, sizeof err) == 0, "%s", err);
            CHECK_STR(back, name);
        }
        CHECK_EQ_INT(end_sessions(url), 0);
        for (int i = 0; i < 4; i++) {
            const char *move[] = {"c3-d4"};
            int ply = round * 4 + i + 1;
            CHECK_MSG(store_add_moves(s, g.id, ply, 1, move, 0, 0, 2000 + ply, err, sizeof err) ==
                          0,
                      "ply %d: %s", ply, err);
        }
    }
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    struct store_game back;
    CHECK_EQ_INT(store_load_game(s, g.id, &back, &moves, &n, err, sizeof err), 0);
    CHECK_EQ_INT(n, 8);
    free(moves);
    store_close(s);
}

/* ---- one writer a game ---- */

/* A URL two stores can share: the run's fresh database, or a SQLite file in dir. */
static const char *shared_url(char *dir, size_t dir_size, char *file, size_t file_size)
{
    const char *url = fx_store_url();
    dir[0] = 0;
    if (url && !strcmp(url, ":memory:")) {
        test_tmpdir(dir, dir_size);
        snprintf(file, file_size, "%s/shared.db", dir);
        url = file;
    }
    return url;
}

TEST(store_ops_moves_go_on_from_the_last_stored)
{
    /* Two servers on one database: the one whose game is behind or ahead of the
     * stored moves (the other took a move back) is refused, storing nothing. */
    char dir[256], file[300], err[256] = "";
    const char *url = shared_url(dir, sizeof dir, file, sizeof file);
    struct store *a = url ? store_open(url, NULL, err, sizeof err) : NULL;
    struct store *b = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(a && b, "%s", err);
    if (a && b) {
        struct store_game g;
        game_row(&g, 1, "tok", 1000);
        CHECK_EQ_INT(store_create_game(a, &g, err, sizeof err), 0);
        const char *two[] = {"d3-d4", "d5xd3"};
        CHECK_EQ_INT(store_add_moves(a, g.id, 1, 2, two, 0, 0, 1100, err, sizeof err), 0);
        CHECK_EQ_INT(store_add_moves(a, g.id, 3, 2, two, 0, 0, 1200, err, sizeof err), 0);
        CHECK_EQ_INT(store_take_back(b, g.id, 2, 1300, err, sizeof err), 0);
        /* a still thinks 4 are stored. */
        CHECK(store_add_moves(a, g.id, 5, 2, two, 0, 0, 1400, err, sizeof err) < 0);
        CHECK_MSG(strstr(err, "not the next") != NULL, "%s", err);
        CHECK(store_add_moves(a, g.id, 4, 1, two, 0, 0, 1400, err, sizeof err) < 0);
        CHECK_EQ_INT(store_add_moves(b, g.id, 3, 1, two, 0, 0, 1500, err, sizeof err), 0);
        char(*moves)[MOVE_TEXT_MAX] = NULL;
        int n = 0;
        struct store_game back;
        CHECK_EQ_INT(store_load_game(a, g.id, &back, &moves, &n, err, sizeof err), 0);
        CHECK_EQ_INT(n, 3);
        free(moves);
        /* A people game likewise: a ply twice, or past the last, is refused. */
        struct store_challenge c;
        challenge(&c, 1, "alice", 0, 1000);
        CHECK_EQ_INT(store_put_challenge(a, &c, err, sizeof err), 0);
        struct store_game p;
        people_game(&p, 2, "alice", "bob");
        CHECK_EQ_INT(store_accept_challenge(b, c.id, "bob", &p, 1500, err, sizeof err), 0);
        CHECK_EQ_INT(store_add_people_move(a, p.id, 1, "e2e4", 0, 0, 1600, 0, err, sizeof err), 0);
        CHECK(store_add_people_move(b, p.id, 1, "d2d4", 0, 0, 1601, 0, err, sizeof err) < 0);
        CHECK(store_add_people_move(b, p.id, 3, "d2d4", 0, 0, 1601, 0, err, sizeof err) < 0);
        CHECK_MSG(strstr(err, "not the next") != NULL, "%s", err);
        CHECK_EQ_INT(store_add_people_move(b, p.id, 2, "e7e5", 0, 0, 1700, 0, err, sizeof err), 0);
        int64_t *times = NULL;
        CHECK_EQ_INT(store_load_move_times(a, p.id, &times, &n, err, sizeof err), 0);
        CHECK(n == 2 && times[0] == 1600 && times[1] == 1700);
        free(times);
    }
    store_close(a);
    store_close(b);
    if (dir[0])
        test_rmdir(dir);
}

struct mover {
    struct store *s;
    const char *id;
    int ply, rc;
};

static void *move_once(void *arg)
{
    struct mover *m = arg;
    const char *one[] = {"c3-d4"};
    char err[256];
    m->rc = store_add_moves(m->s, m->id, m->ply, 1, one, 0, 0, 2000 + m->ply, err, sizeof err);
    return NULL;
}

TEST(store_ops_one_move_a_ply_among_concurrent_writers)
{
    /* Eight stores (eight servers) write the same ply of one game at once, round
     * after round: exactly one is stored each round. */
    enum { WRITERS = 8, ROUNDS = 6 };
    char dir[256], file[300], err[256] = "";
    const char *url = shared_url(dir, sizeof dir, file, sizeof file);
    struct store *s[WRITERS] = {NULL};
    bool open = url != NULL;
    for (int i = 0; open && i < WRITERS; i++)
        open = (s[i] = store_open(url, NULL, err, sizeof err)) != NULL;
    CHECK_MSG(open, "%s", err);
    struct store_game g;
    game_row(&g, 9, "tok", 1000);
    if (open)
        CHECK_EQ_INT(store_create_game(s[0], &g, err, sizeof err), 0);
    for (int round = 1; open && round <= ROUNDS; round++) {
        struct mover m[WRITERS];
        pthread_t th[WRITERS];
        for (int i = 0; i < WRITERS; i++) {
            m[i] = (struct mover){s[i], g.id, round, -9};
            pthread_create(&th[i], NULL, move_once, &m[i]);
        }
        int stored = 0;
        for (int i = 0; i < WRITERS; i++) {
            pthread_join(th[i], NULL);
            stored += m[i].rc == 0;
        }
        CHECK_MSG(stored == 1, "round %d: %d stored", round, stored);
    }
    if (open) {
        char(*moves)[MOVE_TEXT_MAX] = NULL;
        int n = 0;
        struct store_game back;
        CHECK_EQ_INT(store_load_game(s[0], g.id, &back, &moves, &n, err, sizeof err), 0);
        CHECK_EQ_INT(n, ROUNDS);
        free(moves);
    }
    for (int i = 0; i < WRITERS; i++)
        store_close(s[i]);
    if (dir[0])
        test_rmdir(dir);
}

/* ---- the outbox of events ---- */

struct seen {
    int n;
    int64_t seq[512];
    char body[4][128];
};

static void see_event(void *ctx, const struct store_event *e)
{
    struct seen *v = ctx;
    if (v->n < 4)
        snprintf(v->body[v->n], sizeof v->body[0], "%s:%s:%s", e->kind, e->game_id, e->body);
    if (v->n < 512)
        v->seq[v->n++] = e->seq;
}

TEST(store_ops_events_in_order)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    int64_t seq = 0, last = -1;
    CHECK_EQ_INT(store_wait_events(s, 0, 20, &last, err, sizeof err), 1); /* none yet */
    const char *kinds[] = {"move", "offer", "end"};
    for (int i = 0; i < 3; i++) {
        char body[32];
        snprintf(body, sizeof body, "{\"n\":%d}", i);
        CHECK_EQ_INT(store_put_event(s, "g1", kinds[i], body, 100 + i, &seq, err, sizeof err), 0);
        CHECK_EQ_INT(seq, i + 1);
    }
    CHECK(store_put_event(s, "g1", "a kind far longer than thirty-one bytes", "{}", 1, &seq, err,
                          sizeof err) < 0);
    struct seen v = {0};
    CHECK_EQ_INT(store_events_since(s, 0, 10, see_event, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v.n, 3);
    CHECK_STR(v.body[0], "move:g1:{\"n\":0}");
    CHECK_STR(v.body[2], "end:g1:{\"n\":2}");
    v.n = 0;
    CHECK_EQ_INT(store_events_since(s, 1, 1, see_event, &v, err, sizeof err), 0);
    CHECK(v.n == 1 && v.seq[0] == 2);
    /* One there already: at once; none after the last: a timeout. */
    CHECK_EQ_INT(store_wait_events(s, 2, 5000, &last, err, sizeof err), 0);
    CHECK_EQ_INT(last, 3);
    int64_t t0 = fx_now_ms();
    CHECK_EQ_INT(store_wait_events(s, 3, 100, &last, err, sizeof err), 1);
    CHECK(fx_now_ms() - t0 >= 90);
    store_close(s);
}

struct event_writer {
    struct store *s;
    int n, rc;
};

static void *write_events(void *arg)
{
    struct event_writer *w = arg;
    char err[256];
    for (int i = 0; i < w->n && w->rc == 0; i++) {
        int64_t seq;
        w->rc = store_put_event(w->s, "g", "move", "{}", i, &seq, err, sizeof err);
    }
    return NULL;
}

TEST(store_ops_events_reach_a_follower_once_in_commit_order)
{
    /* Eight writers (eight stores on one database: eight servers) and a follower on
     * a store of its own that waits, then reads what came after the last it saw:
     * it sees every event once, numbered 1, 2, ... without a gap. */
    enum { WRITERS = 8, EACH = 25 };
    char dir[256], file[300], err[256] = "";
    const char *url = shared_url(dir, sizeof dir, file, sizeof file);
    bool sqlite_file = dir[0] != 0;
    struct store *follow = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(follow != NULL, "%s", err);
    if (!follow)
        return;
    struct store *s[WRITERS];
    struct event_writer w[WRITERS];
    pthread_t th[WRITERS];
    for (int i = 0; i < WRITERS; i++) {
        /* (SQLite wakes the waiters of its own process: the writers share its store) */
        s[i] = sqlite_file ? follow : store_open(url, NULL, err, sizeof err);
        CHECK_MSG(s[i] != NULL, "%s", err);
        w[i] = (struct event_writer){s[i] ? s[i] : follow, EACH, 0};
        pthread_create(&th[i], NULL, write_events, &w[i]);
    }
    struct seen v = {0};
    int64_t after = 0, t0 = fx_now_ms();
    while (v.n < WRITERS * EACH && fx_now_ms() - t0 < 20000) {
        int64_t last;
        int rc = store_wait_events(follow, after, 2000, &last, err, sizeof err);
        CHECK_MSG(rc >= 0, "%s", err);
        if (rc != 0)
            continue;
        int before = v.n;
        CHECK_EQ_INT(store_events_since(follow, after, 64, see_event, &v, err, sizeof err), 0);
        if (v.n > before)
            after = v.seq[v.n - 1];
    }
    for (int i = 0; i < WRITERS; i++) {
        pthread_join(th[i], NULL);
        CHECK_EQ_INT(w[i].rc, 0);
        if (s[i] && s[i] != follow)
            store_close(s[i]);
    }
    CHECK_EQ_INT(v.n, WRITERS * EACH);
    for (int i = 0; i < v.n; i++)
        CHECK_MSG(v.seq[i] == i + 1, "event %d numbered %lld", i, (long long)v.seq[i]);
    store_close(follow);
    if (dir[0])
        test_rmdir(dir);
}

struct waiter {
    struct store *s;
    int64_t after, last;
    int rc, ms;
};

static void *wait_once(void *arg)
{
    struct waiter *w = arg;
    char err[256];
    int64_t t0 = fx_now_ms();
    w->rc = store_wait_events(w->s, w->after, 10000, &w->last, err, sizeof err);
    w->ms = (int)(fx_now_ms() - t0);
    return NULL;
}

TEST(store_postgres_event_wakes_another_server_also_after_its_listener_broke)
{
    if (!fx_on_postgres())
        SKIP("PostgreSQL only (tests/pg-run): SQLite has one server a database");
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *a = url ? store_open(url, NULL, err, sizeof err) : NULL;
    struct store *b = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(a && b, "%s", err);
    for (int round = 0; a && b && round < 2; round++) {
        /* Round 1: every session ended first (b's listener among them). */
        if (round == 1)
            CHECK_EQ_INT(end_sessions(url), 0);
        struct waiter w = {b, round, -1, -9, 0};
        pthread_t th;
        pthread_create(&th, NULL, wait_once, &w);
        fx_sleep_ms(200);
        int64_t seq = 0;
        CHECK_MSG(store_put_event(a, "g", "move", "{}", 1, &seq, err, sizeof err) == 0, "%s", err);
        pthread_join(th, NULL);
        CHECK_EQ_INT(w.rc, 0);
        CHECK_EQ_INT(w.last, round + 1);
        CHECK_MSG(w.ms < 2000, "woken after %d ms", w.ms);
    }
    store_close(a);
    store_close(b);
}

/* A puzzle attempt is stored only over the counts its ratings were computed from: one
 * computed from a puzzle's or a player's stale count (another server counted an attempt
 * meanwhile) is refused with 2 and stores nothing, not even the attempt. */
TEST(store_ops_puzzle_attempt_over_a_stale_count)
{
    struct store *s = open_fresh(t__);
    if (!s)
        return;
    char err[256] = "", ann[65], bob[65];
    memset(ann, 'a', 64);
    memset(bob, 'b', 64);
    ann[64] = bob[64] = 0;
    struct store_puzzle_attempt a = {.game = "chess", .puzzle_id = "p1", .solved = 1, .now_ms = 5};
    a.player = (struct store_puzzle_rating){1510, 190, 0.06, 1, 1, 1};
    a.puzzle = (struct store_puzzle_rating){1490, 190, 0.06, 1, 1, 0};
    snprintf(a.token_hash, sizeof a.token_hash, "%s", ann);
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    /* Bob's, computed from the puzzle's count before Ann's: refused, nothing stored. */
    snprintf(a.token_hash, sizeof a.token_hash, "%s", bob);
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 2);
    struct store_puzzle_rating pr;
    CHECK_EQ_INT(store_puzzle_player(s, bob, "chess", &pr, err, sizeof err), 1);
    /* Computed again over the stored count: stored. */
    a.puzzle.attempts = a.puzzle.solved = 2;
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 1); /* attempted already */
    /* Ann's next puzzle computed from her stale count (0 before her first): refused. */
    snprintf(a.token_hash, sizeof a.token_hash, "%s", ann);
    a.puzzle_id = "p2";
    a.puzzle.attempts = a.puzzle.solved = 1;
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 2);
    a.player.attempts = a.player.solved = 2;
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    CHECK_EQ_INT(store_puzzle_player(s, ann, "chess", &pr, err, sizeof err), 0);
    CHECK_EQ_INT(pr.attempts, 2);
    store_close(s);
}
