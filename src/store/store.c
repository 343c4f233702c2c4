/* The store's calls (store.h), made from the one list of operations, and the event a
 * change commits with.  store_open, which knows the backends built in, is in
 * store_open.c: the backends build on this file, this file on none of them. */
#include "store/store.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "store/store_gate.h"

/* The event attached to this thread's next operation (store.h), and the game whose
 * attached event the last one committed. */
static _Thread_local struct {
    bool set;
    struct store_attached_event e;
} attached;
static _Thread_local char told[STORE_ID_LEN + 1];

/* The running operation found the database away (store_note_away). */
static _Thread_local bool away;

void store_note_away(void)
{
    away = true;
}

/* An operation that failed on a database away: STORE_BUSY, saying so first. */
static int away_answer(char *err, size_t err_size)
{
    char why[ERROR_TEXT_MAX];
    snprintf(why, sizeof why, "%s", err ? err : "");
    fail(err, err_size, "the database is unavailable: try again in a moment (%s)", why);
    return STORE_BUSY;
}

void store_test_lose_answers(struct store *s, const char *op, int count)
{
    s->lose_answer_op = op;
    atomic_store(&s->lose_answers, count);
}

/* A test's lost answer (store_test_lose_answers): the call counts as the database away. */
static bool answer_lost(struct store *s, const char *op, char *err, size_t err_size)
{
    if (atomic_load(&s->lose_answers) <= 0 || !s->lose_answer_op || strcmp(s->lose_answer_op, op))
        return false;
    if (atomic_fetch_sub(&s->lose_answers, 1) <= 0)
        return false;
    fail(err, err_size, "the connection broke at COMMIT (a test's lost answer)");
    away = true;
    return true;
}

/* Every call passes the gate (store_gate.h) on its way to the backend. */
#define STORE_OP(name, params, args)                                                               \
    int store_##name(struct store *s, STORE_LIST params, char *err, size_t err_size)               \
    {                                                                                              \
        if (!store_gate_enter(s->gate, err, err_size)) {                                           \
            attached.set = false;                                                                  \
            return STORE_BUSY;                                                                     \
        }                                                                                          \
        away = false;                                                                              \
        int rc = s->ops->name(s, STORE_LIST args, err, err_size);                                  \
        if (rc == 0 && answer_lost(s, #name, err, err_size))                                       \
            rc = -1;                                                                               \
        store_gate_leave(s->gate);                                                                 \
        attached.set = false;                                                                      \
        return rc == -1 && away ? away_answer(err, err_size) : rc;                                 \
    }
#include "store/store_ops.def"
#undef STORE_OP

void store_attach_event(const char *game_id, const char *kind, const char *body, int64_t now_ms)
{
    snprintf(attached.e.game_id, sizeof attached.e.game_id, "%s", game_id);
    snprintf(attached.e.kind, sizeof attached.e.kind, "%s", kind);
    snprintf(attached.e.body, sizeof attached.e.body, "%s", body);
    attached.e.now_ms = now_ms;
    attached.set = true;
    told[0] = 0;
}

bool store_event_told(const char *game_id)
{
    bool yes = told[0] && !strcmp(told, game_id);
    told[0] = 0;
    return yes;
}

const struct store_attached_event *store_event_take(void)
{
    if (!attached.set)
        return NULL;
    attached.set = false;
    return &attached.e;
}

void store_event_committed(const struct store_attached_event *e, int64_t seq)
{
    if (seq > 0)
        snprintf(told, sizeof told, "%s", e->game_id);
}

void store_close(struct store *s)
{
    if (!s)
        return;
    struct store_gate *g = s->gate;
    s->ops->close(s);
    store_gate_free(g);
}
