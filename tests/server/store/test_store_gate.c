/* The database gate forwards every operation of the store it wraps: an operation added
 * to struct store_ops and to the SQLite backend but forgotten in the gate would be a
 * NULL call in the server (the people's clock thread met one). */
#include "../../harness.h"
#include "store/store_gate.h"

#include <string.h>

typedef void (*any_fn)(void);

TEST(store_gate_forwards_every_operation)
{
    char err[256];
    struct store *inner = store_sqlite_open(":memory:", STORE_SYNC_NORMAL, err, sizeof err);
    CHECK_MSG(inner != NULL, "%s", err);
    if (!inner)
        return;
    const struct store_ops *backend = inner->ops;
    struct store *gated = store_gate_wrap(inner, 4);
    CHECK(gated != NULL);
    if (!gated)
        return;
    /* struct store_ops is function pointers only: compare them one by one. */
    enum { N = sizeof(struct store_ops) / sizeof(any_fn) };
    any_fn a[N], b[N];
    memcpy(a, backend, sizeof a);
    memcpy(b, gated->ops, sizeof b);
    for (int i = 0; i < N; i++)
        CHECK_MSG(!a[i] || b[i], "operation %d of struct store_ops is not forwarded by the gate",
                  i);
    gated->ops->close(gated);
}
