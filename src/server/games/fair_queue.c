/* Round robin over per-client FIFO queues (fair_queue.h).  The clients with moves
 * queued form a ring, a client new to it at the front (it has had no turn); each pop
 * takes one move from the ring's first client and sends that client to the back.  A client's entry
 * goes when its queue empties, so the table holds only clients with moves waiting. */
#include "server/games/fair_queue.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/games/session.h"

#define BUCKETS 256

struct fq_client {
    char key[64];
    struct session *head, *tail; /* linked through job_next */
    int queued;
    struct fq_client *hash_next, *ring_next;
};

struct fair_queue {
    struct fq_client *buckets[BUCKETS];
    struct fq_client *ring_head, *ring_tail; /* clients with moves, in turn */
};

static unsigned bucket_of(const char *key)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *key; key++)
        h = (h ^ (uint8_t)*key) * 16777619u;
    return h % BUCKETS;
}

static struct fq_client *find(const struct fair_queue *q, const char *key)
{
    for (struct fq_client *c = q->buckets[bucket_of(key)]; c; c = c->hash_next)
        if (!strcmp(c->key, key))
            return c;
    return NULL;
}

struct fair_queue *fair_queue_new(void)
{
    return calloc(1, sizeof(struct fair_queue));
}

void fair_queue_free(struct fair_queue *q)
{
    if (!q)
        return;
    for (int i = 0; i < BUCKETS; i++)
        for (struct fq_client *c = q->buckets[i], *next; c; c = next) {
            next = c->hash_next;
            free(c);
        }
    free(q);
}

bool fair_queue_push(struct fair_queue *q, const char *client, struct session *s)
{
    const char *key = client ? client : "";
    struct fq_client *c = find(q, key);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return false;
        snprintf(c->key, sizeof c->key, "%s", key);
        unsigned b = bucket_of(c->key);
        c->hash_next = q->buckets[b];
        q->buckets[b] = c;
        /* A client new to the ring goes first: it has had no turn yet, the others have
         * (with one worker free, its move is next rather than behind one of each). */
        c->ring_next = q->ring_head;
        q->ring_head = c;
        if (!q->ring_tail)
            q->ring_tail = c;
    }
    s->job_next = NULL;
    if (c->tail)
        c->tail->job_next = s;
    else
        c->head = s;
    c->tail = s;
    c->queued++;
    return true;
}

static void forget(struct fair_queue *q, struct fq_client *c)
{
    struct fq_client **p = &q->buckets[bucket_of(c->key)];
    while (*p != c)
        p = &(*p)->hash_next;
    *p = c->hash_next;
    free(c);
}

struct session *fair_queue_pop(struct fair_queue *q)
{
    struct fq_client *c = q->ring_head;
    if (!c)
        return NULL;
    struct session *s = c->head;
    c->head = s->job_next;
    if (!c->head)
        c->tail = NULL;
    c->queued--;
    s->job_next = NULL;
    q->ring_head = c->ring_next;
    if (!q->ring_head)
        q->ring_tail = NULL;
    c->ring_next = NULL;
    if (c->queued > 0) { /* to the back of the ring: the others first */
        if (q->ring_tail)
            q->ring_tail->ring_next = c;
        else
            q->ring_head = c;
        q->ring_tail = c;
    } else {
        forget(q, c);
    }
    return s;
}

bool fair_queue_empty(const struct fair_queue *q)
{
    return q->ring_head == NULL;
}

int fair_queue_count(const struct fair_queue *q, const char *client)
{
    const struct fq_client *c = find(q, client ? client : "");
    return c ? c->queued : 0;
}
