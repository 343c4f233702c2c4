/* The computer moves' queue (src/server/fair_queue.c): one FIFO per client, served in
 * turn, a client new to the ring first. */
#include <stdlib.h>

#include "../../harness.h"
#include "server/games/fair_queue.h"
#include "server/games/session.h"

TEST(fair_queue_serves_clients_in_turn)
{
    struct fair_queue *q = fair_queue_new();
    CHECK(q != NULL);
    if (!q)
        return;
    struct session *s = calloc(8, sizeof *s);
    /* a queues four, then b one, then c one. */
    for (int i = 0; i < 4; i++)
        CHECK(fair_queue_push(q, "a", &s[i]));
    CHECK(fair_queue_push(q, "b", &s[4]));
    CHECK(fair_queue_push(q, "c", &s[5]));
    CHECK_EQ_INT(fair_queue_count(q, "a"), 4);
    CHECK_EQ_INT(fair_queue_count(q, "b"), 1);
    CHECK_EQ_INT(fair_queue_count(q, "nobody"), 0);
    /* The newest client first (it has had no turn), then in turn, each in its order. */
    struct session *want[] = {&s[5], &s[4], &s[0], &s[1], &s[2], &s[3]};
    for (int i = 0; i < 6; i++)
        CHECK_MSG(fair_queue_pop(q) == want[i], "pop %d", i);
    CHECK(fair_queue_empty(q));
    CHECK(fair_queue_pop(q) == NULL);
    /* A client that had turns goes behind one that arrives meanwhile. */
    CHECK(fair_queue_push(q, "a", &s[0]));
    CHECK(fair_queue_push(q, "a", &s[1]));
    CHECK(fair_queue_pop(q) == &s[0]);
    CHECK(fair_queue_push(q, "b", &s[2]));
    CHECK(fair_queue_pop(q) == &s[2]);
    CHECK(fair_queue_pop(q) == &s[1]);
    CHECK(fair_queue_push(q, NULL, &s[3])); /* no address: its own queue */
    CHECK_EQ_INT(fair_queue_count(q, NULL), 1);
    CHECK(fair_queue_pop(q) == &s[3]);
    fair_queue_free(q);
    free(s);
}
