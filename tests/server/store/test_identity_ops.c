/* The store operations of issue 28 as store_ops.def states them, on the backend the run
 * is on (SQLite, or PostgreSQL under tests/pg-run: fx_store_url): a link past its time refuses (2)
 * and a revoked one (1), a device stands for its player until dropped; a passkey challenge is taken
 * once and an expired one refuses; a passkey's counter must grow; a barred token cannot join;
 * notifications beyond a token's newest 200 go, and marking read counts; whether a token is known.
 */
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

#define H(c)                                                                                       \
    c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c  \
        c c c c c c c c c c c c c c c c c

TEST(store_identity_ops_keep_their_word)
{
    char err[256] = "", player[65];
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    const char *ann = H("a"), *dev = H("d"), *code = H("c"), *code2 = H("e");
    /* Links: expired, revoked, replaced. */
    CHECK_EQ_INT(store_put_link(s, ann, code, 1000, 2000, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_add(s, code, dev, "phone", 2001, player, err, sizeof err), 2);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_device_add(s, code, dev, "phone", 1500, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_put_link(s, ann, code2, 1000, 9000, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_add(s, code, H("f"), "", 1500, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_drop_link(s, ann, err, sizeof err), 0);
    CHECK_EQ_INT(store_drop_link(s, ann, err, sizeof err), 1);
    char id[17];
    memcpy(id, dev, 16);
    id[16] = 0;
    CHECK_EQ_INT(store_drop_device(s, H("b"), id, err, sizeof err), 1); /* not Bo's */
    CHECK_EQ_INT(store_drop_device(s, ann, id, err, sizeof err), 0);
    CHECK_EQ_INT(store_device_player(s, dev, player, err, sizeof err), 1);
    /* Challenges: once; expired. */
    CHECK_EQ_INT(store_put_passkey_challenge(s, "ch1", ann, 5000, err, sizeof err), 0);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch1", 4000, player, err, sizeof err), 0);
    CHECK_STR(player, ann);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch1", 4000, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_put_passkey_challenge(s, "ch2", "", 5000, err, sizeof err), 0);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch2", 5001, player, err, sizeof err), 1);
    CHECK_EQ_INT(store_take_passkey_challenge(s, "ch2", 4000, player, err, sizeof err), 1);
    /* Passkeys: once; the counter. */
    struct store_passkey pk;
    memset(&pk, 0, sizeof pk);
    strcpy(pk.id, "cred-1");
    strcpy(pk.player_hash, ann);
    memset(pk.public_key, '1', 128);
    pk.sign_count = 5;
    CHECK_EQ_INT(store_add_passkey(s, &pk, err, sizeof err), 0);
    CHECK_EQ_INT(store_add_passkey(s, &pk, err, sizeof err), 1);
    CHECK_EQ_INT(store_passkey_used(s, "cred-1", 5, 10, err, sizeof err), 1);
    CHECK_EQ_INT(store_passkey_used(s, "cred-1", 6, 10, err, sizeof err), 0);
    struct store_passkey got;
    CHECK_EQ_INT(store_get_passkey(s, "cred-1", &got, err, sizeof err), 0);
    CHECK_EQ_INT(got.sign_count, 6);
    CHECK_EQ_INT(store_drop_passkey(s, H("b"), "cred-1", err, sizeof err), 1);
    CHECK_EQ_INT(store_drop_passkey(s, ann, "cred-1", err, sizeof err), 0);
    CHECK_EQ_INT(store_get_passkey(s, "cred-1", &got, err, sizeof err), 1);
    /* Notifications: the newest 200; read counts. */
    int64_t nid = 0;
    for (int i = 0; i < 205; i++)
        CHECK_EQ_INT(store_notify(s, ann, "accepted", "{}", i, &nid, err, sizeof err), 0);
    int unread = 0, marked = 0;
    CHECK_EQ_INT(store_read_notifications(s, ann, nid - 10, &marked, err, sizeof err), 0);
    CHECK_EQ_INT(marked, 190);
    CHECK_EQ_INT(store_read_notifications(s, ann, 0, &marked, err, sizeof err), 0);
    CHECK_EQ_INT(marked, 10);
    int known = 0;
    CHECK_EQ_INT(store_token_known(s, ann, &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 1);
    CHECK_EQ_INT(store_token_known(s, H("9"), &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 0);
    (void)unread;
    /* The first token revoked: onto a fresh key only. */
    CHECK_EQ_INT(store_put_player(s, H("b"), "Bo", 1, err, sizeof err), 0);
    CHECK_EQ_INT(store_rekey_player(s, ann, H("b"), err, sizeof err), 1);
    CHECK_EQ_INT(store_rekey_player(s, ann, ann, err, sizeof err), 1);
    CHECK_EQ_INT(store_rekey_player(s, ann, H("7"), err, sizeof err), 0);
    CHECK_EQ_INT(store_token_known(s, ann, &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 0);
    CHECK_EQ_INT(store_token_known(s, H("7"), &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 1);
    store_close(s);
}

struct seen {
    int n;
    char what[8][512];
};

static void seen_notice(void *ctx, const struct store_notice *n)
{
    struct seen *v = ctx;
    if (v->n < 8)
        snprintf(v->what[v->n++], sizeof v->what[0], "%lld:%s:%s:%d", (long long)n->id, n->kind,
                 n->body, n->read);
}

static void seen_device(void *ctx, const struct store_device *d)
{
    struct seen *v = ctx;
    if (v->n < 8)
        snprintf(v->what[v->n++], sizeof v->what[0], "%s:%s", d->id, d->name);
}

static void seen_passkey(void *ctx, const struct store_passkey *p)
{
    struct seen *v = ctx;
    if (v->n < 8)
        snprintf(v->what[v->n++], sizeof v->what[0], "%s:%lld", p->id, (long long)p->sign_count);
}

static void seen_club(void *ctx, const struct store_club *c, int members)
{
    struct seen *v = ctx;
    if (v->n < 8)
        snprintf(v->what[v->n++], sizeof v->what[0], "%s:%d:%d", c->name, c->is_public, members);
}

static void seen_game(void *ctx, const struct store_game *g)
{
    struct seen *v = ctx;
    if (v->n < 8)
        snprintf(v->what[v->n++], sizeof v->what[0], "%s", g->id);
}

static void club(struct store *s, struct test_ctx *t__, int n, const char *name, int is_public,
                 const char *creator)
{
    char err[256] = "";
    struct store_club c = {.created_ms = 100, .is_public = is_public};
    snprintf(c.id, sizeof c.id, "k%031d", n);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.languages, sizeof c.languages, n % 2 ? "en,fi" : "sv");
    snprintf(c.invite, sizeof c.invite, "inv%d", n);
    snprintf(c.creator_hash, sizeof c.creator_hash, "%s", creator);
    struct store_member m = {.role = CLUB_CREATOR, .joined_ms = 100};
    snprintf(m.id, sizeof m.id, "c%d", n);
    snprintf(m.token_hash, sizeof m.token_hash, "%s", creator);
    CHECK_MSG(store_create_club(s, &c, &m, err, sizeof err) == 0, "%s", err);
}

/* The lists (newest first), public clubs found and a barred member kept out, and an old
 * token's games and puzzles merged into the player's. */
TEST(store_identity_lists_clubs_and_merges)
{
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "%s", err);
    if (!s)
        return;
    const char *ann = H("a"), *old = H("o");
    /* Notifications: newest first, after an id, the unread counted over all. */
    int64_t id1 = 0, id2 = 0, id3 = 0;
    CHECK_EQ_INT(store_notify(s, ann, "a", "{\"n\":1}", 10, &id1, err, sizeof err), 0);
    CHECK_EQ_INT(store_notify(s, H("b"), "x", "{}", 11, &id2, err, sizeof err), 0);
    CHECK_EQ_INT(store_notify(s, ann, "b", "{\"n\":2}", 12, &id3, err, sizeof err), 0);
    CHECK(id1 < id2 && id2 < id3);
    int unread = 0, marked = 0;
    struct seen v = {0};
    CHECK_EQ_INT(store_list_notifications(s, ann, 0, 10, &unread, seen_notice, &v, err, sizeof err),
                 0);
    CHECK_EQ_INT(unread, 2);
    CHECK_EQ_INT(v.n, 2);
    char want[80];
    snprintf(want, sizeof want, "%lld:b:{\"n\":2}:0", (long long)id3);
    CHECK_STR(v.what[0], want);
    CHECK_EQ_INT(store_read_notifications(s, ann, id1, &marked, err, sizeof err), 0);
    CHECK_EQ_INT(marked, 1);
    v.n = 0;
    CHECK_EQ_INT(
        store_list_notifications(s, ann, id1, 1, &unread, seen_notice, &v, err, sizeof err), 0);
    CHECK_EQ_INT(unread, 1);
    CHECK(v.n == 1 && !strcmp(v.what[0], want));
    /* Devices and passkeys: newest first. */
    CHECK_EQ_INT(store_add_device(s, H("1"), ann, "laptop", 100, err, sizeof err), 0);
    CHECK_EQ_INT(store_add_device(s, H("2"), ann, "phone", 200, err, sizeof err), 0);
    v.n = 0;
    CHECK_EQ_INT(store_list_devices(s, ann, seen_device, &v, err, sizeof err), 0);
    CHECK(v.n == 2 && !strcmp(v.what[0], "2222222222222222:phone") &&
          !strcmp(v.what[1], "1111111111111111:laptop"));
    char who[65] = "";
    CHECK_EQ_INT(store_device_player(s, H("2"), who, err, sizeof err), 0);
    CHECK_STR(who, ann);
    struct store_passkey pk;
    memset(&pk, 0, sizeof pk);
    strcpy(pk.player_hash, ann);
    memset(pk.public_key, '2', 128);
    for (int i = 0; i < 2; i++) {
        snprintf(pk.id, sizeof pk.id, "cred-%d", i);
        pk.created_ms = 100 + i;
        CHECK_EQ_INT(store_add_passkey(s, &pk, err, sizeof err), 0);
    }
    CHECK_EQ_INT(store_passkey_used(s, "cred-0", 0, 300, err, sizeof err), 0); /* no counter */
    v.n = 0;
    CHECK_EQ_INT(store_list_passkeys(s, ann, seen_passkey, &v, err, sizeof err), 0);
    CHECK(v.n == 2 && !strcmp(v.what[0], "cred-1:0") && !strcmp(v.what[1], "cred-0:0"));
    /* Public clubs: by name, byte by byte, ASCII letters in either case; a language. */
    club(s, t__, 1, "beta Knights", 1, ann);
    club(s, t__, 2, "Alpha knights", 1, ann);
    club(s, t__, 3, "Hidden knights", 0, ann);
    club(s, t__, 5, "\xc3\x84lpha KNIGHTS", 0, ann);
    CHECK_EQ_INT(store_set_club_public(s, "k0000000000000000000000000000005", 1, err, sizeof err),
                 0);
    CHECK_EQ_INT(store_set_club_public(s, "none", 1, err, sizeof err), 1);
    v.n = 0;
    CHECK_EQ_INT(store_find_clubs(s, "kNiGhTs", "", 10, seen_club, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v.n, 3);
    CHECK_STR(v.what[0], "Alpha knights:1:1");
    CHECK_STR(v.what[1], "beta Knights:1:1");
    CHECK_STR(v.what[2], "\xc3\x84lpha KNIGHTS:1:1");
    v.n = 0;
    CHECK_EQ_INT(store_find_clubs(s, "\xc3\xa4", "", 10, seen_club, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v.n, 0); /* no folding beyond ASCII */
    v.n = 0;
    CHECK_EQ_INT(store_find_clubs(s, "", "fi", -1, seen_club, &v, err, sizeof err), 0);
    CHECK(v.n == 2 && !strcmp(v.what[0], "beta Knights:1:1"));
    /* A member barred: removed, and refused when joining again. */
    struct store_member m = {.role = CLUB_MEMBER, .joined_ms = 150};
    snprintf(m.id, sizeof m.id, "m9");
    snprintf(m.token_hash, sizeof m.token_hash, "%s", H("b"));
    const char *k1 = "k0000000000000000000000000000001";
    CHECK_EQ_INT(store_join_club(s, k1, &m, err, sizeof err), 0);
    CHECK_EQ_INT(store_bar_member(s, k1, "c1", CLUB_ADMIN, "x", 160, err, sizeof err), 1);
    CHECK_EQ_INT(store_bar_member(s, k1, "m9", CLUB_ADMIN, "inv9", 160, err, sizeof err), 0);
    CHECK_EQ_INT(store_join_club(s, k1, &m, err, sizeof err), 1);
    struct store_club back;
    CHECK_EQ_INT(store_get_club(s, k1, &back, err, sizeof err), 0);
    CHECK_STR(back.invite, "inv9");
    CHECK_EQ_INT(back.is_public, 1);
    /* An old token merged: its games against the computer, its puzzles where the player
     * has none of the same. */
    struct store_game g;
    for (int i = 0; i < 2; i++) {
        memset(&g, 0, sizeof g);
        snprintf(g.id, sizeof g.id, "%032d", 70 + i);
        snprintf(g.game, sizeof g.game, "chess");
        snprintf(g.token_hash, sizeof g.token_hash, "%s", old);
        g.created_ms = g.updated_ms = 100 + i;
        CHECK_EQ_INT(store_create_game(s, &g, err, sizeof err), 0);
    }
    struct store_puzzle_attempt a = {.game = "chess", .solved = 1, .now_ms = 200};
    a.player = (struct store_puzzle_rating){1520.5, 200, 0.06, 1, 1, 1};
    a.puzzle = (struct store_puzzle_rating){1480.5, 150, 0.06, 1, 1, 0};
    const char *mine[] = {"z1", "z2"}, *olds[] = {"z2", "z3"};
    for (int i = 0; i < 2; i++) {
        snprintf(a.token_hash, sizeof a.token_hash, "%s", old);
        a.puzzle_id = olds[i];
        a.player.attempts = a.player.solved = i + 1; /* the old token's count goes up */
        CHECK_EQ_INT(store_puzzle_serve(s, old, olds[i], 1, 100, err, sizeof err), 0);
        CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    }
    snprintf(a.token_hash, sizeof a.token_hash, "%s", ann);
    a.puzzle_id = mine[0];
    a.player.attempts = a.player.solved = 1;
    CHECK_EQ_INT(store_puzzle_serve(s, ann, mine[1], 1, 100, err, sizeof err), 0);
    CHECK_EQ_INT(store_puzzle_attempt(s, &a, err, sizeof err), 0);
    int games = -1, puzzles = -1;
    CHECK_EQ_INT(store_merge_token(s, ann, ann, &games, &puzzles, err, sizeof err), 0);
    CHECK(games == 0 && puzzles == 0);
    CHECK_MSG(store_merge_token(s, ann, old, &games, &puzzles, err, sizeof err) == 0, "%s", err);
    CHECK_EQ_INT(games, 2);
    CHECK_EQ_INT(puzzles, 0); /* ann had a chess puzzle rating already */
    v.n = 0;
    CHECK_EQ_INT(store_list_games(s, ann, 10, seen_game, &v, err, sizeof err), 0);
    CHECK_EQ_INT(v.n, 2);
    int known = 1;
    CHECK_EQ_INT(store_token_known(s, old, &known, err, sizeof err), 0);
    CHECK_EQ_INT(known, 1); /* its puzzle rating stays */
    int64_t served = 0;
    for (int i = 0; i < 2; i++)
        CHECK_EQ_INT(store_puzzle_served(s, ann, olds[i], &served, err, sizeof err), 0);
    CHECK_EQ_INT(store_puzzle_served(s, old, "z3", &served, err, sizeof err), 1);
    store_close(s);
}
