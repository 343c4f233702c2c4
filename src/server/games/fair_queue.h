/* The computer moves waiting for an engine worker, one queue per client address served
 * in turn (fair_queue.c): a client with twenty moves queued delays another's by at most
 * one move per worker, not twenty.  Under the caller's lock (the workers' jobs_mu). */
#pragma once

#include <stdbool.h>

struct session;
struct fair_queue;

struct fair_queue *fair_queue_new(void);
void fair_queue_free(struct fair_queue *q);
/* Append s (linked through s->job_next) to the queue of `client` (NULL: ""); false
 * when out of memory. */
bool fair_queue_push(struct fair_queue *q, const char *client, struct session *s);
/* The next move: the first of the client whose turn it is, or NULL when empty. */
struct session *fair_queue_pop(struct fair_queue *q);
bool fair_queue_empty(const struct fair_queue *q);
/* Moves queued now by `client`. */
int fair_queue_count(const struct fair_queue *q, const char *client);
