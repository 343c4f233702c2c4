/* The outbox's event written in the change's own transaction (store.h
 * store_attach_event), on both backends (tests/suites/postgres runs it on PostgreSQL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness.h"
#include "../fixture.h"
#include "store/store.h"

static struct store *open_fresh(struct test_ctx *t__)
{
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *s = url ? store_open(url, NULL, err, sizeof err) : NULL;
    CHECK_MSG(s != NULL, "store_open: %s", err);
    return s;
}

struct kept {
    int n;
    int64_t seq[8];
    char text[8][160];
};

static void keep_event(void *ctx, const struct store_event *e)
{
    struct kept *k = ctx;
    if (k->n < 8) {
        k->seq[k->n] = e->seq;
        snprintf(k->text[k->n++], sizeof k->text[0], "%s:%s:%s", e->kind, e->game_id, e->body);
    }
}

static int count_events(struct store *s, struct kept *k)
{
    char err[256];
    memset(k, 0, sizeof *k);
    return store_events_since(s, 0, 8, keep_event, k, err, sizeof err) == 0 ? k->n : -1;
}

TEST(store_event_attached_commits_with_its_change_only)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    struct store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%032d", 7);
    snprintf(g.game, sizeof g.game, "chess");
    snprintf(g.token_hash, sizeof g.token_hash, "%064d", 1);
    g.level = 1;
    g.human_side = 0;
    g.created_ms = g.updated_ms = 1000;
    CHECK_EQ_INT(store_create_game(s, &g, err, sizeof err), 0);
    struct kept k;
    CHECK_EQ_INT(count_events(s, &k), 0); /* an operation without one writes none */

    /* A move stored: its event is in the outbox, numbered, and told once. */
    const char *one[] = {"e2e4"};
    store_attach_event(g.id, "game", "{\"server\":\"a\"}", 1500);
    CHECK_EQ_INT(store_add_moves(s, g.id, 1, 1, one, 0, 0, 1500, err, sizeof err), 0);
    CHECK(store_event_told(g.id));
    CHECK(!store_event_told(g.id)); /* once */
    CHECK_EQ_INT(count_events(s, &k), 1);
    CHECK_STR(k.text[0], "game:"
                         "00000000000000000000000000000007"
                         ":{\"server\":\"a\"}");

    /* A move refused (not the next ply): no change, no event, not told. */
    store_attach_event(g.id, "game", "{}", 1600);
    CHECK(store_add_moves(s, g.id, 1, 1, one, 0, 0, 1600, err, sizeof err) != 0);
    CHECK(!store_event_told(g.id));
    CHECK_EQ_INT(count_events(s, &k), 1);

    /* The attachment goes with the one operation called next, whatever it did: the
     * refused move above took it, and the next change writes none. */
    const char *two[] = {"e7e5"};
    CHECK_EQ_INT(store_add_moves(s, g.id, 2, 1, two, 0, 0, 1700, err, sizeof err), 0);
    CHECK_EQ_INT(count_events(s, &k), 1);

    /* A read between the attachment and nothing: the read takes it, writes nothing. */
    store_attach_event(g.id, "game", "{}", 1750);
    struct store_game row;
    char(*moves)[MOVE_TEXT_MAX] = NULL;
    int n = 0;
    CHECK_EQ_INT(store_load_game(s, g.id, &row, &moves, &n, err, sizeof err), 0);
    free(moves);
    CHECK_EQ_INT(count_events(s, &k), 1);

    /* An end of the game, an event of its own; numbers follow put_event's. */
    store_attach_event(g.id, "game", "{\"end\":1}", 1800);
    CHECK_EQ_INT(store_set_result(s, g.id, 1, 2, 1800, err, sizeof err), 0);
    int64_t seq = 0;
    CHECK_EQ_INT(store_put_event(s, "other", "challenge", "{}", 1900, &seq, err, sizeof err), 0);
    CHECK_EQ_INT(count_events(s, &k), 3);
    CHECK(k.seq[0] == 1 && k.seq[1] == 2 && k.seq[2] == 3 && seq == 3);
    CHECK_STR(k.text[1], "game:"
                         "00000000000000000000000000000007"
                         ":{\"end\":1}");
    store_close(s);
}

/* ---- rate buckets shared by the servers, the outbox trimmed ---- */

static int take(struct store *s, const char *name, const char *key, int per_minute, int64_t now)
{
    char err[256];
    int allowed = -1;
    int rc = store_rate_take(s, name, key, per_minute, now, &allowed, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "rate_take: %s\n", err);
    return rc == 0 ? allowed : -1;
}

TEST(store_rate_buckets_count_across_stores)
{
    char err[256] = "";
    const char *url = fx_store_url();
    struct store *a = url ? store_open(url, NULL, err, sizeof err) : NULL;
    /* A second store on the same database: a second server (on a SQLite file, a second
     * connection; ":memory:" has one, so then the same store). */
    bool memory = url && !strcmp(url, ":memory:");
    struct store *b = url && !memory ? store_open(url, NULL, err, sizeof err) : a;
    CHECK_MSG(a && b, "%s", err);
    if (!a || !b)
        return;
    int64_t t = 1000000;
    /* 3 a minute, bursts of 3: two through a, one through b, the fourth refused on
     * either. */
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t), 1);
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t), 1);
    CHECK_EQ_INT(take(b, "new_games", "10.0.0.1", 3, t), 1);
    CHECK_EQ_INT(take(b, "new_games", "10.0.0.1", 3, t + 1), 0);
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t + 2), 0);
    /* Another key, another limiter: buckets of their own. */
    CHECK_EQ_INT(take(b, "new_games", "10.0.0.2", 3, t), 1);
    CHECK_EQ_INT(take(b, "people_by_addr", "10.0.0.1", 3, t), 1);
    /* One comes back every 20 s (3 a minute); refusals do not use any. */
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t + 19000), 0);
    CHECK_EQ_INT(take(b, "new_games", "10.0.0.1", 3, t + 20100), 1);
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t + 20200), 0);
    /* A long pause refills to the burst, not beyond. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(take(i % 2 ? a : b, "new_games", "10.0.0.1", 3, t + 3600000), 1);
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.1", 3, t + 3600000), 0);
    /* No limit: always allowed, nothing stored. */
    CHECK_EQ_INT(take(a, "new_games", "10.0.0.3", 0, t), 1);
    if (b != a)
        store_close(b);
    store_close(a);
}

TEST(store_trim_events_keeps_the_newest_and_numbers_go_on)
{
    struct store *s = open_fresh(TEST_CTX);
    if (!s)
        return;
    char err[256];
    int64_t seq = 0;
    for (int i = 0; i < 5; i++)
        CHECK_EQ_INT(store_put_event(s, "g", "game", "{}", 1000 + i, &seq, err, sizeof err), 0);
    CHECK_EQ_INT(take(s, "new_games", "old", 3, 500), 1);
    CHECK_EQ_INT(take(s, "new_games", "new", 3, 5000), 1);
    int deleted = -1;
    /* Before 1003: the first three go. */
    CHECK_EQ_INT(store_trim_events(s, 1003, &deleted, err, sizeof err), 0);
    CHECK_EQ_INT(deleted, 3);
    struct kept k;
    CHECK_EQ_INT(count_events(s, &k), 2);
    CHECK(k.seq[0] == 4 && k.seq[1] == 5);
    /* All of them old: the newest stays, so the next is numbered after it. */
    CHECK_EQ_INT(store_trim_events(s, 99999, &deleted, err, sizeof err), 0);
    CHECK_EQ_INT(deleted, 1);
    CHECK_EQ_INT(store_put_event(s, "g", "game", "{}", 100000, &seq, err, sizeof err), 0);
    CHECK_EQ_INT(seq, 6);
    /* The old bucket went with the trim (a fresh one is full), the new one too (5000 <
     * 99999): three allowed again for both. */
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(take(s, "new_games", "old", 3, 5001), 1);
    CHECK_EQ_INT(take(s, "new_games", "old", 3, 5001), 0);
    store_close(s);
}
